"""Tables and seats: create, list, join and leave; a table starts its game when it fills."""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app import logs
from app.config import settings
from app.engine import Game, OptionsError, new_seed, start_game, validate_options
from app.live.store import LiveStore, Versioned
from app.services import play
from app.services.fairness import has_bots
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
# Seconds between a round's end and the next deal when a request does not say (PROTOCOL
# §2a); a table made here without saying has no pause.
DEFAULT_ROUND_PAUSE = 5

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
    round_pause_seconds: int = 0,
    admit: Callable[[str], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """A new waiting table with its creator in seat 0 (or a game at once for one seat).

    `bot_takeover`: a bot plays on for a player who times out, instead of the game ending
    (RULES 1.10); casual tables only, since it changes how a game can end. `bot_pace_ms`:
    how long the bots at this table wait before they place a tile. `round_pause_seconds`:
    how long the next deal waits after a round's end (PROTOCOL §2a). `admit`: called
    with the new table's id before it is stored; it may refuse (a cap) by raising.
    """
    try:
        normalized = validate_options(variant, seats, options)
    except OptionsError as error:
        raise ServiceError("bad_request", str(error), 422) from error
    if bot_takeover and rated:
        raise ServiceError("bad_request", "only a casual (unrated) table can use bot_takeover", 422)
    state = _new_table(
        _who(player), variant, normalized, [_who(player)] + [None] * (seats - 1),
        turn_seconds=turn_seconds, rated=rated, round_pause_seconds=round_pause_seconds,
        bot_takeover=bot_takeover, bot_pace_ms=bot_pace_ms,
    )
    if admit is not None:
        await admit(state["id"])
    await _write_new(store, state)
    return public_table(state)


def _new_table(
    creator: dict[str, Any],
    variant: str,
    options: dict[str, Any],
    seats: list[dict[str, Any] | None],
    *,
    turn_seconds: int,
    rated: bool,
    round_pause_seconds: int,
    bot_takeover: bool,
    bot_pace_ms: int,
) -> dict[str, Any]:
    now = now_ms()
    return {
        "id": secrets.token_hex(8),
        "variant": variant,
        "options": options,
        "players": len(seats),
        "seats": seats,
        "status": "waiting",
        "turn_seconds": turn_seconds,
        "round_pause_seconds": round_pause_seconds,
        "rated": rated,
        "bot_takeover": bot_takeover,
        "bot_pace_ms": bot_pace_ms,
        "created_by": creator,
        "game_id": None,
        "created_at": now,
        "started_at": None,
        "finished_at": None,
        "deadline": None,
        "game": None,
        "log": [],
    }


async def _write_new(store: LiveStore, state: dict[str, Any]) -> None:
    version = await store.write(
        state["id"], 0, state, deadline_ms=None, created_ms=state["created_at"],
        lobby_entry=lobby_entry_changed(None, state),
    )
    if version is None:  # a 64-bit random id collided: vanishingly rare, but never overwrite
        raise ServiceError("bad_request", "could not create the table, try again", 409)


async def list_tables(store: LiveStore, limit: int | None = None) -> list[dict[str, Any]]:
    """Open and running tables (finished ones are only readable by id): the waiting ones
    first (they can be joined), newest first; at most `limit` (None: the configured
    lobby size)."""
    limit = settings.lobby_max_tables if limit is None else limit
    shown = [t.state for t in await store.listed() if t.state["status"] in ("waiting", "playing")]
    shown.sort(key=lambda s: (s["status"] != "waiting", -s["created_at"]))
    return [public_table(state) for state in shown[:limit]]


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
            game, started = _start(state)
            events += started
        change = await commit(store, current, state, events, game)
        if change is not None:
            if game is not None:
                logs.table_id.set(table_id)
                logs.game_id.set(state["game_id"])
                log.info("game started: %s, %d players", state["variant"], state["players"])
            return chosen, change
    raise ServiceError("bad_request", "the table is busy, try again", 409)


async def _seated(
    store: LiveStore, player: Player, table_id: str
) -> tuple[Versioned, dict[str, Any], int]:
    """The table (as read, and a copy of its state to change) and `player`'s seat at it."""
    current = await store.load(table_id)
    if current is None:
        raise not_found(table_id)
    state = dict(current.state)
    seat = seat_of(state, player.id)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated at this table", 409)
    return current, state, seat


def _start(state: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
    """The last seat is taken: deal from a fresh secret seed; only its commitment is shown
    (in the start event and every view) until the game ends."""
    game, started = start_game(
        state["variant"], state["players"], state["options"], new_seed(), clock=now_ms
    )
    state["game_id"] = uuid.uuid4().hex
    state["started_at"] = now_ms()
    return game, started


async def rematch(store: LiveStore, player: Player, table_id: str) -> dict[str, Any]:
    """`player` offers to play again at a finished table; when every seat has offered, a
    new table with the same variant, options, seats and clocks starts at once.

    Returns PROTOCOL's `{"offers", "new_table_id"}` and, as "started", whether this offer
    started the new table (so the caller announces it once).
    """
    for _ in range(ATTEMPTS):
        current, state, seat = await _seated(store, player, table_id)
        if state["status"] != "finished":
            raise ServiceError("bad_request", "a rematch is offered once the game is over", 409)
        offer = dict(state.get("rematch") or {"offers": [], "new_table_id": None})
        offers = sorted({*offer["offers"], seat})
        # Bots always play again; every person at the table must say so.
        people = {s for s, who in enumerate(state["seats"]) if who is not None and not is_bot(who)}
        started = offer["new_table_id"] is None and people <= set(offers)
        if offer["new_table_id"] is not None or offers == offer["offers"]:
            return {**offer, "started": False}
        new_table = None
        if started:
            new_table = _new_table(
                state["created_by"], state["variant"], state["options"], list(state["seats"]),
                turn_seconds=state["turn_seconds"],
                rated=state["rated"] and not has_bots(state["seats"]),  # people only
                round_pause_seconds=state.get("round_pause_seconds", 0),
                bot_takeover=state.get("bot_takeover", False),
                bot_pace_ms=state.get("bot_pace_ms", DEFAULT_PACE_MS),
            )
        offer = {"offers": offers, "new_table_id": None if new_table is None else new_table["id"]}
        state["rematch"] = offer
        event = {"type": "rematch", "round": 0, "seat": seat, **offer}
        # A finished table stays out of the lobby: this change only tells its watchers.
        if await commit(store, current, state, [event], None, listed=False) is None:
            continue
        if new_table is not None:
            # Every seat is taken at once, so the new table starts as a last join would.
            await _write_new(store, new_table)
            playing = dict(new_table)
            game, started_events = _start(playing)
            await commit(store, Versioned(1, new_table), playing, started_events, game)
            note = {"type": "table.rematch", "table_id": table_id, **offer}
            await store.publish_table(table_id, {"kind": "notice", "message": note})
        return {**offer, "started": started}
    raise ServiceError("bad_request", "the table is busy, try again", 409)


async def leave(store: LiveStore, player: Player, table_id: str) -> Change | None:
    """Before the start: free the seat (an emptied table is removed; returns None then).

    During play: a resignation, which RULES 1.10 treats exactly as a timeout.
    """
    for _ in range(ATTEMPTS):
        current, state, seat = await _seated(store, player, table_id)
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
