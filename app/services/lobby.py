"""Tables and seats: create, list, join and leave; a table starts its game when it fills."""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Callable
from typing import Any, Protocol

from app import logs
from app.engine import OptionsError, new_seed, start_game, validate_options
from app.live.store import LiveStore
from app.services import play
from app.services.seats import DEFAULT_PACE_MS, is_bot
from app.services.tables import (
    Change,
    ServiceError,
    commit,
    lobby_entry_changed,
    not_found,
    now_ms,
    public_table,
    seat_of,
)

# A lobby command (join, leave) loses a compare-and-set only to another change of the
# same table; it then re-reads and tries again, a bounded number of times.
ATTEMPTS = 20

log = logging.getLogger(__name__)


class Player(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


def _who(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}


async def create_table(
    store: LiveStore,
    player: Player,
    *,
    variant: str,
    seats: int,
    options: dict[str, Any] | None,
    turn_seconds: int,
    rated: bool,
    bot_takeover: bool = False,
    bot_pace_ms: int = DEFAULT_PACE_MS,
) -> dict[str, Any]:
    """A new waiting table with its creator in seat 0 (or a game at once for one seat).

    `bot_takeover`: a bot plays on for a player who times out, instead of the game ending
    (RULES 1.10); casual tables only, since it changes how a game can end. `bot_pace_ms`:
    how long the bots at this table wait before they place a tile.
    """
    try:
        normalized = validate_options(variant, seats, options)
    except OptionsError as error:
        raise ServiceError("bad_request", str(error), 422) from error
    if bot_takeover and rated:
        raise ServiceError("bad_request", "only a casual (unrated) table can use bot_takeover", 422)
    now = now_ms()
    table_id = secrets.token_hex(8)
    state: dict[str, Any] = {
        "id": table_id,
        "variant": variant,
        "options": normalized,
        "players": seats,
        "seats": [_who(player)] + [None] * (seats - 1),
        "status": "waiting",
        "turn_seconds": turn_seconds,
        "rated": rated,
        "bot_takeover": bot_takeover,
        "bot_pace_ms": bot_pace_ms,
        "created_by": _who(player),
        "game_id": None,
        "created_at": now,
        "started_at": None,
        "finished_at": None,
        "deadline": None,
        "game": None,
        "log": [],
    }
    version = await store.write(
        table_id, 0, state, deadline_ms=None, created_ms=now,
        lobby_entry=lobby_entry_changed(None, state),
    )
    if version is None:  # a 64-bit random id collided: vanishingly rare, but never overwrite
        raise ServiceError("bad_request", "could not create the table, try again", 409)
    return public_table(state)


async def list_tables(store: LiveStore) -> list[dict[str, Any]]:
    """Open and running tables (finished ones are only readable by id)."""
    return [
        public_table(t.state)
        for t in await store.listed()
        if t.state["status"] in ("waiting", "playing")
    ]


async def get_table(store: LiveStore, table_id: str) -> dict[str, Any]:
    current = await store.load(table_id)
    if current is None:
        raise not_found(table_id)
    return public_table(current.state)


async def join(
    store: LiveStore, player: Player, table_id: str, seat: int | None = None
) -> tuple[int, Change]:
    """Seat `player` (in `seat`, or the first free one); the last seat starts the game."""

    def check(state: dict[str, Any]) -> None:
        if seat_of(state, player.id) is not None:
            raise ServiceError("bad_request", "you are already seated at this table", 409)

    return await take_seat(store, table_id, lambda _seat: _who(player), seat, check=check)


async def take_seat(
    store: LiveStore,
    table_id: str,
    who: Callable[[int], dict[str, Any]],
    seat: int | None,
    *,
    check: Callable[[dict[str, Any]], None],
) -> tuple[int, Change]:
    """Seat `who(seat)` (in `seat`, or the first free one) after `check(state)` has had its
    say. The last seat starts the game."""
    for _ in range(ATTEMPTS):
        current = await store.load(table_id)
        if current is None:
            raise not_found(table_id)
        state = dict(current.state)
        check(state)
        if state["status"] != "waiting":
            raise ServiceError("bad_request", "the game has already started", 409)
        free = [s for s, taken in enumerate(state["seats"]) if taken is None]
        if not free:
            raise ServiceError("bad_request", "the table is full", 409)
        if seat is None:
            chosen = free[0]
        elif not 0 <= seat < state["players"]:
            raise ServiceError("bad_request", f"there is no seat {seat}", 409)
        elif seat not in free:
            raise ServiceError("bad_request", f"seat {seat} is taken", 409)
        else:
            chosen = seat
        seats = list(state["seats"])
        seats[chosen] = who(chosen)
        state["seats"] = seats
        events: list[dict[str, Any]] = [
            {"type": "join", "round": 0, "seat": chosen, "player": seats[chosen]["name"]}
        ]
        game = None
        if all(taken is not None for taken in seats):
            # The last seat is taken: deal from a fresh secret seed; only its commitment
            # is shown (in the start event and every view) until the game ends.
            game, started = start_game(
                state["variant"], state["players"], state["options"], new_seed()
            )
            state["game_id"] = uuid.uuid4().hex
            state["started_at"] = now_ms()
            events += started
        change = await commit(store, current, state, events, game)
        if change is not None:
            if game is not None:
                logs.table_id.set(table_id)
                logs.game_id.set(state["game_id"])
                log.info("game started: %s, %d players", state["variant"], state["players"])
            return chosen, change
    raise ServiceError("bad_request", "the table is busy, try again", 409)


async def leave(store: LiveStore, player: Player, table_id: str) -> Change | None:
    """Before the start: free the seat (an emptied table is removed; returns None then).

    During play: a resignation, which RULES 1.10 treats exactly as a timeout.
    """
    for _ in range(ATTEMPTS):
        current = await store.load(table_id)
        if current is None:
            raise not_found(table_id)
        state = dict(current.state)
        seat = seat_of(state, player.id)
        if seat is None:
            raise ServiceError("not_seated", "you are not seated at this table", 409)
        if state["status"] == "playing":
            return await play.resign(store, player.id, table_id)
        if state["status"] == "finished":
            raise ServiceError("game_over", "the game is over", 409)
        seats = list(state["seats"])
        seats[seat] = None
        if not any(who is not None and not is_bot(who) for who in seats):  # nobody left
            if await store.delete(table_id, current.version):
                return None
            continue
        state["seats"] = seats
        events = [{"type": "leave", "round": 0, "seat": seat, "player": player.name}]
        change = await commit(store, current, state, events, None)
        if change is not None:
            return change
    raise ServiceError("bad_request", "the table is busy, try again", 409)
