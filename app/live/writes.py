"""Writing tables: every change by compare-and-set on the version, in one script that keeps
everything that changes with the table in step and announces the change with its state.

The write script (lua/write.lua) checks the version the writer read, stores the new state,
appends the rounds that just became history to the table's round archive, keeps the lobby
index, the turn deadlines, the "finished, not yet written" set, the retire set and the
snapshot-due set in step, and publishes the change *with* the new state (and the new lobby
entry when it changed); so two processes, two tabs or a double click can never both apply
a change, no announcement is ever made for a write that did not happen, and no process has
to read the table back to show the change. Every write carries an id the script remembers,
so a write retried after a lost reply recognises itself instead of reporting a conflict.

On Redis Cluster a script may touch one slot only: the table's keys (hash tag `{table_id}`)
are written by the script, and the sets every table shares (each on a slot of its own; the
deadlines in parts, app.live.keys) are kept by calls around it (`Sets`), the charge taken by
a call before it. The call before (`_ahead`) makes what must hold even if this process dies
right after the script: a turn deadline no later than the new one (ZADD LT: a claimed
deadline whose turn is not over comes back, app.services.play.moves.expire, so early costs
a look, never a move), the new table's place in the lobby, a finished game's place in the
unwritten set (the results writer drops a table there whose game is not over: a write that
lost its compare-and-set). The call after makes them exact. A call that fails (its shard is
away) is kept and made again by the clock's next sweep (`keep_sets`); until then a turn's
deadline may be early, never late, and the sets are idempotent, so one made twice or out of
order does no harm.

A lost table is put back by `restore` (only where it does not exist), at a version past
any it had.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from redis.commands.core import AsyncScript
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.announce import Announcement
from app.live.base import StoreBase, dumps
from app.live.client import outage
from app.live.ratelimit import Charge, Refused, Taker, Verdict
from app.live.scripts import run_script
from app.wire.between import LobbyChange, LobbyGone, RemovedNote
from app.wire.bytes import change_header, write_argv
from app.wire.messages import TableInfo

log = logging.getLogger(__name__)

# One command on a set every table shares (ZADD, ZREM, SADD, SREM and its arguments).
SetCommand = tuple[Any, ...]


class WriteUnknown(RedisTimeoutError):
    """A write whose answer did not come in time: it may have been made (a frozen Redis
    carries it out when it wakes), so nobody may be told that nothing changed."""


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
    app.services.play.relay names it), named in the announcement's header so that process
    has its answer with the change.
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
    # a new game starts at a table that had one (a courtyard's next): the archive of the
    # last one's rounds is emptied first
    fresh_archive: bool = False


def lobby_update(table_id: str, version: int, entry: TableInfo | None) -> bytes:
    """The lobby's message of a table's new entry (b"" for none)."""
    if entry is None:
        return b""
    change: LobbyChange = {"kind": "update", "table_id": table_id, "v": version, "table": entry}
    return dumps(change)


class Writes(StoreBase):
    _writes: itertools.count[int]
    _write: AsyncScript
    _restore: AsyncScript
    _delete: AsyncScript
    _listen: AsyncScript
    _taker: Taker
    # The shared sets' commands of cluster writes whose second call failed, oldest first.
    _unkept: list[SetCommand]

    def _table_keys(self, table_id: str) -> list[str]:
        """The keys of a table that its scripts touch: its state, round archive, listeners."""
        k = self.keys
        return [k.table(table_id), k.rounds(table_id), k.listeners(table_id)]

    async def _keep(self, commands: list[SetCommand]) -> None:
        """In a cluster: the shared sets' side of a table's change, right after its script;
        kept for the next sweep if their shards cannot be reached now."""
        if not commands:
            return
        try:
            await self._run_sets(commands)
        except Exception as error:
            if not outage(error):
                raise
            log.warning("the lobby's and the clock's sets could not be kept (%r); "
                        "the next sweep keeps them", error)
            self._unkept.extend(commands)

    async def _run_sets(self, commands: list[SetCommand]) -> None:
        """All at once, over the move path's connections (each command of a write or a
        restore is on a key of its own)."""
        await asyncio.gather(*(self.command(*command) for command in commands))

    async def keep_sets(self) -> None:
        """Make the shared sets' commands that failed before (the clock's sweep calls it),
        in their order (a deadline's ZADD LT before its exact one); raises, keeping those
        not made, while their shards are still away."""
        while self._unkept:
            await self.command(*self._unkept[0])
            del self._unkept[0]

    async def _charged_alone(self, charge: Charge) -> None:
        """A charge taken by its own call (in a cluster the buckets are not on the table's
        slot): raises `Refused` when refused."""
        charge.verdict = await self._taker.take_all(self.runner, charge)
        if not charge.verdict.allowed:
            raise Refused(charge.verdict.retry_ms)

    async def _ahead(self, write: Write, charge: Charge | None) -> None:
        """In a cluster, before the table's script: the charge, and what of the shared sets
        must hold if this process dies right after the script (see the module's text)."""
        k, table_id = self.keys, write.table_id
        ahead: list[SetCommand] = []
        if write.deadline_ms is not None:
            ahead.append(("ZADD", k.deadlines(table_id), "LT", write.deadline_ms, table_id))
        if write.finished:
            ahead.append(("SADD", k.unwritten, table_id))
        if write.listed and write.expected == 0:
            ahead.append(("ZADD", k.index, "NX", write.created_ms, table_id))
        if charge is None:
            await self._keep(ahead)
            return
        kept, charged = await asyncio.gather(self._keep(ahead), self._charged_alone(charge),
                                             return_exceptions=True)
        for outcome in (charged, kept):
            if isinstance(outcome, BaseException):
                raise outcome

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
        together = not self.clustered  # the shared sets and the charge in the script too
        if not together:
            await self._ahead(write, charge if charged else None)
            charged = False
        bucket_keys, bucket_args = (charge.keys, charge.args) if charged and charge else ([], [])
        k = self.keys
        table_id = write.table_id
        writer = f"{self.writer_prefix}{next(self._writes)}"
        announcement = write.announcement
        more = b"" if announcement is None else announcement.fields
        if write.answers is not None:
            more += b',"answers":' + dumps(write.answers)
        version = write.expected + 1
        # What the script sees as nil is left out (see app.wire.bytes.write_argv).
        header: dict[str, Any] = {
            "expected": write.expected,
            "table": table_id,
            "writer": writer,
            "process": self.writer_prefix,
            "created": write.created_ms,
            "listed": write.listed,
            "finished": write.finished,
            "snapshot": write.snapshot,
            "channel": k.table_channel(table_id),
            "lobby_channel": k.lobby_channel,
            "globals": together,
        }
        if write.deadline_ms is not None:
            header["deadline"] = write.deadline_ms
        if write.retire_at_ms is not None:
            header["retire_at"] = write.retire_at_ms
        if bucket_args:
            header["buckets"] = bucket_args
        if write.fresh_archive:
            header["fresh_archive"] = True
        if write.answers is not None:
            header["answers"] = write.answers
        keys = self._table_keys(table_id)
        if together:
            keys += [k.index, k.deadlines(table_id), k.unwritten, k.retire, k.snapshot_due]
        try:
            result = await run_script(
                self._write, self.runner,
                [*keys, *bucket_keys,
                 *([] if write.answers is None else [k.answers(table_id)])],
                write_argv(
                    header,
                    write.data,
                    change_header(table_id, version, writer, more, len(write.data)),
                    b"" if announcement is None else announcement.parts,
                    lobby_update(table_id, version, write.lobby_entry),
                    [dumps(rd) for rd in write.archive] if write.archive else (),
                ),
            )
        except RedisTimeoutError as error:
            raise WriteUnknown(str(error)) from error
        if isinstance(result, list):
            if charged:
                assert charge is not None
                charge.verdict = Verdict(True, 0)
            if not together:
                await self._keep(self._write_sets(write))
            return Written(int(result[0]), bool(int(result[1])))
        result = int(result)
        if result <= -2:
            assert charge is not None
            charge.verdict = Verdict(False, -2 - result)
            raise Refused(-2 - result)
        return None

    def _write_sets(self, write: Write) -> list[SetCommand]:
        """What lua/write.lua does to the shared sets, as commands of their own (the lobby
        index only where the table's entry changed: every move's ZADD NX would change
        nothing on a shard every table shares)."""
        k, table_id = self.keys, write.table_id
        commands: list[SetCommand] = []
        if write.listed and (write.expected == 0 or write.lobby_entry is not None):
            commands.append(("ZADD", k.index, "NX", write.created_ms, table_id))
        if write.deadline_ms is not None:
            commands.append(("ZADD", k.deadlines(table_id), write.deadline_ms, table_id))
        else:
            commands.append(("ZREM", k.deadlines(table_id), table_id))
        if write.finished:
            commands.append(("SADD", k.unwritten, table_id))
        if write.retire_at_ms is not None:
            commands.append(("ZADD", k.retire, write.retire_at_ms, table_id))
        if write.snapshot:
            commands.append(("SADD", k.snapshot_due, table_id))
        return commands

    async def answered(self, table_id: str, request: str) -> int | None:
        """The version a write of the table made carrying out `request` (a relayed move)
        within the last minute; None if none did."""
        version = await self.command("HGET", self.keys.answers(table_id), request)
        return None if version is None else int(version)

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
        header = {
            "version": version,
            "table": table_id,
            "created": created_ms,
            "listed": lobby_entry is not None,
            "channel": k.table_channel(table_id),
            "lobby_channel": k.lobby_channel,
        }
        if deadline_ms is not None:
            header["deadline"] = deadline_ms
        keys = self._table_keys(table_id)
        if not self.clustered:
            keys += [k.index, k.deadlines(table_id), k.snapshot_due]
        elif deadline_ms is not None:  # as a write's call before its script (`_ahead`)
            await self._keep([("ZADD", k.deadlines(table_id), "LT", deadline_ms, table_id)])
        done = await self._restore(
            keys=keys,
            args=[
                dumps(header),
                data,
                change_header(table_id, version, "restore", b"", len(data)),
                lobby_update(table_id, version, lobby_entry),
                *(dumps(rd) for rd in rounds),
            ],
        )
        if done and self.clustered:
            commands: list[SetCommand] = [("SREM", k.snapshot_due, table_id)]
            if lobby_entry is not None:
                commands.append(("ZADD", k.index, "NX", created_ms, table_id))
            if deadline_ms is not None:
                commands.append(("ZADD", k.deadlines(table_id), deadline_ms, table_id))
            await self._keep(commands)
        return bool(done)

    async def delete(self, table_id: str, expected: int, listed: bool = True) -> bool:
        """Remove a table still at version `expected` (an empty table nobody waits at).
        `listed`: False for a table the lobby never showed (its removal is not told there)."""
        k = self.keys
        removed: RemovedNote = {"kind": "removed", "table_id": table_id, "v": expected + 1}
        gone: LobbyGone = {"kind": "remove", "table_id": table_id, "v": expected + 1}
        keys = self._table_keys(table_id)
        if not self.clustered:
            keys += [k.index, k.deadlines(table_id), k.retire]
        done = await self._delete(
            keys=keys,
            args=[expected, table_id, k.table_channel(table_id), k.lobby_channel,
                  dumps(removed), dumps(gone) if listed else ""],
        )
        if done and self.clustered:
            await self._keep([("ZREM", key, table_id)
                              for key in (k.index, k.deadlines(table_id), k.retire)])
        return bool(done)
