"""What one seat knows of a game, rebuilt from its view alone, and deals of what it does not.

A search for a seat (the strong computer player) must not see the other hands or the
bazaar. `Knowledge` is made of nothing but that seat's `view` (PROTOCOL §2): the layout
out of `view.chain` (`Layout.load_view`), the edition of the rules the game plays by
(`view.rules`), the standings and the variant's public state out of the rest
(`Game.load_view`), the seat's own hand, and how many tiles each other hand and the
bazaar hold. It is a real `Game` of the variant in that position, with every hidden tile
left out. `deal()` gives a copy with the tiles the seat cannot see
dealt at random to the other hands and the bazaar, each hand getting as many as it holds
(determinisation): the search plays on such copies with the engine's own
`legal_moves()` and `play()`.

The seat's own legal moves in the rebuilt game are those of its view (the constructor
checks it), so a search never plays a move the server would refuse.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.engine.game import Game
from app.engine.variants import variant_class


class Knowledge:
    """One seat's knowledge of the position its view shows (see the module docstring)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        seat = view.get("you")
        if seat is None:
            raise ValueError("only a seated player's view says what a seat knows")
        if view["status"] != "playing" or view["turn"] is None:
            raise ValueError("the view shows no turn to search")
        seats = Game.seats_of(view)
        players = len(seats)
        game = variant_class(view["variant"])(players, dict(view["options"]), None)
        game.rules = view["rules"]  # the edition the live game plays by (its blocks, fishes)
        game.round = view["round"]
        game.turn = view["turn"]
        # The rounds before are over; the search plays only on in this one.
        game.rounds = [{"moves": []} for _ in range(game.round)]
        game.rounds.append({"hands": [], "bazaar": [], "moves": []})
        game.board.load_view(view["chain"])
        game.load_view(view)
        ts = game.ts
        mine = ts.mask(ts.ids[t] for t in view["hand"])
        game.hands[seat] = mine
        legal = [dict(m) for m in view["legal"]]
        if game.board.empty and seat == game.turn:
            leads = {m["tile"] for m in legal}
            if len(leads) == 1 and mine.bit_count() > 1:  # the rules name the lead
                game.required_lead = ts.ids[leads.pop()]
        self.game = game
        self.seat: int = seat
        self.counts = [entry["tiles"] for entry in seats]
        down = ts.mask(game.board.tiles())
        self.unseen = ts.members(ts.all & ~mine & ~down)
        hidden = sum(self.counts) - self.counts[seat] + view["bazaar"]
        if hidden != len(self.unseen) or mine & down:
            raise ValueError("the view's tiles do not add up to the set")
        if seat == game.turn and [m.to_dict() for m in game.legal_moves()] != legal:
            raise ValueError("the rebuilt position does not give the view's legal moves")

    def deal(self, rng: random.Random) -> Game:
        """The position with the unseen tiles dealt at random (each other hand as many as it
        holds, the rest to the bazaar in a random order)."""
        game = self.game.copy()
        unseen = self.unseen[:]
        rng.shuffle(unseen)
        mask, taken = game.ts.mask, 0
        for s, count in enumerate(self.counts):
            if s != self.seat:
                game.hands[s] = mask(unseen[taken : taken + count])
                taken += count
        game.bazaar = unseen[taken:]
        return game
