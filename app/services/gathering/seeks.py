"""Quick pairing (PROTOCOL §2b): a player asks for a game; when enough compatible seeks
exist the server seats them at a new table and starts it.

Compatible: the same variant, seats, options (with their defaults), clock (turn and reserve
seconds, and what a timeout does) and rated, and
each player inside every other's `rating_range` by the variant's skill rating. The match
itself is one script in the store (app/live/seek_pool.py). A seek lives `seek_seconds` (10
minutes) at most and ends with its owner's last socket.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

import orjson
from redis.exceptions import RedisError

from app import metrics
from app.config import settings
from app.db import ratings
from app.db.session import Database
from app.engine import OptionsError, validate_options
from app.live.seek_pool import SeekBook
from app.live.store import LiveStore
from app.live.tasks import stop_task
from app.services.fanout.notices import PlayerNotices
from app.services.gathering.seating import seat_and_start
from app.services.tables.caps import SOCKETS, PlayerCaps
from app.services.tables.lobby import DEFAULT_RESERVE, DEFAULT_ROUND_PAUSE, Terms
from app.services.tables.table import OnTimeout, Person
from app.services.tables.transact import ServiceError, now_ms
from app.wire.answers import SeekInfo, SeekOpened

log = logging.getLogger(__name__)

# A seek whose owner has no socket anywhere is dropped by the sweep after this long (the
# socket may be on its way: a seek is often made just before the page's socket opens).
NO_SOCKET_GRACE_MS = 30_000
SWEEP_SECONDS = 1.0
# No rating range: anyone.
ANY_RATING = (-1e9, 1e9)


@dataclass(frozen=True)
class SeekRequest:
    variant: str
    seats: int
    options: dict[str, Any]
    turn_seconds: int
    rated: bool
    rating_range: tuple[float, float] | None
    reserve_seconds: int = DEFAULT_RESERVE
    on_timeout: OnTimeout | None = None


def public_seek(seek: dict[str, Any]) -> SeekInfo:
    """A seek as GET /api/seeks shows it."""
    return {
        "id": seek["id"],
        "player": seek["player"]["name"],
        "variant": seek["variant"],
        "seats": seek["seats"],
        "options": seek["options"],
        "turn_seconds": seek["turn_seconds"],
        "reserve_seconds": seek.get("reserve_seconds", 0),
        "on_timeout": seek.get("on_timeout", "end"),
        "rated": seek["rated"],
        "rating": round(seek["rating"]),
        "rating_range": seek["asked_range"],
        "created_at": seek["created_at"],
        "expires_at": seek["expires_at"],
    }


class Seeks:
    def __init__(self, store: LiveStore, db: Database, notices: PlayerNotices,
                 caps: PlayerCaps) -> None:
        self.store = store
        self.db = db
        self.notices = notices
        self.caps = caps
        self.book = SeekBook(store.redis, store.keys.prefix)
        self._sweeper: asyncio.Task[None] | None = None

    async def _rating(self, player_id: int, variant: str) -> float:
        async with self.db.session() as session:
            return await ratings.skill(session, player_id, variant)

    async def open(self, player: Any, ask: SeekRequest) -> SeekOpened:
        """Open a seek; when it completes a table, the table is made and started and the
        answer carries its `table_id` (the others hear `seek.matched`)."""
        try:
            options = validate_options(ask.variant, ask.seats, ask.options)
        except OptionsError as error:
            raise ServiceError.of_engine("bad_request", error, 422) from error
        if ask.rating_range is not None and ask.rating_range[0] > ask.rating_range[1]:
            raise ServiceError("bad_request", "rating_range_reversed", 422)
        on_timeout = Terms(ask.variant, rated=ask.rated,
                           on_timeout=ask.on_timeout).timeout_rule()
        pool = hashlib.sha1(orjson.dumps(
            [ask.variant, ask.seats, options, ask.turn_seconds, ask.rated, ask.reserve_seconds,
             on_timeout],
            option=orjson.OPT_SORT_KEYS)).hexdigest()
        now = now_ms()
        seek = {
            "id": secrets.token_hex(8),
            "player": {"id": player.id, "name": player.name},
            "pool": pool,
            "variant": ask.variant,
            "seats": ask.seats,
            "options": options,
            "turn_seconds": ask.turn_seconds,
            "reserve_seconds": ask.reserve_seconds,
            "on_timeout": on_timeout,
            "rated": ask.rated,
            "rating": await self._rating(player.id, ask.variant),
            "range": list(ask.rating_range or ANY_RATING),
            "asked_range": None if ask.rating_range is None else list(ask.rating_range),
            "created_at": now,
            "expires_at": now + int(settings.seek_seconds * 1000),
        }
        kind, matched = await self.book.add(seek, now)
        if kind == "taken":
            raise ServiceError("bad_request", "seek_open_already", 409)
        out: SeekOpened = {**public_seek(seek)}
        if kind == "matched":
            out["table_id"] = await self._start(matched)
        return out

    async def _start(self, matched: list[dict[str, Any]]) -> str:
        """Seat the matched seeks' players (the oldest seek first) and tell them."""
        matched = sorted(matched, key=lambda s: s["created_at"])
        first = matched[0]
        table_id = await seat_and_start(
            self.store, [Person.from_dict(s["player"]) for s in matched],
            Terms(first["variant"], len(matched), first["options"], first["turn_seconds"],
                  first["rated"], first.get("on_timeout"), round_pause_seconds=DEFAULT_ROUND_PAUSE,
                  reserve_seconds=first.get("reserve_seconds", 0)),
        )
        for seek in matched:
            await self.notices.tell([seek["player"]["id"]], {
                "type": "seek.matched", "seek_id": seek["id"], "table_id": table_id})
        log.info("seeks matched at table %s", table_id)
        return table_id

    async def cancel(self, player_id: int, seek_id: str) -> None:
        if await self.book.remove(seek_id, owner=player_id) is None:
            raise ServiceError("not_found", "no_seek", 404, seek=seek_id)

    async def list_open(self) -> list[SeekInfo]:
        now = now_ms()
        seeks = [s for s in await self.book.all() if s["expires_at"] > now]
        seeks.sort(key=lambda s: s["created_at"])
        return [public_seek(s) for s in seeks]

    async def socket_closed(self, player_id: int) -> None:
        """A socket of `player_id` closed: his seek ends with his last one."""
        seek_id = await self.book.of_player(player_id)
        if seek_id is not None and not await self.caps.caps.held(SOCKETS, player_id, now_ms()):
            await self.book.remove(seek_id, owner=player_id)

    async def sweep(self) -> None:
        """Drop the seeks whose time is up, and those whose owner has had no socket for a
        while (his process died without closing them)."""
        now = now_ms()
        for seek_id in await self.book.expired(now):
            await self.book.remove(seek_id)
        for seek in await self.book.all():
            if now - seek["created_at"] > NO_SOCKET_GRACE_MS and not await self.caps.caps.held(
                    SOCKETS, seek["player"]["id"], now):
                await self.book.remove(seek["id"])

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="seek-sweeper")

    async def stop(self) -> None:
        await stop_task(self._sweeper)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except (RedisError, OSError) as error:
                metrics.count_error(error)
            except Exception:
                log.exception("the seek sweep failed; trying again")
