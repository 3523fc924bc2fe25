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

A version as shown is app.services.fanout.snapshot, a table as served here
app.services.fanout.watch, the presence work app.services.fanout.presence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from redis.exceptions import RedisError

from app.engine import Game
from app.live.hub import Hub, Message
from app.live.store import Announced, LiveStore
from app.services.errors import ServiceError
from app.services.fanout.presence import PRESENCE_REFRESH_SECONDS, Presence
from app.services.fanout.snapshot import _UNPARSED, Snapshot, load_snapshot
from app.services.fanout.watch import Subscriber, Watch
from app.services.tables.lobby import list_tables
from app.services.tables.table import Table
from app.wire.between import Resubscribed
from app.wire.messages import LobbyRemove, LobbyUpdate, TableInfo
from app.wire.notes import LobbyNoteIn

__all__ = ["PRESENCE_REFRESH_SECONDS", "Feed", "Snapshot", "Subscriber"]

log = logging.getLogger(__name__)

T = TypeVar("T")

# PROTOCOL §2a: at least every 15 s on a socket with table subscriptions.
HEARTBEAT_SECONDS = 10.0
# How often a lost table is put back and read again before it counts as gone for good.
RESTORE_ATTEMPTS = 3


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
        self.presence = Presence(store, process_id, self.watches, self._spawn)

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
        await self.presence.clear()
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

    async def subscribe_lobby(self, sub: Subscriber) -> list[TableInfo]:
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
        if snapshot is None and self.recover is not None:
            try:  # lost by the store, perhaps: then it is put back first (one way for all)
                snapshot = await self._restored(table_id)
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
        await self.presence.update(watch)
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
        await self.presence.update(watch)

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

    def _after_change(self, watch: Watch, snapshot: Snapshot) -> None:
        # A join or leave may turn a spectator's socket into a seated player's.
        seats = {seat for sub in watch.subs
                 if (seat := snapshot.seat_for(sub.player_id)) is not None}
        if seats != watch.local_seats:
            self._spawn(self.presence.update(watch), f"presence of table {watch.table_id}")

    async def refresh_presence(self) -> None:
        await self.presence.refresh()

    # -- announcements -----------------------------------------------------------------

    def _on_table(self, watch: Watch, message: Message) -> None:
        if isinstance(message, Announced):
            if message.version > watch.seen():
                snapshot = Snapshot.received(message, watch.connected,
                                             watch.spectators_now())
                if watch.advance(snapshot):
                    self._after_change(watch, snapshot)
            return
        if message["kind"] == "presence" or message["kind"] == "spectators":
            if message["kind"] == "presence":
                watch.connected = set(message["seats"])
            else:
                watch.spectators = message["count"]
            if watch.latest is not None:
                latest = watch.latest
                # The next socket to read this version reads the counts as they are now.
                latest.recount(set(watch.connected), watch.spectators_now())
                note = Snapshot(latest.table, watch.connected,
                                spectators=watch.spectators_now()).presence_message()
                for sub in list(watch.subs):
                    sub.offer(note)
        elif message["kind"] == "notice":  # a message for every watcher, not a change
            for sub in list(watch.subs):
                sub.offer(message["message"])
        elif message["kind"] == "chat":
            for sub in list(watch.subs):
                if sub.conn_id != message["origin"]:
                    sub.offer(message["message"])
        elif message["kind"] == "removed":
            for sub in list(watch.subs):
                sub.offer({"type": "table.removed", "table_id": watch.table_id})
        elif message["kind"] == "resubscribed":
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
            put_back = await self.recover(table_id)
            snapshot = await load_snapshot(self.store, table_id)
            if snapshot is not None or not put_back:
                return snapshot
        return None

    async def restoring(self, table_id: str, work: Callable[[], Awaitable[T]]) -> T:
        """`work` (a read or a command of the table); when it finds no such table and the
        table was only lost by the store, it is put back and `work` done again: a table
        being restored is never `not_found` (the one way for reads, subscriptions and
        commands; `subscribe_table` and `resync` restore first by themselves)."""
        try:
            return await work()
        except ServiceError as error:
            if error.code != "not_found" or error.params.get("table") != table_id \
                    or self.recover is None or await self._restored(table_id) is None:
                raise
        return await work()

    def _on_lobby(self, message: LobbyNoteIn | Resubscribed) -> None:
        if message["kind"] == "resubscribed":
            self._spawn(self._resync_lobby(), "lobby resync")
            return
        if not self.lobby:
            return
        note: LobbyUpdate | LobbyRemove
        if message["kind"] == "remove":
            note = {"type": "lobby.remove", "table_id": message["table_id"]}
        else:
            note = {"type": "lobby.update", "table": message["table"]}
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
