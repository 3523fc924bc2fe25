"""Classic draw dominoes, RULES.md §2."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from app.engine.game import Game
from app.engine.options import Option, target_option
from app.engine.rating import higher_wins_gains
from app.engine.scoring import classic_hand_points, classic_round_credits
from app.engine.values import Result, Standings


class Classic(Game):
    variant: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic"
    playout_core: ClassVar[str | None] = "draw"
    options_spec: ClassVar[dict[str, Option]] = {
        "target": target_option(100, 150, 200)
    }

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        self.totals = [0] * players

    def hand_size(self) -> int:
        return 7 if self.players == 2 else 5

    def lead_for_round(self) -> tuple[int, int | None]:
        return self.first_held(self.lead_order())

    @classmethod
    @cache
    def lead_order(cls) -> list[int]:
        """6-6, then the next highest double, then the highest tile, every round (RULES 2)."""
        return cls.double_ids()[::-1] + cls.value_ids()

    def hand_points(self, hand: int) -> int:
        return classic_hand_points(self.ts.tiles_of(hand))

    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        credited = classic_round_credits(points, kind, by)
        self.totals = [s + c for s, c in zip(self.totals, credited, strict=True)]
        return credited

    def final_scores(self) -> list[int]:
        return list(self.totals)

    def standings_view(self, seat: int) -> dict[str, Any]:
        return {"account": self.totals[seat], "opened": True, "remembered": 0}

    def standings_record(self) -> Standings:
        return {"scores": list(self.totals)}

    def game_over(self) -> Result | None:
        target = self.options["target"]
        best = max(self.totals)
        if best < target:
            return None
        winners = [s for s, score in enumerate(self.totals) if score == best]
        return {
            "reason": "target",
            "losers": [s for s in range(self.players) if s not in winners],
            "winners": winners,
            "final": list(self.totals),
            "rating": higher_wins_gains(self.totals, winners, target),
        }

    def extra_view(self) -> dict[str, Any]:
        return {"carry": 0, "target": self.options["target"]}

    def state_extra(self) -> dict[str, Any]:
        return {"scores": list(self.totals)}

    def load_extra(self, data: dict[str, Any]) -> None:
        self.totals = list(data["scores"])

    def load_view(self, view: Mapping[str, Any]) -> None:
        self.totals = [s["account"] for s in self.seats_of(view)]
