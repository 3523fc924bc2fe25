"""Rounds dealt at random for benchmarks and search: fresh deals of a variant (`Dealer`),
and deals of what one seat cannot see (`Sampler`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.engine.game import Game
from app.engine.playout.round import SIDE_OF_END, FastMove, Round
from app.engine.playout.rules import rules_of
from app.engine.playout.tables import special_points, tables
from app.engine.variants import VARIANTS, validate_options


class Dealer:
    """Deals fresh rounds of one game's variant at random, for benchmarks and search (live
    tables always deal from their committed seed). The variant's own hooks say how many
    tiles a hand gets, when a deal is redealt and who leads with what."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.t = tables(game.max_pip)
        self.rules = rules_of(game)
        size = game.hand_size()
        self.cuts = [(s * size, (s + 1) * size) for s in range(game.players)]
        self.rest = game.players * size
        self.special = special_points(game)
        self.order = list(self.t.bits)  # the tiles as their bits: a hand is a sum of a slice
        # Fisher-Yates' (index, range) pairs from the last index down. It may stop short of
        # the front: the first hand's tiles are a set, so their order there does not matter.
        self.shuffle_steps = tuple((i, i + 1) for i in range(self.t.count - 1, size - 1, -1))

    def deal(self, rng: random.Random) -> Round:
        game, rnd, order = self.game, rng.random, self.order
        while True:
            for i, m in self.shuffle_steps:  # Fisher-Yates (on the last deal's order: uniform)
                j = int(rnd() * m)
                order[i], order[j] = order[j], order[i]
            hands = [sum(order[a:b]) for a, b in self.cuts]
            if not game.needs_redeal(hands):
                break
        game.hands = hands
        seat, lead = game.lead_for_round()
        id_of_bit = self.t.id_of_bit
        bazaar = [id_of_bit[b] for b in order[: self.rest - 1 : -1]]
        r = Round(self.t, self.rules, hands, bazaar, seat, self.special)
        r.required_lead = lead
        return r


def random_round(dealer: Dealer, rng: random.Random, greedy: float = 0.0) -> Round:
    """Deal a round at random and play it to its end with random legal moves."""
    r = dealer.deal(rng)
    r.rollout(rng.random, greedy)
    return r


def scratch_game(variant: str, players: int, options: Mapping[str, Any] | None = None) -> Game:
    """An undealt game of `variant`: the variant's rules (deal size, redeal, lead, points)
    for `Dealer` and `Round`, without a seed or a deal of its own."""
    game = VARIANTS[variant](players, validate_options(variant, players, dict(options or {})), None)
    game.round = 0
    return game


# ---------------------------------------------------------------------- search support
class Sampler:
    """Deals what one seat cannot see, at random, as often as search asks (determinisation).

    It is built from what that seat's view shows and nothing else: its own hand, the tiles
    on the table and the open ends, how many tiles each other hand holds and how many are
    in the bazaar. Each `sample()` deals the unseen tiles afresh, so averaging over samples
    averages over what the seat does not know.
    """

    def __init__(
        self,
        variant: str,
        options: Mapping[str, Any],
        seat: int,
        hand: Sequence[str],
        on_table: Sequence[str],
        ends: tuple[int, int] | None,
        tiles_held: Sequence[int],
        bazaar: int,
        required_lead: str | None = None,
    ) -> None:
        players = len(tiles_held)
        self.game = scratch_game(variant, players, options)
        self.t = t = tables(self.game.max_pip)
        # The variant counts a hand differently from its pips only when it holds 0-0 (id 0):
        # let the scratch game's own round_points count the others by lookup.
        self.special = special = special_points(self.game)
        setattr(self.game, "hand_points", lambda h: special(h) if h & 1 else t.pips(h))  # noqa: B010
        ts = t.ts
        self.rules = rules_of(self.game)
        self.seat = seat
        self.mine = ts.mask(ts.id_of(x) for x in hand)
        line = [ts.id_of(x) for x in on_table]
        self.unseen = ts.members(ts.all & ~self.mine & ~ts.mask(line))
        self.counts = list(tiles_held)
        if sum(self.counts) - self.counts[seat] + bazaar != len(self.unseen):
            raise ValueError("the tile counts do not add up to the set")
        self.ends = ends
        self.down = ts.mask(line)
        self.required_lead = None if required_lead is None else ts.id_of(required_lead)

    def sample(self, rng: random.Random) -> Round:
        unseen, bits = self.unseen, self.t.bits
        rng.shuffle(unseen)
        hands = []
        taken = 0
        for s, count in enumerate(self.counts):
            if s == self.seat:
                hands.append(self.mine)
            else:
                hands.append(sum(map(bits.__getitem__, unseen[taken : taken + count])))
                taken += count
        r = Round(self.t, self.rules, hands, unseen[taken:], self.seat, self.special)
        if self.ends is not None:
            r.left, r.right = self.ends
        r.down = self.down
        r.required_lead = self.required_lead
        return r

    def move(self, tile: str, end: str | None) -> FastMove:
        return self.t.ts.id_of(tile), SIDE_OF_END[end]
