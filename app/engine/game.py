"""The shared mechanics of the two-ended draw games (Goat, Classic).

A `Game` is a plain, deterministic state machine: `play()` applies one tile placement and
then performs every forced draw and knock until somebody must place a tile again, the round
ends or the game ends. Variants subclass it and say only what differs (deal size, redeal,
who leads, the fish, scoring).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, NamedTuple

from app.engine.errors import IllegalMove
from app.engine.rating import timeout_gains
from app.engine.shuffle import commitment, deal_order
from app.engine.tiles import Tile, TileSet, tile_set, value_order

RECORD_FORMAT = "domino-record/1"
LEFT, RIGHT = "left", "right"
STANDING_KEYS = ("scores", "remembered", "carry")
ENDS = (LEFT, RIGHT)
TIMEOUT_REASONS = ("timeout", "resign")
Event = dict[str, Any]


def _copy_rounds(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rounds as a new list whose growing part (the moves) is not shared with the source."""
    return [{**rd, "moves": list(rd["moves"])} for rd in rounds]


class Move(NamedTuple):
    tile: Tile
    end: str | None  # None on a lead

    def __str__(self) -> str:
        return f"{self.tile}@{self.end}" if self.end else str(self.tile)


def _move_table(ts: TileSet, end: str | None) -> tuple[Move, ...]:
    return tuple(Move(t, end) for t in ts.tiles)


class Game(ABC):
    """One game at one table: rounds, the line of play, hands, bazaar, standings.

    Tiles are ids (their index in canonical order) and hands are bit masks of ids; the
    public surface (moves, views, records) speaks in `Tile`s and "a-b" names.
    """

    variant: ClassVar[str]
    max_pip: ClassVar[int] = 6
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        ts = tile_set(cls.max_pip)
        cls.ts = ts
        cls._leads = _move_table(ts, None)
        cls._lefts = _move_table(ts, LEFT)
        cls._rights = _move_table(ts, RIGHT)

    ts: ClassVar[TileSet]
    _leads: ClassVar[tuple[Move, ...]]
    _lefts: ClassVar[tuple[Move, ...]]
    _rights: ClassVar[tuple[Move, ...]]

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.status = "playing"
        self.round = -1
        self.attempt = 0
        self.hands: list[int] = [0] * players  # bit masks of tile ids
        self.bazaar: list[int] = []  # tile ids, the next draw first
        # The line of play as two arms from the lead: (tile id, number shown on its left,
        # on its right). The right arm starts with the lead; the left arm grows leftward.
        self._left_arm: list[tuple[int, int, int]] = []
        self._right_arm: list[tuple[int, int, int]] = []
        self.left: int | None = None
        self.right: int | None = None
        self.turn: int | None = None
        self.required_lead: int | None = None  # tile id the lead must be, if any
        self.last_placer: int | None = None
        self.awaiting_deal = False
        # Per round: dealt hands, bazaar, moves, and once over its end and the standings.
        self.rounds: list[dict[str, Any]] = []
        self.timed_out: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self._on_table = [0] * (self.max_pip + 1)  # non-doubles on the table per number

    # ----------------------------------------------------------------- variant hooks
    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> None:
        """Raise OptionsError for a combination of options and players that cannot be played."""
        return None

    def round_points(self, kind: str, by: int) -> list[int]:
        """Each seat's round points when the round ends this way."""
        return [self.hand_points(h) for h in self.hands]

    @abstractmethod
    def hand_size(self) -> int:
        ...

    def needs_redeal(self, hands: Sequence[int]) -> bool:
        """Whether a deal (hands as bit masks) must be collected and dealt again."""
        return False

    @abstractmethod
    def lead_for_round(self) -> tuple[int, int | None]:
        """The seat that leads this round and the tile id it must lead (None: any tile)."""
        ...

    def makes_fish(self) -> bool:
        """Whether the position after a placement ends the round at once as a fish."""
        return False

    @abstractmethod
    def hand_points(self, hand: int) -> int:
        ...

    @abstractmethod
    def settle_round(self, kind: str, by: int, points: list[int]) -> list[int]:
        """Credit a finished round, record standings; returns what each seat was credited."""
        ...

    @abstractmethod
    def standings_view(self, seat: int) -> dict[str, Any]:
        ...

    @abstractmethod
    def standings_record(self) -> dict[str, Any]:
        """Per-round output fields of a record after the round is credited."""
        ...

    @abstractmethod
    def game_over(self) -> dict[str, Any] | None:
        """The result if the game has just ended (after a round was credited)."""
        ...

    @abstractmethod
    def final_scores(self) -> list[int]:
        """The standings by seat that a result reports (Goat: accounts, 0 while not opened)."""
        ...

    def timeout_result(self, seat: int, reason: str = "timeout") -> dict[str, Any]:
        """A game interrupted by `seat`: he loses, the others gain by the timeout formula.

        `reason` is "timeout" or "resign": the scoring is the same (RULES 1.10), the words not.
        """
        final = self.final_scores()
        return {
            "reason": reason,
            "losers": [seat],
            "winners": [s for s in range(self.players) if s != seat],
            "final": final,
            "rating": timeout_gains(final, seat),
        }

    def extra_view(self) -> dict[str, Any]:
        return {}

    def state_extra(self) -> dict[str, Any]:
        return {}

    def load_extra(self, data: dict[str, Any]) -> None:
        return None

    # ----------------------------------------------------------------- dealing
    @property
    def commitment(self) -> str | None:
        return commitment(self.seed) if self.seed is not None else None

    def start(self) -> list[Event]:
        """Deal the first round from the seed; returns the start events (no tile in them)."""
        events: list[Event] = [
            {"type": "start", "round": 0, "commitment": self.commitment, "players": self.players}
        ]
        events += self._next_round()
        return events

    def _next_round(self) -> list[Event]:
        self.round += 1
        if self.seed is None:
            self.awaiting_deal = True
            self.turn = None
            return []
        size, players, count = self.hand_size(), self.players, len(self.ts.tiles)
        attempt = 0
        while True:
            order = deal_order(self.seed, self.round, attempt, count)
            hands = [order[s * size : (s + 1) * size] for s in range(players)]
            if not self.needs_redeal([self.ts.mask(h) for h in hands]):
                break
            attempt += 1
        events: list[Event] = [
            {"type": "redeal", "round": self.round, "attempt": k} for k in range(1, attempt + 1)
        ]
        return events + self._deal_ids(hands, order[players * size :], attempt)

    def deal(
        self,
        hands: Sequence[Sequence[Tile | str]],
        bazaar: Sequence[Tile | str],
        attempt: int = 0,
    ) -> list[Event]:
        """Start the current round with these hands and bazaar (tiles or names, checked)."""
        ids = self.ts.ids
        return self._deal_ids(
            [[ids[t] for t in h] for h in hands], [ids[t] for t in bazaar], attempt
        )

    def _deal_ids(self, hands: list[list[int]], bazaar: list[int], attempt: int) -> list[Event]:
        names = self.ts.names
        self.awaiting_deal = False
        self.attempt = attempt
        self.hands = [self.ts.mask(h) for h in hands]
        self.bazaar = list(bazaar)
        self._left_arm, self._right_arm = [], []
        self.left = self.right = None
        self.last_placer = None
        self._on_table = [0] * (self.max_pip + 1)
        self.rounds.append(
            {
                "hands": [[names[i] for i in h] for h in hands],
                "bazaar": [names[i] for i in bazaar],
                "moves": [],
            }
        )
        seat, tile = self.lead_for_round()
        self.turn, self.required_lead = seat, tile
        return [{"type": "round_start", "round": self.round, "turn": seat, "bazaar": len(bazaar)}]

    # ----------------------------------------------------------------- moves
    def _moves_of(self, seat: int) -> Iterator[Move]:
        hand = self.hands[seat]
        if self.left is None:
            if self.required_lead is not None:
                if hand >> self.required_lead & 1:
                    yield self._leads[self.required_lead]
                return
            for i in self.ts.members(hand):
                yield self._leads[i]
            return
        suits = self.ts.suits
        for table, number in ((self._lefts, self.left), (self._rights, self.right)):
            fitting = hand & suits[number]  # type: ignore[index]
            while fitting:
                bit = fitting & -fitting
                yield table[bit.bit_length() - 1]
                fitting ^= bit

    def legal_moves(self) -> Iterator[Move]:
        """Every placement the player on turn may make (both ends listed when both fit)."""
        if self.status != "playing" or self.turn is None:
            return iter(())
        return self._moves_of(self.turn)

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        if seat is None or seat != self.turn:
            return []
        return [{"tile": str(m.tile), "end": m.end} for m in self.legal_moves()]

    def is_legal(self, move: Move) -> bool:
        return move in set(self.legal_moves())

    def play(self, seat: int, tile: str | Tile, end: str | None = None) -> list[Event]:
        """Place `tile` for `seat` at `end`; then every forced draw and knock. Returns events."""
        if self.status != "playing":
            raise IllegalMove("the game is over")
        if self.turn is None:
            raise IllegalMove("no round is being played")
        if seat != self.turn:
            raise IllegalMove(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        try:
            tid = self.ts.ids[tile]
        except (KeyError, TypeError):
            raise IllegalMove(
                f"{tile!r} is not a tile of the double-{self.max_pip} set"
            ) from None
        bit = 1 << tid
        if not self.hands[seat] & bit:
            raise IllegalMove(f"{self.ts.names[tid]} is not in your hand")
        if end is not None and end != LEFT and end != RIGHT:
            raise IllegalMove(f"unknown end {end!r}: say 'left' or 'right'")
        end = self._resolve_end(tid, end)
        self.hands[seat] ^= bit
        self._place(tid, end)
        name = self.ts.names[tid]
        self.rounds[-1]["moves"].append(
            {"seat": seat, "tile": name, "end": end} if end else {"seat": seat, "tile": name}
        )
        self.last_placer = seat
        events: list[Event] = [
            {"type": "play", "round": self.round, "seat": seat, "tile": name, "end": end}
        ]
        if not self.hands[seat]:
            events += self._end_round("out", seat)
        elif self.makes_fish():
            events += self._end_round("fish", seat)
        else:
            events += self._advance(seat)
        return events

    def _resolve_end(self, tid: int, end: str | None) -> str | None:
        if self.left is None:
            if self.required_lead is not None and tid != self.required_lead:
                raise IllegalMove(
                    f"the first lead must be {self.ts.names[self.required_lead]}"
                )
            return None
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        fits_left = self.left == lo or self.left == hi
        fits_right = self.right == lo or self.right == hi
        name = self.ts.names[tid]
        if not (fits_left or fits_right):
            raise IllegalMove(f"{name} matches neither end ({self.left} and {self.right})")
        if end is None:
            if fits_left and fits_right:
                raise IllegalMove(f"{name} fits both ends: say 'left' or 'right'")
            return LEFT if fits_left else RIGHT
        if not (fits_left if end == LEFT else fits_right):
            shown = self.left if end == LEFT else self.right
            raise IllegalMove(f"{name} does not match the {end} end ({shown})")
        return end

    def _place(self, tid: int, end: str | None) -> None:
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        if end is None:
            self._right_arm.append((tid, lo, hi))
            self.left, self.right = lo, hi
        elif end == LEFT:
            shown = hi if lo == self.left else lo
            self._left_arm.append((tid, shown, self.left))  # type: ignore[arg-type]
            self.left = shown
        else:
            shown = hi if lo == self.right else lo
            self._right_arm.append((tid, self.right, shown))  # type: ignore[arg-type]
            self.right = shown
        if lo != hi:
            self._on_table[lo] += 1
            self._on_table[hi] += 1

    @property
    def chain(self) -> list[tuple[Tile, int, int]]:
        """The line of play, left to right: (tile, number on its left, number on its right)."""
        tiles = self.ts.tiles
        line = self._left_arm[::-1] + self._right_arm
        return [(tiles[i], a, b) for i, a, b in line]

    def _advance(self, seat: int) -> list[Event]:
        """Pass the turn on, drawing and knocking for whoever cannot place a tile."""
        events: list[Event] = []
        fits = self.ts.suits[self.left] | self.ts.suits[self.right]  # type: ignore[index]
        hands, bazaar = self.hands, self.bazaar
        knocks = 0
        while True:
            seat = (seat + 1) % self.players
            if hands[seat] & fits:
                self.turn = seat
                return events
            drawn = 0
            playable = False
            while bazaar and not playable:
                bit = 1 << bazaar.pop(0)
                hands[seat] |= bit
                drawn += 1
                playable = bool(bit & fits)
            if drawn:
                events.append({"type": "draw", "round": self.round, "seat": seat, "count": drawn})
            if playable:
                self.turn = seat
                return events
            events.append({"type": "knock", "round": self.round, "seat": seat})
            knocks += 1
            if knocks == self.players:  # nobody can move and the bazaar is empty
                assert self.last_placer is not None
                return events + self._end_round("fish", self.last_placer)

    # ----------------------------------------------------------------- round and game end
    def _end_round(self, kind: str, by: int) -> list[Event]:
        points = self.round_points(kind, by)
        credited = self.settle_round(kind, by, points)
        end = {"kind": kind, "by": by, "points": points, "credited": credited}
        standings = self.standings_record()
        current = self.rounds[-1]
        current["end"] = end
        current.update(standings)
        self.turn = None
        events: list[Event] = [
            {
                "type": "round_end",
                "round": self.round,
                "end": end,
                "hands": self.hand_names(),
                **standings,
            }
        ]
        result = self.game_over()
        if result is not None:
            return events + self._finish(result)
        return events + self._next_round()

    def _finish(self, result: dict[str, Any]) -> list[Event]:
        self.status = "finished"
        self.turn = None
        self.result = result
        return [{"type": "game_end", "round": self.round, "result": result}]

    def timeout(self, seat: int, reason: str = "timeout") -> list[Event]:
        """End the game because `seat` timed out or resigned (RULES 1.10).

        `reason` ("timeout" or "resign") is told in the events, the record and the result.
        """
        if self.status != "playing":
            raise IllegalMove("the game is over")
        if not 0 <= seat < self.players:
            raise IllegalMove(f"there is no seat {seat}")
        if reason not in TIMEOUT_REASONS:
            raise IllegalMove(f"unknown timeout reason {reason!r}")
        points = [self.hand_points(h) for h in self.hands]
        end = {"kind": "timeout", "by": seat, "points": points, "credited": [0] * self.players}
        self.timed_out = {"round": self.round, "seat": seat, "reason": reason}
        hands = self.hand_names()
        if self.rounds and "end" not in self.rounds[-1]:
            self.rounds[-1]["end"] = end
            self.rounds[-1].update(self.standings_record())
        events: list[Event] = [
            {"type": "timeout", "round": self.round, "seat": seat, "reason": reason},
            {"type": "round_end", "round": self.round, "end": end, "hands": hands,
             **self.standings_record()},
        ]
        return events + self._finish(self.timeout_result(seat, reason))

    def outcome(self) -> dict[str, Any] | None:
        return self.result

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know, and nothing more."""
        finished = self.status == "finished"
        ends = {} if self.left is None else {LEFT: self.left, RIGHT: self.right}
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "status": self.status,
            "you": seat,
            "hand": [] if seat is None else self.ts.names_of(self.hands[seat]),
            "turn": self.turn,
            "round": self.round,
            "ends": ends,
            "chain": [{"tile": str(t), LEFT: a, RIGHT: b} for t, a, b in self.chain],
            "bazaar": len(self.bazaar),
            "legal": self.legal_for(seat) if self.status == "playing" else [],
            "seats": [
                {"seat": s, "tiles": self.hands[s].bit_count(), **self.standings_view(s)}
                for s in range(self.players)
            ],
            "history": [
                {"round": r, "end": rd["end"]["kind"], "by": rd["end"]["by"],
                 "points": rd["end"]["points"], "credited": rd["end"]["credited"],
                 # the standings after the round, as the score table shows them
                 **{k: rd[k] for k in STANDING_KEYS if k in rd}}
                for r, rd in enumerate(self.rounds) if "end" in rd
            ],
            "commitment": self.commitment,
            "seed": self.seed.hex() if finished and self.seed is not None else None,
            "result": self.result,
            **self.extra_view(),
        }

    # ----------------------------------------------------------------- persistence
    def record(self, players: Sequence[str]) -> dict[str, Any]:
        """The game as a domino-record/1 (PROTOCOL §3), finished or still running.

        With a seed the deals are left out (they follow from it). A record of a running game
        with its seed reveals every hand: it is for the server and for finished games only.
        """
        hidden = ("hands", "bazaar") if self.seed is not None else ()
        rounds = [{k: v for k, v in rd.items() if k not in hidden} for rd in self.rounds]
        return {
            "format": RECORD_FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(players),
            "seed": self.seed.hex() if self.seed is not None else None,
            "rounds": rounds,
            "timeout": self.timed_out,
            "result": self.result,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed.hex() if self.seed is not None else None,
            "status": self.status,
            "round": self.round,
            "attempt": self.attempt,
            "hands": self.hand_names(),
            "bazaar": [self.ts.names[i] for i in self.bazaar],
            "chain": [[str(t), a, b] for t, a, b in self.chain],
            "turn": self.turn,
            "required_lead": (
                self.ts.names[self.required_lead] if self.required_lead is not None else None
            ),
            "last_placer": self.last_placer,
            "awaiting_deal": self.awaiting_deal,
            "rounds": _copy_rounds(self.rounds),
            "timed_out": self.timed_out,
            "result": self.result,
            **self.state_extra(),
        }

    def load(self, data: dict[str, Any]) -> None:
        ids = self.ts.ids
        self.status = data["status"]
        self.round = data["round"]
        self.attempt = data["attempt"]
        self.hands = [self.ts.mask([ids[t] for t in h]) for h in data["hands"]]
        self.bazaar = [ids[t] for t in data["bazaar"]]
        # The arms need not be split where the lead was: the right arm may hold it all.
        self._left_arm = []
        self._right_arm = [(ids[name], a, b) for name, a, b in data["chain"]]
        self._on_table = [0] * (self.max_pip + 1)
        for i, _, _ in self._right_arm:
            lo, hi = self.ts.low[i], self.ts.high[i]
            if lo != hi:
                self._on_table[lo] += 1
                self._on_table[hi] += 1
        self.left = self._right_arm[0][1] if self._right_arm else None
        self.right = self._right_arm[-1][2] if self._right_arm else None
        self.turn = data["turn"]
        lead = data["required_lead"]
        self.required_lead = ids[lead] if lead is not None else None
        self.last_placer = data["last_placer"]
        self.awaiting_deal = data["awaiting_deal"]
        self.rounds = _copy_rounds(data["rounds"])
        self.timed_out = data["timed_out"]
        self.result = data["result"]
        self.load_extra(data)

    def hand_names(self) -> list[list[str]]:
        return [self.ts.names_of(h) for h in self.hands]

    # ----------------------------------------------------------------- shared helpers
    def first_held(self, candidates: Sequence[int]) -> tuple[int, int]:
        """The first of these tile ids that some hand holds, and that hand's seat."""
        held = 0
        for h in self.hands:
            held |= h
        for tid in candidates:
            if held >> tid & 1:
                return next(s for s, h in enumerate(self.hands) if h >> tid & 1), tid
        raise AssertionError("no hand holds any tile")  # every deal gives each hand tiles

    @classmethod
    def double_ids(cls) -> list[int]:
        """The doubles' ids from 0-0 up."""
        return cls.ts.members(cls.ts.doubles)

    @classmethod
    def value_ids(cls) -> list[int]:
        """Non-doubles' ids from the highest value down (pips, then the higher half)."""
        return [cls.ts.ids[t] for t in value_order(cls.max_pip)]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} round={self.round} "
            f"turn={self.turn} status={self.status!r}>"
        )
