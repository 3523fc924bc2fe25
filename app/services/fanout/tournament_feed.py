"""`tournament.subscribe` (PROTOCOL §2b): the sockets of one process that follow a
tournament, and the one channel every process reads its changes from.

A change is published as the tournament's id alone. Each process that has followers of it
reads it again and sends them what changed since the last state it sent them (the
players and tables new or changed, and the players gone), so what a follower receives
grows with the changes, not with the tournament: an arena of many tables does not send
every table at every game's end. All followers of a tournament on one process share that
last state: a new follower is answered with it, so each delta applies to what every
follower holds.

Pub/sub may lose what was published while a process's subscription was being made again
(app.live.hub): then each tournament followed here is read again, and its followers get
what changed meanwhile."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from app.db.session import Database
from app.live.hub import Hub
from app.live.store import LiveStore, dumps
from app.services.gathering import tournaments
from app.wire.between import Resubscribed, TournamentNote
from app.wire.messages import ServerMessage, TournamentInfo, TournamentUpdate
from app.wire.notes import TOURNAMENT_NOTES, resubscribed

log = logging.getLogger(__name__)


class Follower(Protocol):
    def offer(self, message: ServerMessage) -> None: ...


def changes(before: TournamentInfo, after: TournamentInfo) -> TournamentUpdate | None:
    """The update that takes a follower from `before` to `after`: every field of the
    tournament, but only the players and tables new or changed; None when nothing did."""
    old_players = {p["id"]: p for p in before["players"]}
    old_tables = {t["table_id"]: t for t in before["tables"]}
    players = [p for p in after["players"] if old_players.get(p["id"]) != p]
    tables = [t for t in after["tables"] if old_tables.get(t["table_id"]) != t]
    kept = {p["id"] for p in after["players"]}
    gone = [p for p in old_players if p not in kept]
    same_fields = all(before.get(k) == v for k, v in after.items()
                      if k not in ("players", "tables"))
    if same_fields and not players and not tables and not gone:
        return None
    return {"type": "tournament.update", "tournament": {**after, "players": players,
                                                        "tables": tables},
            "changes_only": True, "players_gone": gone}


class TournamentFeed:
    def __init__(self, store: LiveStore, hub: Hub, db: Database) -> None:
        self.store = store
        self.hub = hub
        self.db = db
        self.followers: dict[str, set[Follower]] = {}
        self.channel = f"{store.keys.prefix}:ch:tournaments"
        # The last state sent to this process's followers of each tournament.
        self._known: dict[str, TournamentInfo] = {}
        # One reading at a time per tournament, so the deltas go out in order.
        self._locks: dict[str, asyncio.Lock] = {}
        # Tournaments to read again, and the task that reads them.
        self._due: set[str] = set()
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.hub.add(self.channel, self._on_message, TOURNAMENT_NOTES)

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def subscribe(self, follower: Follower, tournament_id: str) -> TournamentInfo:
        """Follow the tournament; returns it as this process's followers have it (raises
        if there is none)."""
        async with self._lock(tournament_id):
            known = self._known.get(tournament_id)
            if known is None:
                try:
                    known = await tournaments.describe(self.db, tournament_id)
                except BaseException:
                    self._forget(tournament_id)
                    raise
                self._known[tournament_id] = known
            self.followers.setdefault(tournament_id, set()).add(follower)
            return known

    def unsubscribe(self, follower: Follower, tournament_id: str) -> None:
        followers = self.followers.get(tournament_id)
        if followers is not None:
            followers.discard(follower)
            if not followers:
                del self.followers[tournament_id]
                self._forget(tournament_id)

    def _forget(self, tournament_id: str) -> None:
        """Nobody here follows it: its last state is not kept."""
        if tournament_id in self.followers:
            return
        self._known.pop(tournament_id, None)
        lock = self._locks.get(tournament_id)
        if lock is not None and not lock.locked():
            del self._locks[tournament_id]

    def drop(self, follower: Follower) -> None:
        for tournament_id in [t for t, f in self.followers.items() if follower in f]:
            self.unsubscribe(follower, tournament_id)

    async def changed(self, tournament_id: str) -> None:
        """Tell every process the tournament changed."""
        note: TournamentNote = {"tournament_id": tournament_id}
        await self.store.command("PUBLISH", self.channel, dumps(note))

    def _on_message(self, payload: TournamentNote | Resubscribed) -> None:
        if resubscribed(payload):
            self._due.update(self.followers)
        elif payload["tournament_id"] in self.followers:
            self._due.add(payload["tournament_id"])
        if self._due and (self._reader is None or self._reader.done()):
            self._reader = asyncio.create_task(self._read_due(), name="tournament-feed")

    async def _read_due(self) -> None:
        """Read again each tournament due (changes that came meanwhile are read once)."""
        while self._due:
            tournament_id = self._due.pop()
            try:
                await self._refresh(tournament_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("tournament %s could not be read again: %r", tournament_id, error)

    async def _refresh(self, tournament_id: str) -> None:
        async with self._lock(tournament_id):
            followers = self.followers.get(tournament_id)
            before = self._known.get(tournament_id)
            if not followers or before is None:
                return
            after = await tournaments.describe(self.db, tournament_id)
            self._known[tournament_id] = after
            update = changes(before, after)
            if update is None:
                return
            for follower in list(self.followers.get(tournament_id, ())):
                follower.offer(update)
