"""Sea Goat, RULES.md §7: Goat's longer relative, to 125, with special hands.

- Two or four players (four may play as teams, partners opposite), double-six, 7 tiles each,
  the rest the bazaar (draw until playable, knock, RULES §1.3).
- Goat's family (app/engine/goat_family.py): the redeal (§1.1), the lead of every later
  round by the player who went out or, after a fish, the fisherman (§1.2), and the fish of
  §1.4 (both ends v and the six non-doubles with v down, v-v held or not, the bazaar empty
  or not).
- The smallest double leads the first round (it must be led); with no double in any hand
  (two players, the doubles all in the bazaar) the smallest tile in §1.2's order (0-1,
  0-2, 1-2, 0-3, ...).
- Only the round winner writes: the losers' hands summed (special hands: only 0-0 = 25,
  only 6-6 = 50, both = 75), and only when that is more than 25. A write wipes every other
  side's written points to 0 ("when another player then wins a round with more than 25").
- Going out on 0-0 wins the whole game (the "bald goat"); going out on 6-6 wins it when a
  loser's hand counts more than 25. First to 125 wins.
- Two doubles may be played in one turn, one on each end, when both fit: one move whose
  `also` places the second (PROTOCOL §2a: the move and its record entry carry
  `"also": [{"tile", "end"}]`). Never on the lead.
- A fish is scored as in §2: the lowest hand wins and writes the others' hands minus its
  own (more than 25 only, as every write); a tie for the lowest writes nothing.

Choices where §7 is silent:
- Teams: the side that went out (or in a fish the side whose two hands count less) writes
  the other side's two hands; the winner's partner's hand counts for neither side. The wipe
  and the specials are per side.
- A move that places two doubles and empties the hand goes out "on" both of them: with 0-0
  among them it is a bald goat; with 6-6 (and no 0-0) the 6-6 rule applies.
- Ratings (RULES §9, "higher wins", target 125): a game won by a special going-out is rated
  as if the winners had reached 125, S = 100 * (125 - own) / 125 for the others.

The first edition of the rules (records marked `"rules": 1`) dealt once, ended a round only
when nobody could move with the bazaar empty, and gave the next lead after a fish to the
fish's winner (on a tie, to whoever placed the last tile).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, ClassVar

from app.engine.errors import IllegalMove, OptionsError
from app.engine.goat_family import GoatFamily
from app.engine.layouts import LEFT, RIGHT
from app.engine.options import TEAMS, Option
from app.engine.rating import higher_wins_gains
from app.engine.scoring import special_hand_points
from app.engine.teams import Sides, check_team_players
from app.engine.values import FIRST_RULES, RULES, Move, Placement, Result, Standings

TARGET = 125
WRITES_ABOVE = 25  # only a write of more than 25 counts (and wipes the others)
BALD_GOAT = "bald_goat"  # went out on 0-0: the whole game is won
SIX_SIX = "six_six"  # went out on 6-6 while a loser's hand counts more than 25
ZERO_ZERO, SIX_SIX_TILE = "0-0", "6-6"


def sea_goat_write(losers: int) -> int:
    """What the round winner writes (RULES §7): the losers' hands, only if more than 25."""
    return losers if losers > WRITES_ABOVE else 0


class SeaGoat(GoatFamily):
    variant: ClassVar[str] = "sea_goat"
    title: ClassVar[str] = "Sea Goat"
    options_spec: ClassVar[dict[str, Option]] = {"teams": TEAMS}
    team_play: ClassVar[bool] = True
    team_option: ClassVar[str | None] = "teams"
    move_fields: ClassVar[tuple[str, ...]] = ("also",)
    goat_rules_since: ClassVar[int] = RULES
    fixed_target: ClassVar[int | None] = TARGET

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        self.sides = Sides(players, bool(options.get("teams")))
        self.totals = [0] * self.sides.count  # written points by side
        self.next_lead: int | None = None  # the round's winner (the first rules' next leader)
        self.won_by: str | None = None  # BALD_GOAT or SIX_SIX once a going-out won the game

    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> None:
        if players == 3:
            raise OptionsError("two_or_four_players", variant=cls.title)
        check_team_players(cls.title, players, bool(options["teams"]))

    # -- lead --------------------------------------------------------------------------
    @classmethod
    @cache
    def first_lead_order(cls) -> list[int]:
        """0-0, 1-1, ... 6-6, then the lowest tile upward (RULES §7: the smallest double)."""
        return cls.double_ids() + cls.value_ids()[::-1]

    def lead_for_round(self) -> tuple[int, int | None]:
        if self.rules == FIRST_RULES and self.round > 0 and self.next_lead is not None:
            return self.next_lead, None
        return super().lead_for_round()

    # -- two doubles in one turn -------------------------------------------------------------
    def moves_for(self, seat: int) -> Iterator[Move]:
        yield from super().moves_for(seat)
        board = self.board
        if not board.size:
            return
        doubles = self.hands[seat] & self.ts.doubles
        if doubles.bit_count() < 2:
            return
        suits, tiles = self.ts.suits, self.ts.tiles
        left = doubles & suits[board.open[LEFT]]
        right = doubles & suits[board.open[RIGHT]]
        if left and right and left != right:
            (lt,), (rt,) = self.ts.members(left), self.ts.members(right)
            yield Move(tiles[lt], LEFT, (Placement(tiles[rt], RIGHT),))

    def check_move(self, seat: int, move: Move) -> None:
        if not move.also:
            return
        if move.end is None:
            raise IllegalMove("lead_is_one_tile")
        if len(move.also) != 1:
            raise IllegalMove("at_most_two_doubles")
        second = move.also[0]
        if not move.tile.is_double or not second.tile.is_double:
            raise IllegalMove("two_tiles_not_doubles")
        if second.tile == move.tile:
            raise IllegalMove("tile_played_twice", tile=str(move.tile))
        if not self.hands[seat] >> self.ts.ids[second.tile] & 1:
            raise IllegalMove("tile_not_in_hand", tile=str(second.tile))
        if second.end not in (LEFT, RIGHT):
            raise IllegalMove("unknown_end", end=repr(second.end), ends="'left' or 'right'")
        if second.end == move.end:
            raise IllegalMove("doubles_on_one_end")
        shown = self.board.open[second.end]
        if second.tile.low != shown:
            raise IllegalMove(
                "tile_does_not_match_end", tile=str(second.tile), end=second.end, n=shown
            )

    # -- the end of a round --------------------------------------------------------------
    def hand_points(self, hand: int) -> int:
        return special_hand_points(self.ts.tiles_of(hand))

    def _out_tiles(self) -> set[str]:
        """The tiles of the move that went out."""
        last = self.rounds[-1]["moves"][-1]
        return {last["tile"], *(p["tile"] for p in last.get("also", ()))}

    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        sides = self.sides
        side_credit = [0] * sides.count
        if kind == "out":
            winner, won = by, sides.of(by)
            losers = [s for s in range(self.players) if sides.of(s) != won]
            written = sea_goat_write(sum(points[s] for s in losers))
            out_on = self._out_tiles()
            if ZERO_ZERO in out_on:
                self.won_by = BALD_GOAT
            elif SIX_SIX_TILE in out_on and any(points[s] > WRITES_ABOVE for s in losers):
                self.won_by = SIX_SIX
        else:
            side_points = sides.add_up(points)
            low = min(side_points)
            lowest = [side for side, p in enumerate(side_points) if p == low]
            self.next_lead = by
            if len(lowest) > 1:
                return [0] * self.players  # a tie for the lowest hand writes nothing (§2)
            won = lowest[0]
            winner = min(sides.seats(won), key=lambda s: points[s])
            written = sea_goat_write(sum(side_points) - low - low)
        self.next_lead = winner
        if written:
            # A write wipes every other side's written points (RULES §7).
            self.totals = [t + written if side == won else 0 for side, t in enumerate(self.totals)]
            side_credit[won] = written
        return sides.by_seat(side_credit) if sides.teams else [
            side_credit[won] if s == winner else 0 for s in range(self.players)
        ]

    def final_scores(self) -> list[int]:
        return self.sides.by_seat(self.totals)

    def game_over(self) -> Result | None:
        if self.won_by is not None:
            assert self.next_lead is not None  # the seat that went out
            won = self.sides.of(self.next_lead)
            rated = list(self.totals)
            rated[won] = max(TARGET, rated[won])  # rated as if the winners reached 125
            gains = higher_wins_gains(rated, [won], TARGET)
            return self.sides.result(self.won_by, [won], self.totals, gains)
        best = max(self.totals)
        if best < TARGET:
            return None
        winners = [side for side, t in enumerate(self.totals) if t == best]
        gains = higher_wins_gains(self.totals, winners, TARGET)
        return self.sides.result("target", winners, self.totals, gains)

    # -- views and state -----------------------------------------------------------------
    def standings_view(self, seat: int) -> dict[str, Any]:
        return self.sides.standing(seat, self.totals)

    def standings_record(self) -> Standings:
        return {"scores": self.final_scores()}

    def extra_view(self) -> dict[str, Any]:
        return {"carry": 0, "target": TARGET}

    def state_extra(self) -> dict[str, Any]:
        return {"totals": list(self.totals), "next_lead": self.next_lead, "won_by": self.won_by}

    def load_extra(self, data: dict[str, Any]) -> None:
        self.totals = list(data["totals"])
        self.next_lead = data["next_lead"]
        self.won_by = data["won_by"]

    def load_view(self, view: Mapping[str, Any]) -> None:
        self.totals = [s["account"] for s in self.seats_of(view)[: self.sides.count]]
