"""Quick pairing (PROTOCOL §2b): a player asks for a game; when enough compatible seeks
exist the server seats them at a new table and starts it.

Compatible: the same variant, seats, options (with their defaults), clock (turn and reserve
seconds, and what a timeout does) and rated, and each player inside every other's
`rating_range` by the variant's skill rating. The match itself is one script in the store,
which reads only the seeks that fit the new one, through an index of its pool
(app/live/seek_pool.py, app/live/seek_index.py). A seek lives `seek_seconds` (10 minutes)
at most and ends with its owner's last socket, unless that socket was closed by a server
that stops (a deploy's 1012: he reconnects at once, to another process); an owner with no
socket anywhere for `NO_SOCKET_GRACE_MS` loses it too. A seek that ends other than by its
owner's cancel or a match is told to him (`seek.ended`). Every process sweeps once a
second, one script each time: the seeks whose time is up, and the owners due a look at
their sockets (each owner every `CHECK_EVERY_MS`, by whichever process sweeps first).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
from dataclasses import dataclass
from typing import Any

import orjson
from redis.exceptions import RedisError

from app import metrics
from app.config import settings
from app.db import people, ratings
from app.db.session import Database
from app.engine import OptionsError, validate_options
from app.live.keys import new_table_id
from app.live.seek_pool import SeekBook
from app.live.store import LiveStore
from app.live.tasks import stop_task
from app.services.fanout.notices import PlayerNotices
from app.services.gathering.seating import seat_and_start, start_seated
from app.services.sweeps import sweep_every
from app.services.tables.caps import SOCKETS, PlayerCaps, RatedGameAlready
from app.services.tables.lobby import DEFAULT_RESERVE, DEFAULT_ROUND_PAUSE, TableExists, Terms
from app.services.tables.table import OnTimeout, Person
from app.services.tables.transact import ServiceError, now_ms
from app.wire.answers import SeekInfo, SeekOpened
from app.wire.messages import SeekEndReason

log = logging.getLogger(__name__)

# A seek whose owner has had no socket anywhere this long is dropped by the sweep (the
# socket may be on its way: a seek is often made just before the page's socket opens, and
# a deploy's reconnect takes a moment).
NO_SOCKET_GRACE_MS = 30_000
SWEEP_SECONDS = 1.0
# An owner's sockets are looked at this often (by whichever process sweeps first), and at
# most this many seeks of each kind are taken in one sweep (its one script's work bounded).
CHECK_EVERY_MS = 5_000
SWEEP_LIMIT = 1_000
# A match not done this long after its seeks were taken is finished by any process's sweep.
MATCH_GRACE_MS = 3_000
# The most seeks one page of GET /api/seeks lists.
LISTED = 100
# No rating range: anyone.
ANY_RATING = (-1e9, 1e9)
# What a range's ends may be (the skill ratings a player can have lie well inside).
RANGE_BOUNDS = (0, 5000)


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


def check_range(span: tuple[float, float] | None) -> None:
    """A seek's `rating_range`: both ends finite numbers within RANGE_BOUNDS, low end
    first (NaN or an infinity would poison every later match of its pool)."""
    if span is None:
        return
    lo, hi = RANGE_BOUNDS
    if not all(math.isfinite(end) and lo <= end <= hi for end in span):
        raise ServiceError("bad_request", "rating_range_bounds", 422, lo=lo, hi=hi)
    if span[0] > span[1]:
        raise ServiceError("bad_request", "rating_range_reversed", 422)


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
        self.book = SeekBook(store.redis, store.keys.family("seeks"))
        self._sweeper: asyncio.Task[None] | None = None

    async def apart(self, player_id: int) -> set[int]:
        """The players the seek's owner is never matched with (blocks, PROTOCOL §2c)."""
        async with self.db.session() as session:
            return await people.apart_from_all(session, player_id)

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
        check_range(ask.rating_range)
        on_timeout = Terms(ask.variant, rated=ask.rated,
                           on_timeout=ask.on_timeout).timeout_rule()
        pool = hashlib.sha1(orjson.dumps(
            [ask.variant, ask.seats, options, ask.turn_seconds, ask.rated, ask.reserve_seconds,
             on_timeout],
            option=orjson.OPT_SORT_KEYS)).hexdigest()
        now = now_ms()
        seek: dict[str, Any] = {
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
            "avoid": sorted(await self.apart(player.id)),
            "asked_range": None if ask.rating_range is None else list(ask.rating_range),
            "created_at": now,
            "expires_at": now + int(settings.seek_seconds * 1000),
        }
        if ask.rated:
            await self.caps.rated.check(player.id)
        await self.caps.admit_seek(player.id, seek["id"], seek["expires_at"])
        table_id = new_table_id()  # the table a match would make
        added = await self.book.add(seek, now, table_id, now + CHECK_EVERY_MS)
        kind, matched = added.kind, added.seeks
        if kind == "taken":
            await self.caps.seek_ended(player.id, seek["id"])
            raise ServiceError("bad_request", "seek_open_already", 409)
        out: SeekOpened = {**public_seek(seek)}
        if kind == "matched":
            started = await self._start(table_id, matched, seek["id"])
            if started is not None:
                out["table_id"] = started
        return out

    async def _start(self, table_id: str, matched: list[dict[str, Any]],
                     opened: str | None = None) -> str | None:
        """Seat the matched seeks' players (the oldest seek first) and tell them: the match
        kept in the store is done then; the table's id. A match left over by a process that
        stopped midway is done the same way by the sweep (`finish_left_over`). A player
        found at another rated table meanwhile loses his seek and the others go back to the
        pool (None: the seek `opened` waits again; refused if it was the player's who sits
        elsewhere)."""
        for seek in matched:
            await self.caps.seek_ended(seek["player"]["id"], seek["id"])
        matched = sorted(matched, key=lambda s: s["created_at"])
        first = matched[0]
        try:
            await seat_and_start(
                self.store, [Person.from_dict(s["player"]) for s in matched],
                Terms(first["variant"], len(matched), first["options"], first["turn_seconds"],
                      first["rated"], first.get("on_timeout"),
                      round_pause_seconds=DEFAULT_ROUND_PAUSE,
                      reserve_seconds=first.get("reserve_seconds", 0)),
                table_id=table_id,
            )
        except TableExists:  # made by the one that began the match: perhaps not started
            await start_seated(self.store, table_id)
        except RatedGameAlready as busy:
            await self.book.matched(table_id)  # no table: the kept match is done with
            return await self._again(matched, busy, opened)
        for seek in matched:
            await self.notices.tell([seek["player"]["id"]], {
                "type": "seek.matched", "seek_id": seek["id"], "table_id": table_id})
        await self.book.matched(table_id)
        log.info("seeks matched at table %s", table_id)
        return table_id

    async def finish_left_over(self, now: int) -> None:
        """Finish the matches a process began and did not finish in time (it died or
        stalled after taking the seeks): their table is made or started, and told."""
        for table_id, matched in (await self.book.left_over(now - MATCH_GRACE_MS)).items():
            log.warning("finishing the seek match of table %s left over", table_id)
            try:
                await self._start(table_id, matched)
            except ServiceError as error:  # it cannot be made: never tried again
                log.warning("the seek match of table %s was dropped: %s", table_id, error)
                await self.book.matched(table_id)

    async def _again(self, matched: list[dict[str, Any]], busy: RatedGameAlready,
                     opened: str | None) -> str | None:
        """Back to the pool with the seeks of a match one of whose players sits at another
        rated table, but his (it ends, and he is told)."""
        table_id = None
        for seek in matched:
            if seek["player"]["id"] == busy.player_id:
                if seek["id"] == opened:
                    raise busy
                await self._end(seek, "rated_game")  # it ended: he is told
                continue
            await self.caps.admit_seek(seek["player"]["id"], seek["id"], seek["expires_at"])
            table = new_table_id()
            now = now_ms()
            added = await self.book.add(seek, now, table, now + CHECK_EVERY_MS)
            if added.kind == "matched":
                started = await self._start(table, added.seeks, opened)
                table_id = table_id or (started if seek["id"] == opened else None)
        return table_id

    async def cancel(self, player_id: int, seek_id: str) -> None:
        if await self.book.remove(seek_id, owner=player_id) is None:
            raise ServiceError("not_found", "no_seek", 404, seek=seek_id)
        await self.caps.seek_ended(player_id, seek_id)

    async def list_open(self, offset: int = 0, limit: int = LISTED) -> list[SeekInfo]:
        """The open seeks, the oldest first, a page of them."""
        return [public_seek(s) for s in await self.book.listed(now_ms(), offset, limit)]

    async def socket_closed(self, player_id: int) -> None:
        """A socket of `player_id` closed: his seek ends with his last one."""
        seek_id = await self.book.of_player(player_id)
        if seek_id is not None and not await self.caps.caps.held(SOCKETS, player_id, now_ms()):
            removed = await self.book.remove(seek_id, owner=player_id)
            await self._end(removed, "no_socket")

    async def _end(self, seek: dict[str, Any] | None, reason: SeekEndReason) -> None:
        """A seek that ended: its place among its owner's freed, and he is told (None: it
        was gone already)."""
        if seek is not None:
            await self.caps.seek_ended(seek["player"]["id"], seek["id"])
            await self.notices.tell([seek["player"]["id"]], {
                "type": "seek.ended", "seek_id": seek["id"], "reason": reason})

    async def sweep(self) -> None:
        """Drop the seeks whose time is up, and those whose owner has had no socket for
        `NO_SOCKET_GRACE_MS` (his process died, or he did not come back after a deploy):
        one script, whatever the number of open seeks, and a call for each seek ended."""
        now = now_ms()
        await self.finish_left_over(now)
        for ended in await self.book.sweep(now, self.caps.caps.key(SOCKETS, ""),
                                           NO_SOCKET_GRACE_MS, CHECK_EVERY_MS, SWEEP_LIMIT):
            await self._end(ended.seek, ended.reason)

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="seek-sweeper")

    async def stop(self) -> None:
        await stop_task(self._sweeper)

    async def _sweep(self) -> None:
        try:  # seeks opened before their pools were indexed (a deploy of the index)
            await self.book.file_unindexed(now_ms() + CHECK_EVERY_MS)
        except (RedisError, OSError) as error:
            metrics.count_error(error)
        await sweep_every(SWEEP_SECONDS, self.sweep, "the seek sweep")
