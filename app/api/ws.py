"""The websocket gateway at /ws (PROTOCOL §2): frames in, services called, views out.

Thin on purpose: it checks frames (size, JSON, message shape, rate: app.api.frames), knows
who the socket is (app.api.connection), and hands each socket the view of its own seat
(app.api.subscriptions). Every rule is in services; a move goes to
app.services.play.route, which applies it wherever its table is held.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app import logs, metrics
from app.api.connection import CLOSE_BAD_TOKEN, Connection
from app.api.deps import SESSION_COOKIE
from app.api.errors import RETRY_MS
from app.api.frames import frame_id, is_chat, read
from app.api.i18n import general, words_for, words_of
from app.api.protocol import (
    Chat,
    Hello,
    LobbySubscribe,
    LobbyUnsubscribe,
    Ping,
    Play,
    Rematch,
    Resign,
    SeatReclaim,
    TableSubscribe,
    TableUnsubscribe,
    TournamentSubscribe,
    TournamentUnsubscribe,
)
from app.api.socket_holds import hold_anonymous, hold_signed_in, release_hold
from app.api.subscriptions import (
    answer_written_elsewhere,
    subscribe_lobby,
    subscribe_table,
    unsubscribe_table,
)
from app.live.ratelimit import Charge, Refused
from app.live.store import outage
from app.live.writes import WriteUnknown
from app.services.accounts.credentials import PlayerRef
from app.services.play import moves
from app.services.runtime import LiveTables
from app.services.tables import lobby
from app.services.tables.transact import ServiceError, now_ms
from app.wire.messages import PROTOCOL, Welcome
from app.words import pick_language

log = logging.getLogger(__name__)

router = APIRouter(tags=["websocket"])

# PROTOCOL §2a: how a server that stops closes its sockets (reconnect).
CLOSE_SERVER_RESTART = 1012


async def handle_frame(conn: Connection, text: str | None) -> bool:
    """One client frame; returns False when the socket must close.

    The rate limits are the first check (PROTOCOL §2): the socket's own budget here,
    then the shared ones (its address's, its player's, chat's) in Redis. A move's
    shared charge is made by the move's own write, in the same round trip; every other
    message's, and a move's that writes nothing, before it is answered."""
    refused = conn.limits.own_refusal()
    if refused is not None:
        conn.rate_limited(refused.retry_ms, frame_id(text))
        return True
    charge = conn.limits.charge(conn.player_id, is_chat(text))
    started = now_ms()
    message, msg_id, problem = read(text)
    if not isinstance(message, Play) and not await within(conn, charge, msg_id):
        return True
    if problem is not None:
        conn.error("bad_request", general("bad_request", problem, conn.lang), msg_id)
        return True
    try:
        table_id = getattr(message, "table_id", None)
        if table_id is None or isinstance(message, TableSubscribe):
            return await dispatch(conn, message, msg_id, charge)
        # A command on a table the store lost is done once it is back, not `not_found`.
        return await conn.live.feed.restoring(
            table_id, lambda: dispatch(conn, message, msg_id, charge))
    except Refused as refusal:
        metrics.rate_limited.labels("ws").inc()
        conn.rate_limited(refusal.retry_ms, msg_id)
    except ServiceError as error:
        if await within(conn, charge, msg_id):
            conn.error(error.code, words_of(error, conn.lang), msg_id,
                       RETRY_MS if error.code == "unavailable" else error.retry_ms)
    except WriteUnknown as error:
        # Sent, and not answered in time: it may be made yet (PROTOCOL §2a `not_known`);
        # the client reads the table again rather than trusting "nothing changed".
        metrics.count_error(error)
        conn.live.store.note_outage(started, error)
        conn.error("not_known", words_for("write_not_known", conn.lang), msg_id,
                   retry_ms=RETRY_MS)
    except (RedisError, SQLAlchemyError, OSError) as error:
        # Our stores did not answer: nothing changed, and the client may try again.
        metrics.count_error(error)
        if isinstance(error, RedisError) and outage(error):
            # Said once in the log for the whole outage, not once a message.
            conn.live.store.note_outage(started, error)
        else:
            log.warning("socket %s: a store is unavailable: %s: %s", conn.conn_id,
                        type(error).__name__, error)
        conn.error("unavailable", words_for("data_unreachable", conn.lang), msg_id,
                   retry_ms=RETRY_MS)
    except Exception:
        log.exception("socket %s: command failed", conn.conn_id)
        conn.error("unavailable", words_for("not_processed", conn.lang), msg_id,
                   retry_ms=RETRY_MS)
    return True


async def within(conn: Connection, charge: Charge, msg_id: Any) -> bool:
    """Makes the message's charge unless its write did; False (and `rate_limited` sent)
    when it is refused."""
    verdict = await conn.limits.settle(charge)
    if not verdict.allowed:
        conn.rate_limited(verdict.retry_ms, msg_id)
    return verdict.allowed


async def dispatch(conn: Connection, message: Any, msg_id: Any,
                   charge: Charge | None = None) -> bool:
    live = conn.live
    logs.table_id.set(getattr(message, "table_id", None))
    if isinstance(message, Ping):
        conn.reply({"type": "pong"}, msg_id)
    elif isinstance(message, Hello):
        return await hello(conn, message, msg_id)
    elif isinstance(message, TableSubscribe):
        await subscribe_table(conn, message.table_id, msg_id)
    elif isinstance(message, TableUnsubscribe):
        await unsubscribe_table(conn, message.table_id)
    elif isinstance(message, TournamentSubscribe):
        tournament = await live.tournaments.subscribe(conn, message.tournament_id)
        conn.reply({"type": "tournament.update", "tournament": tournament,
                    "changes_only": False, "players_gone": []}, msg_id)
        await live.notices.resend(conn)
    elif isinstance(message, TournamentUnsubscribe):
        live.tournaments.unsubscribe(conn, message.tournament_id)
    elif conn.player is None:
        raise ServiceError("unauthorized", "log_in_first", 401)
    elif isinstance(message, LobbySubscribe):
        await subscribe_lobby(conn, msg_id)
        await live.notices.resend(conn)
    elif isinstance(message, LobbyUnsubscribe):
        live.feed.lobby.discard(conn)
    elif isinstance(message, Play):
        await play(conn, message, msg_id, charge)
    elif isinstance(message, Resign | SeatReclaim):
        table_id = message.table_id
        conn.busy.add(table_id)
        act = live.route.resign if isinstance(message, Resign) else live.route.reclaim
        try:
            conn.send_state(await act(conn.player.id, table_id), msg_id)
        finally:
            conn.release(table_id)
    elif isinstance(message, Rematch):
        offer = await lobby.rematch(live.store, conn.player, message.table_id)
        conn.reply(
            {"type": "rematch", "table_id": message.table_id, "offers": offer["offers"],
             "new_table_id": offer["new_table_id"]},
            msg_id,
        )
    elif isinstance(message, Chat):
        said = await moves.chat(
            live.store, conn.player.id, conn.player.name, message.table_id, message.text,
            conn.conn_id,
        )
        conn.reply(said, msg_id)
    return True


async def hello(conn: Connection, message: Hello, msg_id: Any) -> bool:
    """Sign in with a token, or with the handshake's cookie; or only pick a language."""
    if message.lang is not None:
        conn.lang = pick_language(message.lang)
    before = conn.player
    if message.token is None:  # the cookie's session, or only a language
        if conn.player is None and conn.unchecked_cookie is not None:
            # Raises again while the stores cannot say: `unavailable`, try again.
            await conn.sign_in(conn.unchecked_cookie)
            conn.unchecked_cookie = None
            if not await hold_signed_in(conn, before):
                return False
        if conn.player is not None:
            conn.reply(_welcome(conn.player), msg_id)
            await conn.live.notices.resend(conn)
        return True
    if await conn.sign_in(message.token) is None:
        await conn.ws.close(code=CLOSE_BAD_TOKEN, reason="invalid token")
        return False
    if not await hold_signed_in(conn, before):
        return False
    assert conn.player is not None
    conn.reply(_welcome(conn.player), msg_id)
    await conn.live.notices.resend(conn)
    return True


async def play(conn: Connection, message: Play, msg_id: Any, charge: Charge | None) -> None:
    """A move, applied wherever its table is held, answered with the state it made."""
    assert conn.player is not None
    table_id = message.table_id
    conn.busy.add(table_id)
    try:
        moved = await conn.live.route.play(
            conn.player.id, table_id, message.tile, message.end, message.seq, message.fields,
            charge)
        if moved.snapshot is not None:
            conn.send_state(moved.snapshot, msg_id)
        else:
            await answer_written_elsewhere(conn, table_id, moved.version, msg_id)
    finally:
        conn.release(table_id)


def _welcome(player: PlayerRef) -> Welcome:
    return {"type": "welcome", "player": {"id": player.id, "name": player.name},
            "protocol": PROTOCOL}


@router.websocket("/ws")
async def gateway(websocket: WebSocket) -> None:
    live: LiveTables = websocket.app.state.live
    await websocket.accept()
    conn = Connection(websocket, live)
    verdict = await conn.limits.connect()
    if not verdict.allowed:
        await conn.refuse("too_many_new_connections", verdict.retry_ms)
        return
    cookie = websocket.cookies.get(SESSION_COOKIE)
    if cookie:
        try:
            await conn.sign_in(cookie)
        except (RedisError, SQLAlchemyError, OSError) as error:
            # Not knowing who this is must not make a seated player a spectator: his
            # hello checks the cookie again (`unavailable` until a store answers).
            metrics.count_error(error)
            log.warning("socket %s: sign-in unavailable: %r", conn.conn_id, error)
            conn.unchecked_cookie = cookie
        if conn.player is not None and not await hold_signed_in(conn, None):
            conn.forget_session()
            return
        if conn.player is not None:
            conn.offer(_welcome(conn.player))
    if conn.player is None and not await hold_anonymous(conn):
        conn.forget_session()
        return
    metrics.open_sockets.inc()
    live.notices.add(conn)
    close_code: int | None = None
    try:
        while not conn.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                close_code = frame.get("code")
                break
            text = frame.get("text")
            if not await handle_frame(conn, text):
                break
    except WebSocketDisconnect as disconnect:
        close_code = disconnect.code
    except RuntimeError:
        pass
    finally:
        conn.closed = True
        conn.forget_session()
        metrics.open_sockets.dec()
        await conn.outbox.close()
        await release_hold(conn)
        await live.feed.drop(conn)
        live.notices.discard(conn)
        live.tournaments.drop(conn)
        # A server that stops (a deploy: 1012) ends no seek; the owner reconnects at once,
        # and the seeks' grace covers him meanwhile.
        if conn.player is not None and close_code != CLOSE_SERVER_RESTART:
            with contextlib.suppress(RedisError, OSError):
                await live.seeks.socket_closed(conn.player.id)
                await live.queue_absence.socket_closed(conn.player.id)
