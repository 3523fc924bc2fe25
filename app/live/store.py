"""The live store: every table's state in Redis, written only by compare-and-set.

One hash per table holds `version` and `data` (the JSON state of the current round). Every
write goes through one Lua script that checks the version the writer read, stores the new
state, appends the rounds that just became history to the table's round archive, keeps the
lobby index, the turn deadlines and the "finished, not yet written" set in step, and
publishes the change *with* the new state (and the new lobby entry when it changed); so two
processes, two tabs or a double click can never both apply a change, no announcement is
ever made for a write that did not happen, and no process has to read the table back to
show the change.

A change's announcement is bytes: a JSON header line (kind, table id, version, writer, the
state's length in bytes, and whatever the writer adds), a newline, the state's JSON, then
what the writer made ready to send (`Announcement`: each seat's view, built once by the
process that made the change, so a process that receives it only routes bytes to its
sockets). `announced` reads one back without parsing the state.

Connections come from one bounded, blocking pool: a burst waits for a free connection
instead of failing. Every write carries an id the script remembers, so a write retried
after a lost reply recognises itself instead of reporting a conflict; the id names the
process, which shows its own writes at once (`local_change`) and ignores their echo.

The embedded default (no DOMINO_REDIS_URL) is fakeredis' asyncio client with Lua (lupa):
the very same code, in one process.
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

import orjson
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.channels import Channels, OnReply, PubSubChannels
from app.live.keys import Keys
from app.live.multiplex import Multiplexed
from app.live.ratelimit import TAKE_FUNCTION, Charge, Refused, Verdict
from app.live.scripts import run_script
from app.wire.messages import ChangeHeader, LobbyGone, RemovedNote, TableInfo, TableNote

log = logging.getLogger(__name__)

# KEYS: the table, the lobby index, the deadlines, the unwritten set, the retire set, the
# table's round archive, the snapshot-due set, the table's listeners, then the buckets of
# the request's charge.
# ARGV: the number of those buckets, their rate and burst each, then the write's own:
# expected version, data, table id, deadline, created, finished, retire at, channel,
# lobby channel, listed, lobby entry, writer id, snapshot due, the writing process, the
# announcement's header fields and its parts (see `Announcement`), then the archived rounds.
# The change is published unless the listeners are known and no other process is among
# them: the writing process shows its own change itself.
# Returns {the new version, 1 if the change was published}; -1 when the version was not the
# expected one; -2 - ms to wait when the charge was refused (then nothing is written and no
# token taken).
_WRITE = TAKE_FUNCTION + """
local nb = tonumber(ARGV[1])
local A, BK, BA = {}, {}, {}
for i = 2 + 2 * nb, #ARGV do A[#A + 1] = ARGV[i] end
for i = 1, nb do BK[i] = KEYS[8 + i] end
for i = 2, 1 + 2 * nb do BA[#BA + 1] = ARGV[i] end
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false then cur = 0 else cur = tonumber(cur) end
if cur ~= tonumber(A[1]) then
  if cur == tonumber(A[1]) + 1 and redis.call('HGET', KEYS[1], 'writer') == A[12] then
    return {cur, 1}
  end
  return -1
end
if nb > 0 then
  local wait = take(BK, BA)
  if wait > 0 then return -2 - wait end
end
local v = cur + 1
redis.call('HSET', KEYS[1], 'version', v, 'data', A[2], 'writer', A[12])
if A[10] == '1' then redis.call('ZADD', KEYS[2], 'NX', A[5], A[3]) end
if A[4] == '' then
  redis.call('ZREM', KEYS[3], A[3])
else
  redis.call('ZADD', KEYS[3], A[4], A[3])
end
if A[6] == '1' then redis.call('SADD', KEYS[4], A[3]) end
if A[7] ~= '' then redis.call('ZADD', KEYS[5], A[7], A[3]) end
if A[13] == '1' then redis.call('SADD', KEYS[7], A[3]) end
for i = 17, #A do redis.call('RPUSH', KEYS[6], A[i]) end
if cur == 0 then redis.call('SADD', KEYS[8], '*') end
local known = redis.call('SCARD', KEYS[8])
local published = 0
if known == 0 or known - 1 - redis.call('SISMEMBER', KEYS[8], A[14]) > 0 then
  redis.call('PUBLISH', A[8], '{"kind":"change","table_id":"' .. A[3] .. '","v":' .. v
    .. ',"writer":"' .. A[12] .. '"' .. A[15] .. ',"state":' .. #A[2] .. '}\\n' .. A[2] .. A[16])
  published = 1
end
if A[11] ~= '' then
  redis.call('PUBLISH', A[9], '{"kind":"update","table_id":"' .. A[3] .. '","v":' .. v
    .. ',"table":' .. A[11] .. '}')
end
return {v, published}
"""

# Puts back a table the store lost (it must not exist), at a version past any it had, with
# its archived rounds, its turn deadline and its lobby entry, and announces it like a write.
# Who listens to it is unknown from then on (every change is published).
# ARGV: version, data, table id, deadline, created, listed, channel, lobby channel, lobby
# entry, then the archived rounds.
_RESTORE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'data', ARGV[2], 'writer', 'restore')
redis.call('DEL', KEYS[5], KEYS[6])
for i = 10, #ARGV do redis.call('RPUSH', KEYS[5], ARGV[i]) end
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3]) end
if ARGV[6] == '1' then redis.call('ZADD', KEYS[2], 'NX', ARGV[5], ARGV[3]) end
redis.call('SREM', KEYS[4], ARGV[3])
redis.call('PUBLISH', ARGV[7], '{"kind":"change","table_id":"' .. ARGV[3] .. '","v":' .. ARGV[1]
  .. ',"writer":"restore","state":' .. #ARGV[2] .. '}\\n' .. ARGV[2])
if ARGV[9] ~= '' then
  redis.call('PUBLISH', ARGV[8], '{"kind":"update","table_id":"' .. ARGV[3] .. '","v":'
    .. ARGV[1] .. ',"table":' .. ARGV[9] .. '}')
end
return 1
"""

_LISTEN = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SADD', KEYS[1], ARGV[1]) end
"""

_DELETE = """
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[5], KEYS[6])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[5])
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[6]) end
return 1
"""

# Claims expired deadlines by pushing them a lease into the future: exactly one caller
# gets each one, and if that caller dies before applying the timeout the deadline
# comes back when the lease runs out, so a crash loses no deadline.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
"""

# After an outage of the store: the first process back that saw it begin after the last
# resumption claims this one (ARGV: when its outage began, now); the others see it done.
# The outage is kept as "began:ended" (KEYS[2]), widened by a process that saw it begin
# earlier: a turn whose deadline fell within it does not time out (see `Outage`).
_RESUME = """
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if last >= tonumber(ARGV[1]) then
  local began, ended = string.match(redis.call('GET', KEYS[2]) or '', '^(%d+):(%d+)$')
  if began and tonumber(ARGV[1]) < tonumber(began) then
    redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ended)
  end
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2])
return 1
"""

_RETIRE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, id in ipairs(due) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('PUBLISH', ARGV[2], '{"kind":"remove","table_id":"' .. id .. '"}')
end
return due
"""

# Updates one process's presence entries and, when that changes who is connected, announces
# the seats now connected anywhere, so no process has to read the presence back.
# ARGV: now, expires, keep seconds, channel, table id, then "+field" (present) or "-field"
# (gone) entries.
_PRESENCE = """
local function live()
  local seats, seen = {}, {}
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) > tonumber(ARGV[1]) then
      local seat = string.match(all[i], ':(%d+)$')
      if seat and not seen[seat] then seen[seat] = true; table.insert(seats, tonumber(seat)) end
    end
  end
  table.sort(seats)
  return table.concat(seats, ',')
end
local before = live()
for i = 6, #ARGV do
  local op, field = string.sub(ARGV[i], 1, 1), string.sub(ARGV[i], 2)
  if op == '+' then redis.call('HSET', KEYS[1], field, ARGV[2])
  else redis.call('HDEL', KEYS[1], field) end
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
local after = live()
if after ~= before then
  redis.call('PUBLISH', ARGV[4], '{"kind":"presence","table_id":"' .. ARGV[5]
    .. '","seats":[' .. after .. ']}')
end
return after
"""

# A process's count of spectators' sockets at a table, then the total over every process
# announced. KEYS[1]: the table's spectators hash (process -> "expires ms:count").
# ARGV: process, "expires ms:count" ("" to remove), seconds to keep, now ms, channel, table.
_SPECTATORS = """
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
local total = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 2, #all, 2 do
  local expires, count = string.match(all[i], '^([^:]+):(%d+)$')
  if expires and tonumber(expires) > tonumber(ARGV[4]) then total = total + tonumber(count) end
end
redis.call('PUBLISH', ARGV[5], '{"kind":"spectators","table_id":"' .. ARGV[6]
  .. '","count":' .. total .. '}')
return total
"""


_CHANGE = b'{"kind":"change",'
# A process's writer prefix: this many random bytes, in hex.
WRITER_PREFIX_BYTES = 6


def writer_process(writer: str) -> str | None:
    """The writer prefix of the process that made a write (from its write id), if a process
    made it (not a restore)."""
    size = 2 * WRITER_PREFIX_BYTES
    return writer[:size] if len(writer) > size else None


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a writer adds to its change's announcement: `fields`, more members of the JSON
    header (`,"name":value,...`), and `parts`, the bytes after the state (what they hold is
    the writer's and its readers' business: app.services.fanout.feed)."""

    fields: bytes = b""
    parts: bytes = b""


@dataclass(frozen=True, slots=True)
class Announced:
    """A change's announcement as received: its header, and where the state's JSON and the
    writer's parts lie in the message (neither parsed nor copied yet)."""

    header: ChangeHeader
    message: bytes
    start: int

    @property
    def version(self) -> int:
        return int(self.header["v"])

    @property
    def writer(self) -> str:
        return str(self.header["writer"])

    def state(self) -> bytes:
        return self.message[self.start:self.start + self.header["state"]]

    def parts(self) -> bytes:
        return self.message[self.start + self.header["state"]:]


def announced(message: bytes) -> Announced | None:
    """A change's announcement (as `_WRITE` and `_RESTORE` publish it), its header read and
    the rest left as it is; None for any other message (or a malformed one)."""
    if not message.startswith(_CHANGE):
        return None
    end = message.find(b"\n")
    if end < 0:
        return None
    try:
        header = orjson.loads(message[:end])
    except orjson.JSONDecodeError:
        return None
    if not (isinstance(header, dict) and isinstance(header.get("v"), int)
            and isinstance(header.get("state"), int) and isinstance(header.get("writer"), str)):
        return None
    return Announced(cast(ChangeHeader, header), message, end + 1)


@dataclass(frozen=True)
class Versioned:
    """A table's JSON state as read, with the version a compare-and-set must name."""

    version: int
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Outage:
    """The store's last outage (epoch ms): from when a process saw it begin to when the
    clocks were restarted after it."""

    began: int
    ended: int

    def covers(self, deadline_ms: int) -> bool:
        """Whether a turn that ran out at `deadline_ms` ran out while the store was away:
        it was not the player's to lose."""
        return self.began <= deadline_ms <= self.ended


def _versioned(row: list[Any]) -> Versioned | None:
    """A table's [version, data] fields as read from its hash; None if it is gone."""
    version, data = row
    if version is None or data is None:
        return None
    return Versioned(int(version), orjson.loads(data))


def dumps(value: Any) -> bytes:
    """Compact JSON (orjson), as the UTF-8 bytes Redis is sent: the live store's one
    serialiser (a state is a few kilobytes a move; no copy into a str and back)."""
    return orjson.dumps(value)


class _Pool(aioredis.BlockingConnectionPool):
    """redis-py's bounded, blocking pool, with a fast way in: while a connection is free and
    nobody waits for one, it is taken at once, without the pool's condition, timeout and
    wait-time metrics (most of a command's own cost on the move path at saturation).
    Otherwise, and always when a waiter is queued (first come, first served), the pool's
    own way, which waits."""

    async def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> Any:
        waiters = getattr(self._condition, "_waiters", None)
        if (self._available_connections and not waiters
                and not getattr(self, "_in_maintenance", False)):
            connection = self._available_connections.pop()
            self._in_use_connections.add(connection)
            try:
                await self.ensure_connection(connection)
            except BaseException:
                await self.release(connection)
                raise
            return connection
        return await super().get_connection()


# How long a command may wait for Redis's answer before Redis counts as away (the default
# of DOMINO_REDIS_TIMEOUT_SECONDS).
TIMEOUT_SECONDS = 2.0


def _retry() -> Retry:
    """A command that meets a dropped connection is tried again, on a fresh one (a few
    times, quickly: a restarted Redis is back at once). One that Redis did not answer in
    time is not: the time is spent, and Redis counts as away."""
    return Retry(ExponentialBackoff(cap=0.5, base=0.05), 5,
                 supported_errors=(RedisConnectionError,))


def outage(error: BaseException) -> bool:
    """Whether `error` says the store cannot be reached or did not answer in time (rather
    than that it refused this one command)."""
    return isinstance(error, (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError))


def connect(
    redis_url: str, *, pool_size: int = 64, pool_timeout: float = 10.0,
    timeout: float = TIMEOUT_SECONDS,
) -> aioredis.Redis:
    """A Redis client for `redis_url`, or the in-process fakeredis when it is empty.

    At most `pool_size` connections; a command that finds them all busy waits up to
    `pool_timeout` seconds for one. Connections are health-checked after a quiet spell
    and a command that meets a dropped connection is retried on a fresh one, so the
    first request after a Redis restart succeeds. A command Redis does not answer within
    `timeout` seconds fails with TimeoutError, not retried: a silent Redis (a stopped
    process, a partition, a long fork) is an outage like a refused connection.
    """
    if redis_url:
        pool = _Pool.from_url(
            redis_url,
            max_connections=pool_size,
            timeout=pool_timeout,
            decode_responses=True,
            health_check_interval=5,
            # A Redis that stops answering is an outage too, not a wait without end.
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=_retry(),
            retry_on_error=[RedisConnectionError],
        )
        return aioredis.Redis(connection_pool=pool)
    import fakeredis

    return cast(aioredis.Redis, fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(),
                                                          decode_responses=True))


class Written(NamedTuple):
    """A write's new version; `published`: whether its change was announced (some other
    process listens to the table), so the next one is worth making ready for them too."""

    version: int
    published: bool


@dataclass(frozen=True, slots=True)
class Write:
    """One compare-and-set write of a table (see `LiveStore.write`).

    `data`: the new state's JSON; `expected`: the version the writer read (0: a new table);
    `created_ms`: when the table was made (its place in the lobby index); `deadline_ms`:
    when the clock must look at the table next (None: never); `finished`: the game just
    ended (its result is queued for the database writer) and `retire_at_ms` when it leaves
    the lobby; `listed`: False keeps a table out of the lobby's index; `lobby_entry`: the
    table as the lobby shows it, when that changed; `archive`: rounds that just became
    history; `snapshot`: the table is due a copy in the database (see `due_snapshots`);
    `announcement`: what the change's announcement carries besides the state; `answers`:
    the request this write carries out for another process (a relayed move, as
    app.services.play.relay names it), named in the announcement's header so that process has
    its answer with the change.
    """

    table_id: str
    expected: int
    data: bytes
    created_ms: int
    deadline_ms: int | None = None
    finished: bool = False
    retire_at_ms: int | None = None
    listed: bool = True
    lobby_entry: TableInfo | None = None
    archive: Sequence[dict[str, Any]] = ()
    snapshot: bool = False
    announcement: Announcement | None = None
    answers: str | None = None


class LiveStore:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.keys = Keys(prefix)
        # Every write id of this process starts with this, so its own announcements are
        # known as such when they come back.
        self.writer_prefix = secrets.token_hex(WRITER_PREFIX_BYTES)
        self._writes = itertools.count()
        # What prepares this process's changes for their announcement and shows them here
        # once written (app.services.tables.transact.Announcer; None: nothing shows them here).
        self.announcer: Any = None
        # When this process found Redis unreachable, until the clocks have been restarted
        # after it came back (None: no outage). No turn times out meanwhile.
        self.outage_since: int | None = None
        self._outage_over_at = 0
        self._write = client.register_script(_WRITE)
        self._delete = client.register_script(_DELETE)
        self._claim = client.register_script(_CLAIM)
        self._retire = client.register_script(_RETIRE)
        self._resume = client.register_script(_RESUME)
        self._presence = client.register_script(_PRESENCE)
        self._restore = client.register_script(_RESTORE)
        self._listen = client.register_script(_LISTEN)
        self._spectators = client.register_script(_SPECTATORS)
        # The move path's writes share one connection (see app.live.multiplex); the
        # in-process store has no connections to share.
        pool = client.connection_pool
        self.timeout = float(pool.connection_kwargs.get("socket_timeout") or TIMEOUT_SECONDS)
        self._lane: Multiplexed | None = (
            Multiplexed(pool, timeout=self.timeout, retry=_retry()) if isinstance(pool, _Pool)
            else None)

    def note_outage(self, since_ms: int, error: BaseException) -> None:
        """The store could not be reached, or did not answer, for a command sent at
        `since_ms`: until the clocks are restarted (app.services.play.clock) no turn times out
        and moves are answered `unavailable`. Said once in the log, when it begins."""
        if since_ms < self._outage_over_at:
            return  # a command of an outage that is over: the store has answered since
        if self.outage_since is not None:
            self.outage_since = min(self.outage_since, since_ms)
            return
        self.outage_since = since_ms
        log.warning("live store unreachable (%s: %s); moves wait and turn clocks stop",
                    type(error).__name__, error)

    def outage_over(self, now_ms: int) -> None:
        """The store answers again and the clocks have been restarted after the outage."""
        self.outage_since = None
        self._outage_over_at = now_ms

    def channels(self, on_reply: OnReply, wanted: Callable[[], Iterable[str]]
                 ) -> Channels | PubSubChannels:
        """This process's subscription connection (see app.live.channels): its own socket
        to Redis, or redis-py's PubSub for the in-process store."""
        if self._lane is None:
            return PubSubChannels(self.redis, on_reply=on_reply)
        return Channels(self.redis.connection_pool, timeout=self.timeout, on_reply=on_reply,
                        wanted=wanted)

    @property
    def runner(self) -> aioredis.Redis | Multiplexed:
        """What runs the hot commands and scripts: the shared connection where there is one
        (a few µs of CPU a command, against a pooled connection's tens), else the client.
        For commands whose reply is used as Redis sends it (strings, integers, lists of
        them): no redis-py response conversion."""
        return self._lane or self.redis

    async def command(self, *args: Any) -> Any:
        """One command over `runner`."""
        return await self.runner.execute_command(*args)

    async def ping(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    async def release(self) -> None:
        """Close this store's own connection (the move path's), leaving the client open
        for whoever shares it."""
        if self._lane is not None:
            await self._lane.close()

    async def close(self) -> None:
        await self.release()
        await self.redis.aclose()

    async def persistent(self) -> bool:
        """Whether Redis writes every change to its append-only file (survives a restart)."""
        config = await self.redis.config_get("appendonly")
        return str(config.get("appendonly", "no")).lower() == "yes"

    # -- tables -------------------------------------------------------------------------

    async def load(self, table_id: str) -> Versioned | None:
        return _versioned(await self.command("HMGET", self.keys.table(table_id), "version", "data"))

    async def load_with_presence(
        self, table_id: str, now_ms: int
    ) -> tuple[Versioned | None, set[int]]:
        """The state and the seats with a live socket on any process, in one round trip."""
        current, seats, _watchers = await self.load_with_watchers(table_id, now_ms)
        return current, seats

    async def load_with_watchers(
        self, table_id: str, now_ms: int
    ) -> tuple[Versioned | None, set[int], int]:
        """The state, the seats with a live socket and how many spectators watch (summed
        over every process), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(self.keys.table(table_id), ["version", "data"])
            pipe.hgetall(self.keys.presence(table_id))
            pipe.hgetall(self._watchers_key(table_id))
            row, presence, watchers = await pipe.execute()
        current = _versioned(row)
        if current is None:
            return None, set(), 0
        return current, _live_seats(presence, now_ms), _live_watchers(watchers, now_ms)

    async def versions(self, table_ids: list[str]) -> dict[str, int | None]:
        """The current version of each table (None: gone), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hget(self.keys.table(table_id), "version")
            found = await pipe.execute()
        return {t: None if v is None else int(v) for t, v in zip(table_ids, found, strict=True)}

    async def listed(self) -> list[Versioned]:
        """Every table in the lobby index, oldest first."""
        ids = [str(x) for x in await self.redis.zrange(self.keys.index, 0, -1)]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in ids:
                pipe.hmget(self.keys.table(table_id), ["version", "data"])
            rows = await pipe.execute()
        return [current for row in rows if (current := _versioned(row)) is not None]

    async def archived_rounds(
        self, table_id: str, start: int = 0, stop: int = -1
    ) -> list[dict[str, Any]]:
        """The rounds of the table's game that are over, as `write(archive=...)` stored them
        (those numbered `start` to `stop`, both included; -1 is the last)."""
        rounds = await self.redis.lrange(self.keys.rounds(table_id), start, stop)
        return [orjson.loads(x) for x in rounds]

    async def write(self, write: Write, charge: Charge | None = None) -> int | None:
        """`written`'s new version."""
        done = await self.written(write, charge)
        return None if done is None else done.version

    async def written(self, write: Write, charge: Charge | None = None) -> Written | None:
        """Store `write.data` if the table is still at version `write.expected` (0: does not
        exist).

        Returns the new version, or None when someone else changed the table first.
        Announces the change with the state on the table's channel, and the lobby entry
        (when it changed) on the lobby's; appends the rounds of `write.archive` to the
        table's round archive in the same step (see `Write`). `charge`: the rate limits of
        the request that makes this change, taken in the same step, only if the table is at
        `expected` (a refused one raises `Refused` and writes nothing).
        """
        charged = charge is not None and charge.verdict is None and bool(charge.keys)
        bucket_keys, bucket_args = (charge.keys, charge.args) if charged and charge else ([], [])
        k = self.keys
        table_id = write.table_id
        result = await run_script(
            self._write, self.runner,
            [k.table(table_id), k.index, k.deadlines, k.unwritten, k.retire,
             k.rounds(table_id), k.snapshot_due, k.listeners(table_id), *bucket_keys],
            [
                len(bucket_keys),
                *bucket_args,
                write.expected,
                write.data,
                table_id,
                "" if write.deadline_ms is None else write.deadline_ms,
                write.created_ms,
                "1" if write.finished else "0",
                "" if write.retire_at_ms is None else write.retire_at_ms,
                k.table_channel(table_id),
                k.lobby_channel,
                "1" if write.listed else "0",
                "" if write.lobby_entry is None else dumps(write.lobby_entry),
                f"{self.writer_prefix}{next(self._writes)}",
                "1" if write.snapshot else "0",
                self.writer_prefix,
                (b"" if write.announcement is None else write.announcement.fields)
                + (b"" if write.answers is None
                   else b',"answers":' + dumps(write.answers)),
                b"" if write.announcement is None else write.announcement.parts,
                *(dumps(rd) for rd in write.archive),
            ],
        )
        if isinstance(result, list):
            if charged:
                assert charge is not None
                charge.verdict = Verdict(True, 0)
            return Written(int(result[0]), bool(int(result[1])))
        result = int(result)
        if result <= -2:
            assert charge is not None
            charge.verdict = Verdict(False, -2 - result)
            raise Refused(-2 - result)
        return None

    async def listen(self, table_id: str) -> None:
        """This process is subscribed to the table's channel (call it after subscribing and
        before reading the table): from now on every change another process makes is
        published. A set that is not known to be whole (the store lost it, or the table was
        restored) stays missing, and every change is published."""
        await self._listen(keys=[self.keys.listeners(table_id)], args=[self.writer_prefix])

    async def unlisten(self, table_id: str) -> None:
        await self.redis.srem(self.keys.listeners(table_id), self.writer_prefix)

    async def restore(
        self,
        table_id: str,
        version: int,
        data: bytes,
        rounds: list[dict[str, Any]],
        *,
        created_ms: int,
        deadline_ms: int | None,
        lobby_entry: TableInfo | None,
    ) -> bool:
        """Put back a table this store lost (`data`: its JSON state, made at `created_ms`), at
        `version`; False if the table exists (then
        nothing changes: another process restored it first, or it was never lost)."""
        k = self.keys
        done = await self._restore(
            keys=[k.table(table_id), k.index, k.deadlines, k.snapshot_due, k.rounds(table_id),
                  k.listeners(table_id)],
            args=[
                version,
                data,
                table_id,
                "" if deadline_ms is None else deadline_ms,
                created_ms,
                "1" if lobby_entry is not None else "0",
                k.table_channel(table_id),
                k.lobby_channel,
                "" if lobby_entry is None else dumps(lobby_entry),
                *(dumps(rd) for rd in rounds),
            ],
        )
        return bool(done)

    async def missing(self, table_ids: list[str]) -> list[str]:
        """Which of these tables the store does not hold, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.exists(self.keys.table(table_id))
            found = await pipe.execute()
        return [t for t, there in zip(table_ids, found, strict=True) if not there]

    async def due_snapshots(self, limit: int = 50) -> list[str]:
        """Takes up to `limit` tables due a copy in the database (the caller makes it, or
        hands them back with `snapshots_due`)."""
        taken = await self.redis.spop(self.keys.snapshot_due, limit)
        return [str(x) for x in taken or []]

    async def snapshots_due(self, table_ids: list[str]) -> None:
        if table_ids:
            await self.redis.sadd(self.keys.snapshot_due, *table_ids)

    async def delete(self, table_id: str, expected: int, listed: bool = True) -> bool:
        """Remove a table still at version `expected` (an empty table nobody waits at).
        `listed`: False for a table the lobby never showed (its removal is not told there)."""
        k = self.keys
        removed: RemovedNote = {"kind": "removed", "table_id": table_id, "v": expected + 1}
        gone: LobbyGone = {"kind": "remove", "table_id": table_id, "v": expected + 1}
        done = await self._delete(
            keys=[k.table(table_id), k.index, k.deadlines, k.retire, k.rounds(table_id),
                  k.listeners(table_id)],
            args=[expected, table_id, k.table_channel(table_id), k.lobby_channel,
                  dumps(removed), dumps(gone) if listed else ""],
        )
        return bool(done)

    # -- clocks and housekeeping ---------------------------------------------------------

    async def claim_deadlines(self, now_ms: int, lease_ms: int, limit: int = 50) -> list[str]:
        """Expired turn deadlines, each handed to exactly one caller (see _CLAIM)."""
        due = await self._claim(keys=[self.keys.deadlines], args=[now_ms, now_ms + lease_ms, limit])
        return [str(x) for x in due]

    async def claim_resumption(self, down_since_ms: int, now_ms: int) -> bool:
        """Whether this process is the one to restart the clocks after an outage that began
        (as it saw it) at `down_since_ms`; exactly one process gets each outage."""
        return bool(await self._resume(keys=[self.keys.resumed, self.keys.outage],
                                       args=[down_since_ms, now_ms]))

    async def last_outage(self) -> Outage | None:
        """The store's last outage, from when a process saw it begin to when the clocks were
        restarted after it (None: none since the store was new)."""
        window = await self.command("GET", self.keys.outage)
        if not window:
            return None
        began, ended = (int(x) for x in str(window).split(":"))
        return Outage(began, ended)

    async def running_since(self, since_ms: int) -> list[str]:
        """Tables whose turn deadline is at or after `since_ms`."""
        return [str(x) for x in await self.redis.zrangebyscore(
            self.keys.deadlines, since_ms, "+inf")]

    async def deadline_of(self, table_id: str) -> float | None:
        score = await self.redis.zscore(self.keys.deadlines, table_id)
        return None if score is None else float(score)

    async def drop_deadline(self, table_id: str) -> None:
        await self.redis.zrem(self.keys.deadlines, table_id)

    async def retire_due(self, now_ms: int) -> list[str]:
        """Finished tables whose time in the lobby is over: removed and announced."""
        k = self.keys
        gone = await self._retire(keys=[k.retire, k.index], args=[now_ms, k.lobby_channel])
        return [str(x) for x in gone]

    async def unwritten(self) -> list[str]:
        return sorted(str(x) for x in await self.redis.smembers(self.keys.unwritten))

    async def mark_written(self, table_id: str, keep_seconds: int) -> None:
        """The game is in the database: forget it here, keep the table readable a while."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.srem(self.keys.unwritten, table_id)
            pipe.expire(self.keys.table(table_id), keep_seconds)
            pipe.expire(self.keys.rounds(table_id), keep_seconds)
            pipe.expire(self.keys.listeners(table_id), keep_seconds)
            await pipe.execute()

    # -- presence and messages ---------------------------------------------------------

    async def set_presence(
        self,
        table_id: str,
        process_id: str,
        present: set[int],
        absent: set[int],
        now_ms: int,
        expires_ms: int,
        keep_seconds: int,
    ) -> None:
        """Mark this process's seats present/absent and announce who is connected now."""
        await run_script(
            self._presence, self.runner,
            [self.keys.presence(table_id)],
            [
                now_ms, expires_ms, keep_seconds, self.keys.table_channel(table_id), table_id,
                *(f"+{process_id}:{s}" for s in sorted(present)),
                *(f"-{process_id}:{s}" for s in sorted(absent)),
            ],
        )

    def _watchers_key(self, table_id: str) -> str:
        return f"{self.keys.presence(table_id)}:watchers"

    async def set_watchers(
        self, table_id: str, process_id: str, count: int, expires_ms: int, keep_seconds: int
    ) -> None:
        """How many spectators' sockets this process has on the table (0: none)."""
        key = self._watchers_key(table_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            if count:
                pipe.hset(key, process_id, f"{expires_ms}:{count}")
                pipe.expire(key, keep_seconds)
            else:
                pipe.hdel(key, process_id)
            await pipe.execute()

    async def count_spectators(
        self, table_id: str, process_id: str, count: int, now_ms: int, expires_ms: int,
        keep_seconds: int,
    ) -> int:
        """Store this process's count of spectators' sockets at the table (0: none), and
        announce the total over every process, which is returned; one round trip."""
        return int(await run_script(
            self._spectators, self.runner, [self._watchers_key(table_id)],
            [process_id, f"{expires_ms}:{count}" if count else "", keep_seconds, now_ms,
             self.keys.table_channel(table_id), table_id],
        ))

    async def presence(self, table_id: str, now_ms: int) -> set[int]:
        return _live_seats(await self.redis.hgetall(self.keys.presence(table_id)), now_ms)

    async def publish_table(self, table_id: str, message: TableNote) -> None:
        await self.command("PUBLISH", self.keys.table_channel(table_id), dumps(message))


def _live_watchers(watchers: dict[Any, Any], now_ms: int) -> int:
    total = 0
    for value in watchers.values():
        expires, count = str(value.decode() if isinstance(value, bytes) else value).split(":")
        if float(expires) > now_ms:
            total += int(count)
    return total


def _live_seats(presence: dict[Any, Any], now_ms: int) -> set[int]:
    seats = set()
    for field, expires in presence.items():
        if float(expires) > now_ms:
            seats.add(int(str(field).rsplit(":", 1)[1]))
    return seats
