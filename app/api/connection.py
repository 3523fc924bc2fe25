"""One websocket's side of the gateway: who it is, what it was last sent, its outbox.

Every message to the socket goes through `Connection.offer` (queued, in order; a socket
that stops reading is closed rather than buffered without end), and a table's state
through `send_state`, which sends the socket's own seat's view of a version it has not had.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Any

import orjson
from fastapi import WebSocket

from app.api.frames import NO_ID
from app.api.i18n import words_for
from app.api.outbox import Outbox
from app.api.ratelimit import SocketLimits, client_address
from app.services.accounts.credentials import PlayerRef
from app.services.accounts.sessions import Identity
from app.services.fanout.feed import Snapshot
from app.services.runtime import LiveTables
from app.wire.messages import Error, ServerMessage
from app.words import ErrorKey, pick_language

log = logging.getLogger(__name__)

# A socket that does not read its messages is closed rather than buffered without end:
# this many wait behind a send that cannot finish yet.
MAX_QUEUED = 2000
CLOSE_BAD_TOKEN = 4401
CLOSE_TRY_AGAIN = 1013

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
        self.outbox: Outbox[ServerMessage | None] = Outbox(self._send)
        self.last_sent: dict[str, int] = {}
        # While a command of this socket is changing a table, announcements of that table
        # wait, so the reply (with the command's id) is the first message of its version.
        self.busy: set[str] = set()
        self.pending: dict[str, list[Snapshot]] = {}
        self.lobby_ready = True
        self.lobby_held: list[ServerMessage] = []
        self.limits = SocketLimits(live, client_address(websocket.scope))
        self.closed = False
        self.renewal: asyncio.Task[None] | None = None
        # Counted among its address's sockets that are not signed in (until it signs in).
        self.anonymous = False
        # The language of error messages: the handshake's Accept-Language, then hello's.
        self.lang = pick_language(websocket.headers.get("accept-language"))
        # The names of the players this socket's player blocks: their chat never reaches
        # it (PROTOCOL §2c); kept current by `block.update`.
        self.muted: frozenset[str] = frozenset()

    @property
    def player_id(self) -> int | None:
        return None if self.player is None else self.player.id

    # -- outgoing ---------------------------------------------------------------------

    def offer(self, message: ServerMessage) -> None:
        if self.closed:
            return
        if message["type"] == "chat" and message["from"] in self.muted:
            return
        if message["type"] == "block.update":
            self.muted = frozenset(message["blocked"])
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

    def send_state(self, snapshot: Snapshot, msg_id: Any = NO_ID) -> None:
        """Send this socket's view unless it already has this version (replies always go)."""
        last = self.last_sent.get(snapshot.table_id, 0)
        if snapshot.version <= last and msg_id is NO_ID:
            return
        message = snapshot.message(self.player_id, last)
        if msg_id is not NO_ID:
            message["id"] = msg_id
        self.last_sent[snapshot.table_id] = max(last, snapshot.version)
        self.offer(message)

    def release(self, table_id: str) -> None:
        self.busy.discard(table_id)
        for held in self.pending.pop(table_id, ()):
            self.send_state(held)

    def error(self, code: str, message: str, msg_id: Any = NO_ID,
              retry_ms: int | None = None) -> None:
        """PROTOCOL's `error`; `message` is already in the socket's language."""
        reply: Error = {"type": "error", "code": code, "message": message}
        if retry_ms is not None:
            reply["retry_ms"] = retry_ms
        if msg_id is not NO_ID:
            reply["id"] = msg_id
        self.offer(reply)

    def rate_limited(self, retry_ms: int, msg_id: Any) -> None:
        self.error("rate_limited", words_for("too_many_messages", self.lang), msg_id,
                   retry_ms=retry_ms)

    def reply(self, message: ServerMessage, msg_id: Any) -> None:
        if msg_id is not NO_ID:
            message = message.copy()
            message["id"] = msg_id
        self.offer(message)

    async def refuse(self, why: ErrorKey, retry_ms: int) -> None:
        """PROTOCOL's rate_limited error, then close (1013: try again later), past the
        outbox (the socket is refused before it is served)."""
        message: Error = {"type": "error", "code": "rate_limited",
                          "message": words_for(why, self.lang), "retry_ms": retry_ms}
        with contextlib.suppress(Exception):
            await self.ws.send_text(orjson.dumps(message).decode())
            await self.ws.close(code=CLOSE_TRY_AGAIN, reason="rate limited")

    async def _send(self, message: ServerMessage | None) -> None:
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
