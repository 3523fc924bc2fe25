"""Teams of two, once for every game that has them (RULES §3, §4, §7, §11, §12).

Four players may play as two teams, partners opposite: seats 0+2 are team 0 and seats 1+3
team 1. A game keeps its scores per *side*: a team, or a seat when there are no teams. The
`Sides` value says who plays for whom; the game's rules then speak of sides only:

    sides = Sides(players, teams)
    totals[sides.of(seat)] += points        # a team's points are shared
    sides.add_up(points)                    # a team's round points: its two hands summed
    sides.by_seat(totals)                   # standings by seat, partners alike
    sides.result("target", [winning side], totals, gains)  # winners/losers as seats

A partner's hand is never shown to his partner (a view shows its own hand only, RULES §1.3;
no rule of a team game shows the partner's hand): teams share scores, not information.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine.errors import OptionsError
from app.engine.rating import team_gains
from app.engine.values import Result

TEAM_PLAYERS = 4  # a team game seats four: two teams of two
TEAM_COUNT = 2
PARTNER_OFFSET = 2  # partners sit opposite


def partner(seat: int) -> int:
    """The seat opposite `seat` at a table of four."""
    return (seat + PARTNER_OFFSET) % TEAM_PLAYERS


def check_team_players(variant: str, players: int, teams: bool) -> None:
    """OptionsError when teams are asked for at a table that does not seat four."""
    if teams and players != TEAM_PLAYERS:
        raise OptionsError("teams_need_four_players", variant=variant)


@dataclass(frozen=True, slots=True)
class Sides:
    """Who plays for whom at one table: each seat for itself, or two teams of partners."""

    players: int
    teams: bool

    @property
    def count(self) -> int:
        """How many sides keep a score: two teams, or one per seat."""
        return TEAM_COUNT if self.teams else self.players

    def of(self, seat: int) -> int:
        """The side `seat` plays for: its team (seat mod 2), or itself."""
        return seat % TEAM_COUNT if self.teams else seat

    def partner(self, seat: int) -> int | None:
        return partner(seat) if self.teams else None

    def seats(self, side: int) -> list[int]:
        """The seats that play for `side`."""
        return [s for s in range(self.players) if self.of(s) == side]

    def add_up(self, by_seat: Sequence[int]) -> list[int]:
        """Per-seat amounts summed per side (a team's round points are its two hands)."""
        totals = [0] * self.count
        for seat, amount in enumerate(by_seat):
            totals[self.of(seat)] += amount
        return totals

    def by_seat(self, by_side: Sequence[int]) -> list[int]:
        """Per-side values spread to the seats (partners show the same standing)."""
        return [by_side[self.of(s)] for s in range(self.players)]

    def view(self, seat: int) -> dict[str, Any]:
        """What a seat's entry in `view.seats` says of its team (`team`), nothing without."""
        return {"team": self.of(seat)} if self.teams else {}

    def standing(self, seat: int, by_side: Sequence[int]) -> dict[str, Any]:
        """A seat's standing in a game scored per side (its side's score, always open)."""
        return {"account": by_side[self.of(seat)], "opened": True, "remembered": 0} \
            | self.view(seat)

    def result(
        self,
        reason: str,
        winning: Sequence[int],
        by_side: Sequence[int],
        gains_by_side: Sequence[int],
        losing: Sequence[int] | None = None,
    ) -> Result:
        """A result (PROTOCOL §2 `result`) from sides: `winning` sides' seats are the
        winners, `losing` sides' (default: every other side's) the losers. A draw names
        no side in either."""
        if losing is None:
            losing = [side for side in range(self.count) if side not in winning]
        return {
            "reason": reason,
            "losers": [s for s in range(self.players) if self.of(s) in losing],
            "winners": [s for s in range(self.players) if self.of(s) in winning],
            "final": self.by_seat(by_side),
            "rating": team_gains(gains_by_side, [self.of(s) for s in range(self.players)]),
        }
