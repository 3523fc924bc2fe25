"""Where tiles go: the layouts of RULES.md (a line, a spinner/house, trains).

A layout knows the table and nothing else: the open ends by name and the number each shows
(`open`), which ends a tile fits (`fits`), placing a tile (`place`), the *count* of the open
ends (`count`, RULES §4 and §6), a view (`view`, the `chain` of PROTOCOL §2) and its
serialisation (`to_dict` / `load`). Hands, turns and scores are the game's business.

End names are PROTOCOL's: `left`, `right` (every layout with a line), `up`, `down` (the
spinner's short sides), `mexican` and `train:<seat>` (trains).

How a variant picks its layout: `Game.new_layout()` returns a fresh one for every deal
(default: `Line`), and the class attribute `Game.layout` names its kind for
GET /api/variants. A layout that needs parameters (the spinner's count rule, the number of
trains) gets them from the game's options in that hook, e.g.

    class Fives(Game):
        layout = "spinner"
        def new_layout(self) -> Layout:
            return Spinner(self.ts, count_rule=self.options["spinner_count"])

Tiles are ids (indices in the set's canonical order, see `TileSet`); each placed tile is
kept as (tile id, number on its inner side, number on its outer side) so a view can draw
it the right way round and a count can tell a double at an end.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, NamedTuple, Self

from app.engine.tiles import TileSet

LEFT, RIGHT, UP, DOWN = "left", "right", "up", "down"
MEXICAN = "mexican"
Placed = tuple[int, int, int]  # (tile id, inner number, outer number)
ViewEntry = dict[str, Any]


def train_end(seat: int) -> str:
    """The end name of `seat`'s personal train (PROTOCOL §3)."""
    return f"train:{seat}"


class Layout(ABC):
    """The tiles on the table and the ends open for the next one.

    `open` maps each end a tile may be played on now to the number it shows, in a fixed
    order; it is kept up to date by `place`, because move generation reads it on every turn.
    `on_table[n]` counts the non-doubles showing n that are down (Goat's fish test, §1.4).
    """

    kind: ClassVar[str]
    # Every end name this layout can ever open (for a readable error on a misspelt end).
    end_names: ClassVar[tuple[str, ...]]

    def __init__(self, ts: TileSet) -> None:
        self.ts = ts
        self.open: dict[str, int] = {}
        self.on_table = [0] * (ts.max_pip + 1)
        self.size = 0  # tiles on the table
        self.fits_all = 0  # bit mask of every tile that fits an open end (kept by place)

    @property
    def empty(self) -> bool:
        return self.size == 0

    def knows(self, end: str) -> bool:
        """Whether `end` names an end of this kind of layout (open now or not)."""
        return end in self.end_names

    def fits(self, tid: int, ends: dict[str, int] | None = None) -> list[str]:
        """The ends (of `ends`, default all open ones) that tile `tid` can be played on."""
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        return [e for e, n in (self.open if ends is None else ends).items() if n in (lo, hi)]

    def fits_mask(self, ends: dict[str, int] | None = None) -> int:
        """The bit mask of every tile that fits one of `ends` (default: all open ends)."""
        if ends is None or ends is self.open:
            return self.fits_all
        return self._mask_of(ends)

    def _mask_of(self, ends: dict[str, int]) -> int:
        suits, mask = self.ts.suits, 0
        for n in ends.values():
            mask |= suits[n]
        return mask

    def _opened(self) -> None:
        """The open ends changed other than by a line's two ends: recompute `fits_all`."""
        self.fits_all = self._mask_of(self.open)

    def _count_tile(self, tid: int) -> None:
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        self.size += 1
        if lo != hi:
            self.on_table[lo] += 1
            self.on_table[hi] += 1

    def _oriented(self, tid: int, number: int) -> Placed:
        """Tile `tid` played onto an end showing `number`: (tid, number, the other half)."""
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        return tid, number, hi if lo == number else lo

    def _end_value(self, entry: Placed) -> int:
        """What an end counts: its number, both halves for a double placed crosswise."""
        tid, _, outer = entry
        return 2 * outer if self.ts.low[tid] == self.ts.high[tid] else outer

    @abstractmethod
    def place(self, tid: int, end: str | None) -> None:
        """Put tile `tid` on `end` (None: the first tile of the round); the caller has
        checked that it fits."""

    def count(self) -> int:
        """The sum of the open ends by RULES §4 (0 for a layout that is never counted)."""
        return 0

    @abstractmethod
    def view(self) -> list[ViewEntry]:
        """The tiles on the table for PROTOCOL's `view.chain` (JSON-safe)."""

    @abstractmethod
    def tiles(self) -> list[int]:
        """Every tile id on the table."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        ...

    @abstractmethod
    def load(self, data: dict[str, Any]) -> None:
        """Restore `to_dict()`'s output into this fresh layout."""

    def copy(self) -> Self:
        """An independent copy (placing on it leaves this one alone)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.open = dict(self.open)
        clone.on_table = list(self.on_table)
        clone._copy_arms(self)
        return clone

    @abstractmethod
    def _copy_arms(self, source: Self) -> None:
        """Give this copy its own lists of placed tiles."""

    def _names(self, arm: list[Placed]) -> list[list[Any]]:
        names = self.ts.names
        return [[names[t], a, b] for t, a, b in arm]

    def _ids(self, arm: list[list[Any]]) -> list[Placed]:
        ids = self.ts.ids
        placed = [(ids[name], a, b) for name, a, b in arm]
        for tid, _, _ in placed:
            self._count_tile(tid)
        return placed


class Line(Layout):
    """One line of play with two ends (Goat, Classic, Sea Goat, Sport Goat, General).

    The lead `a-b` shows a on the left and b on the right (PROTOCOL §3). Kept as two arms
    from the lead: the right arm starts with the lead, the left arm grows leftward; each
    entry is (tile id, number on its left, number on its right) in the line's own reading.
    """

    kind: ClassVar[str] = "line"
    end_names: ClassVar[tuple[str, ...]] = (LEFT, RIGHT)

    def __init__(self, ts: TileSet) -> None:
        super().__init__(ts)
        self.left_arm: list[Placed] = []
        self.right_arm: list[Placed] = []

    def place(self, tid: int, end: str | None) -> None:
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        self.size += 1  # _count_tile, inlined: this is the hot path of every game
        if lo != hi:
            self.on_table[lo] += 1
            self.on_table[hi] += 1
        if end is None:
            self.right_arm.append((tid, lo, hi))
            self.open = {LEFT: lo, RIGHT: hi}
        elif end == LEFT:
            shown = self.open[LEFT]
            outer = hi if lo == shown else lo
            self.left_arm.append((tid, outer, shown))
            self.open[LEFT] = outer
        else:
            shown = self.open[RIGHT]
            outer = hi if lo == shown else lo
            self.right_arm.append((tid, shown, outer))
            self.open[RIGHT] = outer
        suits = self.ts.suits
        self.fits_all = suits[self.open[LEFT]] | suits[self.open[RIGHT]]

    @property
    def line(self) -> list[Placed]:
        """The line left to right: (tile id, number on its left, number on its right)."""
        return self.left_arm[::-1] + self.right_arm

    def _leftmost(self) -> int:
        return self.left_arm[-1][0] if self.left_arm else self.right_arm[0][0]

    def count(self) -> int:
        if self.size == 0:
            return 0
        if not self.left_arm and len(self.right_arm) == 1:
            return self.ts.pips[self.right_arm[0][0]]  # a lone lead counts once, both halves
        left = self.left_arm[-1] if self.left_arm else self.right_arm[0]
        # The left end entry reads (tid, outer, inner); turn it to (tid, inner, outer).
        return self._end_value((left[0], left[2], left[1])) + self._end_value(self.right_arm[-1])

    def view(self) -> list[ViewEntry]:
        names = self.ts.names
        return [{"tile": names[t], LEFT: a, RIGHT: b} for t, a, b in self.line]

    def tiles(self) -> list[int]:
        return [t for t, _, _ in self.line]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self._names(self.line)}

    def load(self, data: dict[str, Any]) -> None:
        # The arms need not be split where the lead was: the right arm may hold it all.
        self.left_arm = []
        self.right_arm = self._ids(data["line"])
        if self.right_arm:
            self.open = {LEFT: self.right_arm[0][1], RIGHT: self.right_arm[-1][2]}
        self._opened()

    def _copy_arms(self, source: Self) -> None:
        self.left_arm = list(source.left_arm)
        self.right_arm = list(source.right_arm)


class Spinner(Line):
    """A line whose first double is a spinner (Fives, Telephone's house, Donkey's cross).

    Once both long sides of the spinner are covered, its short sides `up` and `down` open
    too (RULES §4). `count_rule` is how the spinner counts once both long sides are
    covered: "gambler" (it no longer counts; only tiles played on it do) or "full" (each
    uncovered short side counts its number).
    """

    kind: ClassVar[str] = "spinner"
    end_names: ClassVar[tuple[str, ...]] = (LEFT, RIGHT, UP, DOWN)

    def __init__(self, ts: TileSet, count_rule: str = "gambler") -> None:
        super().__init__(ts)
        self.count_rule = count_rule
        self.spinner: int | None = None  # tile id of the spinner once a double is down
        self.up_arm: list[Placed] = []  # outward from the spinner: (tid, inner, outer)
        self.down_arm: list[Placed] = []

    @property
    def spinning(self) -> bool:
        """Whether both long sides of the spinner are covered (its short sides are open)."""
        s = self.spinner
        return s is not None and s != self._leftmost() and s != self.right_arm[-1][0]

    def place(self, tid: int, end: str | None) -> None:
        if end in (UP, DOWN):
            self._count_tile(tid)
            arm = self.up_arm if end == UP else self.down_arm
            placed = self._oriented(tid, self.open[end])
            arm.append(placed)
            self.open[end] = placed[2]
            self._opened()
            return
        super().place(tid, end)
        if self.spinner is None and self.ts.low[tid] == self.ts.high[tid]:
            self.spinner = tid
        if UP not in self.open and self.spinning:
            n = self.ts.low[self.spinner]  # type: ignore[index]
            self.open[UP] = n
            self.open[DOWN] = n
        if UP in self.open:
            self._opened()

    def count(self) -> int:
        total = super().count()
        if UP in self.open:
            n = self.ts.low[self.spinner]  # type: ignore[index]
            for arm in (self.up_arm, self.down_arm):
                if arm:
                    total += self._end_value(arm[-1])
                elif self.count_rule == "full":
                    total += n
        return total

    def view(self) -> list[ViewEntry]:
        entries = super().view()
        if self.spinner is not None:
            spinner = self.ts.names[self.spinner]
            for entry in entries:
                if entry["tile"] == spinner:
                    entry["spinner"] = True
        names = self.ts.names
        for end, arm in ((UP, self.up_arm), (DOWN, self.down_arm)):
            entries += [{"tile": names[t], "arm": end, "inner": a, "outer": b} for t, a, b in arm]
        return entries

    def tiles(self) -> list[int]:
        return super().tiles() + [t for t, _, _ in self.up_arm + self.down_arm]

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "spinner": None if self.spinner is None else self.ts.names[self.spinner],
            UP: self._names(self.up_arm),
            DOWN: self._names(self.down_arm),
        }

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        self.spinner = None if data["spinner"] is None else self.ts.ids[data["spinner"]]
        self.up_arm = self._ids(data[UP])
        self.down_arm = self._ids(data[DOWN])
        if self.spinning:
            n = self.ts.low[self.spinner]  # type: ignore[index]
            self.open[UP] = self.up_arm[-1][2] if self.up_arm else n
            self.open[DOWN] = self.down_arm[-1][2] if self.down_arm else n
        self._opened()

    def _copy_arms(self, source: Self) -> None:
        super()._copy_arms(source)
        self.up_arm = list(source.up_arm)
        self.down_arm = list(source.down_arm)


class ClosedDouble(NamedTuple):
    """A double laid face down (Donkey, RULES §8): its tile, the seat that laid it, the end
    it was laid on (the name its owner opens it by) and every end it blocks."""

    tid: int
    owner: int
    end: str
    blocks: tuple[str, ...]


class Cross(Spinner):
    """Donkey's table (RULES §8): a line whose first double is a cross, open on all four
    sides at once (no waiting for its long sides, unlike the Fives spinner), and doubles
    that may lie face down ("closed").

    A closed double is an ordinary placed tile for the line's geometry: the ends beyond it
    stay in `open` with the number they will show, and `blocked` says whose they are. Only
    the game decides who may use which end (`ends_for`): nobody plays past a closed double
    but its owner, and he only by opening it. The first double is the cross whether it lies
    closed or not; laid closed it blocks its outer long side and both short sides.
    """

    def __init__(self, ts: TileSet) -> None:
        super().__init__(ts)
        self.closed: dict[str, ClosedDouble] = {}  # by the end each was laid on
        self.blocked: dict[str, int] = {}  # every blocked end -> the seat that may open it

    @property
    def spinning(self) -> bool:
        return self.spinner is not None

    def close(self, tid: int, end: str, owner: int) -> ClosedDouble:
        """Turn the double `tid`, just placed on `end`, face down."""
        blocks = (end, UP, DOWN) if tid == self.spinner and end in (LEFT, RIGHT) else (end,)
        closed = self.closed[end] = ClosedDouble(tid, owner, end, blocks)
        self._reblock()
        return closed

    def reopen(self, end: str) -> ClosedDouble:
        """Turn the closed double laid on `end` face up; its ends open for everyone."""
        closed = self.closed.pop(end)
        self._reblock()
        return closed

    def _reblock(self) -> None:
        self.blocked = {e: c.owner for c in self.closed.values() for e in c.blocks}

    def free_ends(self, seat: int | None) -> dict[str, int]:
        """The ends `seat` may play on: every open end but those behind another seat's
        closed double (its own stay listed: it may open them). None: nobody's own."""
        blocked = self.blocked
        if not blocked:
            return self.open
        return {e: n for e, n in self.open.items() if blocked.get(e, seat) == seat}

    def view(self) -> list[ViewEntry]:
        entries = super().view()
        if not self.closed:
            return entries
        # A closed double is hidden information (RULES §8): face, numbers and all.
        hidden = {self.ts.names[c.tid]: c for c in self.closed.values()}
        for entry in entries:
            closed = hidden.get(entry["tile"])
            if closed is not None:
                for key in (LEFT, RIGHT, "inner", "outer"):
                    if key in entry:
                        entry[key] = None
                entry.update(tile=None, closed=True, owner=closed.owner, end=closed.end)
        return entries

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "closed": [[self.ts.names[c.tid], c.owner, c.end] for c in self.closed.values()],
        }

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        for name, owner, end in data.get("closed", []):
            self.close(self.ts.ids[name], end, owner)

    def _copy_arms(self, source: Self) -> None:
        super()._copy_arms(source)
        self.closed = dict(source.closed)
        self.blocked = dict(source.blocked)


class Trains(Layout):
    """Mexican Train's table (RULES §5): the engine double in the centre, one personal train
    per seat (`train:<seat>`), the shared `mexican` train, and markers on trains.

    Every train starts at the engine's number. Which trains a seat may play on (its own,
    the Mexican, any with a marker; an open double first) is the variant's turn policy,
    not the layout's: `open` lists every train's end.
    """

    kind: ClassVar[str] = "trains"
    end_names: ClassVar[tuple[str, ...]] = (MEXICAN,)  # plus train:<seat> for each seat

    def __init__(self, ts: TileSet, players: int) -> None:
        super().__init__(ts)
        self.players = players
        self.engine: int | None = None  # tile id of the centre double
        self.trains: dict[str, list[Placed]] = {
            **{train_end(s): [] for s in range(players)},
            MEXICAN: [],
        }
        self.markers: set[int] = set()  # seats whose train carries a marker

    def knows(self, end: str) -> bool:
        return end in self.trains

    def place(self, tid: int, end: str | None) -> None:
        self._count_tile(tid)
        if end is None:
            self.engine = tid
            self.open = {e: self.ts.low[tid] for e in self.trains}
        else:
            placed = self._oriented(tid, self.open[end])
            self.trains[end].append(placed)
            self.open[end] = placed[2]
        self._opened()

    def view(self) -> list[ViewEntry]:
        if self.engine is None:
            return []
        names = self.ts.names
        n = self.ts.low[self.engine]
        entries: list[ViewEntry] = [{"tile": names[self.engine], "arm": None, LEFT: n, RIGHT: n}]
        for end, arm in self.trains.items():
            entries += [{"tile": names[t], "arm": end, "inner": a, "outer": b} for t, a, b in arm]
        return entries

    def tiles(self) -> list[int]:
        engine = [] if self.engine is None else [self.engine]
        return engine + [t for arm in self.trains.values() for t, _, _ in arm]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "engine": None if self.engine is None else self.ts.names[self.engine],
            "trains": {end: self._names(arm) for end, arm in self.trains.items()},
            "markers": sorted(self.markers),
        }

    def load(self, data: dict[str, Any]) -> None:
        if data["engine"] is not None:
            self.place(self.ts.ids[data["engine"]], None)
        for end, arm in data["trains"].items():
            self.trains[end] = self._ids(arm)
            if arm:
                self.open[end] = self.trains[end][-1][2]
        self.markers = set(data["markers"])
        self._opened()

    def _copy_arms(self, source: Self) -> None:
        self.trains = {end: list(arm) for end, arm in source.trains.items()}
        self.markers = set(source.markers)

