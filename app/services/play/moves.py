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

from app.domain.text import readable
from app.engine import Game, IllegalMove
from app.live.chat_log import ChatLog, SaidLine
from app.live.ratelimit import Charge
from app.live.store import LiveStore, Outage
from app.services.tables.bot_seats import hand_over, is_bot, reclaimed
from app.services.tables.deal import Deal
from app.services.tables.events import ClockEvent
from app.services.tables.fairness import unrate_for_takeover
from app.services.tables.next_game import lapsed, next_game
from app.services.tables.table import ClockRule, Remove, Step, Table
from app.services.tables.transact import (
    Change,
    Command,
    ServiceError,
    game_of,
    loaded,
    now_ms,
    pause_remaining,
    transact,
)
from app.wire.messages import ChatLine


class TimedOut(ServiceError):
    """A move after its player's deadline: the clock is the authority, so it is that
    player's timeout (which the caller applies), even if the sweeper has not got to it yet;
    unless the turn ran out while the store was away (`deadline`: when it ran out)."""

    def __init__(self, deadline: int) -> None:
        super().__init__("game_over", "time_ran_out", 409)
        self.deadline = deadline


def _seat(table: Table, player_id: int) -> int:
    seat = table.seat_of(player_id)
    if seat is None:
        raise ServiceError("not_seated", "not_seated_here", 409)
    return seat


def move(
    player_id: int, tile: str, end: str | None, seq: int, *, now: int,
    fields: Mapping[str, Any] | None = None, game: Game | None = None, outage: bool = False,
    forgiven: Outage | None = None,
) -> Command:
    """The command of a move chosen at version `seq`, checked in PROTOCOL §2's order.

    `game`: the game of the table at `seq`, already parsed, given up to the move (used on
    the first table the command is applied to, which must be that one). `outage`: the
    store was away and the turn clocks are about to be restarted, not run out.
    `forgiven`: the store's last outage, when the move is late: a turn that ran out within
    it, before its clock was restarted, was not the player's to lose, and the move counts.
    `fields`:
    the move's extra fields as the client sent them; those the variant names
    (`Game.move_fields`) go to the engine, the rest are ignored like any extra field."""
    given = [game]

    def apply(table: Table) -> Step:
        parsed = given.pop() if given else None
        seat = _seat(table, player_id)
        if table.status == "finished":
            raise ServiceError("game_over", "game_is_over", 409)
        if seq != table.version:
            raise ServiceError("stale", "stale_seq", 409, a=table.version, b=seq)
        played = game_of(table) if parsed is None else parsed
        if played is None or played.turn != seat:
            raise ServiceError("not_your_turn", "others_turn", 409)
        pause_left = pause_remaining(table, now)
        if pause_left > 0:
            raise ServiceError("not_your_turn", "next_round_in", 409, n=-(-pause_left // 1000))
        # Once the pause between rounds is over, the first turn's clock has not started yet.
        deadline = None if table.next_round_at is not None else table.deadline
        clock: ClockRule = "run"
        if deadline is not None and now > deadline and not is_bot(table.seats[seat]):
            if outage:
                raise ServiceError("unavailable", "clocks_restarting", 503)
            if forgiven is None or not forgiven.covers(deadline):
                # (Bots are moved by the server; they never time out.)
                raise TimedOut(deadline)
            # His turn ran out while the store was away: his reserve is not charged for it.
            clock = "restart"
        try:
            extra = {k: fields[k] for k in played.move_fields if k in fields} if fields else {}
            events = played.play(seat, tile, end, **extra)
        except ValueError as error:  # IllegalMove, or a string that is not a tile of the set
            raise ServiceError.of_engine("illegal_move", error, 409) from error
        return Step(table, events, played, clock=clock)

    return apply


async def play(
    store: LiveStore, player_id: int, table_id: str, tile: str, end: str | None, seq: int,
    known: Table | None = None, known_game: Game | None = None,
    fields: Mapping[str, Any] | None = None, charge: Charge | None = None,
    answers: str | None = None,
) -> Change:
    """Apply a move chosen at `seq`. `known`: the table as this process last saw it (and
    `known_game` its game, which the move is played on: the caller gives it up); when it
    is at `seq` the move is tried on it without reading the table again (the
    compare-and-set still decides), and any refusal is checked against a fresh read.
    `fields`: see `move`. `charge`: the message's rate limits, taken by the move's write
    (see `tables.commit`); a refused move raises `Refused`. `answers`: the relayed request
    the move is (app.services.play.relay), named in its announcement."""
    if known is None or known.version != seq:
        known, known_game = None, None
    command = move(player_id, tile, end, seq, now=now_ms(), fields=fields, game=known_game,
                   outage=store.outage_since is not None)
    try:
        change = await transact(store, table_id, command, known=known, charge=charge,
                                retry=False, answers=answers)
    except TimedOut as late:
        # Only a late move asks the store when it was last away (not one move in thousands).
        window = await store.last_outage()
        if window is None or not window.covers(late.deadline):
            await expire(store, table_id)
            raise
        # The turn ran out while the store was away, before its clock was restarted: the
        # player could not have moved sooner, and his move counts (still at `seq` only).
        command = move(player_id, tile, end, seq, now=now_ms(), fields=fields,
                       outage=store.outage_since is not None, forgiven=window)
        change = await transact(store, table_id, command, charge=charge, retry=False,
                                answers=answers)
    assert change is not None
    return change


def resignation(player_id: int) -> Command:
    """Leaving a running game: RULES 1.10 counts it as a timeout of the resigning seat."""

    def apply(table: Table) -> Step:
        seat = _seat(table, player_id)
        if table.status == "waiting":
            raise ServiceError("bad_request", "nothing_to_resign", 409)
        game = game_of(table)
        if table.status == "finished" or game is None:
            raise ServiceError("game_over", "no_game_in_progress", 409)
        try:
            events = game.timeout(seat, "resign")
        except IllegalMove as error:
            raise ServiceError.of_engine("game_over", error, 409) from error
        return Step(table, events, game)

    return apply


async def resign(store: LiveStore, player_id: int, table_id: str) -> Change:
    """Leave a running game (see `resignation`)."""
    change = await transact(store, table_id, resignation(player_id))
    assert change is not None
    return change


def timeout(now: int, forgiven: Outage | None = None, deal: Deal | None = None) -> Command:
    """The timeout of the player on turn if his deadline has passed at `now` (the clock's
    job); nothing if he moved in time, or the game is over. At a casual table that allows
    it (`on_timeout: "computer"`, PROTOCOL §2g) a bot plays on for him; at the end of a
    pause between rounds the first turn's clock starts instead. A turn that ran out within
    `forgiven` (the store's last outage: a write that landed late, or a clock this process
    had not restarted yet) gets a whole turn again, not a timeout. At a courtyard table
    whose game is over, the next one starts at the pause's end, dealt from `deal`, once
    the game that ended is written (PROTOCOL §2d), and one waiting for a player since goes
    once its wait is over."""

    def apply(table: Table) -> Step | Remove | None:
        if table.status == "finished" and table.courtyard is not None \
                and table.game_id is not None and deal is not None:
            return next_game(table.game_id, now, deal)(table)
        if table.status == "waiting":
            return lapsed(now)(table)
        if table.status != "playing":
            return None
        if table.deadline is not None and table.deadline > now:
            return None
        game = game_of(table)
        if game is None or game.turn is None:
            return None
        if table.next_round_at is not None:
            return Step(table, [{"type": "round_resume", "round": game.round, "turn": game.turn}],
                        game)
        if is_bot(table.seats[game.turn]):
            return None
        if table.deadline is not None and forgiven is not None and forgiven.covers(
                table.deadline):
            return _restarted(table, game, max(0, now - table.deadline))
        if table.on_timeout == "computer":
            # (a table stored rated with a takeover, before rated tables were refused one,
            # is unrated from here on)
            taken, events = unrate_for_takeover(*hand_over(table, game))
            return Step(taken, events, game)
        return Step(table, game.timeout(game.turn), game)

    return apply


async def expire(store: LiveStore, table_id: str) -> Change | None:
    """Apply the timeout of the player on turn if his deadline has passed (see `timeout`).

    Returns the change, or None if there was nothing to do: the player moved in time (his
    new deadline is already in the clock), or the game is over or gone.
    """
    try:
        change = await transact(store, table_id, timeout(now_ms(), await store.last_outage(),
                                                         Deal.fresh()))
    except ServiceError as error:
        if error.code == "not_found":
            await store.drop_deadline(table_id)
        return None
    if change is None or not change.written:
        if change is not None and change.table.status != "playing":
            await store.drop_deadline(table_id)
        return None
    return change


def clock_restart(paused_ms: int) -> Command:
    """A whole turn again for the player on turn: moves could not be made for `paused_ms`
    because the store was unreachable, and that time must not count against him."""

    def apply(table: Table) -> Step | None:
        if table.status != "playing":
            return None
        game = game_of(table)
        if game is None or game.turn is None:
            return None
        return _restarted(table, game, paused_ms)

    return apply


def _restarted(table: Table, game: Game, paused_ms: int) -> Step:
    """The clock of the player on turn (`game.turn`) started again: `paused_ms` of his turn
    passed while no move could be made."""
    assert game.turn is not None
    event: ClockEvent = {
        "type": "clock", "round": game.round, "seat": game.turn, "paused_ms": paused_ms
    }
    return Step(table, [event], game, clock="restart")


async def restart_clock(store: LiveStore, table_id: str, paused_ms: int) -> Change | None:
    """Apply `clock_restart`; None if there was nothing to restart."""
    try:
        change = await transact(store, table_id, clock_restart(paused_ms))
    except ServiceError:
        return None
    return change if change is not None and change.written else None


def seat_reclaim(player_id: int) -> Command:
    """The person whose seat a computer player holds since he timed out asks for it back
    (PROTOCOL §2g): he takes it at his next turn, at once if that is now (the write's
    `seal` gives it back). Nothing changes for a second ask."""

    def apply(table: Table) -> Step | None:
        stand_in = table.stand_in_for(player_id)
        if stand_in is None:
            raise ServiceError("not_seated", "no_seat_to_reclaim", 409)
        game = game_of(table)
        if table.status != "playing" or game is None:
            raise ServiceError("game_over", "game_is_over", 409)
        if stand_in.back:
            return None
        asked, event = reclaimed(table, stand_in, game.round)
        # Nobody's turn changes here; the clock goes on (unless it is his turn now).
        return Step(asked, [event], game, clock="keep")

    return apply


async def reclaim(store: LiveStore, player_id: int, table_id: str) -> Change:
    """Apply `seat_reclaim`; the change (not written when he had asked already)."""
    change = await transact(store, table_id, seat_reclaim(player_id))
    assert change is not None
    return change


class Muted(ServiceError):
    """A moderator muted the player's chat (PROTOCOL §2h): `retry_ms` until it ends."""

    def __init__(self, until: int) -> None:
        super().__init__("muted", "chat_muted", 403, minutes=max(1, -(-(until - now_ms())
                                                                      // 60_000)))
        self.retry_ms = max(0, until - now_ms())


async def chat(
    store: LiveStore, player_id: int, name: str, table_id: str, text: str, origin: str
) -> ChatLine:
    """Say `text` to everyone at the table; not a table change (no new seq). The line is
    kept for the moderators (app.live.chat_log), unless the player is muted."""
    text = readable(text)
    if not text.strip():  # the client's own mistake: first of the errors (PROTOCOL §2)
        raise ServiceError("bad_request", "chat_empty", 422)
    log = ChatLog(store)
    muted = await log.muted_until(player_id)
    if muted is not None:
        raise Muted(muted)
    table = await loaded(store, table_id)
    if table.seat_of(player_id) is None:
        raise ServiceError("not_seated", "chat_seated_only", 409)
    message: ChatLine = {
        "type": "chat", "table_id": table_id, "from": name, "text": text, "at": now_ms()}
    await store.publish_table(table_id, {"kind": "chat", "message": message, "origin": origin})
    await log.keep(SaidLine(table_id, player_id, name, text, message["at"]))
    return message
