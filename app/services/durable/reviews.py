"""Reviews of finished games as the API asks for them and reads them (PROTOCOL §2f).

Only a stored game (one that is finished) can be reviewed; anything else is not found,
whoever asks, so nothing of a game in play is ever computed. Asking queues the review
once; a worker (`review_worker.py`) computes it.
"""

from __future__ import annotations

import time
from typing import TypedDict, cast

from app.bots.review import (
    CurvePoint,
    Engine,
    Review,
    ReviewedMove,
    ReviewedPlayer,
    budget_for,
    engine_info,
)
from app.db import reviews
from app.db.session import Database
from app.db.text import storable
from app.services.errors import ServiceError


class ReviewAnswer(TypedDict):
    """`review` of PROTOCOL §2f: the queue's status and progress, and once done what the
    review found (empty lists before)."""

    game_id: str
    status: str  # "queued" | "running" | "done"
    progress: float
    engine: Engine
    moves: list[ReviewedMove]
    players: list[ReviewedPlayer]
    curve: list[CurvePoint]


def now_ms() -> int:
    return int(time.time() * 1000)


def budget_of(configured: int) -> int | None:
    """The playouts per decision a review searches with (None: the variant's own)."""
    return configured if configured > 0 else None


def _answer(row: reviews.ReviewRow, budget: int | None) -> ReviewAnswer:
    found = cast(Review | None, row.result) if row.status == "done" else None
    return {
        "game_id": row.game_id,
        "status": row.status,
        "progress": round(row.progress, 3),
        "engine": found["engine"] if found else engine_info(budget or budget_for(row.variant)),
        "moves": found["moves"] if found else [],
        "players": found["players"] if found else [],
        "curve": found["curve"] if found else [],
    }


async def ask(db: Database, game_id: str, budget: int | None, queue_max: int) -> ReviewAnswer:
    """Queue the review of a finished game (once; asking again changes nothing)."""
    if not storable(game_id):
        raise ServiceError("not_found", "no_game", 404)
    async with db.writing() as session:
        row = await reviews.find(session, game_id)
        if row is None:
            if not await reviews.finished_game(session, game_id):
                raise ServiceError("not_found", "no_game", 404)
            if await reviews.waiting(session) >= queue_max:
                raise ServiceError("unavailable", "reviews_busy", 503)
            await reviews.ask(session, game_id, now_ms())
            row = await reviews.find(session, game_id)
            assert row is not None
    return _answer(row, budget)


async def read(db: Database, game_id: str, budget: int | None) -> ReviewAnswer:
    """The review of a game as it stands; not found unless it was asked for (and so
    unless the game is finished)."""
    row = None
    if storable(game_id):
        async with db.session() as session:
            row = await reviews.find(session, game_id)
    if row is None:
        raise ServiceError("not_found", "no_review", 404)
    return _answer(row, budget)
