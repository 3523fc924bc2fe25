"""The websocket gateway at /ws (PROTOCOL §2): frames in, services called, views out.

Thin on purpose: it checks frames (size, JSON, message shape, rate), knows who the
socket is, and hands each socket the view of its own seat. Every rule is in services.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app import logs, metrics
from app.api.deps import SESSION_COOKIE
from app.api.errors import RETRY_MS
from app.api.i18n import general, words_for, words_of
from app.api.outbox import Outbox
from app.api.protocol import (
    Chat,
    Hello,
    LobbySubscribe,
    LobbyUnsubscribe,
    Ping,
    Play,
    Rematch,
    Resign,
    TableSubscribe,
    TableUnsubscribe,
    TournamentSubscribe,
    TournamentUnsubscribe,
    client_message,
)
from app.api.ratelimit import SocketLimits, client_address
from app.live.ratelimit import Charge, Refused
from app.live.store import outage
from app.services.accounts.credentials import PlayerRef
from app.services.accounts.sessions import Identity
from app.services.fanout.feed import Snapshot
from app.services.play import moves
from app.services.play.relay import Relayed, Unanswered
from app.services.runtime import LiveTables
from app.services.tables import lobby
from app.services.tables.transact import Change, ServiceError, now_ms
from app.words import ErrorKey, pick_language

log = logging.getLogger(__name__)

router = APIRouter(tags=["websocket"])

MAX_FRAME_BYTES = 16 * 1024
# A socket that does not read its messages is closed rather than buffered without end:
# this many wait behind a send that cannot finish yet.
MAX_QUEUED = 2000
CLOSE_BAD_TOKEN = 4401
CLOSE_TRY_AGAIN = 1013
# How often a signed-in socket renews its place among its player's sockets.
SOCKET_RENEW_MS = 60_000

_NO_ID = object()
# A number `id` is echoed exactly only within JavaScript's safe integers (and JSON readers
# like ours): beyond 2**53 it would come back as a rounded float, so it is refused.
MAX_ID_MAGNITUDE = 2**53
_conn_numbers = itertools.count(1)


class Connection:
    """One socket: what it subscribed to, the seq it last got per table, its outbox."""

    def __init__(self, websocket: WebSocket, live: LiveTables) -> None:
        self.ws = websocket
        self.live = live
        self.conn_id = f"{live.process_id}:{next(_conn_numbers)}"
        self.player: PlayerRef | None = None
        self.session_id: str | None = None
        # A handshake cookie that could not be checked (a store was down): hello tries again.
        self.unchecked_cookie: str | None = None
        self.close_code = 1008
        self.outbox: Outbox[dict[str, Any] | None] = Outbox(self._send)
        self.last_sent: dict[str, int] = {}
        # While a command of this socket is changing a table, announcements of that table
        # wait, so the reply (with the command's id) is the first message of its version.
        self.busy: set[str] = set()
        self.pending: dict[str, list[Snapshot]] = {}
        self.lobby_ready = True
        self.lobby_held: list[dict[str, Any]] = []
        self.limits = SocketLimits(live, client_address(websocket.scope))
        self.closed = False
        self.renewal: asyncio.Task[None] | None = None
        # Counted among its address's sockets that are not signed in (until it signs in).
        self.anonymous = False
        # The language of error messages: the handshake's Accept-Language, then hello's.
        self.lang = pick_language(websocket.headers.get("accept-language"))

    @property
    def player_id(self) -> int | None:
        return None if self.player is None else self.player.id

    # -- outgoing ---------------------------------------------------------------------

    def offer(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if not self.lobby_ready and message["type"].startswith("lobby."):
            self.lobby_held.append(message)
            return
        if len(self.outbox) >= MAX_QUEUED:
            log.warning("socket %s does not read; closing it", self.conn_id)
            self.closed = True
            self.outbox.put(None)
            return
        self.outbox.put(message)

    def offer_state(self, snapshot: Snapshot) -> None:
        if snapshot.table_id in self.busy:
            # Every version is held, in order, so none is skipped once the reply is out.
            held = self.pending.setdefault(snapshot.table_id, [])
            if not held or held[-1].version < snapshot.version:
                held.append(snapshot)
            return
        self.send_state(snapshot)

    def send_state(self, snapshot: Snapshot, msg_id: Any = _NO_ID) -> None:
        """Send this socket's view unless it already has this version (replies always go)."""
        last = self.last_sent.get(snapshot.table_id, 0)
        if snapshot.version <= last and msg_id is _NO_ID:
            return
        message = snapshot.message(self.player_id, last)
        if msg_id is not _NO_ID:
            message["id"] = msg_id
        self.last_sent[snapshot.table_id] = max(last, snapshot.version)
        self.offer(message)

    def release(self, table_id: str) -> None:
        self.busy.discard(table_id)
        for held in self.pending.pop(table_id, ()):
            self.send_state(held)

    def error(self, code: str, message: str, msg_id: Any = _NO_ID, **extra: Any) -> None:
        """PROTOCOL's `error`; `message` is already in the socket's language."""
        reply: dict[str, Any] = {"type": "error", "code": code, "message": message, **extra}
        if msg_id is not _NO_ID:
            reply["id"] = msg_id
        self.offer(reply)

    def reply(self, message: dict[str, Any], msg_id: Any) -> None:
        if msg_id is not _NO_ID:
            message = {**message, "id": msg_id}
        self.offer(message)

    async def _send(self, message: dict[str, Any] | None) -> None:
        """One message to the socket (None: close it); a socket that failed is closed."""
        try:
            if message is None:
                await self.ws.close(code=self.close_code)
            else:
                await self.ws.send_text(orjson.dumps(message).decode())
        except Exception:  # the peer went away; the read loop notices too
            self.closed = True

    # -- sessions -----------------------------------------------------------------------

    async def sign_in(self, token: str) -> Identity | None:
        """Check `token` (raises if no store can say) and, if valid, become its player."""
        before = self.session_id
        identity = await self.live.sessions.sign_in(token, self)
        if identity is not None:
            if before is not None and before != identity.session_id:
                self.live.sessions.unwatch(before, self)
            self.player, self.session_id = identity.player, identity.session_id
        return identity

    def forget_session(self) -> None:
        if self.session_id is not None:
            self.live.sessions.unwatch(self.session_id, self)
            self.session_id = None

    def revoked(self) -> None:
        """The session was signed out (here or on another process): close with 4401."""
        self.player, self.session_id = None, None
        if self.closed:
            return
        self.closed = True
        self.close_code = CLOSE_BAD_TOKEN
        self.outbox.put(None)

    # -- incoming ---------------------------------------------------------------------

    async def handle_frame(self, text: str | None) -> bool:
        """One client frame; returns False when the socket must close.

        The rate limits are the first check (PROTOCOL §2): the socket's own budget here,
        then the shared ones (its address's, its player's, chat's) in Redis. A move's
        shared charge is made by the move's own write, in the same round trip; every other
        message's, and a move's that writes nothing, before it is answered."""
        refused = self.limits.own_refusal()
        if refused is not None:
            self.rate_limited(refused.retry_ms, _frame_id(text))
            return True
        charge = self.limits.charge(self.player_id, _is_chat(text))
        started = now_ms()
        message, msg_id, problem = _read(text)
        if not isinstance(message, Play) and not await self.within(charge, msg_id):
            return True
        if problem is not None:
            self.error("bad_request", general("bad_request", problem, self.lang), msg_id)
            return True
        try:
            return await self.dispatch(message, msg_id, charge)
        except Refused as refusal:
            metrics.rate_limited.labels("ws").inc()
            self.rate_limited(refusal.retry_ms, msg_id)
        except ServiceError as error:
            if await self.within(charge, msg_id):
                extra = {"retry_ms": RETRY_MS} if error.code == "unavailable" else {}
                self.error(error.code, words_of(error, self.lang), msg_id, **extra)
        except (RedisError, SQLAlchemyError, OSError) as error:
            # Our stores did not answer: nothing changed, and the client may try again.
            metrics.count_error(error)
            if isinstance(error, RedisError) and outage(error):
                # Said once in the log for the whole outage, not once a message.
                self.live.store.note_outage(started, error)
            else:
                log.warning("socket %s: a store is unavailable: %s: %s", self.conn_id,
                            type(error).__name__, error)
            self.error("unavailable", words_for("data_unreachable", self.lang), msg_id,
                       retry_ms=RETRY_MS)
        except Exception:
            log.exception("socket %s: command failed", self.conn_id)
            self.error("unavailable", words_for("not_processed", self.lang), msg_id,
                       retry_ms=RETRY_MS)
        return True

    async def within(self, charge: Charge, msg_id: Any) -> bool:
        """Makes the message's charge unless its write did; False (and `rate_limited`
        sent) when it is refused."""
        verdict = await self.limits.settle(charge)
        if not verdict.allowed:
            self.rate_limited(verdict.retry_ms, msg_id)
        return verdict.allowed

    def rate_limited(self, retry_ms: int, msg_id: Any) -> None:
        self.error("rate_limited", words_for("too_many_messages", self.lang), msg_id,
                   retry_ms=retry_ms)

    async def dispatch(self, message: Any, msg_id: Any, charge: Charge | None = None) -> bool:
        live = self.live
        logs.table_id.set(getattr(message, "table_id", None))
        if isinstance(message, Ping):
            self.reply({"type": "pong"}, msg_id)
        elif isinstance(message, Hello):
            if message.lang is not None:
                self.lang = pick_language(message.lang)
            before = self.player
            if message.token is None:  # the cookie's session, or only a language
                if self.player is None and self.unchecked_cookie is not None:
                    # Raises again while the stores cannot say: `unavailable`, try again.
                    await self.sign_in(self.unchecked_cookie)
                    self.unchecked_cookie = None
                    if not await self.hold_signed_in(before):
                        return False
                if self.player is not None:
                    self.reply(_welcome(self.player), msg_id)
                return True
            if await self.sign_in(message.token) is None:
                await self.ws.close(code=CLOSE_BAD_TOKEN, reason="invalid token")
                return False
            if not await self.hold_signed_in(before):
                return False
            assert self.player is not None
            self.reply(_welcome(self.player), msg_id)
        elif isinstance(message, TableSubscribe):
            await self.subscribe(message.table_id, msg_id)
        elif isinstance(message, TableUnsubscribe):
            await live.feed.unsubscribe_table(self, message.table_id)
            self.last_sent.pop(message.table_id, None)
        elif isinstance(message, TournamentSubscribe):
            tournament = await live.tournaments.subscribe(self, message.tournament_id)
            self.reply({"type": "tournament.update", "tournament": tournament}, msg_id)
        elif isinstance(message, TournamentUnsubscribe):
            live.tournaments.unsubscribe(self, message.tournament_id)
        elif self.player is None:
            raise ServiceError("unauthorized", "log_in_first", 401)
        elif isinstance(message, LobbySubscribe):
            self.lobby_ready = False
            try:
                tables = await live.feed.subscribe_lobby(self)
                self.reply({"type": "lobby", "tables": tables}, msg_id)
            finally:
                self.lobby_ready = True
                held, self.lobby_held = self.lobby_held, []
                for note in held:
                    self.offer(note)
        elif isinstance(message, LobbyUnsubscribe):
            live.feed.lobby.discard(self)
        elif isinstance(message, Play):
            player_id = self.player.id
            known = live.feed.latest(message.table_id)
            if known is not None and known.version != message.seq:
                known = None  # play reads the table: the move is stale, or this is behind
            started = time.perf_counter()
            unanswered = None
            if known is not None and known.holder is not None \
                    and not live.feed.seats_all_here(message.table_id):
                relayed = await self.relayed(message, msg_id, known.holder, charge)
                if relayed is True:
                    metrics.moves.inc()
                    metrics.moves_relayed.inc()
                    metrics.move_seconds.observe(time.perf_counter() - started)
                    return True
                unanswered = relayed or None
            try:
                await self.change(
                    message.table_id,
                    msg_id,
                    moves.play(
                        live.store, player_id, message.table_id, message.tile, message.end,
                        message.seq, None if known is None else known.table,
                        None if known is None else known.take_game(), message.fields, charge,
                    ),
                )
            except ServiceError as error:
                # Stale here, because the holder was only slow and applied it first: its
                # change answers the move.
                if unanswered is None or error.code != "stale":
                    raise
                version = await live.relay.applied_late(unanswered)
                if version is None:
                    raise
                await self.answer_relayed(message.table_id, version, msg_id)
                metrics.moves_relayed.inc()
            finally:
                if unanswered is not None:
                    live.relay.forget(unanswered)
            metrics.moves.inc()
            metrics.move_seconds.observe(time.perf_counter() - started)
        elif isinstance(message, Resign):
            await self.change(
                message.table_id, msg_id, moves.resign(live.store, self.player.id, message.table_id)
            )
        elif isinstance(message, Rematch):
            offer = await lobby.rematch(live.store, self.player, message.table_id)
            self.reply(
                {"type": "rematch", "table_id": message.table_id, "offers": offer["offers"],
                 "new_table_id": offer["new_table_id"]},
                msg_id,
            )
        elif isinstance(message, Chat):
            said = await moves.chat(
                live.store, self.player.id, self.player.name, message.table_id, message.text,
                self.conn_id,
            )
            self.reply(said, msg_id)
        return True

    async def hold_signed_in(self, before: PlayerRef | None) -> bool:
        """`hold` for the player this socket just signed in as (`before`: who it was)."""
        player = self.player
        if player is None:
            return True
        self.player = before
        if not await self.hold(player):
            return False
        self.player = player
        return True

    async def hold(self, player: PlayerRef) -> bool:
        """Count this socket among `player`'s open sockets (renewed while it lives); at the
        cap, refuse it with `rate_limited` and close it (False)."""
        if self.player is not None and self.player.id != player.id:
            await self.live.caps.drop_socket(self.player.id, self.conn_id)
        try:
            held = await self.live.caps.hold_socket(player.id, self.conn_id)
        except (RedisError, OSError) as error:  # uncounted, rather than nobody signed in
            metrics.count_error(error)
            held = True
        if not held:
            metrics.rate_limited.labels("ws").inc()
            await _refuse(self.ws, self, "too_many_tabs", SOCKET_RENEW_MS)
            return False
        if self.anonymous:  # signed in now: one of the player's sockets, no longer anonymous
            self.anonymous = False
            with contextlib.suppress(RedisError, OSError):
                await self.live.caps.drop_anonymous(self.limits.address, self.conn_id)
        if self.renewal is None:
            self.renewal = asyncio.create_task(self._renew())
        return True

    async def hold_anonymous(self) -> bool:
        """Count this socket, not signed in, among its address's (on every process); at the
        cap, refuse it with `rate_limited` and close it (False)."""
        try:
            held = await self.live.caps.hold_anonymous(self.limits.address, self.conn_id)
        except (RedisError, OSError) as error:  # uncounted, rather than nobody let in
            metrics.count_error(error)
            held = True
        if not held:
            metrics.rate_limited.labels("ws").inc()
            await _refuse(self.ws, self, "too_many_from_address", SOCKET_RENEW_MS)
            return False
        self.anonymous = True
        if self.renewal is None:
            self.renewal = asyncio.create_task(self._renew())
        return True

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(SOCKET_RENEW_MS / 1000)
            with contextlib.suppress(RedisError, OSError):
                if self.player is not None:
                    await self.live.caps.hold_socket(self.player.id, self.conn_id)
                elif self.anonymous:
                    await self.live.caps.hold_anonymous(self.limits.address, self.conn_id)

    async def release_hold(self) -> None:
        if self.renewal is not None:
            self.renewal.cancel()
        with contextlib.suppress(RedisError, OSError):
            if self.player is not None:
                await self.live.caps.drop_socket(self.player.id, self.conn_id)
            if self.anonymous:
                await self.live.caps.drop_anonymous(self.limits.address, self.conn_id)

    async def subscribe(self, table_id: str, msg_id: Any) -> None:
        self.busy.add(table_id)
        try:
            snapshot = await self.live.feed.subscribe_table(self, table_id)
            if snapshot is None:
                raise ServiceError("not_found", "no_table", 404, table=table_id)
            # A (re-)subscription always gets the current state, gap or not.
            self.last_sent[table_id] = 0
            self.send_state(snapshot, msg_id)
        finally:
            self.release(table_id)

    async def relayed(self, message: Play, msg_id: Any, holder: str,
                      charge: Charge | None) -> bool | Unanswered:
        """A move at a version another process made, applied by that process (it holds the
        table: app.services.play.relay) and answered here with the new state (True); False when
        that process is gone, `Unanswered` when it did not answer in time (either way the
        move is to be applied here)."""
        assert self.player is not None
        table_id = message.table_id
        self.busy.add(table_id)
        try:
            done = await self.live.relay.play(
                holder, self.player.id, table_id, message.tile, message.end, message.seq,
                message.fields, charge)
            if not isinstance(done, Relayed):
                return done or False
            await self.answer_relayed(table_id, done.version, msg_id)
            return True
        finally:
            self.release(table_id)

    async def answer_relayed(self, table_id: str, version: int, msg_id: Any) -> None:
        """Reply with the version another process wrote for this socket's move."""
        self.busy.add(table_id)
        try:
            # Its announcement came first (held for this socket while the move was out,
            # with any change made since, which goes after the reply); were it lost, the
            # table is read again.
            snapshot = self._held(table_id, version)
            if snapshot is None:
                await self.live.feed.resync(table_id)
                snapshot = self._held(table_id, version) or self.live.feed.latest(table_id)
            if snapshot is not None:
                self.send_state(snapshot, msg_id)
        finally:
            self.release(table_id)

    def _held(self, table_id: str, version: int) -> Snapshot | None:
        """The table at `version` as this process received it, if it did: the reply to a
        relayed move is that version, not a later one (whose seq would skip it)."""
        for snapshot in self.pending.get(table_id, ()):
            if snapshot.version == version:
                return snapshot
        latest = self.live.feed.latest(table_id)
        return latest if latest is not None and latest.version == version else None

    async def change(self, table_id: str, msg_id: Any, command: Any) -> None:
        """Run a table-changing command and answer with the new state (carrying the id)."""
        self.busy.add(table_id)
        try:
            change: Change | None = await command
            if change is None:  # the last player left a waiting table: it is gone
                self.reply({"type": "table.removed", "table_id": table_id}, msg_id)
                return
            if change.finished:
                self.live.finisher.kick(table_id)
            # The other sockets of this table here see it now, from the state just written.
            snapshot = self.live.feed.deliver(change.table, change.game)
            self.send_state(snapshot, msg_id)
        finally:
            self.release(table_id)


def _welcome(player: PlayerRef) -> dict[str, Any]:
    return {"type": "welcome", "player": {"id": player.id, "name": player.name}}


def _frame_id(text: str | None) -> Any:
    """The id of a frame we refuse before reading it properly, when it is cheap to find."""
    if text is None or len(text) > MAX_FRAME_BYTES:
        return _NO_ID
    try:
        data = orjson.loads(text)
    except ValueError:
        return _NO_ID
    return _echoable(data.get("id", _NO_ID)) if isinstance(data, dict) else _NO_ID


def _echoable(msg_id: Any) -> Any:
    """`msg_id` if it can be echoed exactly as sent, else `_NO_ID`."""
    if isinstance(msg_id, int | float) and not isinstance(msg_id, bool) \
            and abs(msg_id) > MAX_ID_MAGNITUDE:
        return _NO_ID
    return msg_id


def _is_chat(text: str | None) -> bool:
    """Whether a frame looks like a chat message (chat has a budget of its own); a cheap
    look, before the frame is parsed, that a frame could only fool into a smaller budget."""
    return text is not None and '"chat"' in text


def _read(text: str | None) -> tuple[Any, Any, str | None]:
    """A frame as (message, its id, None), or (None, its id if found, why it is refused)."""
    if text is None:
        return None, _NO_ID, "frames must be JSON text"
    if len(text.encode()) > MAX_FRAME_BYTES:
        return None, _NO_ID, f"frame larger than {MAX_FRAME_BYTES} bytes"
    try:
        data = orjson.loads(text)
    except ValueError:
        return None, _NO_ID, "frame is not valid JSON"
    if not isinstance(data, dict):
        return None, _NO_ID, "a message is a JSON object with a `type`"
    msg_id = data.get("id", _NO_ID)
    if msg_id is not _NO_ID and _echoable(msg_id) is _NO_ID:
        return None, _NO_ID, f"id: a number id must lie within ±2**53 ({MAX_ID_MAGNITUDE})"
    try:
        return client_message.validate_python(data), msg_id, None
    except ValidationError as error:
        return None, msg_id, _describe(error, data)


def _describe(error: ValidationError, data: dict[str, Any]) -> str:
    kind = data.get("type")
    first = error.errors()[0]
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return f"unknown message type {kind!r}"
    where = ".".join(str(p) for p in first["loc"][1:]) or "message"
    return f"{kind}: {where}: {first['msg']}"


async def _refuse(websocket: WebSocket, conn: Connection, why: ErrorKey, retry_ms: int) -> None:
    """PROTOCOL's rate_limited error, then close (1013: try again later)."""
    message = {"type": "error", "code": "rate_limited", "message": words_for(why, conn.lang),
               "retry_ms": retry_ms}
    with contextlib.suppress(Exception):
        await websocket.send_text(orjson.dumps(message).decode())
        await websocket.close(code=CLOSE_TRY_AGAIN, reason="rate limited")


@router.websocket("/ws")
async def gateway(websocket: WebSocket) -> None:
    live: LiveTables = websocket.app.state.live
    await websocket.accept()
    conn = Connection(websocket, live)
    verdict = await conn.limits.connect()
    if not verdict.allowed:
        await _refuse(websocket, conn, "too_many_new_connections", verdict.retry_ms)
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
        if conn.player is not None and not await conn.hold_signed_in(None):
            conn.forget_session()
            return
        if conn.player is not None:
            conn.offer(_welcome(conn.player))
    if conn.player is None and not await conn.hold_anonymous():
        conn.forget_session()
        return
    metrics.open_sockets.inc()
    live.notices.add(conn)
    try:
        while not conn.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if not await conn.handle_frame(text):
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conn.closed = True
        conn.forget_session()
        metrics.open_sockets.dec()
        await conn.outbox.close()
        await conn.release_hold()
        await live.feed.drop(conn)
        live.notices.discard(conn)
        live.tournaments.drop(conn)
        if conn.player is not None:
            with contextlib.suppress(RedisError, OSError):
                await live.seeks.socket_closed(conn.player.id)
