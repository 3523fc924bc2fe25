"""The accounts and sessions services: tokens back to players, sessions that sign out."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from app.db.models import LoginSession
from app.db.session import Database
from app.live.store import LiveStore, connect
from app.services.accounts.credentials import NameTaken, PlayerRef, authenticate, register
from app.services.accounts.sessions import Sessions, issue_token


async def test_tokens_name_sessions_that_sign_out(db: Database):
    sessions = Sessions(LiveStore(connect(""), "accounts"), db)
    async with db.session() as session:
        masha = await register(session, "Masha", "password123")
        token = await sessions.open(masha)
        other = await sessions.open(masha)
    found = await sessions.identify(token)
    assert found is not None and found.player == PlayerRef(masha.id, "Masha")
    sid = found.session_id

    expired = issue_token(masha.id, sid, now=time.time() - 3600, seconds=60)
    assert await sessions.identify(expired) is None
    assert await sessions.identify(issue_token(masha.id + 1, sid)) is None
    assert await sessions.identify(issue_token(masha.id, "no-such-session")) is None
    assert await sessions.identify("") is None
    assert await sessions.identify(token + "x") is None

    # Known from the database alone (a cold cache), and revoked there too.
    await sessions.cache.redis.flushall()
    assert await sessions.identify(token) == found
    await sessions.revoke([sid])
    assert await sessions.identify(token) is None
    await sessions.cache.redis.flushall()
    assert await sessions.identify(token) is None
    assert await sessions.identify(other) is not None
    assert await sessions.revoke_all(masha.id) == 1
    assert await sessions.identify(other) is None


async def test_a_new_sign_in_clears_the_players_expired_sessions(db: Database):
    sessions = Sessions(LiveStore(connect(""), "expiry"), db)
    async with db.session() as session:
        olga = await register(session, "Olga", "password123")
        other = await register(session, "Other", "password123")
        for who in (olga, olga, other):
            await sessions.open(who)
        long_ago = datetime(2020, 1, 1, tzinfo=UTC)
        await session.execute(update(LoginSession).values(expires_at=long_ago))
        await session.commit()
        kept = await sessions.open(olga)
        rows = (await session.execute(select(LoginSession.player_id))).scalars().all()
    assert sorted(rows) == sorted([olga.id, other.id])
    assert await sessions.identify(kept) is not None


async def test_register_and_authenticate(db: Database):
    async with db.session() as session:
        alex = await register(session, "Alex", "password123")
    async with db.session() as session:
        with pytest.raises(NameTaken):
            await register(session, "aLEX", "password456")
    async with db.session() as session:
        assert await authenticate(session, "Alex", "password123") == alex
        assert await authenticate(session, "Alex", "password124") is None
        # Names are taken exactly as sent: another spelling is not this account.
        assert await authenticate(session, "alex", "password123") is None
        assert await authenticate(session, "nobody", "password123") is None
