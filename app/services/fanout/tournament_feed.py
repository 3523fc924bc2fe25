"""`tournament.subscribe` (PROTOCOL §2b): the sockets of one process that follow a
tournament, and the one channel every process reads its changes from.

Pub/sub may lose what was published while a process's subscription was being made again
(app.live.hub): then each tournament followed here is read again and sent to its
followers, so none of them keeps a tournament as it was before the gap."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from app.db.session import Database
from app.live.hub import Hub
from app.live.store import LiveStore, dumps
from app.services.gathering import tournaments
from app.wire.messages import (
    Resubscribed,
    ServerMessage,
    TournamentInfo,
    TournamentNote,
    TournamentUpdate,
)
from app.wire.notes import TOURNAMENT_NOTES, resubscribed

log = logging.getLogger(__name__)


class Follower(Protocol):
    def offer(self, message: ServerMessage) -> None: ...


class TournamentFeed:
    def __init__(self, store: LiveStore, hub: Hub, db: Database) -> None:
        self.store = store
        self.hub = hub
        self.db = db
        self.followers: dict[str, set[Follower]] = {}
        self.channel = f"{store.keys.prefix}:ch:tournaments"
        self._resyncs: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self.hub.add(self.channel, self._on_message, TOURNAMENT_NOTES)

    async def subscribe(self, follower: Follower, tournament_id: str) -> TournamentInfo:
        """Follow the tournament; returns it as it is now (raises if there is none)."""
        self.followers.setdefault(tournament_id, set()).add(follower)
        try:
            return await tournaments.describe(self.db, tournament_id)
        except BaseException:
            self.unsubscribe(follower, tournament_id)
            raise

    def unsubscribe(self, follower: Follower, tournament_id: str) -> None:
        followers = self.followers.get(tournament_id)
        if followers is not None:
            followers.discard(follower)
            if not followers:
                del self.followers[tournament_id]

    def drop(self, follower: Follower) -> None:
        for tournament_id in [t for t, f in self.followers.items() if follower in f]:
            self.unsubscribe(follower, tournament_id)

    async def changed(self, tournament_id: str) -> None:
        """Tell every process's followers the tournament as it is now."""
        note: TournamentNote = {"tournament_id": tournament_id,
                                "tournament": await tournaments.describe(self.db, tournament_id)}
        await self.store.command("PUBLISH", self.channel, dumps(note))

    def _on_message(self, payload: TournamentNote | Resubscribed) -> None:
        if resubscribed(payload):
            task = asyncio.create_task(self._resync())
            self._resyncs.add(task)
            task.add_done_callback(self._resyncs.discard)
            return
        message: TournamentUpdate = {"type": "tournament.update",
                                     "tournament": payload["tournament"]}
        for follower in list(self.followers.get(payload["tournament_id"], ())):
            follower.offer(message)

    async def _resync(self) -> None:
        """Every tournament followed here, read again and sent to its followers."""
        for tournament_id in list(self.followers):
            try:
                described = await tournaments.describe(self.db, tournament_id)
            except Exception as error:
                log.warning("tournament %s could not be read again: %r", tournament_id, error)
                continue
            self._on_message({"tournament_id": tournament_id, "tournament": described})
