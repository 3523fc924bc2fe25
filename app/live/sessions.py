"""Sign-in sessions as every process sees them on the hot path: their state in Redis.

The database holds every session (app/db); this is its cache, shared by all processes,
so checking a token costs one Redis read and no database round trip. A session is
remembered only if nobody has said otherwise (SET NX) and a revocation overwrites
whatever is there, so a late fill from the database can never bring a revoked session
back. Each entry lives as long as the longest token, after which the token's own expiry
refuses it anyway.
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson

from app.live.store import LiveStore
from app.wire.between import Revoked

REVOKED = "-"


class SessionCache:
    def __init__(self, store: LiveStore) -> None:
        self.store = store
        self.redis = store.redis
        self.keys = store.keys

    @property
    def channel(self) -> str:
        return self.keys.sessions_channel

    async def holder(self, session_id: str) -> tuple[int, str] | bool | None:
        """(player id, name) of a valid session; False once revoked; None if not known."""
        value = await self.store.command("GET", self.keys.session(session_id))
        if value is None:
            return None
        if value == REVOKED:
            return False
        player_id, _, name = str(value).partition(":")
        try:
            return int(player_id), name
        except ValueError:
            return None

    async def remember(self, session_id: str, player_id: int, name: str, seconds: int) -> None:
        if seconds > 0:
            await self.redis.set(self.keys.session(session_id), f"{player_id}:{name}",
                                 ex=seconds, nx=True)

    async def revoke(self, session_ids: Iterable[str], seconds: int) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for session_id in session_ids:
                pipe.set(self.keys.session(session_id), REVOKED, ex=max(1, seconds))
            await pipe.execute()

    async def announce(self, session_ids: list[str]) -> None:
        note: Revoked = {"kind": "revoked", "sessions": session_ids}
        await self.redis.publish(self.channel, orjson.dumps(note).decode())
