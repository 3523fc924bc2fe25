"""A socket's place among its player's (or, not signed in, its address's) open sockets on
every process: taken when it is let in or signs in, renewed while it lives, given back when
it closes. At the cap the socket is refused with `rate_limited` and closed."""

from __future__ import annotations

import asyncio
import contextlib

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app import metrics
from app.api.connection import Connection
from app.services.accounts.credentials import PlayerRef
from app.services.people import directory

# How often a socket renews its place among its player's (or address's) sockets.
SOCKET_RENEW_MS = 60_000


async def hold_signed_in(conn: Connection, before: PlayerRef | None) -> bool:
    """`hold` for the player `conn` just signed in as (`before`: who it was)."""
    player = conn.player
    if player is None:
        return True
    conn.player = before
    if not await hold(conn, player):
        return False
    conn.player = player
    return True


async def hold(conn: Connection, player: PlayerRef) -> bool:
    """Count `conn` among `player`'s open sockets (renewed while it lives); at the cap,
    refuse it with `rate_limited` and close it (False)."""
    caps = conn.live.caps
    if conn.player is not None and conn.player.id != player.id:
        await caps.drop_socket(conn.player.id, conn.conn_id)
    try:
        held = await caps.hold_socket(player.id, conn.conn_id)
    except (RedisError, OSError) as error:  # uncounted, rather than nobody signed in
        metrics.count_error(error)
        held = True
    if not held:
        metrics.rate_limited.labels("ws").inc()
        await conn.refuse("too_many_tabs", SOCKET_RENEW_MS)
        return False
    if conn.anonymous:  # signed in now: one of the player's sockets, no longer anonymous
        conn.anonymous = False
        with contextlib.suppress(RedisError, OSError):
            await caps.drop_anonymous(conn.limits.address, conn.conn_id)
    if conn.renewal is None:
        conn.renewal = asyncio.create_task(_renew(conn))
    await _arrived(conn, player)
    return True


async def _arrived(conn: Connection, player: PlayerRef) -> None:
    """A socket of `player` is let in: it learns whose chat he keeps out, and his friends
    hear he is online when it is his first (PROTOCOL §2c)."""
    live = conn.live
    try:
        conn.muted = frozenset(await live.blocks.muted(player.id))
        if await directory.sockets_of(live.caps, player.id) == 1:
            await live.friends.tell_friends(player.id, player.name)
    except (RedisError, OSError, SQLAlchemyError) as error:
        metrics.count_error(error)


async def hold_anonymous(conn: Connection) -> bool:
    """Count `conn`, not signed in, among its address's (on every process); at the cap,
    refuse it with `rate_limited` and close it (False)."""
    try:
        held = await conn.live.caps.hold_anonymous(conn.limits.address, conn.conn_id)
    except (RedisError, OSError) as error:  # uncounted, rather than nobody let in
        metrics.count_error(error)
        held = True
    if not held:
        metrics.rate_limited.labels("ws").inc()
        await conn.refuse("too_many_from_address", SOCKET_RENEW_MS)
        return False
    conn.anonymous = True
    if conn.renewal is None:
        conn.renewal = asyncio.create_task(_renew(conn))
    return True


async def _renew(conn: Connection) -> None:
    caps = conn.live.caps
    while True:
        await asyncio.sleep(SOCKET_RENEW_MS / 1000)
        with contextlib.suppress(RedisError, OSError):
            if conn.player is not None:
                await caps.hold_socket(conn.player.id, conn.conn_id)
            elif conn.anonymous:
                await caps.hold_anonymous(conn.limits.address, conn.conn_id)


async def release_hold(conn: Connection) -> None:
    if conn.renewal is not None:
        conn.renewal.cancel()
    caps = conn.live.caps
    with contextlib.suppress(RedisError, OSError, SQLAlchemyError):
        if conn.player is not None:
            await caps.drop_socket(conn.player.id, conn.conn_id)
            if not await directory.sockets_of(caps, conn.player.id):  # his friends hear he left
                await conn.live.friends.tell_friends(conn.player.id, conn.player.name)
        if conn.anonymous:
            await caps.drop_anonymous(conn.limits.address, conn.conn_id)
