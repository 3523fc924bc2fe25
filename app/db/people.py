"""Friends, blocks and challenges (PROTOCOL §2c): who asked whom, who keeps whom away, and
the challenges between players."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Block, Challenge, FriendLink, Player

# -- friends ---------------------------------------------------------------------------


async def add_link(session: AsyncSession, player_id: int, friend_id: int) -> None:
    """`player_id` asks (or, when asked already, accepts) `friend_id`; nothing if asked."""
    found = await session.get(FriendLink, (player_id, friend_id))
    if found is None:
        session.add(FriendLink(player_id=player_id, friend_id=friend_id))


async def has_link(session: AsyncSession, player_id: int, friend_id: int) -> bool:
    return await session.get(FriendLink, (player_id, friend_id)) is not None


async def drop_links(session: AsyncSession, a: int, b: int) -> bool:
    """Both ways between `a` and `b` gone (a friendship, a request or an offer); whether
    there was any."""
    done = await session.execute(delete(FriendLink).where(or_(
        and_(FriendLink.player_id == a, FriendLink.friend_id == b),
        and_(FriendLink.player_id == b, FriendLink.friend_id == a))))
    return bool(done.rowcount)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Links:
    """A player's friends, and the requests to and from him, by id and name."""

    friends: list[tuple[int, str]]
    incoming: list[tuple[int, str]]
    outgoing: list[tuple[int, str]]


async def links_of(session: AsyncSession, player_id: int, limit: int, offset: int) -> Links:
    """A page (by name) of each list of the player's."""
    mine = select(FriendLink.friend_id).where(FriendLink.player_id == player_id)
    theirs = select(FriendLink.player_id).where(FriendLink.friend_id == player_id)

    async def page(*where: Any) -> list[tuple[int, str]]:
        rows = await session.execute(
            select(Player.id, Player.name).where(*where, Player.deleted_at.is_(None))
            .order_by(Player.name_key).limit(limit).offset(offset))
        return [(row.id, row.name) for row in rows]

    return Links(
        friends=await page(Player.id.in_(mine), Player.id.in_(theirs)),
        incoming=await page(Player.id.in_(theirs), Player.id.not_in(mine)),
        outgoing=await page(Player.id.in_(mine), Player.id.not_in(theirs)),
    )


async def friend_ids(session: AsyncSession, player_id: int, limit: int = 1000) -> list[int]:
    """The ids of the player's friends (both ways), at most `limit`."""
    theirs = select(FriendLink.player_id).where(FriendLink.friend_id == player_id)
    rows = await session.scalars(
        select(FriendLink.friend_id).where(FriendLink.player_id == player_id,
                                           FriendLink.friend_id.in_(theirs)).limit(limit))
    return list(rows)


# -- blocks ----------------------------------------------------------------------------


async def add_block(session: AsyncSession, player_id: int, blocked_id: int) -> None:
    if await session.get(Block, (player_id, blocked_id)) is None:
        session.add(Block(player_id=player_id, blocked_id=blocked_id))


async def drop_block(session: AsyncSession, player_id: int, blocked_id: int) -> None:
    await session.execute(delete(Block).where(Block.player_id == player_id,
                                              Block.blocked_id == blocked_id))


async def blocked_by(session: AsyncSession, player_id: int, limit: int,
                     offset: int = 0) -> list[tuple[int, str]]:
    """A page (by name) of the players `player_id` blocks."""
    rows = await session.execute(
        select(Player.id, Player.name).join(Block, Block.blocked_id == Player.id)
        .where(Block.player_id == player_id).order_by(Player.name_key)
        .limit(limit).offset(offset))
    return [(row.id, row.name) for row in rows]


async def blocks(session: AsyncSession, blocker: int, blocked: int) -> bool:
    """Whether `blocker` blocks `blocked`."""
    return await session.get(Block, (blocker, blocked)) is not None


async def apart(session: AsyncSession, player_id: int, others: Iterable[int]) -> set[int]:
    """Those of `others` who block `player_id` or whom he blocks."""
    ids = set(others) - {player_id}
    if not ids:
        return set()
    rows = await session.execute(select(Block.player_id, Block.blocked_id).where(or_(
        and_(Block.player_id == player_id, Block.blocked_id.in_(ids)),
        and_(Block.blocked_id == player_id, Block.player_id.in_(ids)))))
    return {b if a == player_id else a for a, b in rows}


async def apart_from_all(session: AsyncSession, player_id: int, limit: int = 1000) -> set[int]:
    """Everyone who blocks `player_id` or whom he blocks (at most `limit` of each)."""
    mine = await session.scalars(
        select(Block.blocked_id).where(Block.player_id == player_id).limit(limit))
    theirs = await session.scalars(
        select(Block.player_id).where(Block.blocked_id == player_id).limit(limit))
    return set(mine) | set(theirs)


async def pairs_apart(session: AsyncSession, ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among `ids` where one blocks the other."""
    wanted = set(ids)
    if len(wanted) < 2:
        return set()
    rows = await session.execute(select(Block.player_id, Block.blocked_id).where(
        Block.player_id.in_(wanted), Block.blocked_id.in_(wanted)))
    return {frozenset((a, b)) for a, b in rows}


# -- challenges ------------------------------------------------------------------------


def add_challenge(session: AsyncSession, challenge: Challenge) -> None:
    session.add(challenge)


async def challenge(session: AsyncSession, challenge_id: str) -> Challenge | None:
    return await session.get(Challenge, challenge_id)


async def open_outgoing(session: AsyncSession, player_id: int, now: datetime) -> int:
    return int(await session.scalar(select(func.count()).select_from(Challenge).where(
        Challenge.from_id == player_id, Challenge.status == "open",
        Challenge.expires_at > now)) or 0)


async def open_challenges(session: AsyncSession, player_id: int, now: datetime, limit: int,
                          offset: int) -> tuple[list[Challenge], list[Challenge]]:
    """A page (newest first) of the player's open challenges: to him, and from him."""

    async def page(column: Any) -> list[Challenge]:
        rows = await session.scalars(
            select(Challenge).where(column == player_id, Challenge.status == "open",
                                    Challenge.expires_at > now)
            .order_by(Challenge.created_at.desc()).limit(limit).offset(offset))
        return list(rows)

    return await page(Challenge.to_id), await page(Challenge.from_id)


async def settle_challenge(session: AsyncSession, challenge_id: str, status: str,
                           now: datetime, table_id: str | None = None) -> bool:
    """Close an open challenge that has not expired (a compare-and-set on its status)."""
    done = await session.execute(
        update(Challenge).where(Challenge.id == challenge_id, Challenge.status == "open",
                                Challenge.expires_at > now)
        .values(status=status, table_id=table_id))
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def withdraw_between(session: AsyncSession, a: int, b: int, now: datetime) -> list[str]:
    """Every open challenge between `a` and `b`, either way, withdrawn; their ids."""
    ids = list(await session.scalars(select(Challenge.id).where(
        Challenge.status == "open", Challenge.expires_at > now, or_(
            and_(Challenge.from_id == a, Challenge.to_id == b),
            and_(Challenge.from_id == b, Challenge.to_id == a)))))
    if ids:
        await session.execute(update(Challenge).where(Challenge.id.in_(ids))
                              .values(status="withdrawn"))
    return ids


async def set_challenge(session: AsyncSession, challenge_id: str, status: str,
                        table_id: str | None) -> None:
    await session.execute(update(Challenge).where(Challenge.id == challenge_id)
                          .values(status=status, table_id=table_id))
