"""Mexican Train, RULES.md §5: a double-twelve set, 2-8 players, trains, markers, 13 rounds.

The table is a `Trains` layout: the engine double of round r, (12 - r)-(12 - r), in the
centre, one personal train per seat (`train:<seat>`) and the shared `mexican` train. This
module is the turn policy on top of it:

- `lead_for_round` / `open_round`: whoever holds the engine double has it placed; if nobody
  does, the seats draw one tile each, from seat 0 in seat order, until one of them draws it
  and it is placed at once. The next seat clockwise moves first (drawing, and perhaps
  passing, if it cannot play). Neither the placement nor the draws are moves of the record.
- `ends_for`: an uncovered double must be covered first, by whoever is on turn, wherever
  it is; otherwise a seat's first turn of a round is on its own train only; after that its
  own train, the Mexican train and every train with a marker.
- `cannot_place`: draw one tile (when the pot has any); if it now fits, the seat plays it,
  else it passes and puts a marker on its own train. The marker comes off when the seat next
  plays on its own train.
- `plays_again`: a double makes its player play again; the tile after it must cover it.
- a round ends when a player goes out (on a double too) or when it is blocked: the pot is
  empty and every player, in turn, has passed since the last tile was placed (a pass puts
  a marker on the passer's train, so the players after him may play there; only a full
  turn round of passes ends it). A block is recorded as "fish" by the last placer.

Choices where RULES §5 is silent:
- A seat's "first turn" ends with its first placement of a non-double or its first pass;
  an open double is covered even on a first turn (the obligation binds everyone).
- A drawn tile that fits is played (the engine offers no pass while a tile can be placed).
- `scoring: "plus"`: the player who goes out scores the other hands' pips; a blocked round
  scores nothing. The ratings then measure the distance from the highest total, normalised
  by the spread of totals as for "lower wins" (there is no target to normalise by).
- The engine placement and the draws for it are events (`engine`: the seat and the number,
  `draw`: the seat and a count), never naming a drawn tile.

The first edition of the rules (records marked `"rules": 1`) judged the block right after
each pass: the pot empty and no seat able to place a tile at that moment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.engine.errors import IllegalMove
from app.engine.events import Event
from app.engine.game import Game
from app.engine.layouts import MEXICAN, Layout, Trains, train_end
from app.engine.options import Option
from app.engine.rating import lower_wins_gains
from app.engine.values import FIRST_RULES, Move, Result, Standings

ROUNDS = 13
MAX_PIP = 12


class MexicanTrain(Game):
    variant: ClassVar[str] = "mexican_train"
    title: ClassVar[str] = "Mexican Train"
    max_pip: ClassVar[int] = MAX_PIP
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options_spec: ClassVar[dict[str, Option]] = {
        # penalty: the pips left in a hand; plus: going out scores the rest
        "scoring": Option("penalty", ("penalty", "plus")),
    }
    layout: ClassVar[str] = Trains.kind
    wins: ClassVar[str] = "lower"

    board: Trains

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        super().__init__(players, options, seed)
        self.totals = [0] * players
        self.had_turn = [False] * players  # this round: whether the seat's first turn is over
        self.open_double: str | None = None  # the train that ends in an uncovered double

    @property
    def plus(self) -> bool:
        return self.options["scoring"] == "plus"

    # -- deal and the engine double --------------------------------------------------------
    def new_layout(self) -> Layout:
        return Trains(self.ts, self.players)

    def hand_size(self) -> int:
        return 12 if self.players <= 6 else 10

    def engine_tile(self) -> int:
        """The id of this round's engine double, (12 - r)-(12 - r)."""
        n = MAX_PIP - self.round
        return self.ts.ids[f"{n}-{n}"]

    def engine_placer(self) -> int:
        """Who puts this round's engine double down: its holder, else the seat that will
        draw it (draws go round the seats from seat 0, the k-th taking the pot's k-th tile)."""
        engine = self.engine_tile()
        bit = 1 << engine
        for seat, hand in enumerate(self.hands):
            if hand & bit:
                return seat
        return self.bazaar.index(engine) % self.players

    def lead_for_round(self) -> tuple[int, int | None]:
        return (self.engine_placer() + 1) % self.players, None

    def open_round(self) -> list[Event]:
        self.had_turn = [False] * self.players
        self.open_double = None
        engine = self.engine_tile()
        placer = self.engine_placer()
        events: list[Event] = []
        if not self.hands[placer] >> engine & 1:  # nobody holds it: one draw each until drawn
            for k in range(self.bazaar.index(engine) + 1):
                seat = k % self.players
                self.hands[seat] |= 1 << self.bazaar.pop(0)
                events.append({"type": "draw", "round": self.round, "seat": seat, "count": 1})
        self.hands[placer] ^= 1 << engine
        self.board.place(engine, None)
        self.last_placer = placer
        events.append(
            {"type": "engine", "round": self.round, "seat": placer,
             "number": self.ts.low[engine]}
        )
        # The first seat plays onto the engine, or draws and perhaps passes, like any turn.
        assert self.turn is not None
        return events + self._pass_turn(self.turn)

    # -- where a seat may play -------------------------------------------------------------
    def ends_for(self, seat: int) -> dict[str, int]:
        open_ends = self.board.open
        if self.open_double is not None:
            return {self.open_double: open_ends[self.open_double]}
        own = train_end(seat)
        if not self.had_turn[seat]:
            return {own: open_ends[own]}
        ends = {own: open_ends[own], MEXICAN: open_ends[MEXICAN]}
        for marked in sorted(self.board.markers):  # one order, however the set was made
            if marked != seat:
                end = train_end(marked)
                ends[end] = open_ends[end]
        return ends

    def _resolve_end(self, seat: int, tid: int, end: str | None) -> str | None:
        if end is not None and end not in self.board.trains:
            raise IllegalMove("unknown_train", end=repr(end), last=self.players - 1)
        if end is not None and end not in self.ends_for(seat):
            raise self.why_closed(seat, end)
        return super()._resolve_end(seat, tid, end)

    def why_closed(self, seat: int, end: str) -> IllegalMove:
        """Why `seat` may not play on `end` now (the error a player is told)."""
        if self.open_double is not None:
            double = self.ts.names[self.board.trains[self.open_double][-1][0]]
            return IllegalMove("double_not_covered", tile=double, end=self.open_double)
        if not self.had_turn[seat]:
            return IllegalMove("first_turn_own_train")
        return IllegalMove("not_your_train", end=end)

    # -- a turn ----------------------------------------------------------------------------
    def after_place(self, seat: int, move: Move) -> list[Event]:
        events: list[Event] = []
        end = move.end
        assert end is not None  # the engine double is the only tile placed without an end
        if move.tile.is_double:
            self.open_double = end
        else:
            if end == self.open_double:
                self.open_double = None
            self.had_turn[seat] = True
        if end == train_end(seat) and seat in self.board.markers:
            self.board.markers.discard(seat)
            events.append({"type": "marker", "round": self.round, "seat": seat, "on": False})
        return events

    def plays_again(self, seat: int, move: Move) -> bool:
        return move.tile.is_double

    def cannot_place(self, seat: int, events: list[Event]) -> bool:
        """Draw one tile; if it fits, play it; else pass and mark the own train (RULES §5)."""
        if self.bazaar:
            self.hands[seat] |= 1 << self.bazaar.pop(0)
            events.append({"type": "draw", "round": self.round, "seat": seat, "count": 1})
            if self.can_place(seat):
                return True
        events.append({"type": "knock", "round": self.round, "seat": seat})
        self.had_turn[seat] = True
        if seat not in self.board.markers:
            self.board.markers.add(seat)
            events.append({"type": "marker", "round": self.round, "seat": seat, "on": True})
        return False

    def is_blocked(self, passes: int) -> bool:
        """The pot is empty and every seat, in turn, has passed since the last placement
        (RULES §5). The first rules: the pot is empty and no seat can place a tile now."""
        if self.rules == FIRST_RULES:
            return not self.bazaar and not any(self.can_place(s) for s in range(self.players))
        return passes >= self.players and not self.bazaar

    # -- scoring ---------------------------------------------------------------------------
    def hand_points(self, hand: int) -> int:
        pips = self.ts.pips
        return sum(pips[i] for i in self.ts.members(hand))

    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        if not self.plus:
            credited = list(points)
        else:
            credited = [0] * self.players
            if kind == "out":
                credited[by] = sum(points)
        self.totals = [t + c for t, c in zip(self.totals, credited, strict=True)]
        return credited

    def final_scores(self) -> list[int]:
        return list(self.totals)

    def game_over(self) -> Result | None:
        if self.round < ROUNDS - 1:
            return None
        totals = self.totals
        best = max(totals) if self.plus else min(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
        # "plus" ranks the other way round: the same formula on the negated totals.
        ranked = [-t for t in totals] if self.plus else totals
        return {
            "reason": "rounds",
            "losers": [s for s in range(self.players) if s not in winners],
            "winners": winners,
            "final": list(totals),
            "rating": lower_wins_gains(ranked, winners),
        }

    # -- views and state -------------------------------------------------------------------
    def standings_view(self, seat: int) -> dict[str, Any]:
        return {
            "account": self.totals[seat],
            "opened": True,
            "remembered": 0,
            "marker": seat in self.board.markers,
        }

    def standings_record(self) -> Standings:
        return {"scores": list(self.totals)}

    def extra_view(self) -> dict[str, Any]:
        engine = self.board.engine
        return {
            "carry": 0,
            "engine": None if engine is None else self.ts.names[engine],
            "markers": sorted(self.board.markers),
            "open_double": self.open_double,
            "had_turn": list(self.had_turn),
            "rounds_total": ROUNDS,
            "wins": "higher" if self.plus else "lower",
        }

    def state_extra(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "had_turn": list(self.had_turn),
            "open_double": self.open_double,
        }

    def load_extra(self, data: dict[str, Any]) -> None:
        self.totals = list(data["totals"])
        self.had_turn = list(data["had_turn"])
        self.open_double = data["open_double"]

    def load_view(self, view: Mapping[str, Any]) -> None:
        self.totals = [s["account"] for s in self.seats_of(view)]
        self.had_turn = list(view["had_turn"])
        self.open_double = view["open_double"]
        self.board.markers = set(view["markers"])

    def wins_by(self) -> str:
        return "higher" if self.plus else "lower"
