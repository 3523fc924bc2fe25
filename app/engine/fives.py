"""Fives / Muggins as played on Gambler, RULES.md §4: points during play on a spinner.

After every placement the count of the open ends (the layout's `count()`) scores when it
is a positive multiple of `multiple`; at the end of a hand its winner gets the bonus.

Choices where RULES §4 is silent:
- The game ends at the end of the hand in which a side reaches `target` (points during
  play count at once, the check waits for the hand's bonus); the highest total wins, equal
  highest totals share the win.
- Teams (4 players, partners opposite): the side that went out, or in a block the side
  whose two hands hold the fewest pips, wins the hand; its bonus is made of the other
  side's pips (the partner's hand counts for neither side). Points go to the side.
- The next hand is led by the previous hand's winner; after a block with a tie (no
  winner) by the player who placed the last tile.
- A record without a seed has no stream to draw the first leader from: seat 0 leads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.engine.events import Event
from app.engine.game import Game
from app.engine.layouts import Layout, Line, Spinner
from app.engine.options import TEAMS, Option, target_option
from app.engine.rating import higher_wins_gains
from app.engine.shuffle import ByteStream
from app.engine.teams import Sides, check_team_players
from app.engine.values import Move, Result, Standings

FIRST_LEAD_ATTEMPT = 1000  # PROTOCOL §4: the first leader is draw(n) of round 0, k = 1000


def round_to_multiple(x: int, multiple: int) -> int:
    """The nearest multiple, halves impossible for 3 and 5: 26 -> 25, 28 -> 30 (RULES §4)."""
    return (x + multiple // 2) // multiple * multiple


def fives_bonus(others: int, own: int, rule: str, multiple: int) -> int:
    """The hand bonus of RULES §4: "divided" (others' pips minus the winner's, rounded to a
    multiple, divided by it) or "rounded" (others' pips rounded, not divided). `own` is 0
    when the winner went out."""
    if rule == "rounded":
        return round_to_multiple(others, multiple)
    return round_to_multiple(max(0, others - own), multiple) // multiple


class Fives(Game):
    variant: ClassVar[str] = "fives"
    title: ClassVar[str] = "Fives"
    options_spec: ClassVar[dict[str, Option]] = {
        "target": target_option(100, 250, 500),
        "spinner": Option(True, (True, False)),  # the first double opens four ends
        "spinner_count": Option("gambler", ("gambler", "full")),
        "bonus": Option("divided", ("divided", "rounded")),
        "multiple": Option(5, (5, 3)),
        "teams": TEAMS,
    }
    layout: ClassVar[str] = Spinner.kind
    team_play: ClassVar[bool] = True
    team_option: ClassVar[str | None] = "teams"
    history_keys: ClassVar[tuple[str, ...]] = ("scores", "play_points")

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        self.sides = Sides(players, bool(options.get("teams")))
        self.totals = [0] * self.sides.count  # by side (a team, or a seat)
        self.play_points = [0] * players  # this hand's points during play, by seat
        self.next_lead: int | None = None

    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> None:
        check_team_players(cls.variant, players, bool(options.get("teams")))

    # -- the rules that differ from game to game of this family -----------------------------
    @property
    def target(self) -> int:
        return int(self.options["target"])

    @property
    def multiple(self) -> int:
        return int(self.options["multiple"])

    def play_score(self, count: int) -> int:
        """What a count that is a positive multiple scores."""
        return count

    def hand_bonus(self, others: int, own: int) -> int:
        return fives_bonus(others, own, self.options["bonus"], self.multiple)

    def new_layout(self) -> Layout:
        if self.options["spinner"]:
            return Spinner(self.ts, count_rule=self.options["spinner_count"])
        return Line(self.ts)

    # -- deal and lead -----------------------------------------------------------------
    def side(self, seat: int) -> int:
        return self.sides.of(seat)

    def hand_size(self) -> int:
        return 7 if self.players == 2 else 5

    def lead_for_round(self) -> tuple[int, int | None]:
        self.play_points = [0] * self.players  # a new hand: nothing scored in it yet
        if self.round == 0 or self.next_lead is None:
            if self.seed is None:
                return 0, None
            return ByteStream(self.seed, 0, FIRST_LEAD_ATTEMPT).draw(self.players), None
        return self.next_lead, None

    # -- points during play --------------------------------------------------------------
    def after_place(self, seat: int, move: Move) -> list[Event]:
        count = self.board.count()
        if count <= 0 or count % self.multiple:
            return []
        points = self.play_score(count)
        self.totals[self.side(seat)] += points
        self.play_points[seat] += points
        return [
            {"type": "score", "round": self.round, "seat": seat, "points": points,
             "count": count}
        ]

    # -- the end of a hand ---------------------------------------------------------------
    def hand_points(self, hand: int) -> int:
        pips = self.ts.pips
        return sum(pips[i] for i in self.ts.members(hand))

    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        sides = len(self.totals)
        side_pips = [0] * sides
        for seat, p in enumerate(points):
            if not (self.sides.teams and kind == "out" and self.side(seat) == self.side(by)):
                side_pips[self.side(seat)] += p
        credited = [0] * self.players
        self.next_lead = by
        if kind == "out":
            winner = by
            own = 0
        else:
            low = min(side_pips)
            lowest = [s for s, p in enumerate(side_pips) if p == low]
            if len(lowest) > 1:
                return credited  # a tie for the lowest hand scores nothing
            winner = min(
                (s for s in range(self.players) if self.side(s) == lowest[0]),
                key=lambda s: points[s],
            )
            own = low
        bonus = self.hand_bonus(sum(side_pips) - side_pips[self.side(winner)], own)
        self.totals[self.side(winner)] += bonus
        credited[winner] = bonus
        self.next_lead = winner
        return credited

    def final_scores(self) -> list[int]:
        return self.sides.by_seat(self.totals)

    def game_over(self) -> Result | None:
        best = max(self.totals)
        if best < self.target:
            return None
        winners = [side for side, score in enumerate(self.totals) if score == best]
        gains = higher_wins_gains(self.totals, winners, self.target)
        return self.sides.result("target", winners, self.totals, gains)

    # -- views and state -----------------------------------------------------------------
    def standings_view(self, seat: int) -> dict[str, Any]:
        view = {"account": self.totals[self.side(seat)], "opened": True, "remembered": 0}
        return view | self.sides.view(seat)

    def standings_record(self) -> Standings:
        return {"scores": self.final_scores(), "play_points": list(self.play_points)}

    def extra_view(self) -> dict[str, Any]:
        return {"carry": 0, "target": self.target, "count": self.board.count()}

    def state_extra(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "play_points": list(self.play_points),
            "next_lead": self.next_lead,
        }

    def load_extra(self, data: dict[str, Any]) -> None:
        self.totals = list(data["totals"])
        self.play_points = list(data["play_points"])
        self.next_lead = data["next_lead"]

    def load_view(self, view: Mapping[str, Any]) -> None:
        self.totals = [s["account"] for s in self.seats_of(view)[: self.sides.count]]
