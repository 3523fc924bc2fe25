"""The players' rows: names by id (what the services show of a player), and the account
lookups of sign-up and sign-in."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ModerationEntry, Player


async def names(session: AsyncSession, player_ids: Iterable[int]) -> dict[int, str]:
    """The names of the players of `player_ids` (those that exist)."""
    rows = (await session.execute(
        select(Player.id, Player.name).where(Player.id.in_(set(player_ids))))).all()
    return {player_id: name for player_id, name in rows}


async def name_of(session: AsyncSession, player_id: int) -> str | None:
    return await session.scalar(select(Player.name).where(Player.id == player_id))


async def by_key(session: AsyncSession, key: str) -> Player | None:
    """The player (not deleted) whose name, in the letter case names are unique in, is `key`."""
    return await session.scalar(
        select(Player).where(Player.name_key == key, Player.deleted_at.is_(None)))


def add(session: AsyncSession, player: Player) -> None:
    session.add(player)


@dataclass(frozen=True, slots=True)
class Login:
    """What checking a player's password needs."""

    id: int
    name: str
    password_hash: str


async def login_of(session: AsyncSession, key: str) -> Login | None:
    """The login of the player whose name key is `key`, unless the account was deleted."""
    row = (await session.execute(
        select(Player.id, Player.name, Player.password_hash)
        .where(Player.name_key == key, Player.deleted_at.is_(None))
    )).one_or_none()
    return None if row is None else Login(row.id, row.name, row.password_hash)


async def taken(session: AsyncSession, key: str, skeleton: str) -> bool:
    """Whether a name with this key (any case) or skeleton (a look-alike) exists, deleted
    accounts' names included: they stay reserved; so do the names a moderator renamed a
    player away from (PROTOCOL §2h)."""
    found = await session.scalar(select(Player.id).where(
        (Player.name_key == key) | (Player.name_skeleton == skeleton)).limit(1))
    if found is not None:
        return True
    return await session.scalar(select(ModerationEntry.id).where(
        ModerationEntry.former_key == key).limit(1)) is not None


@dataclass(frozen=True, slots=True)
class Known:
    """A player as another finds him by name."""

    id: int
    name: str


async def find(session: AsyncSession, key: str) -> Known | None:
    """The player (not deleted) whose name key is `key`."""
    row = (await session.execute(
        select(Player.id, Player.name)
        .where(Player.name_key == key, Player.deleted_at.is_(None))
    )).one_or_none()
    return None if row is None else Known(row.id, row.name)


async def password_hash(session: AsyncSession, player_id: int) -> str | None:
    return await session.scalar(select(Player.password_hash).where(Player.id == player_id))


async def replace_password_hash(session: AsyncSession, player_id: int, checked: str,
                                new: str) -> bool:
    """Set the player's password hash if it is still `checked` (a compare-and-set)."""
    changed = await session.execute(
        update(Player)
        .where(Player.id == player_id, Player.password_hash == checked)
        .values(password_hash=new)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]


async def get(session: AsyncSession, player_id: int, *, lock: bool = False) -> Player | None:
    """The player (`lock`: his row locked until the transaction ends)."""
    return await session.get(Player, player_id, with_for_update=lock)
