"""Helpers for the persistence tests: fresh databases and finished-game records as plain dicts.

Records follow domino-record/1 (PROTOCOL.md §3); their `result.rating` is computed with the
engine's rating formulas (app/engine/rating.py), exactly as the engine would.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from app.engine.rating import goat_gains, higher_wins_gains, timeout_gains
from tests.servers import pg_admin as _admin

BACKENDS = ["postgresql", "sqlite"]


@contextmanager
def fresh_database(backend: str, pg_url: str, directory: Path) -> Iterator[str]:
    """The URL of a new, empty database of this run (PostgreSQL: named after `pg_url`)."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{directory / f'domino-{secrets.token_hex(4)}.db'}"
        return
    base, run_name = pg_url.rsplit("/", 1)
    name = f"{run_name}_{secrets.token_hex(4)}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def new_game_id() -> str:
    return f"g_{secrets.token_hex(8)}"


def moment(minutes: int) -> datetime:
    """A fixed point in time, `minutes` after a reference: keeps orderings deterministic."""
    return datetime(2025, 3, 1, 12, 0, tzinfo=UTC) + timedelta(minutes=minutes)


def _record(
    variant: str, options: dict[str, Any], players: list[str], result: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    return {
        "format": "domino-record/1",
        "variant": variant,
        "options": options,
        "players": players,
        "seed": secrets.token_hex(32),
        "rounds": [],
        "timeout": None,
        "result": result,
        **extra,
    }


def goat_record(players: list[str], accounts: list[int], goats: list[int]) -> dict[str, Any]:
    """A Goat game that ended at 101 with these accounts (RULES 1.8, 1.9)."""
    winners = [seat for seat in range(len(players)) if seat not in goats]
    result = {
        "reason": "goat",
        "losers": goats,
        "winners": winners,
        "final": accounts,
        "rating": goat_gains(accounts, goats),
    }
    return _record("goat", {"fish_rule": "all", "teams": False}, players, result)


def timeout_record(players: list[str], accounts: list[int], timed_out: int) -> dict[str, Any]:
    """A Goat game interrupted by `timed_out`'s timeout (RULES 1.10)."""
    result = {
        "reason": "timeout",
        "losers": [timed_out],
        "winners": [seat for seat in range(len(players)) if seat != timed_out],
        "final": accounts,
        "rating": timeout_gains(accounts, timed_out),
    }
    return _record(
        "goat",
        {"fish_rule": "all", "teams": False},
        players,
        result,
        timeout={"round": 0, "seat": timed_out},
    )


def classic_record(players: list[str], scores: list[int], target: int = 100) -> dict[str, Any]:
    """A Classic game won by the highest score at or above `target` (RULES 2, 9)."""
    best = max(scores)
    winners = [seat for seat, s in enumerate(scores) if s == best and s >= target]
    result = {
        "reason": "target",
        "losers": [seat for seat in range(len(players)) if seat not in winners],
        "winners": winners,
        "final": scores,
        "rating": higher_wins_gains(scores, winners, target),
    }
    return _record("classic", {"target": target}, players, result)
