"""One process's fan-out: its sockets' table and lobby subscriptions, and presence.

On every announced change the process re-reads the table once and hands each of its
sockets a `Snapshot`, from which the socket takes the view of its own seat (computed
once per seat). Which seats have a socket here is written to the store's presence hash
(refreshed while it lasts, expiring if this process dies), so every process shows the
same `connected` flags.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from app.engine import Game
from app.live.hub import Handler, Hub
from app.live.store import LiveStore
from app.services.lobby import list_tables
from app.services.tables import (
    build_view,
    events_since,
    game_of,
    now_ms,
    public_table,
    seat_of,
)

log = logging.getLogger(__name__)

# Presence entries live this long unless their process refreshes them.
PRESENCE_TTL_MS = 30_000
PRESENCE_REFRESH_SECONDS = 10.0


class Subscriber(Protocol):
    """A socket as the feed sees it (implemented by the websocket gateway)."""

    conn_id: str

    @property
    def player_id(self) -> int | None: ...

    def offer_state(self, snapshot: Snapshot) -> None: ...

    def offer(self, message: dict[str, Any]) -> None: ...


@dataclass
class Snapshot:
    """A table at one version, with the seats connected anywhere."""

    table_id: str
    version: int
    state: dict[str, Any]
    connected: set[int]
    spectators: int = 0
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict)

    def seat_for(self, player_id: int | None) -> int | None:
        return seat_of(self.state, player_id)

    @cached_property
    def game(self) -> Game | None:
        return game_of(self.state)

    def view_for(self, seat: int | None) -> dict[str, Any]:
        if seat not in self._views:
            self._views[seat] = build_view(
                self.state, self.game, seat, self.connected, self.spectators
            )
        return self._views[seat]

    def message(self, player_id: int | None, last_sent: int) -> dict[str, Any]:
        """The `table.state` for this player, with the events he has not seen yet."""
        return {
            "type": "table.state",
            "table_id": self.table_id,
            "seq": self.version,
            "view": self.view_for(self.seat_for(player_id)),
            "events": events_since(self.state, self.version, last_sent),
            # The server's clock, so a client whose own clock is off can still count down
            # to `view.deadline` correctly.
            "server_time": now_ms(),
        }

    def presence_message(self) -> dict[str, Any]:
        return {
            "type": "table.presence",
            "table_id": self.table_id,
            "seq": self.version,
            "seats": [
                {
                    "seat": s,
                    "player": None if who is None else who["name"],
                    "connected": s in self.connected,
                }
                for s, who in enumerate(self.state["seats"])
            ],
            "spectators": self.spectators,
        }


async def load_snapshot(store: LiveStore, table_id: str) -> Snapshot | None:
    current, connected, watchers = await store.load_with_watchers(table_id, now_ms())
    if current is None:
        return None
    return Snapshot(table_id, current.version, current.state, connected, watchers)


class Feed:
    def __init__(self, store: LiveStore, hub: Hub, process_id: str) -> None:
        self.store = store
        self.hub = hub
        self.process_id = process_id
        self.tables: dict[str, set[Subscriber]] = {}
        self.lobby: set[Subscriber] = set()
        self._handlers: dict[str, Handler] = {}
        self._local_seats: dict[str, set[int]] = {}
        self._local_watchers: dict[str, int] = {}
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        await self.hub.start(self._on_lobby)

    async def stop(self) -> None:
        for table_id, seats in list(self._local_seats.items()):
            try:
                await self.store.set_presence(table_id, self.process_id, set(), seats, 0, 60)
            except Exception:
                log.warning("could not clear presence of table %s", table_id)
        for table_id in list(self._local_watchers):
            try:
                await self.store.set_watchers(table_id, self.process_id, 0, 0, 60)
            except Exception:
                log.warning("could not clear the spectators of table %s", table_id)
        await self.hub.stop()

    # -- subscriptions ----------------------------------------------------------------

    async def subscribe_lobby(self, sub: Subscriber) -> list[dict[str, Any]]:
        self.lobby.add(sub)
        return await list_tables(self.store)

    async def subscribe_table(self, sub: Subscriber, table_id: str) -> Snapshot | None:
        snapshot = await load_snapshot(self.store, table_id)
        if snapshot is None:
            return None
        async with self._lock:
            if table_id not in self.tables:
                self.tables[table_id] = set()

                async def handler(message: dict[str, Any], table_id: str = table_id) -> None:
                    await self._on_table(table_id, message)

                self._handlers[table_id] = handler
                await self.hub.add(self.store.keys.table_channel(table_id), handler)
            self.tables[table_id].add(sub)
        watched_before = self._local_watchers.get(table_id, 0)
        await self._update_presence(snapshot)
        # The snapshot was read before this socket counted as present: it does now.
        snapshot.connected = snapshot.connected | self._local_seats.get(table_id, set())
        snapshot.spectators += self._local_watchers.get(table_id, 0) - watched_before
        return snapshot

    async def unsubscribe_table(self, sub: Subscriber, table_id: str) -> None:
        async with self._lock:
            subs = self.tables.get(table_id)
            if subs is None or sub not in subs:
                return
            subs.discard(sub)
            if not subs:
                del self.tables[table_id]
                await self.hub.remove(
                    self.store.keys.table_channel(table_id), self._handlers.pop(table_id)
                )
        snapshot = await load_snapshot(self.store, table_id)
        if snapshot is not None:
            await self._update_presence(snapshot)
        else:
            self._local_seats.pop(table_id, None)
            self._local_watchers.pop(table_id, None)

    async def drop(self, sub: Subscriber) -> None:
        """A socket closed: forget all it subscribed to."""
        self.lobby.discard(sub)
        for table_id in [t for t, subs in self.tables.items() if sub in subs]:
            await self.unsubscribe_table(sub, table_id)

    # -- presence ----------------------------------------------------------------------

    async def _update_presence(self, snapshot: Snapshot) -> None:
        table_id = snapshot.table_id
        subs = self.tables.get(table_id, ())
        seats = {
            seat for sub in subs if (seat := snapshot.seat_for(sub.player_id)) is not None
        }
        watchers = sum(1 for sub in subs if snapshot.seat_for(sub.player_id) is None)
        before = self._local_seats.get(table_id, set())
        watched_before = self._local_watchers.get(table_id, 0)
        if watchers != watched_before:
            if watchers:
                self._local_watchers[table_id] = watchers
            else:
                self._local_watchers.pop(table_id, None)
            await self.store.set_watchers(
                table_id, self.process_id, watchers, now_ms() + PRESENCE_TTL_MS, 60
            )
        if seats == before:
            if watchers != watched_before:
                await self.store.publish_table(
                    table_id, {"kind": "presence", "v": snapshot.version}
                )
            return
        if seats:
            self._local_seats[table_id] = seats
        else:
            self._local_seats.pop(table_id, None)
        await self.store.set_presence(
            table_id, self.process_id, seats, before - seats, now_ms() + PRESENCE_TTL_MS, 60
        )
        await self.store.publish_table(table_id, {"kind": "presence", "v": snapshot.version})

    async def refresh_presence(self) -> None:
        expires = now_ms() + PRESENCE_TTL_MS
        for table_id, seats in list(self._local_seats.items()):
            await self.store.set_presence(table_id, self.process_id, seats, set(), expires, 60)
        for table_id, count in list(self._local_watchers.items()):
            await self.store.set_watchers(table_id, self.process_id, count, expires, 60)

    # -- announcements -----------------------------------------------------------------

    async def _on_table(self, table_id: str, message: dict[str, Any]) -> None:
        subs = list(self.tables.get(table_id, ()))
        if not subs:
            return
        kind = message.get("kind")
        if kind == "chat":
            for sub in subs:
                if sub.conn_id != message.get("origin"):
                    sub.offer(message["message"])
            return
        if kind == "notice":  # a message for every watcher, not a change of the table
            for sub in subs:
                sub.offer(message["message"])
            return
        if kind == "removed":
            for sub in subs:
                sub.offer({"type": "table.removed", "table_id": table_id})
            return
        snapshot = await load_snapshot(self.store, table_id)
        if snapshot is None:
            return
        if kind == "presence":
            note = snapshot.presence_message()
            for sub in subs:
                sub.offer(note)
            return
        for sub in subs:
            sub.offer_state(snapshot)
        # A join or leave may turn a spectator's socket into a seated player's.
        await self._update_presence(snapshot)

    async def _on_lobby(self, message: dict[str, Any]) -> None:
        if not self.lobby:
            return
        table_id = message.get("table_id")
        if not isinstance(table_id, str):
            return
        note: dict[str, Any]
        if message.get("kind") == "remove":
            note = {"type": "lobby.remove", "table_id": table_id}
        else:
            current = await self.store.load(table_id)
            if current is None:
                return
            note = {"type": "lobby.update", "table": public_table(current.state)}
        for sub in list(self.lobby):
            sub.offer(note)
