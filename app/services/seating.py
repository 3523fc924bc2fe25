"""Tables the server makes with their players already seated (a seek's match, a
tournament's pairing): one way for both, and the game starts at once, as when the last
seat of a table is taken."""

from __future__ import annotations

import logging
from typing import Any

from app import logs
from app.engine import OptionsError, validate_options
from app.live.store import LiveStore, Versioned
from app.services.lobby import _new_table, _start, _write_new
from app.services.tables import ServiceError, commit

log = logging.getLogger(__name__)


async def seat_and_start(
    store: LiveStore,
    players: list[dict[str, Any]],
    *,
    variant: str,
    options: dict[str, Any],
    turn_seconds: int,
    rated: bool,
    round_pause_seconds: int,
    private: bool = False,
    table_id: str | None = None,
    extra: dict[str, Any] | None = None,
) -> str:
    """A new table with `players` (`{"id", "name"}`, in seat order) seated, its game dealt
    and running; returns its id. `table_id`: the id to use (chosen beforehand, so a
    tournament can record it first); `extra`: fields kept in the table's state."""
    try:
        normalized = validate_options(variant, len(players), options)
    except OptionsError as error:
        raise ServiceError("bad_request", str(error), 422) from error
    state = _new_table(
        players[0], variant, normalized, [dict(p) for p in players],
        turn_seconds=turn_seconds, rated=rated, round_pause_seconds=round_pause_seconds,
        bot_takeover=False, bot_pace_ms=0,
    )
    if table_id is not None:
        state["id"] = table_id
    state["private"] = private
    state.update(extra or {})
    await _write_new(store, state)
    playing = dict(state)
    game, started = _start(playing)
    events: list[dict[str, Any]] = [
        {"type": "join", "round": 0, "seat": s, "player": p["name"]} for s, p in enumerate(players)
    ]
    if await commit(store, Versioned(1, state), playing, events + started, game) is None:
        raise ServiceError("bad_request", "the table changed while it was being made", 409)
    logs.table_id.set(state["id"])
    logs.game_id.set(playing["game_id"])
    log.info("game started: %s, %d players seated by the server", variant, len(players))
    return str(state["id"])
