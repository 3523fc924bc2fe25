"""The simulation core: one round of a line game on bit masks, an accelerator for search.

`Game` is the authority for everything a player sees: it validates, names tiles, writes
events and records, and searches play on it (`Game.copy()`, `legal_moves()`, `play()`).
For the variants whose class names its rules in `playout_core` (the draw game on a line:
Goat, Classic) this core plays the same rounds faster. A `Round` holds only what decides
the play: each hand as a bit mask of tile ids, the bazaar (the next draw last), the two
open ends and the tiles on the table (one more mask: Goat's fish is one AND and a bit
count). `copy()` is two small lists; `apply()` places a tile and then draws and knocks
exactly as `Game.play` does; `rollout()` plays the round to its end in one tight loop;
`finish()` hands the round's end back to the game, which settles it by its own rules.
The same games played through both paths, move by move, give the same positions and
the same legal moves (tests/engine/test_playout.py).

Moves are `(tile id, side)` pairs: side 0 is the left end, 1 the right, -1 a lead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from app.engine.game import LEFT, RIGHT, Game
from app.engine.tiles import TileSet, tile_set
from app.engine.variants import VARIANTS, validate_options

LEAD, LEFT_SIDE, RIGHT_SIDE = -1, 0, 1
SIDE_OF_END = {None: LEAD, LEFT: LEFT_SIDE, RIGHT: RIGHT_SIDE}
FastMove = tuple[int, int]
CHUNK = 14
CHUNK_MASK = (1 << CHUNK) - 1


@dataclass(frozen=True)
class LineRules:
    """What a variant's round does differently, as far as the play of the tiles goes."""

    # Goat (RULES 1.4): both ends show v and all non-doubles with v are down: a fish at once.
    closed_number_fish: bool


# The rules a variant class may name in its `playout_core` (app/engine/game.py).
CORE_RULES: dict[str, LineRules] = {
    "draw": LineRules(closed_number_fish=False),
    "goat_fish": LineRules(closed_number_fish=True),
}


def core_rules(variant: str | type[Game]) -> LineRules | None:
    """The core's rules for a variant (its class or its name), if the class itself names
    them; a subclass that does not say so again changes the rules and is not covered."""
    cls = VARIANTS.get(variant) if isinstance(variant, str) else variant
    name = None if cls is None else vars(cls).get("playout_core")
    return None if name is None else CORE_RULES[name]


def supports(variant: str | type[Game]) -> bool:
    """Whether the core plays this variant's rounds (the others are searched on `Game`)."""
    return core_rules(variant) is not None


def _rules(game: Game) -> LineRules:
    rules = core_rules(type(game))
    if rules is None:
        raise ValueError(f"the simulation core does not play {game.variant}")
    return rules


class _Tables:
    """Per-set lookups in the shapes the hot loops want (plain tuples indexed by id)."""

    def __init__(self, ts: TileSet) -> None:
        self.ts = ts
        self.low, self.high, self.suits = ts.low, ts.high, ts.suits
        self.max_pip = ts.max_pip
        self.pips_of = ts.pips
        self.bits = tuple(1 << i for i in range(len(ts.tiles)))
        self.id_of_bit = {bit: i for i, bit in enumerate(self.bits)}
        self.pips_of_bit = {bit: ts.pips[i] for i, bit in enumerate(self.bits)}
        self.plain = tuple(s & ~ts.doubles for s in ts.suits)  # non-doubles per number
        self.count = len(ts.tiles)
        # Pips of a hand by 14-bit chunks of its mask: two lookups for a double-six hand.
        self.pip_tables = tuple(
            tuple(
                sum(ts.pips[base + b] for b in range(CHUNK) if m >> b & 1 and base + b < self.count)
                for m in range(1 << CHUNK)
            )
            for base in range(0, self.count, CHUNK)
        )

    def pips(self, mask: int) -> int:
        total = 0
        for table in self.pip_tables:
            total += table[mask & CHUNK_MASK]
            mask >>= CHUNK
        return total


@cache
def tables(max_pip: int) -> _Tables:
    return _Tables(tile_set(max_pip))


# The seat after and the seat before each seat, by the number of players.
_AFTER = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 9)}
_BEFORE = {n: tuple((s - 1) % n for s in range(n)) for n in range(1, 9)}


def special_points(game: Game) -> Callable[[int], int]:
    """`game.hand_points`, memoised. A variant counts a hand differently from its pips only
    when it holds 0-0 (id 0): the core counts every other hand by table lookups and asks
    the variant (through this) about those."""
    return lru_cache(maxsize=1 << 14)(game.hand_points)


def _nth_bit(mask: int, n: int) -> int:
    """The id of the n-th (0-based, lowest first) set bit of `mask`."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class Round:
    """One round of a line game in play, on bit masks (see the module's docstring)."""

    __slots__ = (
        "bazaar",
        "by",
        "down",
        "fish_rule",
        "hand_points",
        "hands",
        "kind",
        "last_placer",
        "left",
        "players",
        "required_lead",
        "right",
        "t",
        "turn",
    )

    def __init__(
        self,
        t: _Tables,
        rules: LineRules,
        hands: list[int],
        bazaar: list[int],
        turn: int,
        hand_points: Callable[[int], int],
    ) -> None:
        self.t = t
        self.fish_rule = rules.closed_number_fish
        self.hand_points = hand_points
        self.players = len(hands)
        self.hands = hands
        self.bazaar = bazaar  # the next draw is the LAST element
        self.left: int = -1  # -1: nothing on the table yet
        self.right: int = -1
        self.down = 0  # the tiles on the table, as a mask
        self.turn = turn
        self.required_lead: int | None = None
        self.last_placer = -1
        self.kind: str | None = None  # "out" | "fish" once the round is over
        self.by = -1

    # ------------------------------------------------------------------ building
    @classmethod
    def from_game(cls, game: Game) -> Round:
        """The round `game` is playing, as it stands (the game must be on a turn)."""
        if game.turn is None or game.status != "playing":
            raise ValueError("the game is not waiting for a placement")
        r = cls(
            tables(game.max_pip),
            _rules(game),
            list(game.hands),
            game.bazaar[::-1],
            game.turn,
            special_points(game),
        )
        board = game.board
        if board.open:
            r.left, r.right = board.open[LEFT], board.open[RIGHT]
            r.down = game.ts.mask(board.tiles())
        r.required_lead = game.required_lead
        r.last_placer = -1 if game.last_placer is None else game.last_placer
        return r

    def copy(self) -> Round:
        r = Round.__new__(Round)
        r.t, r.fish_rule, r.hand_points, r.players = (
            self.t, self.fish_rule, self.hand_points, self.players
        )
        r.hands = self.hands[:]
        r.bazaar = self.bazaar[:]
        r.left, r.right, r.turn, r.down = self.left, self.right, self.turn, self.down
        r.required_lead = self.required_lead
        r.last_placer, r.kind, r.by = self.last_placer, self.kind, self.by
        return r

    # ------------------------------------------------------------------ play
    def legal(self) -> list[FastMove]:
        """Every placement of the player on turn, (tile id, side); both sides when both fit."""
        if self.kind is not None:
            return []
        hand = self.hands[self.turn]
        if self.left < 0:
            if self.required_lead is not None:
                return [(self.required_lead, LEAD)] if hand >> self.required_lead & 1 else []
            return [(i, LEAD) for i in self.t.ts.members(hand)]
        suits, members = self.t.suits, self.t.ts.members
        return [(i, LEFT_SIDE) for i in members(hand & suits[self.left])] + [
            (i, RIGHT_SIDE) for i in members(hand & suits[self.right])
        ]

    def closed(self, number: int) -> bool:
        """Goat's fish (RULES 1.4): every non-double with `number` is on the table."""
        return (self.down & self.t.plain[number]).bit_count() == self.t.max_pip

    def apply(self, tile: int, side: int) -> None:
        """Place `tile` (which must be legal) for the player on turn; then the forced draws
        and knocks up to the next placement, or the end of the round."""
        t = self.t
        seat = self.turn
        lo, hi = t.low[tile], t.high[tile]
        self.hands[seat] ^= 1 << tile
        self.down |= 1 << tile
        if side == LEAD:
            self.left, self.right = lo, hi
            self.required_lead = None
        elif side == LEFT_SIDE:
            self.left = hi if lo == self.left else lo
        else:
            self.right = hi if lo == self.right else lo
        self.last_placer = seat
        if not self.hands[seat]:
            self.kind, self.by = "out", seat
            return
        if self.fish_rule and self.left == self.right and self.closed(self.left):
            self.kind, self.by = "fish", seat
            return
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        suits, hands, bazaar, players = self.t.suits, self.hands, self.bazaar, self.players
        fits = suits[self.left] | suits[self.right]
        knocks = 0
        while True:
            seat = (seat + 1) % players
            if hands[seat] & fits:
                self.turn = seat
                return
            while bazaar:
                bit = 1 << bazaar.pop()
                hands[seat] |= bit
                if bit & fits:
                    self.turn = seat
                    return
            knocks += 1
            if knocks == players:
                self.kind, self.by = "fish", self.last_placer
                return

    def rollout(self, rnd: Callable[[], float], greedy: float = 0.0) -> None:
        """Play the round to its end: each placement is uniform over the legal ones, or,
        with probability `greedy`, the heaviest playable tile (the "shed the big ones"
        policy, which makes search playouts far more like real play than pure chance).

        `rnd` is a `random.Random().random`; a round not yet led is led at random (or with
        the tile the rules require). This is `apply` and `_advance` unrolled into one loop
        of local variables: it is where search and the benchmarks spend their time."""
        if self.kind is not None:
            return
        t = self.t
        pips, suits, plain, max_pip = t.pips_of, t.suits, t.plain, t.max_pip
        bits, pips_of_bit = t.bits, t.pips_of_bit
        hands, bazaar, players = self.hands, self.bazaar, self.players
        after, before = _AFTER[players], _BEFORE[players]
        fish_rule = self.fish_rule
        left, right, seat, down = self.left, self.right, self.turn, self.down
        last = self.last_placer
        lead_ended = False
        if left < 0:  # the lead: the required tile, or any tile of the hand
            hand = hands[seat]
            tile = self.required_lead
            if tile is None:
                if greedy and rnd() < greedy:
                    tile = max(t.ts.members(hand), key=pips.__getitem__)
                else:
                    tile = _nth_bit(hand, int(rnd() * hand.bit_count()))
            self.required_lead = None
            left, right = t.low[tile], t.high[tile]
            hands[seat] = hand ^ bits[tile]
            down |= bits[tile]
            last = seat
            if not hands[seat]:
                self.kind, self.by = "out", seat
                lead_ended = True
        else:
            seat = before[seat]  # the loop starts by passing the turn on: to the seat on turn
        while not lead_ended:  # the loop leaves by `break` once the round is over
            # the forced draws and knocks up to the next placement (as in _advance)
            fits = suits[left] | suits[right]
            seat = after[seat]
            hand = hands[seat]
            if not hand & fits:
                last = before[seat]  # only a fish needs to know who placed last
                knocks = 0
                while True:
                    drew = False
                    while bazaar:
                        bit = bits[bazaar.pop()]
                        hand |= bit
                        if bit & fits:
                            drew = True
                            break
                    hands[seat] = hand
                    if drew:
                        break
                    knocks += 1
                    if knocks == players:
                        break
                    seat = after[seat]
                    hand = hands[seat]
                    if hand & fits:
                        break
                if knocks == players:
                    self.kind, self.by = "fish", last
                    break
            # the placement
            fl = hand & suits[left]
            fr = hand & suits[right]
            if greedy and rnd() < greedy:
                both = fl | fr
                best = bit = 0
                while both:
                    low_bit = both & -both
                    if pips_of_bit[low_bit] > best or not bit:
                        best, bit = pips_of_bit[low_bit], low_bit
                    both ^= low_bit
                if fl & bit:
                    left = best - left  # its other half: its pips less the end's number
                else:
                    right = best - right
            else:
                nl = fl.bit_count()
                n = int(rnd() * (nl + fr.bit_count()))
                if n < nl:
                    while n:
                        fl &= fl - 1
                        n -= 1
                    bit = fl & -fl
                    left = pips_of_bit[bit] - left
                else:
                    n -= nl
                    while n:
                        fr &= fr - 1
                        n -= 1
                    bit = fr & -fr
                    right = pips_of_bit[bit] - right
            hand ^= bit
            hands[seat] = hand
            down |= bit
            if not hand:
                self.kind, self.by, last = "out", seat, seat
                break
            if left == right and fish_rule and (down & plain[left]).bit_count() == max_pip:
                self.kind, self.by, last = "fish", seat, seat
                break
        self.left, self.right, self.turn, self.down, self.last_placer = (
            left, right, seat, down, last
        )

    # ------------------------------------------------------------------ the end
    def finish(self, game: Game) -> None:
        """End `game`'s round as this one ended (this round must be over and have been
        taken from `game`'s position): the hands and bazaar as they are now, then the
        round's settlement and any game end by the game's own rules (`Game.score_round`)."""
        assert self.kind is not None
        game.hands = list(self.hands)
        game.bazaar = self.bazaar[::-1]
        game.last_placer = self.by
        game.score_round(self.kind, self.by)

    def points(self) -> list[int]:
        """Each hand's points by the variant's rule (0-0's special values included)."""
        special = self.hand_points
        # Only a hand holding 0-0 (id 0) can count differently from its pips.
        if len(self.t.pip_tables) == 2:  # the double-six set: two lookups a hand
            low, high = self.t.pip_tables
            return [special(h) if h & 1 else low[h & CHUNK_MASK] + high[h >> CHUNK]
                    for h in self.hands]
        return [special(h) if h & 1 else self.t.pips(h) for h in self.hands]


# ---------------------------------------------------------------------- whole rounds
class Dealer:
    """Deals fresh rounds of one game's variant at random, for benchmarks and search (live
    tables always deal from their committed seed). The variant's own hooks say how many
    tiles a hand gets, when a deal is redealt and who leads with what."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.t = tables(game.max_pip)
        self.rules = _rules(game)
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
        self.rules = _rules(self.game)
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
