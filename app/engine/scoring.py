"""Round points and how they are credited: RULES.md §1.5-1.8 (Goat) and §2 (Classic)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.engine.tiles import Tile

OPENING_THRESHOLD = 12  # round points above this open the account (RULES 1.6)
GOAT_LIMIT = 101  # an opened account at or above this makes a goat (RULES 1.8)


@dataclass(frozen=True, slots=True)
class Standing:
    """A Goat player's (or team's) score: the account, whether it is open, remembered points."""

    account: int = 0
    opened: bool = False
    remembered: int = 0

    @property
    def score(self) -> int:
        """What counts toward 101: the account, 0 while not opened."""
        return self.account if self.opened else 0


def credit(standing: Standing, points: int) -> Standing:
    """Credit `points` by RULES 1.6: remember up to 12, open above 12 with what was remembered."""
    if standing.opened:
        return Standing(standing.account + points, True, standing.remembered)
    if points <= OPENING_THRESHOLD:
        return Standing(standing.account, False, standing.remembered + points)
    return Standing(account=points + standing.remembered, opened=True, remembered=0)


def _forget(standing: Standing) -> Standing:
    """The standing with its remembered points reset to 0 (its account unchanged)."""
    return Standing(standing.account, standing.opened, 0)


def goat_hand_points(tiles: Iterable[Tile]) -> int:
    """Pips in hand; a hand of the lone 0-0 counts 10 (RULES 1.5)."""
    hand = list(tiles)
    if len(hand) == 1 and hand[0] == (0, 0):
        return 10
    return sum(t.low + t.high for t in hand)


def classic_hand_points(tiles: Iterable[Tile]) -> int:
    """Pips in hand, 0-0 counting 25 (RULES 2)."""
    return sum(25 if t == (0, 0) else t.low + t.high for t in tiles)


@dataclass(frozen=True, slots=True)
class GoatSettlement:
    standings: list[Standing]
    credited: list[int]
    carry: int


def _single_highest(points: Sequence[int]) -> int | None:
    top = max(points)
    holders = [seat for seat, p in enumerate(points) if p == top]
    return holders[0] if len(holders) == 1 else None


def settle_goat_round(
    standings: Sequence[Standing],
    points: Sequence[int],
    kind: str,
    by: int,
    fish_rule: str,
    carry: int,
) -> GoatSettlement:
    """Credit one finished round (RULES 1.6-1.7), including the carried fish amount.

    `kind` is "out" (seat `by` went out) or "fish" (`by` is the fisherman).
    """
    highest = _single_highest(points)
    new = list(standings)
    if kind == "fish" and fish_rule == "one":
        amount = sum(points)
        if highest is None:  # a drawn round: nobody is credited, the amount is carried
            return GoatSettlement(new, [0] * len(points), carry + amount)
        credited = [0] * len(points)
        credited[highest] = amount + carry
        for seat in range(len(points)):
            if seat == highest:
                new[seat] = credit(new[seat], credited[seat])
            else:
                new[seat] = _forget(new[seat])
        return GoatSettlement(new, credited, 0)

    credited = list(points)
    if highest is not None:
        credited[highest] += carry
        carry = 0
    for seat, p in enumerate(credited):
        new[seat] = credit(new[seat], p)
    if kind == "out":
        new[by] = _forget(new[by])
    return GoatSettlement(new, credited, carry)


def goats(standings: Sequence[Standing]) -> list[int]:
    """Seats whose opened account reached 101 (RULES 1.8)."""
    return [seat for seat, s in enumerate(standings) if s.opened and s.account >= GOAT_LIMIT]


def classic_round_credits(points: Sequence[int], kind: str, by: int) -> list[int]:
    """What each seat scores for a Classic round (RULES 2).

    Going out: the winner `by` scores the others' hands. A block ("fish"): the single lowest
    hand scores the others' hands minus its own; a tie for the lowest scores nothing.
    """
    credited = [0] * len(points)
    if kind == "out":
        credited[by] = sum(points) - points[by]
        return credited
    low = min(points)
    holders = [seat for seat, p in enumerate(points) if p == low]
    if len(holders) == 1:
        winner = holders[0]
        credited[winner] = sum(points) - points[winner] - points[winner]
    return credited


# RULES §7 (and §11, which scores "as in Sea Goat"): a hand left at the end of a round that
# holds only 0-0 counts 25, only 6-6 counts 50, only those two 75.
SPECIAL_HANDS: dict[frozenset[tuple[int, int]], int] = {
    frozenset({(0, 0)}): 25,
    frozenset({(6, 6)}): 50,
    frozenset({(0, 0), (6, 6)}): 75,
}


def special_hand_points(tiles: Iterable[Tile]) -> int:
    """Pips in hand, or the special hands of RULES §7: only 0-0 = 25, only 6-6 = 50,
    both = 75."""
    hand = list(tiles)
    if len(hand) <= 2:  # the special hands hold one or two tiles
        special = SPECIAL_HANDS.get(frozenset((t.low, t.high) for t in hand))
        if special is not None:
            return special
    return sum(t.low + t.high for t in hand)
