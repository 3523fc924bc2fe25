"""Goat ("Kozel"), the online rules of RULES.md §1."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.engine.goat_family import GoatFamily
from app.engine.options import TEAMS, Option
from app.engine.rating import goat_gains
from app.engine.scoring import (
    GOAT_LIMIT,
    Standing,
    goat_hand_points,
    goats,
    settle_goat_round,
)
from app.engine.teams import Sides, check_team_players
from app.engine.values import Result, Standings


class Goat(GoatFamily):
    """The deal, the redeal, the leads and the fish are the family's (goat_family.py)."""

    variant: ClassVar[str] = "goat"
    title: ClassVar[str] = "Goat"
    playout_core: ClassVar[str | None] = "goat_fish"
    options_spec: ClassVar[dict[str, Option]] = {
        "fish_rule": Option("all", ("all", "one")),
        "teams": TEAMS,
    }
    wins: ClassVar[str] = "lower"
    team_play: ClassVar[bool] = True
    team_option: ClassVar[str | None] = "teams"
    losers_called: ClassVar[str | None] = "goats"
    loser_word: ClassVar[str | None] = "goat"
    fixed_target: ClassVar[int | None] = GOAT_LIMIT  # a goat at 101 (RULES 1.8)
    history_keys: ClassVar[tuple[str, ...]] = ("scores", "remembered", "carry")

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        # Team Goat (RULES 3) keeps one standing per team: seats 0+2 and 1+3.
        self.sides = Sides(players, bool(options.get("teams")))
        self.standings = [Standing() for _ in range(self.sides.count)]
        self.carry = 0

    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> None:
        check_team_players(cls.title, players, bool(options["teams"]))

    def side(self, seat: int) -> int:
        """The index of the standing `seat` plays for: its team, or itself."""
        return self.sides.of(seat)

    def hand_points(self, hand: int) -> int:
        return goat_hand_points(self.ts.tiles_of(hand))

    def round_points(self, kind: str, by: int) -> list[int]:
        points = super().round_points(kind, by)
        partner = self.sides.partner(by)
        if partner is not None and kind == "out":
            points[partner] = 0  # the partner's hand burns
        return points

    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        side_points = self.sides.add_up(points)
        settlement = settle_goat_round(
            self.standings, side_points, kind, self.side(by), self.options["fish_rule"], self.carry
        )
        self.standings, self.carry = settlement.standings, settlement.carry
        return self.sides.by_seat(settlement.credited)

    def final_scores(self) -> list[int]:
        return self.sides.by_seat([s.score for s in self.standings])

    def standings_view(self, seat: int) -> dict[str, Any]:
        s = self.standings[self.side(seat)]
        view = {"account": s.account, "opened": s.opened, "remembered": s.remembered}
        return view | self.sides.view(seat)

    def standings_record(self) -> Standings:
        return {
            "scores": self.final_scores(),
            "remembered": self.sides.by_seat([s.remembered for s in self.standings]),
            "carry": self.carry,
        }

    def game_over(self) -> Result | None:
        goat_sides = goats(self.standings)
        if not goat_sides:
            return None
        scores = [s.score for s in self.standings]
        others = [side for side in range(self.sides.count) if side not in goat_sides]
        return self.sides.result("goat", others, scores, goat_gains(scores, goat_sides))

    def extra_view(self) -> dict[str, Any]:
        return {"carry": self.carry}

    def state_extra(self) -> dict[str, Any]:
        return {
            "standings": [[s.account, s.opened, s.remembered] for s in self.standings],
            "carry": self.carry,
        }

    def load_extra(self, data: dict[str, Any]) -> None:
        self.standings = [Standing(a, o, r) for a, o, r in data["standings"]]
        self.carry = data["carry"]

    def load_view(self, view: Mapping[str, Any]) -> None:
        seats = self.seats_of(view)[: self.sides.count]  # seats 0 and 1 name the teams
        self.standings = [Standing(s["account"], s["opened"], s["remembered"]) for s in seats]
        self.carry = view["carry"]
