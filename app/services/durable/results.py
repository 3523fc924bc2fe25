"""The one place that makes a finished game durable and pays its ratings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import settings
from app.db import games, ratings
from app.db.games import GameRow, SeatRow
from app.db.ratings import Payment
from app.db.session import Database
from app.domain import skill
from app.engine import Result
from app.services.durable.recovery import forget_snapshot


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _check(record: dict[str, Any], player_ids: Sequence[int | None]) -> Result:
    """The record's result, once it has the shape of the engine's `Result` for these seats."""
    result = record.get("result")
    if not isinstance(result, dict):
        raise ValueError("the record has no result: only finished games are written")
    seats = len(player_ids)
    for key in ("final", "rating"):
        if len(result.get(key) or []) != seats:
            raise ValueError(f"result.{key} must have one entry per seat ({seats})")
    if len(record.get("players") or []) != seats:
        raise ValueError(f"record.players must have one name per seat ({seats})")
    return cast(Result, result)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as it is written: its record (with the result), whether it is rated,
    and the player id of each seat (None: a bot's seat, never paid nor rated)."""

    game_id: str
    table_id: str
    record: dict[str, Any]
    rated: bool
    player_ids: Sequence[int | None]
    started_at: datetime | None
    finished_at: datetime


# RULES 1.9 / PROTOCOL §2g: rated games between the same two accounts pay nothing beyond
# this many in a day (any 24 hours); the game is kept, unrated, with this reason.
PAIR_LIMIT_REASON = "pair_limit"


async def _past_pair_limit(session: AsyncSession, finished: FinishedGame) -> bool:
    people = [pid for pid in finished.player_ids if pid is not None]
    since = _aware(finished.finished_at) - timedelta(days=1)
    together = await games.most_rated_together(session, people, since)
    return together >= settings.daily_pair_games


def _unrated(finished: FinishedGame, reason: str) -> FinishedGame:
    result = {**finished.record["result"], "unrated_reason": reason}
    return replace(finished, rated=False, record={**finished.record, "result": result})


async def _write(session: AsyncSession, finished: FinishedGame, result: Result) -> None:
    if finished.rated and await _past_pair_limit(session, finished):
        finished = _unrated(finished, PAIR_LIMIT_REASON)
    game_id, record, rated = finished.game_id, finished.record, finished.rated
    player_ids, started_at = finished.player_ids, finished.started_at
    variant = str(record["variant"])
    # The game row goes first: a concurrent writer of the same game blocks on its primary
    # key right here and then fails, before it has touched a single rating.
    await games.insert(session, GameRow(
        id=game_id,
        table_id=finished.table_id,
        variant=variant,
        options=record.get("options") or {},
        players=list(record["players"]),
        record=record,
        seed=record.get("seed"),
        end_reason=str(result.get("reason", "")),
        started_at=_aware(started_at) if started_at else None,
        finished_at=_aware(finished.finished_at),
        rated=rated,
    ))

    winners = set(result.get("winners") or [])
    losers = set(result.get("losers") or [])
    # People only: a bot's seat (None) is never paid, never rated and has no row here. A
    # rated table with bots pays its people what the result says; their skill is updated
    # from the outcomes among the people at the table.
    seated = [(seat, pid) for seat, pid in enumerate(player_ids) if pid is not None]
    won = {seat: seat in winners for seat, _ in seated}
    # A draw (Sport Goat, General: RULES §11, §12) names nobody a winner or a loser.
    outcome = {
        seat: "won" if seat in winners else "lost" if seat in losers else "draw"
        for seat, _ in seated
    }
    gains = {seat: int(result["rating"][seat]) if rated else 0 for seat, _ in seated}
    skills_after: dict[int, float | None] = {seat: None for seat, _ in seated}
    if rated and seated:
        locked = await ratings.lock(session, variant, [pid for _, pid in seated])
        before = [locked[pid] for _, pid in seated]
        after = skill.update_game(before, [won[seat] for seat, _ in seated])
        await ratings.pay(session, variant, [
            Payment(pid, gains[seat], won[seat], outcome[seat] == "lost", new)
            for (seat, pid), new in zip(seated, after, strict=True)
        ])
        skills_after = {seat: new.rating for (seat, _), new in zip(seated, after, strict=True)}
    await games.insert_seats(session, [
        SeatRow(game_id, seat, pid, int(result["final"][seat]), gains[seat], outcome[seat],
                skills_after[seat])
        for seat, pid in seated
    ])


async def write_result(db: Database, finished: FinishedGame) -> bool:
    """Store a finished game and pay its ratings in one transaction.

    Idempotent on `game_id`: returns True if this call wrote the game, False if it was
    already written (then nothing changes, also when two calls race). Only rated games
    change ratings; `record["result"]["rating"]` are the gains by seat. A seat whose
    player id is None is a bot's: nothing is written or paid for it.
    """
    result = _check(finished.record, finished.player_ids)
    try:
        async with db.writing() as session:
            await _write(session, finished, result)
            await forget_snapshot(session, finished.table_id, finished.game_id)
    except IntegrityError:
        # Everything was rolled back. A duplicate game is the expected case; anything else
        # (an unknown player id, say) is a bug the caller must see.
        if finished.game_id in await written_game_ids(db, [finished.game_id]):
            return False
        raise
    return True


async def written_game_ids(db: Database, game_ids: Iterable[str]) -> set[str]:
    """Which of these games are already stored (for restart recovery of unwritten results)."""
    ids = list(set(game_ids))
    if not ids:
        return set()
    async with db.session() as session:
        return await games.written_ids(session, ids)
