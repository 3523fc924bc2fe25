"""General, RULES.md §12: two teams scoring Generals in a game played against the clock.

- Four players, partners opposite; double-six, 7 tiles each, no bazaar; two ends, a player
  who cannot place knocks.
- Goat's family (app/engine/goat_family.py): the redeal (§1.1) and the fish of §1.4 (both
  ends v and the six non-doubles with v down, v-v held or not).
- Every round is led by the holder of 1-1, who must lead it.
- A player who goes out with 0-0 or 6-6 as his last tile is a General: his team scores one.
  Every other round end and every fish (nobody can place) scores nothing.
- Option `minutes`: 30 (default) or 60. The game ends at the end of the first round that
  finishes that long or longer after the start, or at once when a team leads by 3
  Generals (result reasons "time" and "generals"). More Generals wins; equal is a draw
  (no winners, no losers). Ratings: S = 100 * (winners' Generals - own) / max(1, winners'
  Generals), the winners gaining 10; a draw pays every player +5.

Time: the engine reads no clock of its own. The live path hands the game the server's
clock (`Game.clock`, epoch ms); the game notes when it started and writes each round's end
as `ended_ms` (milliseconds since the start) into the round, so the record carries it. A
replay takes the times the record wrote (`recall_round`) and so ends the game exactly where
the server did. A game with no clock and no written times (a bot's search ahead, a test)
takes no time: its rounds end at the time of the round before (0 at first). A record's
finished round without its `ended_ms` is refused (`check_finished_round`).

The first edition of the rules (records marked `"rules": 1`) dealt once, ended a round only
when nobody could place, and replayed a finished round without `ended_ms` as ending when the
round before did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.engine.errors import IllegalMove
from app.engine.events import Event
from app.engine.goat_family import GoatFamily
from app.engine.options import Option
from app.engine.rating import margin_gains
from app.engine.teams import TEAM_PLAYERS, Sides
from app.engine.values import FIRST_RULES, RULES, Result, Standings

MINUTE_MS = 60_000
DECISIVE_LEAD = 3  # a team that leads by 3 Generals wins at once
GENERAL_TILES = ("0-0", "6-6")  # going out with one of these as the last tile
LEAD_TILE = "1-1"
ENDED_MS = "ended_ms"  # each round's end, milliseconds since the start (PROTOCOL §3)


class General(GoatFamily):
    variant: ClassVar[str] = "general"
    title: ClassVar[str] = "General"
    min_players: ClassVar[int] = TEAM_PLAYERS
    max_players: ClassVar[int] = TEAM_PLAYERS
    options_spec: ClassVar[dict[str, Option]] = {
        "minutes": Option(30, (30, 60)),
    }
    team_play: ClassVar[bool] = True
    history_keys: ClassVar[tuple[str, ...]] = ("scores", ENDED_MS)
    goat_rules_since: ClassVar[int] = RULES

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        self.sides = Sides(players, True)
        self.generals = [0] * self.sides.count  # Generals by team
        self.started_ms: int | None = None  # the clock's time at the start, when there is one
        self.ended_ms = 0  # when the last finished round ended, ms since the start
        self.recalled_ms: int | None = None  # a replayed round's written end time

    @property
    def time_limit_ms(self) -> int:
        return int(self.options["minutes"]) * MINUTE_MS

    def start(self) -> list[Event]:
        if self.clock is not None:
            self.started_ms = self.clock()
        return super().start()

    def lead_for_round(self) -> tuple[int, int | None]:
        return self.first_held([self.ts.ids[LEAD_TILE]])  # no bazaar: a hand holds 1-1

    def hand_points(self, hand: int) -> int:
        pips = self.ts.pips
        return sum(pips[i] for i in self.ts.members(hand))

    # -- time --------------------------------------------------------------------------------
    def recall_round(self, written: Mapping[str, Any]) -> None:
        at = written.get(ENDED_MS)
        if at is None:
            self.recalled_ms = None
            return
        if type(at) is not int or at < self.ended_ms:
            raise IllegalMove("bad_ended_ms", last=self.ended_ms, value=repr(at))
        self.recalled_ms = at

    def check_finished_round(self, written: Mapping[str, Any]) -> None:
        if ENDED_MS not in written and self.rules != FIRST_RULES:
            raise IllegalMove("missing_ended_ms")

    def _round_end_ms(self) -> int:
        """When the round that is ending ended: as written (a replay), by the clock (live),
        or, with neither, no later than the round before."""
        if self.recalled_ms is not None:
            at, self.recalled_ms = self.recalled_ms, None
            return at
        if self.clock is not None and self.started_ms is not None:
            return max(self.ended_ms, self.clock() - self.started_ms)
        return self.ended_ms

    # -- the end of a round --------------------------------------------------------------
    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        self.ended_ms = self._round_end_ms()
        self.rounds[-1][ENDED_MS] = self.ended_ms
        credited = [0] * self.sides.count
        if kind == "out" and self.rounds[-1]["moves"][-1]["tile"] in GENERAL_TILES:
            credited[self.sides.of(by)] = 1  # a General
            self.generals[self.sides.of(by)] += 1
        return self.sides.by_seat(credited)

    def final_scores(self) -> list[int]:
        return self.sides.by_seat(self.generals)

    def game_over(self) -> Result | None:
        g = self.generals
        if abs(g[0] - g[1]) >= DECISIVE_LEAD:
            reason = "generals"
        elif self.ended_ms >= self.time_limit_ms:
            reason = "time"
        else:
            return None
        best = max(g)
        winners = [team for team, n in enumerate(g) if n == best]
        if len(winners) > 1:  # equal Generals: a draw
            return self.sides.result(reason, [], g, margin_gains(g, []), losing=[])
        return self.sides.result(reason, winners, g, margin_gains(g, winners))

    # -- views and state -----------------------------------------------------------------
    def standings_view(self, seat: int) -> dict[str, Any]:
        return self.sides.standing(seat, self.generals)

    def standings_record(self) -> Standings:
        return {"scores": self.final_scores()}

    def extra_view(self) -> dict[str, Any]:
        return {
            "carry": 0,
            "generals": list(self.generals),
            "minutes": self.options["minutes"],
            ENDED_MS: self.ended_ms,
            # the clock's time at the start (None without one): the table shows the time left
            "started_ms": self.started_ms,
        }

    def state_extra(self) -> dict[str, Any]:
        return {
            "generals": list(self.generals),
            "started_ms": self.started_ms,
            ENDED_MS: self.ended_ms,
        }

    def load_extra(self, data: dict[str, Any]) -> None:
        self.generals = list(data["generals"])
        self.started_ms = data["started_ms"]
        self.ended_ms = data[ENDED_MS]

    def load_view(self, view: Mapping[str, Any]) -> None:
        self.generals = [s["account"] for s in self.seats_of(view)[: self.sides.count]]
        self.ended_ms = view[ENDED_MS]
