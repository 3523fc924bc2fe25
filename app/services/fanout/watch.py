"""One table as this process serves it (`Watch`), and a socket as the fan-out sees it
(`Subscriber`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol

from app.services.fanout.snapshot import Snapshot
from app.wire.messages import ServerMessage


class Subscriber(Protocol):
    """A socket as the feed sees it (implemented by the websocket gateway)."""

    conn_id: str

    @property
    def player_id(self) -> int | None: ...

    def offer_state(self, snapshot: Snapshot) -> None: ...

    def offer(self, message: ServerMessage) -> None: ...


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

