"""The reviews' rows and their queue (PROTOCOL §2f): asked for once per game, taken by one
worker at a time under a lease, stored once by the worker that still holds it.

A worker takes the oldest queued review, or a running one whose lease ran out (its worker
died or stopped answering), with `SELECT ... FOR UPDATE SKIP LOCKED` on PostgreSQL, so two
workers never take the same row at once (on SQLite the one writer at a time does the
same). It renews its lease with its progress; once the lease has gone to another worker,
its renewals and its result change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, Review
from app.db.session import by_dialect


@dataclass(frozen=True, slots=True)
class ReviewRow:
    game_id: str
    variant: str
    status: str  # "queued" | "running" | "done"
    progress: float
    attempts: int
    result: dict[str, Any] | None


_COLUMNS = (Review.game_id, Game.variant, Review.status, Review.progress, Review.attempts,
            Review.result)


_ASK = by_dialect(
    lambda insert: insert(Review).on_conflict_do_nothing(index_elements=["game_id"])
)


async def ask(session: AsyncSession, game_id: str, now_ms: int) -> None:
    """Queue the game's review unless it is queued, running or done already."""
    statement = _ASK[session.get_bind().dialect.name]
    await session.execute(statement.values(
        game_id=game_id, status="queued", progress=0.0, requested_ms=now_ms, attempts=0
    ))


async def finished_game(session: AsyncSession, game_id: str) -> bool:
    """Whether the game is stored: finished (a game in play has no row)."""
    return await session.scalar(select(Game.id).where(Game.id == game_id)) is not None


async def find(session: AsyncSession, game_id: str) -> ReviewRow | None:
    found = await session.execute(
        select(*_COLUMNS).join(Game, Game.id == Review.game_id).where(Review.game_id == game_id)
    )
    row = found.first()
    return None if row is None else ReviewRow(*row)


async def waiting(session: AsyncSession) -> int:
    """How many reviews are queued or running."""
    count = await session.scalar(
        select(func.count()).select_from(Review).where(Review.status != "done")
    )
    return int(count or 0)


async def take(
    session: AsyncSession, worker: str, now_ms: int, lease_ms: int
) -> tuple[str, int] | None:
    """Take the next review to compute for `worker` under a lease until `now_ms +
    lease_ms`: (its game id, its attempt), or None when there is none."""
    found = await session.execute(
        select(Review.game_id, Review.attempts)
        .where(or_(Review.status == "queued",
                   (Review.status == "running") & (Review.lease_ms < now_ms)))
        .order_by(Review.requested_ms)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    row = found.first()
    if row is None:
        return None
    game_id, attempts = row
    await session.execute(
        update(Review).where(Review.game_id == game_id).values(
            status="running", worker=worker, lease_ms=now_ms + lease_ms,
            attempts=attempts + 1, progress=0.0,
        )
    )
    return game_id, attempts + 1


def _held(game_id: str, worker: str, attempt: int) -> Any:
    return ((Review.game_id == game_id) & (Review.status == "running")
            & (Review.worker == worker) & (Review.attempts == attempt))


async def renew(
    session: AsyncSession, game_id: str, worker: str, attempt: int, progress: float,
    until_ms: int,
) -> bool:
    """Write the progress and hold the lease until `until_ms`; False when the lease is
    no longer this worker's."""
    done = await session.execute(
        update(Review).where(_held(game_id, worker, attempt))
        .values(progress=progress, lease_ms=until_ms)
    )
    return bool(getattr(done, "rowcount", 0))


async def store(
    session: AsyncSession, game_id: str, worker: str, attempt: int, result: dict[str, Any],
    now_ms: int,
) -> bool:
    """Store the review, if the lease is still this worker's (else nothing: False)."""
    done = await session.execute(
        update(Review).where(_held(game_id, worker, attempt))
        .values(status="done", progress=1.0, result=result, finished_ms=now_ms,
                lease_ms=None)
    )
    return bool(getattr(done, "rowcount", 0))


async def give_back(session: AsyncSession, game_id: str, worker: str, attempt: int) -> None:
    """Put a review this worker holds back in the queue (it stops before it is done)."""
    await session.execute(
        update(Review).where(_held(game_id, worker, attempt))
        .values(status="queued", worker=None, lease_ms=None, progress=0.0)
    )
