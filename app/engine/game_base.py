"""What every game holds and what a variant may say: the class attributes, the state of a
game, the options check, and the hooks a variant overrides (their defaults are the draw
game of RULES §1.3). How a variant plugs in: app/engine/game.py."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from app.engine.errors import IllegalMove, OptionsError
from app.engine.events import Event, PlayEvent
from app.engine.layouts import Layout, Line
from app.engine.options import Option, OptionValue, checked_options
from app.engine.rating import timeout_gains
from app.engine.teams import TEAM_PLAYERS
from app.engine.tiles import TileSet, tile_set
from app.engine.values import RULES, Clock, Move, Result, Standings, VariantInfo


class GameBase(ABC):
    """A game's state and the variant's hooks; `Game` adds the play and the views."""

    variant: ClassVar[str]
    title: ClassVar[str] = ""  # the variant's name for people (default: from `variant`)
    max_pip: ClassVar[int] = 6
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_spec: ClassVar[Mapping[str, Option]] = {}
    layout: ClassVar[str] = Line.kind
    wins: ClassVar[str] = "higher"
    team_play: ClassVar[bool] = False
    # The switch among the options that seats two teams of partners (a `team_play` variant
    # that has none always plays in two teams): see `in_two_teams`.
    team_option: ClassVar[str | None] = None
    move_fields: ClassVar[tuple[str, ...]] = ()
    losers_called: ClassVar[str | None] = None
    loser_word: ClassVar[str | None] = None  # GET /api/variants' `loser`: "goat", "donkey"
    # GET /api/variants' `target`: the score that ends every game, when no option sets it.
    fixed_target: ClassVar[int | None] = None
    history_keys: ClassVar[tuple[str, ...]] = ("scores",)
    # The rules by which the bit-mask core (app/engine/playout/) plays this variant's
    # rounds exactly, if it does: "draw" (RULES 1.3's draw game on a line, ended by going
    # out or a block) or "goat_fish" (the same with Goat's fish, RULES 1.4). Only the class
    # that says so is covered, not its subclasses; None: searches play on the engine.
    playout_core: ClassVar[str | None] = None

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
        cls._own_ends = cls.ends_for is not GameBase.ends_for
        cls._own_checks = cls.check_move is not GameBase.check_move
        cls._own_after = cls.after_place is not GameBase.after_place
        cls._own_again = cls.plays_again is not GameBase.plays_again
        cls._own_can = cls.can_place is not GameBase.can_place
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
                "players_out_of_range", variant=cls.variant, min=cls.min_players,
                max=cls.max_players, players=repr(players),
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
            "team_option": cls.team_option if cls.team_play else None,
            "loser": cls.loser_word,
            "target": cls.fixed_target,
        }

    @classmethod
    def in_two_teams(cls, players: int, options: Mapping[str, Any]) -> bool:
        """Whether a game of these (validated) options is played by two teams of partners
        (PROTOCOL §2d's courtyard table needs one)."""
        if not cls.team_play or players != TEAM_PLAYERS:
            return False
        return cls.team_option is None or bool(options.get(cls.team_option))

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
            raise IllegalMove("one_tile_per_turn")
        for name, _ in move.flags:
            if name not in self.move_fields:
                raise IllegalMove("unknown_move_field", variant=self.variant, field=repr(name))

    def after_place(self, seat: int, move: Move) -> list[Event]:
        """What a placement causes before the turn passes (e.g. points during play)."""
        return []

    def public_play(self, event: PlayEvent) -> PlayEvent:
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

    def wins_by(self) -> str:
        """"higher" or "lower": which standings win this game (`wins`, unless an option
        turns it round)."""
        return self.wins

    @staticmethod
    def seats_of(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """`view.seats` in seat order."""
        return sorted(view["seats"], key=lambda entry: entry["seat"])

    def load_view(self, view: Mapping[str, Any]) -> None:
        """Take the standings and the variant's own public state from a seat's `view`: the
        inverse of `standings_view` and `extra_view`, as far as they decide the play, so
        that a search can rebuild a position from what one seat sees (app/engine/knowledge.py).
        The layout is loaded before this is called."""
        raise NotImplementedError(f"{self.variant} cannot be rebuilt from a view")

    def state_extra(self) -> dict[str, Any]:
        return {}

    def load_extra(self, data: dict[str, Any]) -> None:
        return None


    @classmethod
    def _moves_on(cls, end: str | None) -> tuple[Move, ...]:
        """The move of each tile id on `end`, built once per class and end."""
        table = cls._tables.get(end)
        if table is None:
            table = cls._tables[end] = tuple(Move(t, end) for t in cls.ts.tiles)
        return table
