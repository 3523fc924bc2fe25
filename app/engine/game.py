"""The shared mechanics of every variant: rounds, hands, the bazaar, turns, records.

A `Game` is a plain, deterministic state machine. `play()` applies one move (a typed
`Move` as `legal_moves()` yields it, or a tile and an end as a client sends them) and
then performs every forced step (draws, knocks, passes) until somebody must choose a move
again, the round ends or the game ends. Where tiles go is the game's *layout*
(app/engine/layouts.py).

How a new variant plugs in: a subclass in its own module plus one line in
`app/engine/variants.py`'s `VARIANTS`. The subclass says only what differs:

Class attributes
  `variant` (its PROTOCOL name), `title` (its name for people), `max_pip`,
  `min_players`/`max_players`,
  `options_spec` (name -> `Option(default, allowed, label, words)`: the one place its
  options live, with the words clients show for them),
  `layout` (the kind for GET /api/variants: "line", "spinner" or "trains"),
  `wins` ("higher" or "lower"), `team_play` (can be played by teams of two),
  `move_fields` (extra move fields it understands, e.g. Donkey's "closed"; they travel in
  `view.legal`, in `play` and in records as they are), `losers_called` (what a loser is
  called on a rating, e.g. "goats"), `history_keys` (standings copied into `view.history`).

Deal and lead (required): `hand_size()`, `lead_for_round()`; optional `needs_redeal()`,
  `check_options()`. `lead_for_round()` runs once per deal, right after the hands are
  dealt and the layout is new; then `open_round()` does what happens by itself before the
  first move and returns its events (e.g. Mexican Train's engine double in the centre).
Layout: `new_layout()` (default a `Line`); `ends_for(seat)` narrows the open ends a seat
  may use (Mexican Train's own/marked trains).
Turn policy hooks (defaults: the draw game of RULES §1.3):
  `moves_for(seat)` every legal move of that seat (override to add flags or multi-tile
      moves; the default yields one tile on each open end it fits, or any lead);
  `check_move(seat, move)` refuse a move the defaults would allow (or accept the extra
      fields/`also` placements the variant added);
  `after_place(seat, move)` what a placement causes: points during play (Fives),
      returning events;
  `public_play(event)` the play event of a move with extra fields as everyone may see it
      (Donkey's closed double names no tile);
  `plays_again(seat, move)` whether the same seat moves again (Mexican Train's double);
  `can_place(seat)` whether a seat has a move now;
  `cannot_place(seat, events)` what a seat that cannot place does: draw until playable
      (default) or draw one then pass; returns whether it can place now;
  `is_blocked(passes)` whether this many turns in a row without a placement end the
      round (default: every seat knocked);
  `makes_fish()` a round end recognised right after a placement (Goat's fish).
  A hook a variant leaves as `Game` has it is not called at all on the hot path, so
  overriding one costs only that variant.
Scoring (required): `hand_points()`, `settle_round()`, `final_scores()`, `game_over()`,
  `standings_view()`, `standings_record()`; optional `round_points()`,
  `timeout_result()`, `extra_view()`, `state_extra()`/`load_extra()` (variant state in
  `to_dict`).
Time: a variant whose rules read the time (General) reads `self.clock` (the server's
  clock, handed in by `start_game`/`game_from_dict`; None in searches and tests) and
  writes what it read into the round, so that `recall_round()` can give it back when a
  record is replayed. Teams of two: `app/engine/teams.py`.
Records: `check_finished_round()` refuses a recorded round that its moves finished but
  that lacks a field the variant needs (General's `ended_ms`).
Editions: `self.rules` is the edition of the rule book the game plays by (`RULES`; a record
  marked `"rules": 1` sets `FIRST_RULES`, whose readings a variant keeps behind that test).
Goat's family shares RULES §1's deal, leads and fish: `app/engine/goat_family.py`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Self, TypedDict

from app.engine.errors import IllegalMove, OptionsError
from app.engine.layouts import LEFT, RIGHT, Layout, Line
from app.engine.options import Option, OptionValue, checked_options
from app.engine.rating import timeout_gains
from app.engine.shuffle import commitment, deal_order
from app.engine.tiles import Tile, TileSet, not_a_tile, tile_set, value_order

__all__ = [
    "LEFT", "RECORD_FORMAT", "RIGHT", "Event", "Game", "Move", "Placement", "Result", "Standings"
]

RECORD_FORMAT = "domino-record/1"
# Editions of the rule book. A game plays by the current one; a record of a game finished
# under the first (before RULES.md pinned the points its first edition left open) says
# `"rules": 1` and is replayed by the readings of then (`Game.rules`).
FIRST_RULES = 1
RULES = 2
# The server's clock as the engine may read it: epoch milliseconds. The engine never reads
# a clock of its own; a variant whose rules depend on time (General, RULES §12) is handed
# one by whoever runs it live, and a replay uses the times the record wrote instead.
Clock = Callable[[], int]
TIMEOUT_REASONS = ("timeout", "resign")
Event = dict[str, Any]


class RoundEnd(TypedDict):
    """How a round ended (PROTOCOL §3 `end`)."""

    kind: str  # "out" | "fish" | "timeout"
    by: int
    points: list[int]
    credited: list[int]


class Standings(TypedDict, total=False):
    """The standings after a round (PROTOCOL §3 per-round output fields): `scores` by
    seat always; Goat's `remembered` and `carry`; points scored during play (Fives)."""

    scores: list[int]
    remembered: list[int]
    carry: int
    play_points: list[int]


class Result(TypedDict):
    """A finished game's result (PROTOCOL §2 `view.result`, §3 `result`)."""

    reason: str
    losers: list[int]
    winners: list[int]
    final: list[int]
    rating: list[int]


def _copy_rounds(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rounds as a new list whose last round (the only one play changes) is not shared with
    the source; the rounds before it are over and shared as they are."""
    if not rounds:
        return []
    last = rounds[-1]
    return [*rounds[:-1], {**last, "moves": list(last["moves"])}]


class VariantInfo(TypedDict):
    """A variant as GET /api/variants lists it (PROTOCOL §2a)."""

    name: str
    title: str
    players: list[int]  # [min, max]
    options: dict[str, dict[str, Any]]  # name -> {"default", "allowed", "label", "words"}
    layout: str  # "line" | "spinner" | "trains"
    wins: str  # "higher" | "lower"
    teams: bool
    loser: str | None  # what the loser of a game is called ("goat"), if anything


class Placement(NamedTuple):
    """One more tile placed in the same turn (`Move.also`)."""

    tile: Tile
    end: str


class Move(NamedTuple):
    """A move: a tile on an end (None on a lead), any further tiles the variant lets the
    same turn place (`also`), and the variant's extra fields (`flags`, e.g. ("closed", True)).
    """

    tile: Tile
    end: str | None = None
    also: tuple[Placement, ...] = ()
    flags: tuple[tuple[str, OptionValue], ...] = ()

    def __str__(self) -> str:
        text = f"{self.tile}@{self.end}" if self.end else str(self.tile)
        for p in self.also:
            text += f"+{p.tile}@{p.end}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The move as `view.legal` lists it and `play` sends it back (PROTOCOL §2, §2a)."""
        out: dict[str, Any] = {"tile": str(self.tile), "end": self.end}
        if self.also:
            out["also"] = [{"tile": str(p.tile), "end": p.end} for p in self.also]
        out.update(self.flags)
        return out


class Game(ABC):
    """One game at one table: rounds, the layout, hands, bazaar, standings.

    Tiles are ids (their index in canonical order) and hands are bit masks of ids; the
    public surface (moves, views, records) speaks in `Tile`s and "a-b" names.
    """

    variant: ClassVar[str]
    title: ClassVar[str] = ""  # the variant's name for people (default: from `variant`)
    max_pip: ClassVar[int] = 6
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_spec: ClassVar[Mapping[str, Option]] = {}
    layout: ClassVar[str] = Line.kind
    wins: ClassVar[str] = "higher"
    team_play: ClassVar[bool] = False
    move_fields: ClassVar[tuple[str, ...]] = ()
    losers_called: ClassVar[str | None] = None
    loser_word: ClassVar[str | None] = None  # GET /api/variants' `loser`: "goat", "donkey"
    history_keys: ClassVar[tuple[str, ...]] = ("scores",)

    ts: ClassVar[TileSet]
    _tables: ClassVar[dict[str | None, tuple[Move, ...]]]
    _own_ends: ClassVar[bool]
    _own_checks: ClassVar[bool]
    _own_after: ClassVar[bool]
    _own_again: ClassVar[bool]
    _own_can: ClassVar[bool]
    _own_moves: ClassVar[bool]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.ts = tile_set(cls.max_pip)
        cls._tables = {}  # per end name: the move of each tile id on that end
        # play() skips the hooks a variant leaves as they are: it runs thousands of times a
        # second in searches and simulations.
        cls._own_ends = cls.ends_for is not Game.ends_for
        cls._own_checks = cls.check_move is not Game.check_move
        cls._own_after = cls.after_place is not Game.after_place
        cls._own_again = cls.plays_again is not Game.plays_again
        cls._own_can = cls.can_place is not Game.can_place
        cls._own_moves = cls._own_checks or cls._own_after or cls._own_again  # they see the Move

    def __init__(self, players: int, options: dict[str, Any], seed: bytes | None) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.status = "playing"
        self.round = -1
        self.attempt = 0
        self.hands: list[int] = [0] * players  # bit masks of tile ids
        self.bazaar: list[int] = []  # tile ids, the next draw first
        self.board: Layout = self.new_layout()  # the tiles on the table
        self.turn: int | None = None
        self.required_lead: int | None = None  # tile id the lead must be, if any
        self.last_placer: int | None = None
        self.awaiting_deal = False
        self.auto_deal = True  # False: every round waits for `deal()` even with a seed
        # Per round: dealt hands, bazaar, moves, and once over its end and the standings.
        self.rounds: list[dict[str, Any]] = []
        self.timed_out: dict[str, Any] | None = None
        self.result: Result | None = None
        self.clock: Clock | None = None  # set by the live path; not part of the state
        # The edition of the rule book this game plays by (set before `start()`): RULES,
        # or FIRST_RULES for a game begun before the book was pinned (its record says so).
        self.rules = RULES

    # ----------------------------------------------------------------- the variant
    @classmethod
    def validate_options(cls, players: int, options: object) -> dict[str, OptionValue]:
        """Options with defaults filled in; OptionsError names whatever is wrong."""
        if type(players) is not int or not cls.min_players <= players <= cls.max_players:
            raise OptionsError(
                f"{cls.variant} is played by {cls.min_players} to {cls.max_players} players, "
                f"not {players!r}"
            )
        checked = checked_options(cls.variant, cls.options_spec, options)
        cls.check_options(players, checked)
        return checked

    @classmethod
    def describe(cls) -> VariantInfo:
        """The variant as GET /api/variants lists it (PROTOCOL §2a)."""
        return {
            "name": cls.variant,
            "title": cls.title or cls.variant.replace("_", " ").title(),
            "players": [cls.min_players, cls.max_players],
            "options": {name: opt.to_dict() for name, opt in cls.options_spec.items()},
            "layout": cls.layout,
            "wins": cls.wins,
            "teams": cls.team_play,
            "loser": cls.loser_word,
        }

    # ----------------------------------------------------------------- variant hooks
    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> None:
        """Raise OptionsError for a combination of options and players that cannot be played."""
        return None

    def new_layout(self) -> Layout:
        """An empty table for a new round."""
        return Line(self.ts)

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

    def open_round(self) -> list[Event]:
        """What happens by itself once a round is dealt and its leader known, as events
        (e.g. Mexican Train's engine double put in the centre; not a move). Default: nothing."""
        return []

    def ends_for(self, seat: int) -> dict[str, int]:
        """The open ends `seat` may play on now, and the number each shows."""
        return self.board.open

    def moves_for(self, seat: int) -> Iterator[Move]:
        """Every move `seat` may make now (both ends listed when a tile fits both)."""
        hand = self.hands[seat]
        board = self.board
        if not board.size:
            leads = self._moves_on(None)
            if self.required_lead is not None:
                if hand >> self.required_lead & 1:
                    yield leads[self.required_lead]
                return
            for i in self.ts.members(hand):
                yield leads[i]
            return
        suits, tables = self.ts.suits, self._tables
        for end, number in (self.ends_for(seat) if self._own_ends else board.open).items():
            fitting = hand & suits[number]
            if not fitting:
                continue
            table = tables.get(end) or self._moves_on(end)
            while fitting:
                bit = fitting & -fitting
                yield table[bit.bit_length() - 1]
                fitting ^= bit

    def check_move(self, seat: int, move: Move) -> None:
        """Refuse (IllegalMove) a move whose tile fits its end but the variant forbids, or
        whose `also`/flags it does not understand."""
        if move.also:
            raise IllegalMove("one tile per turn in this game")
        for name, _ in move.flags:
            if name not in self.move_fields:
                raise IllegalMove(f"{self.variant} moves have no {name!r}")

    def after_place(self, seat: int, move: Move) -> list[Event]:
        """What a placement causes before the turn passes (e.g. points during play)."""
        return []

    def public_play(self, event: Event) -> Event:
        """The event of a move with extra fields as every seat may see it (Donkey hides a
        closed double's face); the record keeps the move whole."""
        return event

    def plays_again(self, seat: int, move: Move) -> bool:
        """Whether `seat` moves again after this move."""
        return False

    def can_place(self, seat: int) -> bool:
        ends = self.ends_for(seat) if self._own_ends else None
        return bool(self.hands[seat] & self.board.fits_mask(ends))

    def cannot_place(self, seat: int, events: list[Event]) -> bool:
        """`seat` has no tile to place: draw until one fits, else knock (RULES 1.3).

        Appends the events (draw counts, knock); returns whether the seat can place now.
        """
        fits = self.board.fits_mask(self.ends_for(seat) if self._own_ends else None)
        hands, bazaar = self.hands, self.bazaar
        drawn = 0
        playable = False
        while bazaar and not playable:
            bit = 1 << bazaar.pop(0)
            hands[seat] |= bit
            drawn += 1
            playable = bool(bit & fits)
        if drawn:
            events.append({"type": "draw", "round": self.round, "seat": seat, "count": drawn})
        if not playable:
            events.append({"type": "knock", "round": self.round, "seat": seat})
        return playable

    def is_blocked(self, passes: int) -> bool:
        """Whether `passes` turns in a row without a placement end the round (a block)."""
        return passes >= self.players  # every seat knocked: nobody can move, bazaar empty

    def makes_fish(self) -> bool:
        """Whether the position after a placement ends the round at once as a fish."""
        return False

    def round_points(self, kind: str, by: int) -> list[int]:
        """Each seat's round points when the round ends this way."""
        return [self.hand_points(h) for h in self.hands]

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
    def standings_record(self) -> Standings:
        """Per-round output fields of a record after the round is credited."""
        ...

    @abstractmethod
    def game_over(self) -> Result | None:
        """The result if the game has just ended (after a round was credited)."""
        ...

    @abstractmethod
    def final_scores(self) -> list[int]:
        """The standings by seat that a result reports (Goat: accounts, 0 while not opened)."""
        ...

    def timeout_result(self, seat: int, reason: str = "timeout") -> Result:
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

    def recall_round(self, written: Mapping[str, Any]) -> None:
        """A replay hands over what a record's round says beyond its deal and moves, before
        the round's moves are played (e.g. General's `ended_ms`); raise IllegalMove if it
        cannot be so. Default: nothing to recall."""
        return None

    def check_finished_round(self, written: Mapping[str, Any]) -> None:
        """A replay hands over a record's round again once its moves have finished it (by
        going out or a fish); raise IllegalMove if a field the round must then give is
        missing (e.g. General's `ended_ms`). Default: none is required."""
        return None

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
        if self.seed is None or not self.auto_deal:
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
        self.board = self.new_layout()
        self.last_placer = None
        self.rounds.append(
            {
                "hands": [[names[i] for i in h] for h in hands],
                "bazaar": [names[i] for i in bazaar],
                "moves": [],
            }
        )
        seat, tile = self.lead_for_round()
        self.turn, self.required_lead = seat, tile
        opened = self.open_round()
        return [
            {"type": "round_start", "round": self.round, "turn": seat, "bazaar": len(self.bazaar)},
            *opened,
        ]

    # ----------------------------------------------------------------- moves
    @classmethod
    def _moves_on(cls, end: str | None) -> tuple[Move, ...]:
        """The move of each tile id on `end`, built once per class and end."""
        table = cls._tables.get(end)
        if table is None:
            table = cls._tables[end] = tuple(Move(t, end) for t in cls.ts.tiles)
        return table

    def legal_moves(self) -> Iterator[Move]:
        """Every move the player on turn may make (both ends listed when a tile fits both)."""
        if self.status != "playing" or self.turn is None:
            return iter(())
        return self.moves_for(self.turn)

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        if seat is None or seat != self.turn:
            return []
        return [m.to_dict() for m in self.legal_moves()]

    def is_legal(self, move: Move) -> bool:
        return move in set(self.legal_moves())

    def play(
        self, seat: int, move: Move | Tile | str, end: str | None = None, **fields: Any
    ) -> list[Event]:
        """Make `move` for `seat` (a `Move`, or a tile and an end plus the variant's extra
        `move_fields`); then every forced step. Returns the events."""
        if self.status != "playing":
            raise IllegalMove("the game is over")
        if self.turn is None:
            raise IllegalMove("no round is being played")
        if seat != self.turn:
            raise IllegalMove(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        tile: Tile | str
        if isinstance(move, Move):
            tile, end, also, flags = move.tile, move.end, move.also, move.flags
        else:
            tile, also, flags = move, (), ()
            if fields:
                also, flags = self._extra_fields(fields)
        try:
            tid = self.ts.ids[tile]
        except (KeyError, TypeError):
            raise IllegalMove(not_a_tile(tile, self.max_pip)) from None
        bit = 1 << tid
        if not self.hands[seat] & bit:
            raise IllegalMove(f"{self.ts.names[tid]} is not in your hand")
        end = self._resolve_end(seat, tid, end)
        if also or flags:
            resolved = Move(self.ts.tiles[tid], end, also, flags)
            self.check_move(seat, resolved)
            entry = {"seat": seat, **resolved.to_dict()}
            if end is None:
                del entry["end"]
            event = self.public_play(
                {"type": "play", "round": self.round, **entry, "end": end}
            )
        else:  # the common case, kept cheap: a cached move and plain dicts
            if self._own_moves:
                resolved = (self._tables.get(end) or self._moves_on(end))[tid]
                self.check_move(seat, resolved)
            name = self.ts.names[tid]
            entry = {"seat": seat, "tile": name}
            if end is not None:
                entry["end"] = end
            event = {"type": "play", "round": self.round, "seat": seat, "tile": name, "end": end}
        self.hands[seat] ^= bit
        self.board.place(tid, end)
        for extra in also:
            self.hands[seat] ^= 1 << self.ts.ids[extra.tile]
            self.board.place(self.ts.ids[extra.tile], extra.end)
        self.rounds[-1]["moves"].append(entry)
        self.last_placer = seat
        events: list[Event] = [event]
        if self._own_after:
            events += self.after_place(seat, resolved)
        if not self.hands[seat]:
            events += self._end_round("out", seat)
        elif self.makes_fish():
            events += self._end_round("fish", seat)
        elif self._own_again and self.plays_again(seat, resolved):
            events += self._pass_turn(seat)
        else:
            events += self._pass_turn((seat + 1) % self.players)
        return events

    def _extra_fields(
        self, fields: dict[str, Any]
    ) -> tuple[tuple[Placement, ...], tuple[tuple[str, OptionValue], ...]]:
        """A client's or record's extra move fields as `Move.also` and `Move.flags`."""
        also: list[Placement] = []
        flags: list[tuple[str, OptionValue]] = []
        for name, value in fields.items():
            if name not in self.move_fields:
                raise IllegalMove(f"{self.variant} moves have no {name!r}")
            if name == "also":
                if not isinstance(value, list) or not all(
                    isinstance(p, dict) and isinstance(p.get("end"), str) for p in value
                ):
                    raise IllegalMove("'also' must list {tile, end} placements")
                for p in value:
                    try:
                        also.append(Placement(self.ts.tiles[self.ts.ids[p.get("tile")]], p["end"]))
                    except (KeyError, TypeError):
                        raise IllegalMove(not_a_tile(p.get("tile"), self.max_pip)) from None
            elif isinstance(value, bool | int | str):
                flags.append((name, value))
            else:
                raise IllegalMove(f"{name!r} must be a boolean, a number or a string")
        return tuple(also), tuple(flags)

    def _resolve_end(self, seat: int, tid: int, end: str | None) -> str | None:
        ends = self.ends_for(seat) if self._own_ends else self.board.open
        if end is not None:
            number = ends.get(end)
            if number is not None and (number == self.ts.low[tid] or number == self.ts.high[tid]):
                return end  # the common case: the end is given and the tile fits it
            if not self.board.knows(end):
                said = " or ".join(repr(e) for e in self.board.end_names)
                raise IllegalMove(f"unknown end {end!r}: say {said}")
        name = self.ts.names[tid]
        if self.board.empty:
            if self.required_lead is not None and tid != self.required_lead:
                raise IllegalMove(
                    f"the first lead must be {self.ts.names[self.required_lead]}"
                )
            return None
        fitting = self.board.fits(tid, ends)
        if not fitting:
            shown = " and ".join(str(n) for n in ends.values())
            where = "neither end" if len(ends) == 2 else "no open end"
            raise IllegalMove(f"{name} matches {where} ({shown})")
        if end is None:
            if len(fitting) > 1:
                said = " or ".join(repr(e) for e in fitting)
                fits_both = "both ends" if len(fitting) == 2 else "several ends"
                raise IllegalMove(f"{name} fits {fits_both}: say {said}")
            return fitting[0]
        if end not in fitting:
            if end not in ends:
                raise IllegalMove(f"the {end} end is not open")
            raise IllegalMove(f"{name} does not match the {end} end ({ends[end]})")
        return end

    def _pass_turn(self, seat: int) -> list[Event]:
        """Give the turn to the first seat from `seat` on that can place a tile; each one
        that cannot follows `cannot_place` (draw, knock); a block ends the round."""
        events: list[Event] = []
        passes = 0
        # The same open ends for every seat unless the variant narrows them per seat.
        fits = -1 if self._own_ends or self._own_can else self.board.fits_all
        while True:
            can = self.hands[seat] & fits if fits >= 0 else self.can_place(seat)
            if can or self.cannot_place(seat, events):
                self.turn = seat
                return events
            passes += 1
            if self.is_blocked(passes):
                assert self.last_placer is not None
                return events + self._end_round("fish", self.last_placer)
            seat = (seat + 1) % self.players

    # ----------------------------------------------------------------- round and game end
    def _end_round(self, kind: str, by: int) -> list[Event]:
        points = self.round_points(kind, by)
        credited = self.settle_round(kind, by, points)
        end: RoundEnd = {"kind": kind, "by": by, "points": points, "credited": credited}
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

    def _finish(self, result: Result) -> list[Event]:
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
        end: RoundEnd = {
            "kind": "timeout", "by": seat, "points": points, "credited": [0] * self.players
        }
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

    def outcome(self) -> Result | None:
        return self.result

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know, and nothing more."""
        return {**self.public_view(), **self.own_view(seat)}

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The part of `view(seat)` that is the seat's alone: its hand and its moves."""
        return {
            "you": seat,
            "hand": [] if seat is None else self.ts.names_of(self.hands[seat]),
            "legal": self.legal_for(seat) if self.status == "playing" else [],
        }

    def public_view(self) -> dict[str, Any]:
        """The part of every seat's and every spectator's view that is the same for all:
        built once for all the views of one position."""
        finished = self.status == "finished"
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "status": self.status,
            "turn": self.turn,
            "round": self.round,
            "layout": self.board.kind,
            "ends": dict(self.board.open),
            "chain": self.board.view(),
            "bazaar": len(self.bazaar),
            "seats": [
                {"seat": s, "tiles": self.hands[s].bit_count(), **self.standings_view(s)}
                for s in range(self.players)
            ],
            "history": self._history(),
            "commitment": self.commitment,
            "seed": self.seed.hex() if finished and self.seed is not None else None,
            "result": self.result,
            **self.extra_view(),
        }

    def _history(self) -> list[dict[str, Any]]:
        """`view.history`: one entry per round that has ended, with the standings after it
        as the score table shows them. Only the last round changes in play, so the entries
        of the rounds before it are kept from copy to copy instead of made for every view."""
        rounds = self.rounds
        kept: list[dict[str, Any]] = self.__dict__.get("_history_kept", [])
        done = kept[-1]["round"] + 1 if kept else 0
        fresh = [self._history_entry(r, rounds[r]) for r in range(done, len(rounds) - 1)
                 if "end" in rounds[r]]
        if fresh:
            kept = self.__dict__["_history_kept"] = kept + fresh
        last = len(rounds) - 1
        if last >= 0 and "end" in rounds[last]:
            return [*kept, self._history_entry(last, rounds[last])]
        return list(kept)

    def _history_entry(self, r: int, rd: dict[str, Any]) -> dict[str, Any]:
        end = rd["end"]
        return {"round": r, "end": end["kind"], "by": end["by"], "points": end["points"],
                "credited": end["credited"],
                **{k: rd[k] for k in self.history_keys if k in rd}}

    # ----------------------------------------------------------------- persistence
    def record(self, players: Sequence[str]) -> dict[str, Any]:
        """The game as a domino-record/1 (PROTOCOL §3), finished or still running.

        With a seed the deals are left out (they follow from it). A record of a running game
        with its seed reveals every hand: it is for the server and for finished games only.
        """
        hidden = ("hands", "bazaar") if self.seed is not None else ()
        rounds = [{k: v for k, v in rd.items() if k not in hidden} for rd in self.rounds]
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(players),
            "seed": self.seed.hex() if self.seed is not None else None,
            "rounds": rounds,
            "timeout": self.timed_out,
            "result": self.result,
        }
        if self.rules != RULES:
            record["rules"] = self.rules  # replayed by that edition's readings
        return record

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
            "layout": self.board.to_dict(),
            "turn": self.turn,
            "required_lead": (
                self.ts.names[self.required_lead] if self.required_lead is not None else None
            ),
            "last_placer": self.last_placer,
            "awaiting_deal": self.awaiting_deal,
            "rounds": _copy_rounds(self.rounds),
            "timed_out": self.timed_out,
            "result": self.result,
            "rules": self.rules,
            **self.state_extra(),
        }

    def load(self, data: dict[str, Any]) -> None:
        ids = self.ts.ids
        self.status = data["status"]
        self.round = data["round"]
        self.attempt = data["attempt"]
        self.hands = [self.ts.mask([ids[t] for t in h]) for h in data["hands"]]
        self.bazaar = [ids[t] for t in data["bazaar"]]
        self.board = self.new_layout()
        self.board.load(data["layout"])
        self.turn = data["turn"]
        lead = data["required_lead"]
        self.required_lead = ids[lead] if lead is not None else None
        self.last_placer = data["last_placer"]
        self.awaiting_deal = data["awaiting_deal"]
        self.rounds = _copy_rounds(data["rounds"])
        self.timed_out = data["timed_out"]
        self.result = data["result"]
        # A state saved before editions were written is a game begun under the first.
        self.rules = data.get("rules", FIRST_RULES)
        self.load_extra(data)

    def copy(self) -> Self:
        """An independent copy for searching ahead: playing on it leaves this game alone.

        Cheap: containers are copied one level deep (their items are immutable values),
        the layout by its own `copy()`, the rounds that are over shared.
        """
        clone = object.__new__(type(self))
        clone.__dict__.update(
            {
                k: v.copy() if isinstance(v, (list, dict, set)) else v
                for k, v in self.__dict__.items()
            }
        )
        clone.board = self.board.copy()
        clone.rounds = _copy_rounds(self.rounds)
        return clone

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
