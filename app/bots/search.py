"""The strong player's search: determinised playouts on the engine's own game.

`Search` is built from one seat's view and nothing else (`Knowledge`, app/engine). Each
`sample()` deals the tiles the seat cannot see at random (one determinisation), plays each
of the seat's legal moves on a copy of that deal and then the rest of the round with a
playout policy, and adds up what each end is worth to the seat by the variant's own
scoring (`Outlook`). `best()` is the move with the highest total.

The playouts run on `Game` itself (`copy()`, `legal_moves()`, `play()`), which plays every
variant; where the bit-mask core plays the variant they run on a `Round` taken from the
same dealt game, and the game settles the round's end (`Round.finish`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.engine import Game, Move
from app.engine.knowledge import Knowledge
from app.engine.playout import SIDE_OF_END, FastMove, Round, supports


class Outlook:
    """What the end of a simulated round is worth to one seat, by the variant's own scoring.

    The worth is the seat's standing relative to its opponents' after the game has credited
    the round (remembered points count half: they are owed, not yet paid; an account not
    yet opened counts nothing), signed by which way the game is won, plus a large term for
    ending the game as a winner or a loser.
    """

    GAME_END = 60.0

    def __init__(self, game: Game, seat: int, others: float = 1.0) -> None:
        self.seat = seat
        self.others_weight = others
        me = game.standings_view(seat).get("team")
        self.opponents = [
            s for s in range(game.players)
            if s != seat and (me is None or game.standings_view(s).get("team") != me)
        ]
        self.sign = -1.0 if game.wins_by() == "lower" else 1.0

    def worth(self, game: Game) -> float:
        """The seat's worth in `game`, whose round is over."""

        def value(seat: int) -> float:
            s = game.standings_view(seat)
            return (s["account"] if s["opened"] else 0) + 0.5 * s["remembered"]

        mine = value(self.seat)
        others = sum(value(s) for s in self.opponents) / max(1, len(self.opponents))
        worth = self.sign * (mine - self.others_weight * others)
        result = game.result
        if result is not None:
            if self.seat in result["winners"]:
                worth += self.GAME_END
            elif self.seat in result["losers"]:
                worth -= self.GAME_END
        return worth


def weight(move: Move) -> int:
    """The pips a move sheds (every tile it places)."""
    return move.tile.pips + sum(p.tile.pips for p in move.also)


def play_out(game: Game, rnd: Any, greedy: float, depth: int | None = None) -> None:
    """Play `game`'s round to its end: each move uniform over the legal ones, or with
    probability `greedy` the one that sheds the most pips. With a `depth`, after that many
    moves a round still in play is ended as a block (`Game.end_as_block`): the hands left
    are scored as they are."""
    current = game.round
    while game.status == "playing" and game.turn is not None and game.round == current:
        if depth is not None:
            if depth <= 0:
                game.end_as_block()
                return
            depth -= 1
        moves = list(game.legal_moves())
        if greedy and rnd() < greedy:
            move = max(moves, key=weight)
        else:
            move = moves[int(rnd() * len(moves))]
        game.play(game.turn, move)


class Search:
    """Determinised Monte Carlo search for the seat whose view it is given."""

    def __init__(
        self,
        view: Mapping[str, Any],
        greedy: float = 0.7,
        others: float = 1.0,
        depth: int | None = None,
    ) -> None:
        self.knowledge = Knowledge(view)
        game = self.knowledge.game
        self.seat = self.knowledge.seat
        if game.turn != self.seat:
            raise ValueError("it is not this seat's turn")
        self.moves = list(game.legal_moves())  # in the order of the view's `legal`
        self.greedy = greedy
        self.depth = depth
        self.outlook = Outlook(game, self.seat, others)
        self.fast: list[FastMove] | None = None
        if supports(type(game)) and depth is None:
            ids = game.ts.ids
            self.fast = [(ids[m.tile], SIDE_OF_END[m.end]) for m in self.moves]
        self.totals = [0.0] * len(self.moves)

    def sample(self, rng: random.Random) -> None:
        """One deal of the unseen tiles, every candidate move played out on it once."""
        dealt = self.knowledge.deal(rng)
        rnd = rng.random
        totals, worth = self.totals, self.outlook.worth
        if self.fast is not None:
            base = Round.from_game(dealt)
            for i, fast in enumerate(self.fast):
                r = base.copy()
                r.apply(*fast)
                r.rollout(rnd, self.greedy)
                game = dealt.copy()
                r.finish(game)
                totals[i] += worth(game)
            return
        for i, move in enumerate(self.moves):
            game = dealt.copy()
            game.play(self.seat, move)
            play_out(game, rnd, self.greedy, self.depth)
            totals[i] += worth(game)

    def best(self) -> int:
        """The index (in the view's `legal`) of the move with the best total so far."""
        return max(range(len(self.totals)), key=self.totals.__getitem__)
