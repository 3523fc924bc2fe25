"""Moves, resignations, timeouts and chat at a running table.

Every check of PROTOCOL §2 is made here in its order (after the gateway's rate limit,
frame checks and authentication): not_found, not_seated, game_over, stale,
not_your_turn, illegal_move. The first that applies is the answer; an error changes
nothing. A move is applied only by a compare-and-set on the version it was chosen
from, so a repeated or concurrent copy of it is `stale`, never a second move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engine import Game, IllegalMove
from app.live.ratelimit import Charge
from app.live.store import LiveStore, Versioned
from app.services.fairness import unrate_for_takeover
from app.services.seats import hand_over, is_bot
from app.services.tables import (
    Change,
    ServiceError,
    commit,
    game_of,
    not_found,
    now_ms,
    pause_remaining,
    seat_of,
)
from app.services.text import readable

ATTEMPTS = 20


async def play(
    store: LiveStore, player_id: int, table_id: str, tile: str, end: str | None, seq: int,
    known: Versioned | None = None, known_game: Game | None = None,
    fields: Mapping[str, Any] | None = None, charge: Charge | None = None,
) -> Change:
    """Apply a move chosen at `seq`. `known`: the table as this process last saw it (and
    `known_game` its game, which the move is played on: the caller gives it up); when it
    is at `seq` the move is tried on it without reading the table again (the
    compare-and-set still decides), and any refusal is checked against a fresh read.
    `fields`: the move's extra fields as the client sent them; those the variant names
    (`Game.move_fields`) go to the engine, the rest are ignored like any extra field of a
    message. `charge`: the message's rate limits, taken by the move's write (see
    `commit`); a refused move raises `Refused`."""
    if known is not None and known.version == seq:
        try:
            return await _play(store, known, player_id, table_id, tile, end, seq,
                               known_game, fields, charge)
        except ServiceError:
            pass
    current = await store.load(table_id)
    if current is None:
        raise not_found(table_id)
    return await _play(store, current, player_id, table_id, tile, end, seq, None, fields, charge)


async def _play(
    store: LiveStore, current: Versioned, player_id: int, table_id: str, tile: str,
    end: str | None, seq: int, game: Game | None = None,
    fields: Mapping[str, Any] | None = None, charge: Charge | None = None,
) -> Change:
    state = current.state
    seat = seat_of(state, player_id)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated at this table", 409)
    if state["status"] == "finished":
        raise ServiceError("game_over", "the game is over", 409)
    if seq != current.version:
        raise ServiceError(
            "stale", f"the table is at seq {current.version}, your move was for {seq}", 409
        )
    if game is None:
        game = game_of(state)
    if game is None or game.turn != seat:
        raise ServiceError("not_your_turn", "it is not your turn", 409)
    pause_left = pause_remaining(state)
    if pause_left > 0:
        raise ServiceError(
            "not_your_turn", f"the next round starts in {-(-pause_left // 1000)} s", 409
        )
    # Once the pause between rounds is over, the first turn's clock has not started yet.
    deadline = None if state.get("next_round_at") is not None else state["deadline"]
    if deadline is not None and now_ms() > deadline and not is_bot(state["seats"][seat]):
        if store.outage_since is not None:
            # The store was away: the clocks are about to be restarted, not run out.
            raise ServiceError("unavailable", "the turn clocks are being restarted", 503)
        # The clock is the authority: a move after the deadline is a timeout, even if the
        # sweeper has not got to it yet. (Bots are moved by the server; they never time out.)
        await expire(store, table_id)
        raise ServiceError("game_over", "your time ran out", 409)
    try:
        extra = {k: fields[k] for k in game.move_fields if k in fields} if fields else {}
        events = game.play(seat, tile, end, **extra)
    except ValueError as error:  # IllegalMove, or a string that is not a tile of the set
        raise ServiceError("illegal_move", str(error), 409) from error
    change = await commit(store, current, state, events, game, charge=charge)
    if change is None:
        raise ServiceError("stale", "the table changed meanwhile, look again", 409)
    return change


async def resign(store: LiveStore, player_id: int, table_id: str) -> Change:
    """Leave a running game: RULES 1.10 counts it as a timeout of the resigning seat."""
    for _ in range(ATTEMPTS):
        current = await store.load(table_id)
        if current is None:
            raise not_found(table_id)
        seat = seat_of(current.state, player_id)
        if seat is None:
            raise ServiceError("not_seated", "you are not seated at this table", 409)
        game = game_of(current.state)
        if current.state["status"] == "waiting":
            raise ServiceError(
                "bad_request",
                "the game has not started, so there is nothing to resign; leave the table to"
                " give up your seat", 409,
            )
        if current.state["status"] == "finished" or game is None:
            raise ServiceError("game_over", "there is no game in progress", 409)
        try:
            events = game.timeout(seat, "resign")
        except IllegalMove as error:
            raise ServiceError("game_over", str(error), 409) from error
        change = await commit(store, current, current.state, events, game)
        if change is not None:
            return change
    raise ServiceError("stale", "the table is busy, try again", 409)


async def expire(store: LiveStore, table_id: str) -> Change | None:
    """Apply the timeout of the player on turn if his deadline has passed (the clock's job).

    Returns the change, or None if there was nothing to do: the player moved in time (his
    new deadline is already in the clock), or the game is over or gone.
    """
    for _ in range(ATTEMPTS):
        current = await store.load(table_id)
        if current is None or current.state["status"] != "playing":
            await store.drop_deadline(table_id)
            return None
        deadline = current.state["deadline"]
        if deadline is not None and deadline > now_ms():
            return None
        game = game_of(current.state)
        if game is None or game.turn is None:
            return None
        if current.state.get("next_round_at") is not None:
            # The pause between rounds is over: the first turn's clock starts now.
            state = current.state
            events = [{"type": "round_resume", "round": game.round, "turn": game.turn}]
        elif is_bot(current.state["seats"][game.turn]):
            return None
        elif current.state.get("bot_takeover"):  # a casual table lets a bot play on for him
            state, events = hand_over(current.state, game)
            unrate_for_takeover(state, events[0])  # a rated game is unrated from here on
        else:
            state, events = current.state, game.timeout(game.turn)
        change = await commit(store, current, state, events, game)
        if change is not None:
            return change
    return None


async def restart_clock(store: LiveStore, table_id: str, paused_ms: int) -> Change | None:
    """Give the player on turn a whole turn again: moves could not be made for `paused_ms`
    because the store was unreachable, and that time must not count against him."""
    for _ in range(ATTEMPTS):
        current = await store.load(table_id)
        if current is None or current.state["status"] != "playing":
            return None
        game = game_of(current.state)
        if game is None or game.turn is None:
            return None
        event = {"type": "clock", "round": game.round, "seat": game.turn, "paused_ms": paused_ms}
        change = await commit(store, current, current.state, [event], game)
        if change is not None:
            return change
    return None


async def chat(
    store: LiveStore, player_id: int, name: str, table_id: str, text: str, origin: str
) -> dict[str, Any]:
    """Say `text` to everyone at the table; not a table change (no new seq)."""
    text = readable(text)
    if not text.strip():  # the client's own mistake: first of the errors (PROTOCOL §2)
        raise ServiceError("bad_request", "chat text is empty", 422)
    current = await store.load(table_id)
    if current is None:
        raise not_found(table_id)
    if seat_of(current.state, player_id) is None:
        raise ServiceError("not_seated", "only players seated at this table can chat", 409)
    message = {"type": "chat", "table_id": table_id, "from": name, "text": text, "at": now_ms()}
    await store.publish_table(table_id, {"kind": "chat", "message": message, "origin": origin})
    return message
