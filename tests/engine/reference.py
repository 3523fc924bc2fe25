"""An independent reference model of the rules, written from RULES.md and PROTOCOL.md only.

The engine's tests compare app/engine against this model move by move, so a mistake must be
made twice, in two different ways, to go unnoticed. Deliberately naive and slow: plain
tuples, lists and loops, no code shared with app/engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor

Tile = tuple[int, int]

DOUBLE_SIX: list[Tile] = [(a, b) for a in range(7) for b in range(a, 7)]
# RULES §1's opening: these keep Goat's redeal (1.1) and fish test (1.4) (Donkey too, on its
# cross, which this model does not lay out).
GOAT_FAMILY = ("goat", "sea_goat", "sport_goat", "general")
DOUBLE_TWELVE: list[Tile] = [(a, b) for a in range(13) for b in range(a, 13)]


def ts(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def tp(s: str) -> Tile:
    """PROTOCOL: a tile is "a-b" with a <= b; written otherwise it is no tile."""
    a, b = (int(n) for n in s.split("-"))
    if a > b:
        raise ValueError(f"{s!r} is written backwards")
    return (a, b)


# --- PROTOCOL §4: the seeded shuffle -------------------------------------------------------


def byte_stream(seed: bytes, rnd: int, attempt: int) -> Iterator[int]:
    counter = 0
    while True:
        block = seed + rnd.to_bytes(4, "big") + attempt.to_bytes(4, "big")
        yield from hashlib.sha256(block + counter.to_bytes(4, "big")).digest()
        counter += 1


def draw(stream: Iterator[int], m: int) -> int:
    limit = 2**32 - (2**32 % m)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % m


def shuffled(seed: bytes, rnd: int, attempt: int, tiles: list[Tile] = DOUBLE_SIX) -> list[Tile]:
    out = list(tiles)
    stream = byte_stream(seed, rnd, attempt)
    for i in range(len(out) - 1, 0, -1):
        j = draw(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal_attempt(
    seed: bytes, rnd: int, attempt: int, players: int, hand_size: int
) -> tuple[list[list[Tile]], list[Tile]]:
    order = shuffled(seed, rnd, attempt)
    hands = [order[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    return hands, order[players * hand_size :]


def needs_redeal(hands: list[list[Tile]]) -> bool:
    """RULES §1.1: 5+ doubles, or 6+ tiles containing one number, in any hand."""
    for hand in hands:
        if sum(1 for a, b in hand if a == b) >= 5:
            return True
        for v in range(7):
            if sum(1 for t in hand if v in t) >= 6:
                return True
    return False


def goat_deal(seed: bytes, rnd: int, players: int) -> tuple[list[list[Tile]], list[Tile], int]:
    attempt = 0
    while True:
        hands, bazaar = deal_attempt(seed, rnd, attempt, players, 7)
        if not needs_redeal(hands):
            return hands, bazaar, attempt
        attempt += 1


def classic_hand_size(players: int) -> int:
    return 7 if players == 2 else 5


# --- RULES §1.2 and §2: lead order ----------------------------------------------------------

NON_DOUBLES_DESC: list[Tile] = sorted(
    (t for t in DOUBLE_SIX if t[0] != t[1]), key=lambda t: (t[0] + t[1], t[1]), reverse=True
)
GOAT_FIRST_LEAD: list[Tile] = [(v, v) for v in (1, 2, 3, 4, 5, 6, 0)] + NON_DOUBLES_DESC
CLASSIC_LEAD: list[Tile] = [(v, v) for v in (6, 5, 4, 3, 2, 1, 0)] + NON_DOUBLES_DESC


def required_lead(hands: list[list[Tile]], order: list[Tile]) -> tuple[int, Tile]:
    for t in order:
        for seat, hand in enumerate(hands):
            if t in hand:
                return seat, t
    raise AssertionError("no tile in any hand")


# --- scoring (RULES §1.5-§1.9, §2, §9) ------------------------------------------------------


def goat_points(hand: list[Tile]) -> int:
    if hand == [(0, 0)]:
        return 10
    return sum(a + b for a, b in hand)


def classic_points(hand: list[Tile]) -> int:
    return sum(25 if t == (0, 0) else t[0] + t[1] for t in hand)


@dataclass(frozen=True)
class Std:
    account: int = 0
    opened: bool = False
    remembered: int = 0


def ref_credit(s: Std, p: int) -> Std:
    if s.opened:
        return Std(s.account + p, True, s.remembered)
    if p > 12:
        return Std(p + s.remembered, True, 0)
    return Std(s.account, False, s.remembered + p)


def ref_settle(
    stds: list[Std], points: list[int], kind: str, by: int, fish_rule: str, carry: int
) -> tuple[list[Std], list[int], int]:
    """RULES §1.6-§1.7 -> (standings, credited, carry)."""
    n = len(points)
    top = max(points)
    leaders = [i for i in range(n) if points[i] == top]
    single = leaders[0] if len(leaders) == 1 else None
    if kind == "fish" and fish_rule == "one":
        amount = sum(points)
        if single is None:
            return list(stds), [0] * n, carry + amount
        due = amount + carry
        new = []
        for i, s in enumerate(stds):
            if i == single:
                new.append(ref_credit(s, due))
            else:
                c = ref_credit(s, 0)
                new.append(Std(c.account, c.opened, 0))
        return new, [due if i == single else 0 for i in range(n)], 0
    dues = list(points)
    if carry and single is not None:
        dues[single] += carry
        carry = 0
    new = [ref_credit(s, dues[i]) for i, s in enumerate(stds)]
    if kind == "out":
        new[by] = Std(new[by].account, new[by].opened, 0)
    return new, dues, carry


def rhu(x: Fraction) -> int:
    return floor(x + Fraction(1, 2))


def ref_game_gain(s: Fraction | int) -> int:
    return max(1, rhu((100 - Fraction(s)) / 10))


def ref_timeout_gain(t: int, s: int) -> int:
    return max(1, rhu(Fraction(t - s, 10)))


# --- a round and a game, move by move -------------------------------------------------------


@dataclass
class RoundEnd:
    kind: str
    by: int
    hands: list[list[Tile]]
    points: list[int]


@dataclass
class Step:
    """What followed one placement: forced draws/knocks, maybe the round's end."""

    draws: list[tuple[int, int]] = field(default_factory=list)  # (seat, count)
    knocks: list[int] = field(default_factory=list)
    end: RoundEnd | None = None


class RefRound:
    def __init__(
        self,
        variant: str,
        hands: list[list[Tile]],
        bazaar: list[Tile],
        leader: int,
        lead_tile: Tile | None,
    ) -> None:
        self.variant = variant
        self.hands = [list(h) for h in hands]
        self.bazaar = list(bazaar)
        self.n = len(hands)
        self.turn: int | None = leader
        self.lead_tile = lead_tile
        self.ends: tuple[int, int] | None = None
        self.table: list[Tile] = []
        self.end: RoundEnd | None = None

    def fits(self, t: Tile) -> list[str]:
        assert self.ends is not None
        left, right = self.ends
        return [name for name, v in (("left", left), ("right", right)) if v in t]

    def legal(self) -> set[tuple[str, str | None]]:
        if self.turn is None:
            return set()
        hand = self.hands[self.turn]
        if self.ends is None:
            if self.lead_tile is not None:
                return {(ts(self.lead_tile), None)}
            return {(ts(t), None) for t in hand}
        return {(ts(t), e) for t in hand for e in self.fits(t)}

    def can_play(self, seat: int) -> bool:
        return any(self.fits(t) for t in self.hands[seat])

    def goat_fish(self) -> bool:
        assert self.ends is not None
        left, right = self.ends
        if left != right:
            return False
        return all(t in self.table for t in DOUBLE_SIX if left in t and t != (left, left))

    def play(self, seat: int, tile: Tile, end: str | None) -> Step:
        assert seat == self.turn
        hand = self.hands[seat]
        assert tile in hand
        if self.ends is None:
            self.ends = tile
        else:
            left, right = self.ends
            if end == "left":
                assert left in tile
                left = tile[1] if tile[0] == left else tile[0]
            else:
                assert end == "right" and right in tile
                right = tile[1] if tile[0] == right else tile[0]
            self.ends = (left, right)
        hand.remove(tile)
        self.table.append(tile)
        step = Step()
        if not hand:
            return self._finish(step, "out", seat)
        if self.variant in GOAT_FAMILY and self.goat_fish():
            return self._finish(step, "fish", seat)
        knocks_in_a_row = 0
        nxt = seat
        while True:
            nxt = (nxt + 1) % self.n
            if self.can_play(nxt):
                self.turn = nxt
                return step
            drawn = 0
            while self.bazaar and not self.can_play(nxt):
                self.hands[nxt].append(self.bazaar.pop(0))
                drawn += 1
            if drawn:
                step.draws.append((nxt, drawn))
            if self.can_play(nxt):
                self.turn = nxt
                return step
            step.knocks.append(nxt)
            knocks_in_a_row += 1
            if knocks_in_a_row == self.n:
                # Goat: the "all six" test of §1.4 must already have fired (see RULES).
                assert self.variant not in GOAT_FAMILY, "a blocked position that is not a fish"
                return self._finish(step, "fish", seat)

    def _finish(self, step: Step, kind: str, by: int) -> Step:
        score = goat_points if self.variant == "goat" else classic_points
        points = [0 if not h else score(h) for h in self.hands]
        self.end = RoundEnd(kind, by, [list(h) for h in self.hands], points)
        self.turn = None
        step.end = self.end
        return step


@dataclass
class RefResult:
    reason: str
    losers: list[int]
    winners: list[int]
    final: list[int]
    rating: list[int]


class RefGame:
    """Goat (RULES §1, no teams) or Classic (RULES §2), driven by the same moves as the engine."""

    def __init__(self, variant: str, players: int, options: dict, seed: bytes) -> None:
        self.variant = variant
        self.n = players
        self.seed = seed
        self.fish_rule = options.get("fish_rule", "all")
        self.target = options.get("target", 100)
        self.stds = [Std() for _ in range(players)]
        self.scores = [0] * players  # classic
        self.carry = 0
        self.rounds: list[RefRound] = []
        self.history: list[dict] = []
        self.result: RefResult | None = None
        self.attempts: list[int] = []
        self._start_round(0, None)

    @property
    def round(self) -> RefRound:
        return self.rounds[-1]

    def _start_round(self, rnd: int, leader: int | None) -> None:
        if self.variant == "goat":
            hands, bazaar, attempt = goat_deal(self.seed, rnd, self.n)
        else:
            hands, bazaar = deal_attempt(self.seed, rnd, 0, self.n, classic_hand_size(self.n))
            attempt = 0
        self.attempts.append(attempt)
        if self.variant == "goat" and rnd > 0:
            assert leader is not None
            self.rounds.append(RefRound("goat", hands, bazaar, leader, None))
        else:
            order = GOAT_FIRST_LEAD if self.variant == "goat" else CLASSIC_LEAD
            seat, tile = required_lead(hands, order)
            self.rounds.append(RefRound(self.variant, hands, bazaar, seat, tile))

    @property
    def turn(self) -> int | None:
        return None if self.result else self.round.turn

    def account(self, seat: int) -> int:
        s = self.stds[seat]
        return s.account if s.opened else 0

    def final_scores(self) -> list[int]:
        if self.variant == "goat":
            return [self.account(i) for i in range(self.n)]
        return list(self.scores)

    def play(self, seat: int, tile: str, end: str | None) -> Step:
        assert self.result is None
        rnd = self.round
        t = tp(tile)
        if end is None and rnd.ends is not None:
            options = rnd.fits(t)
            assert len(options) == 1
            end = options[0]
        step = rnd.play(seat, t, end)
        if step.end is not None:
            self._settle(step.end)
        return step

    def _settle(self, e: RoundEnd) -> None:
        if self.variant == "goat":
            self.stds, credited, self.carry = ref_settle(
                self.stds, e.points, e.kind, e.by, self.fish_rule, self.carry
            )
            self.history.append(
                {
                    "kind": e.kind,
                    "by": e.by,
                    "points": e.points,
                    "credited": credited,
                    "scores": [self.account(i) for i in range(self.n)],
                    "remembered": [s.remembered for s in self.stds],
                    "carry": self.carry,
                }
            )
            goats = [i for i, s in enumerate(self.stds) if s.opened and s.account >= 101]
            if goats:
                final = self.final_scores()
                rating = [0 if i in goats else ref_game_gain(final[i]) for i in range(self.n)]
                winners = [i for i in range(self.n) if i not in goats]
                self.result = RefResult("goat", goats, winners, final, rating)
            else:
                self._start_round(len(self.rounds), e.by)
            return
        credited = [0] * self.n
        if e.kind == "out":
            credited[e.by] = sum(e.points)
        else:
            low = min(e.points)
            lows = [i for i in range(self.n) if e.points[i] == low]
            if len(lows) == 1:
                credited[lows[0]] = sum(e.points) - 2 * low
        self.scores = [a + b for a, b in zip(self.scores, credited, strict=True)]
        self.history.append(
            {
                "kind": e.kind,
                "by": e.by,
                "points": e.points,
                "credited": credited,
                "scores": list(self.scores),
            }
        )
        best = max(self.scores)
        if best >= self.target:
            winners = [i for i in range(self.n) if self.scores[i] == best]
            losers = [i for i in range(self.n) if i not in winners]
            rating = [
                10 if i in winners else ref_game_gain(Fraction(100 * (best - s), self.target))
                for i, s in enumerate(self.scores)
            ]
            self.result = RefResult("target", losers, winners, list(self.scores), rating)
        else:
            self._start_round(len(self.rounds), None)

    def timeout(self, seat: int) -> None:
        final = self.final_scores()
        rating = [
            0 if i == seat else ref_timeout_gain(final[seat], final[i]) for i in range(self.n)
        ]
        winners = [i for i in range(self.n) if i != seat]
        self.result = RefResult("timeout", [seat], winners, final, rating)
