"""Messages for players rather than tables (`seek.matched`, `tournament.pairing`): told on
one channel every process reads, and handed to the sockets of those players it has."""

from __future__ import annotations

from typing import Protocol

from app.live.hub import Hub
from app.live.store import LiveStore, dumps
from app.wire.messages import Notice, PlayerNotice, Resubscribed, ServerMessage
from app.wire.notes import PLAYER_NOTES, resubscribed


class Recipient(Protocol):
    @property
    def player_id(self) -> int | None: ...

    def offer(self, message: ServerMessage) -> None: ...


class PlayerNotices:
    def __init__(self, store: LiveStore, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.sockets: set[Recipient] = set()
        self.channel = f"{store.keys.prefix}:ch:players"

    async def start(self) -> None:
        await self.hub.add(self.channel, self._on_message, PLAYER_NOTES)

    def add(self, socket: Recipient) -> None:
        self.sockets.add(socket)

    def discard(self, socket: Recipient) -> None:
        self.sockets.discard(socket)

    async def tell(self, player_ids: list[int], message: Notice) -> None:
        """`message` on every socket of these players, on every process."""
        notice: PlayerNotice = {"players": player_ids, "message": message}
        await self.store.command("PUBLISH", self.channel, dumps(notice))

    def _on_message(self, payload: PlayerNotice | Resubscribed) -> None:
        if resubscribed(payload):
            return  # a resubscription: nothing was kept to tell again
        wanted = set(payload["players"])
        for socket in list(self.sockets):
            if socket.player_id in wanted:
                socket.offer(payload["message"])
