"""Sign-in sessions: tokens that name a session, checked without the database on the hot
path, and revoked at once on every process.

A token is a signed JWT (`sub` the player, `sid` the session, `exp`). Checking one
verifies the signature and expiry here, then asks the shared session cache in Redis
(app/live/sessions.py); only a session the cache does not know is looked up in the
database, which then fills the cache. So a seated player reconnecting while PostgreSQL
is down is still recognised, and when neither store can say, the caller gets the store's
error (a retryable `unavailable`, 503 over HTTP), never "not signed in".

Revoking writes the cache first (so nothing can fill it back), then the database, then
announces the session ids on a pub/sub channel: every process closes the sockets of those
sessions (close code 4401). After a gap in pub/sub (Redis restarted) each process checks
the sessions of its sockets again, so no announcement is lost for good.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import jwt
from redis.exceptions import RedisError

from app import metrics
from app.config import settings
from app.db import login_sessions, players
from app.db.session import Database
from app.live.hub import Hub
from app.live.sessions import SessionCache
from app.live.store import LiveStore
from app.services.accounts.credentials import PlayerRef
from app.wire.between import Resubscribed, Revoked
from app.wire.notes import SESSION_NOTES

log = logging.getLogger(__name__)

TOKEN_ALGORITHM = "HS256"


@dataclass(frozen=True)
class Identity:
    """Who is calling, and through which sign-in."""

    session_id: str
    player: PlayerRef


@dataclass(frozen=True)
class Claims:
    player_id: int
    session_id: str
    expires: int


class Revocable(Protocol):
    """A socket signed in with a session (implemented by the websocket gateway)."""

    def revoked(self) -> None: ...


def issue_token(player_id: int, session_id: str, *, now: float | None = None,
                seconds: int | None = None) -> str:
    issued = int(time.time() if now is None else now)
    lifetime = settings.token_seconds if seconds is None else seconds
    payload = {"sub": str(player_id), "sid": session_id, "iat": issued,
               "exp": issued + lifetime}
    return jwt.encode(payload, settings.secret_key, algorithm=TOKEN_ALGORITHM)


def read_token(token: str) -> Claims | None:
    """The claims of a valid, unexpired token signed by us; None for anything else."""
    try:
        payload: dict[str, Any] = jwt.decode(
            token,
            settings.secret_key,
            algorithms=[TOKEN_ALGORITHM],
            options={"require": ["sub", "sid", "iat", "exp"]},
        )
        player_id = int(payload["sub"])
        session_id = payload["sid"]
        expires = int(payload["exp"])
    except (jwt.InvalidTokenError, ValueError, TypeError):
        return None
    # Only ids we could have issued (a 32-bit primary key, a 22-character session id).
    if not 0 < player_id < 2**31 or not isinstance(session_id, str) \
            or not 0 < len(session_id) <= 32:
        return None
    return Claims(player_id, session_id, expires)


class Sessions:
    def __init__(self, store: LiveStore, db: Database) -> None:
        self.cache = SessionCache(store)
        self.db = db
        self._sockets: dict[str, set[Revocable]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, hub: Hub) -> None:
        await hub.add(self.cache.channel, self._on_message, SESSION_NOTES)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    # -- signing in ---------------------------------------------------------------------

    async def open(self, player: PlayerRef) -> str:
        """A new session of `player`; returns its token. Its own write transaction: the
        caller's session has read the account (and waited on the password check) in a
        transaction of its own, which on SQLite must not turn writer that late."""
        now = int(time.time())
        session_id = secrets.token_urlsafe(16)
        async with self.db.writing() as session:
            opened = datetime.fromtimestamp(now, UTC)
            await login_sessions.open_session(
                session, session_id, player.id, opened,
                opened + timedelta(seconds=settings.token_seconds))
        try:
            await self.cache.remember(session_id, player.id, player.name, settings.token_seconds)
        except RedisError as error:  # the database has it; the first check fills the cache
            metrics.count_error(error)
            log.warning("session cache unavailable while signing in: %r", error)
        return issue_token(player.id, session_id, now=now)

    async def identify(self, token: str) -> Identity | None:
        """The session a token names, if it is valid; None for a bad, expired or revoked one.

        Raises the store's error when neither the cache nor the database can answer."""
        claims = read_token(token)
        if claims is None:
            return None
        try:
            held = await self.cache.holder(claims.session_id)
        except RedisError as error:
            metrics.count_error(error)
            log.warning("session cache unavailable; asking the database: %r", error)
            held = None
        if held is False:
            return None
        if isinstance(held, tuple):
            player_id, name = held
            if player_id != claims.player_id:
                return None
            return Identity(claims.session_id, PlayerRef(player_id, name))
        return await self._from_database(claims)

    async def _from_database(self, claims: Claims) -> Identity | None:
        async with self.db.session() as session:
            row = await login_sessions.get(session, claims.session_id)
            if row is None or row.player_id != claims.player_id or row.revoked_at is not None:
                return None
            player = await players.get(session, claims.player_id)
            if player is None:
                return None
        try:
            await self.cache.remember(claims.session_id, player.id, player.name,
                                      claims.expires - int(time.time()))
        except RedisError as error:
            metrics.count_error(error)
        return Identity(claims.session_id, PlayerRef(player.id, player.name))

    async def sign_in(self, token: str, socket: Revocable) -> Identity | None:
        """`identify` for a socket, which is closed if its session is revoked later.

        The socket is watched before the session is checked, so a revocation announced
        in between still reaches it."""
        claims = read_token(token)
        if claims is None:
            return None
        self.watch(claims.session_id, socket)
        try:
            identity = await self.identify(token)
        except BaseException:
            self.unwatch(claims.session_id, socket)
            raise
        if identity is None:
            self.unwatch(claims.session_id, socket)
        return identity

    # -- signing out --------------------------------------------------------------------

    async def revoke(self, session_ids: Iterable[str]) -> None:
        ids = sorted(set(session_ids))
        if not ids:
            return
        await self.cache.revoke(ids, settings.token_seconds)
        async with self.db.session() as session:
            await login_sessions.revoke(session, ids, datetime.now(UTC))
            await session.commit()
        await self.cache.announce(ids)

    async def revoke_all(self, player_id: int, keep: str | None = None) -> int:
        """Revoke every session of the player (but `keep`); returns how many."""
        async with self.db.session() as session:
            ids = [sid for sid in await login_sessions.live_ids(session, player_id)
                   if sid != keep]
        await self.revoke(ids)
        return len(ids)

    # -- sockets ------------------------------------------------------------------------

    def watch(self, session_id: str, socket: Revocable) -> None:
        self._sockets.setdefault(session_id, set()).add(socket)

    def unwatch(self, session_id: str, socket: Revocable) -> None:
        sockets = self._sockets.get(session_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self._sockets[session_id]

    def _close(self, session_ids: Iterable[str]) -> None:
        for session_id in session_ids:
            for socket in self._sockets.pop(session_id, set()):
                socket.revoked()

    def _on_message(self, message: Revoked | Resubscribed) -> None:
        if message["kind"] == "revoked":
            self._close(message["sessions"])
        elif message["kind"] == "resubscribed":
            task = asyncio.create_task(self._recheck())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _recheck(self) -> None:
        """After a gap in pub/sub: close the sockets of sessions revoked meanwhile."""
        for session_id in list(self._sockets):
            try:
                held = await self.cache.holder(session_id)
                if held is None:
                    async with self.db.session() as session:
                        row = await login_sessions.get(session, session_id)
                    held = row is not None and row.revoked_at is None
            except Exception as error:
                log.warning("session %s not rechecked: %r", session_id[:4], error)
                continue
            if held is False:
                self._close([session_id])
