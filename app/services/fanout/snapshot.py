"""A table at one version as this process shows it: the game parsed once, each seat's view
and the events serialised once, whatever the number of sockets that get them.

A version this process wrote is shown from the table it has at hand; one another process
announced carries the views its writer made for every seat (`Ready`), which are routed to
the sockets as bytes, the table left unparsed until something here needs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from app.engine import Game
from app.live.store import Announced, Announcement, LiveStore, writer_process
from app.services.tables.table import Table
from app.services.tables.transact import (
    events_since,
    game_of,
    now_ms,
    own_view,
    public_view,
)
from app.wire.between import ChangeFields
from app.wire.bytes import join_parts, joined_view, members, split_parts, view_head, view_rest
from app.wire.messages import PublicView, TablePresence, TableState

_UNPARSED: Any = object()


@dataclass(frozen=True, slots=True)
class Ready:
    """The views another process made of a version for every seat (and a spectator), as
    its announcement carries them: the seats' people (to find a socket's seat without the
    table), the counts the views were made for, the part every view shares (an open JSON
    object, `{...,`), each seat's own rest of it (`...}`) in seat order then a spectator's,
    and the events of the version (since the one before)."""

    players: tuple[int | None, ...]
    connected: frozenset[int]
    spectators: int
    shared: bytes
    own: tuple[bytes, ...]
    events: bytes

    @classmethod
    def read(cls, change: Announced) -> Ready | None:
        """The views `change` carries; None when it carries none (its writer did not know
        the counts) or they do not add up."""
        header = change.header
        sizes, players, connected = header.get("sizes"), header.get("players"), \
            header.get("connected")
        if not (isinstance(sizes, list) and isinstance(players, list)
                and isinstance(connected, list) and len(sizes) == len(players) + 3):
            return None
        pieces = split_parts(change.parts(), sizes)
        if pieces is None:
            return None
        return cls(tuple(players), frozenset(connected), int(header.get("spectators", 0)),
                   pieces[0], tuple(pieces[1:-1]), pieces[-1])


class Snapshot:
    """A table at one version, with the seats connected anywhere and the spectators.

    Made here from a table this process has at hand (it wrote or read it), or from another
    process's announcement (`received`): then the table is parsed only when something here
    needs it (a move, a presence note, a view for counts the writer did not have), and each
    socket gets the view its writer made for its seat, as bytes. Every view and event list
    is serialised once per version and count."""

    __slots__ = ("_events", "_log", "_own", "_public", "_ready", "_seats", "_shared_view",
                 "_state", "_table", "_views", "connected", "holder", "parsed", "share",
                 "spectators", "table_id", "version")

    def __init__(self, table: Table | None, connected: set[int], game: Game | None = _UNPARSED,
                 spectators: int = 0, *, share: bool = True) -> None:
        self._table = table
        if table is not None:
            self.table_id, self.version = table.id, table.version
        self.connected = connected
        self.spectators = spectators
        self.parsed = game
        # Whether this version's announcement carries its views: `connected` and
        # `spectators` are the table's (this process serves it, so the views are fit for
        # every process) and another process listened at the table's last change.
        self.share = share
        self._state = b""
        self._ready: Ready | None = None
        # The process that made a received version (its writer prefix): it holds the table
        # parsed (app.services.play.relay). None: made here, or read from the store.
        self.holder: str | None = None
        # The sizes of a received state's log entries (see `Table.logged`).
        self._log: list[int] | None = None
        # The shared part of this version's views (`{...,`), each seat's own rest of its
        # view, each whole view, and the events since each version a socket last had.
        self._public = b""
        self._shared_view: PublicView | None = None
        self._own: dict[int | None, bytes] = {}
        self._views: dict[int | None, orjson.Fragment] = {}
        self._events: dict[int, tuple[bytes, orjson.Fragment]] = {}
        # Each seated person's seat, found once per version (every socket asks).
        self._seats: dict[int, int] | None = None

    @classmethod
    def received(cls, change: Announced, connected: set[int], spectators: int) -> Snapshot:
        """The version another process announced, its table left unparsed."""
        snapshot = cls(None, connected, spectators=spectators)
        snapshot.table_id, snapshot.version = str(change.header["table_id"]), change.version
        snapshot._state = change.state()
        snapshot._ready = Ready.read(change)
        snapshot.holder = writer_process(change.writer)
        sizes = change.header.get("log")
        if isinstance(sizes, list) and all(isinstance(size, int) for size in sizes):
            snapshot._log = sizes
        return snapshot

    @property
    def table(self) -> Table:
        table = self._table
        if table is None:
            state = self._state
            # The log entries' JSON as the writer made it, so a change made here from this
            # table does not serialise them all again (`seal`).
            sizes = self._log
            table = self._table = Table.from_dict(
                orjson.loads(state), self.version,
                None if sizes is None else Table.logged(state, sizes))
        return table

    @property
    def table_parsed(self) -> bool:
        """Whether this snapshot's table has been read here (a received one's is read only
        when something needs it)."""
        return self._table is not None

    def seat_for(self, player_id: int | None) -> int | None:
        seats = self._seats
        if seats is None:
            seats = self._seats = {}
            people = (self._ready.players if self._table is None and self._ready is not None
                      else [None if who is None else who.id for who in self.table.seats])
            for seat, who in enumerate(people):
                if who is not None:
                    seats.setdefault(who, seat)
        return None if player_id is None else seats.get(player_id)

    @property
    def game(self) -> Game | None:
        if self.parsed is _UNPARSED:
            self.parsed = game_of(self.table)
        return self.parsed

    def take_game(self) -> Game | None:
        """The parsed game, given up for a move to be tried on (no copy needed): a view of
        this version still to be built parses the state again."""
        game = self.game
        self.parsed = _UNPARSED
        return game

    def recount(self, connected: set[int], spectators: int) -> None:
        """The seats connected and the spectators as they are now: the views made for the
        counts before are made again (a queued message keeps the one it was given)."""
        if connected != self.connected or spectators != self.spectators:
            self.connected, self.spectators = connected, spectators
            self._public = b""
            self._own, self._views = {}, {}

    def view_for(self, seat: int | None) -> orjson.Fragment:
        """`seat`'s view as JSON: the shared part and his own, joined as one object."""
        view = self._views.get(seat)
        if view is None:
            ready = self._ready
            if ready is not None and ready.spectators == self.spectators \
                    and ready.connected == self.connected:
                own = ready.own[-1 if seat is None else seat]
                view = orjson.Fragment(joined_view(ready.shared, own))
            else:
                view = orjson.Fragment(joined_view(self._shared(), self._own_part(seat)))
            self._views[seat] = view
        return view

    def _shared(self) -> bytes:
        if not self._public:
            shared = public_view(self.table, self.game, self.connected, self.spectators)
            self._own = {}
            # The shared object, open for the seat's own fields: `{...,`
            self._public = view_head(shared)
            self._shared_view = shared
        return self._public

    def _own_part(self, seat: int | None) -> bytes:
        own = self._own.get(seat)
        if own is None:
            self._shared()
            shared = self._shared_view
            assert shared is not None
            own = self._own[seat] = view_rest(own_view(self.game, seat, shared))
        return own

    def _events_since(self, last_sent: int) -> tuple[bytes, orjson.Fragment]:
        """The events after version `last_sent` up to this one, as JSON (and as a fragment
        of a message)."""
        events = self._events.get(last_sent)
        if events is None:
            ready = self._ready
            if last_sent <= 0:
                raw = b"[]"
            elif ready is not None and last_sent == self.version - 1:
                raw = ready.events
            else:
                raw = orjson.dumps(events_since(self.table, self.version, last_sent))
            events = self._events[last_sent] = raw, orjson.Fragment(raw)
        return events

    def message(self, player_id: int | None, last_sent: int) -> TableState:
        """The `table.state` for this player, with the events he has not seen yet."""
        return {
            "type": "table.state",
            "table_id": self.table_id,
            "seq": self.version,
            "view": self.view_for(self.seat_for(player_id)),
            "events": self._events_since(last_sent)[1],
            # The server's clock, so a client whose own clock is off can still count down
            # to `view.deadline` correctly.
            "server_time": now_ms(),
        }

    def announcement(self) -> Announcement:
        """What this version's announcement carries besides the state: where its log's
        entries lie in it, and every seat's view and a spectator's, made once here for every
        process that serves the table (none when this process does not know the counts,
        then each makes its own, or nobody else listened at the last change)."""
        table = self.table
        if not self.share:
            log_only: ChangeFields = {"log": table.log_sizes()}
            return Announcement(members(log_only))
        seats: list[int | None] = [*range(table.players), None]
        parts = [self._shared(), *(self._own_part(seat) for seat in seats),
                 self._events_since(self.version - 1)[0]]
        joined, sizes = join_parts(parts)
        fields: ChangeFields = {
            "players": [None if who is None else who.id for who in table.seats],
            "log": table.log_sizes(),
            "connected": sorted(self.connected),
            "spectators": self.spectators,
            "sizes": sizes,
        }
        return Announcement(members(fields), joined)

    def presence_message(self) -> TablePresence:
        return {
            "type": "table.presence",
            "table_id": self.table_id,
            "seq": self.version,
            "seats": [
                {
                    "seat": s,
                    "player": None if who is None else who.name,
                    "connected": s in self.connected,
                }
                for s, who in enumerate(self.table.seats)
            ],
            "spectators": self.spectators,
        }


async def load_snapshot(store: LiveStore, table_id: str) -> Snapshot | None:
    current, connected, watchers = await store.load_with_watchers(table_id, now_ms())
    if current is None:
        return None
    return Snapshot(Table.from_dict(current.state, current.version), connected,
                    spectators=watchers)

