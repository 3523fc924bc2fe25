"""Sport Goat, RULES.md §11: Goat for two teams over a fixed number of rounds.

- Four players, partners opposite (seats 0+2 against 1+3); double-six, 7 tiles each, no
  bazaar; two ends, a player who cannot place knocks.
- Goat's family (app/engine/goat_family.py): the redeal (§1.1) and the fish of §1.4 (both
  ends v and the six non-doubles with v down, v-v held or not; its tile's player is the
  fisherman).
- Round r (0-based) is led by seat r mod 4, with any tile.
- Option `rounds`: 4, 8 (default) or 12; the game ends after that many rounds.
- The round is won by the team of the player who went out; in a fish by the team whose
  two hands hold fewer plain pips (a + b a tile; equal: nobody). The winning team writes
  the pips left in the losing team's two hands, counted with Sea Goat's special hands
  (only 0-0 = 25, only 6-6 = 50, both = 75); no threshold, no wipe. The special counts
  are for what is written, not for deciding the fish.
- More points after the last round wins; equal totals are a draw (outcome "draw": no
  winners, no losers). Ratings: S = 100 * (winners' total - own) / max(1, winners'
  total), the winners gaining 10; a draw pays every player +5.

The first edition of the rules (records marked `"rules": 1`) dealt once, ended a round only
when nobody could place, and gave a fish to the team with fewer points by the special counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.engine.goat_family import GoatFamily
from app.engine.options import Option
from app.engine.rating import margin_gains
from app.engine.scoring import special_hand_points
from app.engine.teams import TEAM_PLAYERS, Sides
from app.engine.values import FIRST_RULES, RULES, Result, Standings


class SportGoat(GoatFamily):
    variant: ClassVar[str] = "sport_goat"
    title: ClassVar[str] = "Sport Goat"
    min_players: ClassVar[int] = TEAM_PLAYERS
    max_players: ClassVar[int] = TEAM_PLAYERS
    options_spec: ClassVar[dict[str, Option]] = {
        "rounds": Option(8, (4, 8, 12)),
    }
    team_play: ClassVar[bool] = True
    goat_rules_since: ClassVar[int] = RULES

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        self.sides = Sides(players, True)
        self.totals = [0] * self.sides.count  # points by team

    def lead_for_round(self) -> tuple[int, int | None]:
        return self.round % self.players, None  # "round r is led by seat r mod 4"

    def hand_points(self, hand: int) -> int:
        return special_hand_points(self.ts.tiles_of(hand))

    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        team_points = self.sides.add_up(points)
        if kind == "out":
            won = self.sides.of(by)
        else:
            # The fish goes to fewer plain pips (a + b), not to the special counts (§11).
            plain = team_points if self.rules == FIRST_RULES else self.sides.add_up(
                [sum(self.ts.pips[i] for i in self.ts.members(h)) for h in self.hands]
            )
            low = min(plain)
            lowest = [team for team, p in enumerate(plain) if p == low]
            if len(lowest) > 1:
                return [0] * self.players  # equal hands in a fish: nobody wins the round
            won = lowest[0]
        credited = [0] * self.sides.count
        credited[won] = sum(p for team, p in enumerate(team_points) if team != won)
        self.totals[won] += credited[won]
        return self.sides.by_seat(credited)

    def final_scores(self) -> list[int]:
        return self.sides.by_seat(self.totals)

    def game_over(self) -> Result | None:
        if self.round + 1 < self.options["rounds"]:
            return None
        best = max(self.totals)
        winners = [team for team, t in enumerate(self.totals) if t == best]
        if len(winners) > 1:  # equal totals: a draw
            return self.sides.result("rounds", [], self.totals, margin_gains(self.totals, []),
                                     losing=[])
        return self.sides.result("rounds", winners, self.totals,
                                 margin_gains(self.totals, winners))

    def standings_view(self, seat: int) -> dict[str, Any]:
        return self.sides.standing(seat, self.totals)

    def standings_record(self) -> Standings:
        return {"scores": self.final_scores()}

    def extra_view(self) -> dict[str, Any]:
        # `rounds_total`: the score sheet lists the rounds still to come (as Mexican Train's)
        return {"carry": 0, "rounds_total": self.options["rounds"]}

    def state_extra(self) -> dict[str, Any]:
        return {"totals": list(self.totals)}

    def load_extra(self, data: dict[str, Any]) -> None:
        self.totals = list(data["totals"])

    def load_view(self, view: Mapping[str, Any]) -> None:
        self.totals = [s["account"] for s in self.seats_of(view)[: self.sides.count]]
