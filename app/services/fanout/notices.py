"""Messages for players rather than tables (`seek.matched`, `seek.ended`,
`tournament.pairing`, `courtyard.seated`, and PROTOCOL §2c's `friend.update`,
`challenge.*`, `block.update`): what a player must be told of a table waiting for him is
kept as state, not only sent (friends, blocks and challenges are rows of their own, read
again by the pages).

A notice is kept in the store, in its player's hash of pending notices (one entry a notice,
named by `notice_key`), and then told on the channel every process reads (each process
hands it to the sockets of those players it has). The pending ones are sent again on every
`hello`, `lobby.subscribe` and `tournament.subscribe`, so a dead process, a lost pub/sub
message or a reconnect at the wrong moment never leaves a player untold; a step whose
teller died between the two (a pairing) stays untold, and whoever takes it over tells it. A
notice of a table is done with once the player subscribes to that table (his client went
there) or the table is over (a courtyard's, for him: once he is not among its four,
PROTOCOL §2d); the others, and any the player never acts on, expire.
"""

from __future__ import annotations

import contextlib
from typing import Protocol

import orjson
from redis.exceptions import RedisError
from typing_extensions import TypeIs

from app.live.hub import Hub
from app.live.store import LiveStore, dumps
from app.services.tables.courtyard import sits_there
from app.services.tables.transact import load
from app.wire.between import PlayerNotice, Resubscribed
from app.wire.messages import KeptNotice, Notice, ServerMessage
from app.wire.notes import PLAYER_NOTES, resubscribed

# How long a notice nobody acted on is kept (a seek's table, a round's: over well before).
KEPT_SECONDS = 3600


class Recipient(Protocol):
    @property
    def player_id(self) -> int | None: ...

    def offer(self, message: ServerMessage) -> None: ...


KEPT = ("seek.matched", "seek.ended", "tournament.pairing", "courtyard.seated")


def kept(message: Notice) -> TypeIs[KeptNotice]:
    """Whether the notice is one a player is told again until he acts on it."""
    return message["type"] in KEPT


def notice_key(message: KeptNotice) -> str:
    """What names a notice among its player's pending ones: its table, when it is about
    one (a later notice of the same table replaces it), else its kind and subject."""
    if message["type"] == "seek.ended":
        return f"{message['type']}:{message['seek_id']}"
    return message["table_id"]


class PlayerNotices:
    def __init__(self, store: LiveStore, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.sockets: set[Recipient] = set()
        self.channel = f"{store.keys.prefix}:ch:players"

    def _pending_key(self, player_id: int) -> str:
        # One hash tag for every player's notices and the told marks: `tell` keeps a notice
        # for its players in one transaction and `untold` reads many marks in one MGET,
        # which a cluster runs on one slot only.
        return f"{self.store.keys.family('notices')}:notices:{player_id}"

    async def start(self) -> None:
        await self.hub.add(self.channel, self._on_message, PLAYER_NOTES)

    def add(self, socket: Recipient) -> None:
        self.sockets.add(socket)

    def discard(self, socket: Recipient) -> None:
        self.sockets.discard(socket)

    def _told_key(self, step: str) -> str:
        return f"{self.store.keys.family('notices')}:told:{step}"

    async def tell(self, player_ids: list[int], message: Notice, *,
                   step: str | None = None) -> None:
        """Keep `message` pending for every one of these players (one transaction), then
        send it on each of their sockets, on every process (telling again is harmless).
        `step`: what the telling completes (a table a pairing made), so that whoever takes
        the work over can see whether it is still to do (`untold`); it is marked done only
        once the message is both kept and sent."""
        notice: PlayerNotice = {"players": player_ids, "message": message}
        if kept(message):
            key, text = notice_key(message), dumps(message)
            async with self.store.redis.pipeline(transaction=True) as pipe:
                for player_id in player_ids:
                    pipe.hset(self._pending_key(player_id), key, text)
                    pipe.expire(self._pending_key(player_id), KEPT_SECONDS)
                await pipe.execute()
        # Once kept (a socket that misses it has it pending): a channel has no slot, so it is
        # not part of a cluster's transaction.
        await self.store.command("PUBLISH", self.channel, dumps(notice))
        if step is not None:
            # Last: a teller that dies before the publish leaves the step untold, so whoever
            # takes the work over tells it (a kept notice alone reaches a player only at his
            # next hello or subscribe, not on a socket that stays open).
            await self.store.redis.set(self._told_key(step), 1, ex=KEPT_SECONDS * 24)

    async def untold(self, steps: list[str]) -> set[str]:
        """Those of `steps` whose players have not been told (`tell`'s `step`)."""
        if not steps:
            return set()
        told = await self.store.redis.mget([self._told_key(s) for s in steps])
        return {s for s, mark in zip(steps, told, strict=True) if mark is None}

    async def pending(self, player_id: int) -> list[KeptNotice]:
        """The player's notices still to act on (those of a table that is over are
        dropped), oldest first."""
        kept = await self.store.redis.hgetall(self._pending_key(player_id))
        out: list[KeptNotice] = []
        over: list[str] = []
        for key, text in kept.items():
            message: KeptNotice = orjson.loads(text)
            if message["type"] == "courtyard.seated":
                if not sits_there(await load(self.store, message["table_id"]), player_id):
                    over.append(str(key))
                    continue
            elif message["type"] != "seek.ended":
                table = await load(self.store, message["table_id"])
                if table is not None and table.status == "finished":
                    over.append(str(key))
                    continue
            out.append(message)
        if over:
            await self.store.redis.hdel(self._pending_key(player_id), *over)
        return out

    async def resend(self, socket: Recipient) -> None:
        """Every pending notice of the socket's player, on that socket."""
        if socket.player_id is None:
            return
        for message in await self.pending(socket.player_id):
            socket.offer(message)

    async def seen(self, player_id: int, key: str) -> None:
        """The player has acted on the notice `key` (for a table: he is at it)."""
        # Failing, it expires, and a table that is over drops it.
        with contextlib.suppress(RedisError, OSError):
            await self.store.redis.hdel(self._pending_key(player_id), key)

    def _on_message(self, payload: PlayerNotice | Resubscribed) -> None:
        if resubscribed(payload):
            return  # a resubscription: what was missed is pending, sent on the next hello
        wanted = set(payload["players"])
        for socket in list(self.sockets):
            if socket.player_id in wanted:
                socket.offer(payload["message"])
