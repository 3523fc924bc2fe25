"""One process's fan-out: its sockets' table and lobby subscriptions, and presence.

Every committed change is announced with the table's new state, so a process shows it
without reading the table back: the pub/sub reader hands the announcement to the table's
`Watch`, which makes one `Snapshot` of it (the game parsed once, each seat's view built
once) and offers it to the table's sockets. The mover's process does the same from the
state it has just written, before the announcement comes back. Anything that needs I/O
(presence, a resync) runs in a task of its own, never in the reader.

A subscription is made before the table is read, so every version after the one read
is announced to it; a socket gets each version once and in order. A resubscription of the
process (Redis came back) is a gap: it re-reads every table it serves and pushes what its
sockets missed. A heartbeat checks the versions of the tables served here, resyncs any
this process is behind on, and tells each socket the seq of its tables, so a client that
missed something notices. Which seats have a socket here is written to the store's
presence hash (refreshed while it lasts, expiring if this process dies), and every change
of it is announced with the seats connected anywhere. How many spectators' sockets each
process has is kept beside it, and a change of the total is announced too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from redis.exceptions import RedisError

from app.engine import Game
from app.live.hub import Hub, Message
from app.live.store import Announced, Announcement, LiveStore, writer_process
from app.services.tables.lobby import list_tables
from app.services.tables.table import Table
from app.services.tables.transact import (
    events_since,
    game_of,
    now_ms,
    own_view,
    public_view,
)

log = logging.getLogger(__name__)

# Presence entries live this long unless their process refreshes them.
PRESENCE_TTL_MS = 30_000
PRESENCE_REFRESH_SECONDS = 10.0
# PROTOCOL §2a: at least every 15 s on a socket with table subscriptions.
HEARTBEAT_SECONDS = 10.0
PRESENCE_KEEP_SECONDS = 60
# How often a lost table is put back and read again before it counts as gone for good.
RESTORE_ATTEMPTS = 3
# Spectators coming and going are counted in the store at most this often per table.
WATCHERS_DEBOUNCE_SECONDS = 0.25


class Subscriber(Protocol):
    """A socket as the feed sees it (implemented by the websocket gateway)."""

    conn_id: str

    @property
    def player_id(self) -> int | None: ...

    def offer_state(self, snapshot: Snapshot) -> None: ...

    def offer(self, message: dict[str, Any]) -> None: ...


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
        parts = change.parts()
        if sum(sizes) != len(parts):
            return None
        pieces, at = [], 0
        for size in sizes:
            pieces.append(parts[at:at + size])
            at += size
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
        self._shared_view: dict[str, Any] = {}
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
                view = orjson.Fragment(ready.shared + own)
            else:
                view = orjson.Fragment(self._shared() + self._own_part(seat))
            self._views[seat] = view
        return view

    def _shared(self) -> bytes:
        if not self._public:
            shared = public_view(self.table, self.game, self.connected, self.spectators)
            self._own = {}
            # The shared object, open for the seat's own fields: `{...,`
            self._public = orjson.dumps(shared)[:-1] + b","
            self._shared_view = shared
        return self._public

    def _own_part(self, seat: int | None) -> bytes:
        own = self._own.get(seat)
        if own is None:
            self._shared()
            own = self._own[seat] = orjson.dumps(
                own_view(self.game, seat, self._shared_view))[1:]
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

    def message(self, player_id: int | None, last_sent: int) -> dict[str, Any]:
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
            return Announcement(b"," + orjson.dumps({"log": table.log_sizes()})[1:-1])
        seats: list[int | None] = [*range(table.players), None]
        parts = [self._shared(), *(self._own_part(seat) for seat in seats),
                 self._events_since(self.version - 1)[0]]
        fields = orjson.dumps({
            "players": [None if who is None else who.id for who in table.seats],
            "log": table.log_sizes(),
            "connected": sorted(self.connected),
            "spectators": self.spectators,
            "sizes": [len(part) for part in parts],
        })
        return Announcement(b"," + fields[1:-1], b"".join(parts))

    def presence_message(self) -> dict[str, Any]:
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


@dataclass(eq=False)
class Watch:
    """One table as this process serves it: its sockets and the newest version seen."""

    table_id: str
    subs: set[Subscriber] = field(default_factory=set)
    latest: Snapshot | None = None
    connected: set[int] = field(default_factory=set)
    # The seats this process has marked present in the store.
    local_seats: set[int] = field(default_factory=set)
    # Spectators' sockets here (as stored, and as they are now), and on every process.
    local_watchers: int = 0
    watchers_now: int = 0
    watchers_pending: bool = False
    spectators: int = 0
    # Whether another process listened at the last change this one made (its views are
    # made ready for them then); until one is made here, they are.
    shared: bool = True
    # Presence work is serialised per table, in the order it was asked for.
    presence_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def spectators_now(self) -> int:
        """The total with this process's latest count, before the store has it."""
        return max(0, self.spectators + self.watchers_now - self.local_watchers)

    def seen(self) -> int:
        return 0 if self.latest is None else self.latest.version

    def advance(self, snapshot: Snapshot) -> bool:
        """Take `snapshot` if it is newer than what this process has shown; then offer it."""
        if self.latest is not None and snapshot.version <= self.latest.version:
            return False
        self.latest = snapshot
        for sub in list(self.subs):
            sub.offer_state(snapshot)
        return True


class Feed:
    def __init__(self, store: LiveStore, hub: Hub, process_id: str,
                 heartbeat_seconds: float = HEARTBEAT_SECONDS,
                 recover: Callable[[str], Awaitable[bool]] | None = None) -> None:
        self.store = store
        # Puts back a table the store lost, from its database snapshot (True: done).
        self.recover = recover
        self.heartbeat_seconds = heartbeat_seconds
        self.hub = hub
        self.process_id = process_id
        self.watches: dict[str, Watch] = {}
        self.lobby: set[Subscriber] = set()
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        # This process's writes are shown here as they are made, not when they echo back,
        # and announced with every seat's view made here (tables.commit).
        store.announcer = self

    async def start(self) -> None:
        await self.hub.start(self._on_lobby)
        self._heartbeat = asyncio.create_task(self._beat(), name="live-heartbeat")

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        for task in list(self._tasks):
            task.cancel()
        for watch in list(self.watches.values()):
            if watch.local_seats:
                try:
                    await self.store.set_presence(
                        watch.table_id, self.process_id, set(), watch.local_seats, now_ms(),
                        0, PRESENCE_KEEP_SECONDS,
                    )
                except Exception:
                    log.warning("could not clear presence of table %s", watch.table_id)
            if watch.local_watchers:
                try:
                    await self.store.set_watchers(
                        watch.table_id, self.process_id, 0, 0, PRESENCE_KEEP_SECONDS
                    )
                except Exception:
                    log.warning("could not clear the spectators of table %s", watch.table_id)
        await self.hub.stop()

    @property
    def tables(self) -> dict[str, set[Subscriber]]:
        """The sockets of each table served here."""
        return {table_id: watch.subs for table_id, watch in self.watches.items()}

    def _spawn(self, work: Coroutine[Any, Any, None], what: str) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("%s failed: %r", what, error)

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- subscriptions ----------------------------------------------------------------

    async def subscribe_lobby(self, sub: Subscriber) -> list[dict[str, Any]]:
        self.lobby.add(sub)
        return await list_tables(self.store)

    async def subscribe_table(self, sub: Subscriber, table_id: str) -> Snapshot | None:
        """Serve `table_id` to `sub`; the current snapshot, read after subscribing."""
        async with self._lock:
            watch = self.watches.get(table_id)
            if watch is None:
                watch = self.watches[table_id] = Watch(table_id)
                try:
                    await self.hub.add_table(
                        self.store.keys.table_channel(table_id),
                        lambda message: self._on_table(watch, message),
                        watch.seen,
                    )
                    # Subscribed, then listed, then read: no change is missed.
                    await self.store.listen(table_id)
                except BaseException:
                    del self.watches[table_id]
                    with contextlib.suppress(Exception):
                        await self.hub.remove(self.store.keys.table_channel(table_id))
                    raise
            watch.subs.add(sub)
        try:
            snapshot = await load_snapshot(self.store, table_id)
        except BaseException:
            await self.unsubscribe_table(sub, table_id)
            raise
        if snapshot is None:
            await self.unsubscribe_table(sub, table_id)
            return None
        watch.connected = snapshot.connected
        watch.spectators = snapshot.spectators
        if not watch.advance(snapshot):
            assert watch.latest is not None
            snapshot = watch.latest
        await self._update_presence(watch)
        # The snapshot may have been read before this socket counted as present: it does now.
        # (An older one's views may have been made for other counts: they are made again.)
        snapshot.recount(snapshot.connected | watch.local_seats, watch.spectators_now())
        return snapshot

    async def unsubscribe_table(self, sub: Subscriber, table_id: str) -> None:
        async with self._lock:
            watch = self.watches.get(table_id)
            if watch is None or sub not in watch.subs:
                return
            watch.subs.discard(sub)
            if not watch.subs:
                del self.watches[table_id]
                await self.hub.remove(self.store.keys.table_channel(table_id))
                # Left listed, the table's changes are only published for nobody.
                with contextlib.suppress(RedisError, OSError):
                    await self.store.unlisten(table_id)
        await self._update_presence(watch)

    async def drop(self, sub: Subscriber) -> None:
        """A socket closed: forget all it subscribed to, whatever the store says."""
        self.lobby.discard(sub)
        for table_id in [t for t, watch in self.watches.items() if sub in watch.subs]:
            try:
                await self.unsubscribe_table(sub, table_id)
            except Exception as error:
                # Its presence entries expire by themselves; nothing else is left behind.
                log.warning("unsubscribing a closed socket from %s failed: %r", table_id, error)

    def prepare(self, table: Table, game: Game | None) -> Snapshot:
        """A change this process is about to write, made ready to show and to announce.

        `game`: the game of `table` if the writer has it (it need not be parsed again)."""
        if game is None and table.game is not None:
            game = _UNPARSED  # the writer did not have the game at hand
        watch = self.watches.get(table.id)
        if watch is None:  # no socket here: the counts, and so the views, are others' to make
            return Snapshot(table, set(), game, share=False)
        return Snapshot(table, watch.connected, game, spectators=watch.spectators_now(),
                        share=watch.shared)

    def written(self, snapshot: Snapshot, published: bool = True) -> Snapshot:
        """A change this process has just written: show it to the table's sockets here.
        `published`: whether it was announced (another process listens to the table)."""
        watch = self.watches.get(snapshot.table_id)
        if watch is not None:
            watch.shared = published
            if not watch.advance(snapshot) and watch.latest is not None \
                    and watch.latest.version == snapshot.version:
                return watch.latest
            self._after_change(watch, snapshot)
        return snapshot

    def deliver(self, table: Table, game: Game | None) -> Snapshot:
        """The snapshot of a change this process wrote, as shown here (shown now if it was
        not yet)."""
        watch = self.watches.get(table.id)
        if watch is not None and watch.latest is not None \
                and watch.latest.version == table.version:
            return watch.latest
        return self.written(self.prepare(table, game))

    def latest(self, table_id: str) -> Snapshot | None:
        """The newest version of the table this process has seen, if it serves the table."""
        watch = self.watches.get(table_id)
        return None if watch is None else watch.latest

    def seats_all_here(self, table_id: str) -> bool:
        """Whether every seat of the table that has a socket anywhere has one here (and one
        does): then this process should hold the table, not relay its moves to the process
        that made its last change (app.services.play.relay). Behind a proxy that routes a
        table's sockets to one process, that process takes the table over at its first
        move, after a join or a start made elsewhere; with the seats split over processes,
        none has them all and the holder stays where it is."""
        watch = self.watches.get(table_id)
        if watch is None or watch.latest is None:
            return False
        # The seats of the sockets here as they are now (the store's presence, which
        # `local_seats` follows, is written a moment after a join).
        here = {watch.latest.seat_for(sub.player_id) for sub in watch.subs} - {None}
        return bool(here) and watch.connected <= here

    # -- presence ----------------------------------------------------------------------

    async def _update_presence(self, watch: Watch) -> None:
        """Mark the seats that have a socket here present in the store (and announce it)."""
        async with watch.presence_lock:
            snapshot = watch.latest
            seat_of_sub = [] if snapshot is None or self.watches.get(watch.table_id) is not watch \
                else [snapshot.seat_for(sub.player_id) for sub in watch.subs]
            seats = {seat for seat in seat_of_sub if seat is not None}
            watchers = sum(seat is None for seat in seat_of_sub)
            self._note_watchers(watch, watchers)
            before = watch.local_seats
            if seats == before:
                return
            now = now_ms()
            await self.store.set_presence(
                watch.table_id, self.process_id, seats, before - seats, now,
                now + PRESENCE_TTL_MS, PRESENCE_KEEP_SECONDS,
            )
            watch.local_seats = seats
            watch.connected = (watch.connected - (before - seats)) | seats

    def _note_watchers(self, watch: Watch, watchers: int) -> None:
        """Count this process's spectators of the table in the store soon: a crowd coming
        or going at once is written once, not once per socket."""
        watch.watchers_now = watchers
        if watchers != watch.local_watchers and not watch.watchers_pending:
            watch.watchers_pending = True
            self._spawn(self._flush_watchers(watch), f"spectators of table {watch.table_id}")

    async def _flush_watchers(self, watch: Watch) -> None:
        await asyncio.sleep(WATCHERS_DEBOUNCE_SECONDS)
        watch.watchers_pending = False
        if watch.watchers_now != watch.local_watchers:
            await self._update_watchers(watch, watch.watchers_now)

    async def _update_watchers(self, watch: Watch, watchers: int) -> None:
        """Store how many spectators' sockets are here; announce the new total."""
        now = now_ms()
        # Counted as stored before the store answers: the script announces the new total,
        # and that announcement may be read first; with the old local count beside it this
        # process's spectators would be counted twice (and shown so until the next change).
        # The total is taken from that announcement only, never from the reply: the reply
        # comes on another connection and may be read after a later change's announcement
        # (another process's), which it would undo (and the processes would disagree).
        before, watch.local_watchers = watch.local_watchers, watchers
        try:
            await self.store.count_spectators(
                watch.table_id, self.process_id, watchers, now, now + PRESENCE_TTL_MS,
                PRESENCE_KEEP_SECONDS,
            )
        except BaseException:
            watch.local_watchers = before
            raise

    async def refresh_presence(self) -> None:
        for watch in list(self.watches.values()):
            if watch.local_seats:
                now = now_ms()
                await self.store.set_presence(
                    watch.table_id, self.process_id, watch.local_seats, set(), now,
                    now + PRESENCE_TTL_MS, PRESENCE_KEEP_SECONDS,
                )
            if watch.local_watchers:
                await self.store.set_watchers(
                    watch.table_id, self.process_id, watch.local_watchers,
                    now_ms() + PRESENCE_TTL_MS, PRESENCE_KEEP_SECONDS,
                )

    def _after_change(self, watch: Watch, snapshot: Snapshot) -> None:
        # A join or leave may turn a spectator's socket into a seated player's.
        seats = {seat for sub in watch.subs
                 if (seat := snapshot.seat_for(sub.player_id)) is not None}
        if seats != watch.local_seats:
            self._spawn(self._update_presence(watch), f"presence of table {watch.table_id}")

    # -- announcements -----------------------------------------------------------------

    def _on_table(self, watch: Watch, message: Message) -> None:
        if isinstance(message, Announced):
            if message.version > watch.seen():
                snapshot = Snapshot.received(message, watch.connected,
                                             watch.spectators_now())
                if watch.advance(snapshot):
                    self._after_change(watch, snapshot)
            return
        kind = message.get("kind")
        if kind in ("presence", "spectators"):
            seats = message.get("seats")
            if isinstance(seats, list):
                watch.connected = {s for s in seats if isinstance(s, int)}
            if isinstance(message.get("count"), int):
                watch.spectators = message["count"]
            if watch.latest is not None:
                latest = watch.latest
                # The next socket to read this version reads the counts as they are now.
                latest.recount(set(watch.connected), watch.spectators_now())
                note = Snapshot(latest.table, watch.connected,
                                spectators=watch.spectators_now()).presence_message()
                for sub in list(watch.subs):
                    sub.offer(note)
        elif kind == "notice":  # a message for every watcher, not a change of the table
            for sub in list(watch.subs):
                sub.offer(message["message"])
        elif kind == "chat":
            for sub in list(watch.subs):
                if sub.conn_id != message.get("origin"):
                    sub.offer(message["message"])
        elif kind == "removed":
            for sub in list(watch.subs):
                sub.offer({"type": "table.removed", "table_id": watch.table_id})
        elif kind == "resubscribed":
            self._spawn(self.resync(watch.table_id), f"resync of table {watch.table_id}")

    async def resync(self, table_id: str) -> None:
        """Re-read a table this process serves and push what its sockets have not seen."""
        watch = self.watches.get(table_id)
        if watch is None:
            return
        snapshot = await load_snapshot(self.store, table_id)
        if snapshot is None and watch.latest is not None and self.recover is not None:
            # A table we served is gone: lost by the store (then its snapshot brings it
            # back, announced like any change) or over and expired (then there is none).
            try:
                snapshot = await self._restored(table_id)
            except Exception as error:
                # Whether it has a copy cannot be told now: the next heartbeat asks again.
                log.warning("restoring table %s failed: %r", table_id, error)
                return
        if snapshot is None:
            if watch.latest is not None:  # it was there and is gone: say so
                watch.latest = None
                for sub in list(watch.subs):
                    sub.offer({"type": "table.removed", "table_id": table_id})
            return
        watch.connected = snapshot.connected
        watch.spectators = snapshot.spectators
        if watch.advance(snapshot):
            self._after_change(watch, snapshot)

    async def _restored(self, table_id: str) -> Snapshot | None:
        """A lost table as it is back in the store: put back from its database copy here, or
        by another process that got there first (then this one's restore finds it there and
        does nothing, and the table is read). None only when it has no copy: its game is over
        and written, or it was never copied. A table lost again meanwhile is tried again."""
        assert self.recover is not None
        for _ in range(RESTORE_ATTEMPTS):
            await self.recover(table_id)
            snapshot = await load_snapshot(self.store, table_id)
            if snapshot is not None:
                return snapshot
        return None

    def _on_lobby(self, message: dict[str, Any]) -> None:
        if message.get("kind") == "resubscribed":
            self._spawn(self._resync_lobby(), "lobby resync")
            return
        if not self.lobby:
            return
        table_id = message.get("table_id")
        if not isinstance(table_id, str):
            return
        note: dict[str, Any]
        if message.get("kind") == "remove":
            note = {"type": "lobby.remove", "table_id": table_id}
        elif isinstance(message.get("table"), dict):
            note = {"type": "lobby.update", "table": message["table"]}
        else:
            return
        for sub in list(self.lobby):
            sub.offer(note)

    async def _resync_lobby(self) -> None:
        if not self.lobby:
            return
        for table in await list_tables(self.store):
            for sub in list(self.lobby):
                sub.offer({"type": "lobby.update", "table": table})

    # -- heartbeat ---------------------------------------------------------------------

    async def heartbeat(self) -> None:
        """Catch up with any table this process fell behind on; tell sockets their seqs."""
        table_ids = list(self.watches)
        if not table_ids:
            return
        versions = await self.store.versions(table_ids)
        per_socket: dict[Subscriber, dict[str, int]] = {}
        for table_id, version in versions.items():
            watch = self.watches.get(table_id)
            if watch is None:
                continue
            if version is None or watch.latest is None or version > watch.latest.version:
                await self.resync(table_id)
            if watch.latest is None:
                continue
            for sub in watch.subs:
                per_socket.setdefault(sub, {})[table_id] = watch.latest.version
        for sub, seqs in per_socket.items():
            sub.offer({"type": "table.heartbeat", "tables": seqs})

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            try:
                await self.heartbeat()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.store.outage_since is None:  # else said once, as the outage
                    log.warning("heartbeat failed: %r", error)
