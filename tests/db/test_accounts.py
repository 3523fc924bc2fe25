"""The accounts service as the websocket gateway uses it: tokens back to players."""

from __future__ import annotations

import time

import pytest

from app.db.session import Database
from app.services.accounts import (
    NameTaken,
    PlayerRef,
    authenticate,
    issue_token,
    player_for_token,
    register,
)


async def test_player_for_token(db: Database):
    async with db.session() as session:
        masha = await register(session, "Masha", "password123")
    assert await player_for_token(db, issue_token(masha)) == PlayerRef(masha.id, "Masha")

    expired = issue_token(masha, now=time.time() - 3600, seconds=60)
    assert await player_for_token(db, expired) is None
    assert await player_for_token(db, issue_token(PlayerRef(masha.id + 1, "ghost"))) is None
    assert await player_for_token(db, "") is None
    assert await player_for_token(db, issue_token(masha) + "x") is None


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
