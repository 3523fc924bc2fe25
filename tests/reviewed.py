"""Finished games for the review tests: played by the engine's own computer players from a
seed, so their records replay, and written as the results writer writes a finished game."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from app.bots import HeuristicPlayer, play_to_end
from app.db.session import Database
from app.engine import start_game
from app.services.durable.results import FinishedGame, write_result


def finished_record(variant: str, names: Sequence[str], seed: int,
                    options: dict[str, Any] | None = None) -> dict[str, Any]:
    game, _ = start_game(variant, len(names), options or {}, seed.to_bytes(16, "big"))
    play_to_end(game, [HeuristicPlayer()] * len(names), random.Random(seed))
    assert game.status == "finished"
    return game.record(list(names))


async def store_finished(db: Database, record: dict[str, Any],
                         player_ids: Sequence[int | None]) -> str:
    """Write the game as finished; its id."""
    game_id = f"g_{secrets.token_hex(8)}"
    now = datetime.now(UTC)
    assert await write_result(db, FinishedGame(
        game_id=game_id, table_id=f"t_{game_id}", record=record, rated=False,
        player_ids=list(player_ids), started_at=now, finished_at=now,
    ))
    return game_id
