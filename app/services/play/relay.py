"""A move applied where its table is held, wherever the mover's socket is.

A process holds a table as its last change left it (the table and its game parsed) when it
made that change; any other process that serves the table has only the change's
announcement (the views to send, the state unparsed). A move that arrives at such a process
is relayed to the one that made the last change: it applies the move exactly as it would a
move of its own socket's (the same checks in the same order, the same compare-and-set,
the rate limits of the mover's message taken by the same write), announces the change, and
answers the relaying process, which answers the mover. So a table whose seats are spread
over several processes is parsed in one, not again in every process a move comes through.
A process that has the socket of every seat connected anywhere relays nothing: it applies
the move itself and so becomes the table's holder (`Feed.seats_all_here`); that is the case
behind a proxy that sends a table's sockets to one process, whoever made its last change.

The change's announcement is the answer: its header names the relayed request
(`Write.answers`), and the relaying process, which listens to the table, takes it from there
(`Hub.on_answer`), so a move costs one message each way; only a refusal, which writes
nothing, is answered by a message of its own. The holder writes the game's result if the
move ended it. A holder that does not answer in `RELAY_SECONDS` (or is gone: nobody listens
on its channel) is not waited for: the move is applied here, and the compare-and-set keeps
it from being applied twice. A holder that was only slow may have applied it first: the move
tried here is then stale, and the holder's late answer, its change, is the mover's reply
(`Relay.applied_late`), not a `stale` error for a move that was made; where that answer
never comes here (this process was resubscribing the table's channel: its slot moved to
another master, a connection was lost), the holder's write keeps the request's id with the
table for a minute (`LiveStore.answered`), and that is the answer. Deciding where a
move goes, and reconciling a late answer, is app.services.play.route's.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from app.live.hub import Hub
from app.live.ratelimit import Charge, Refused, Verdict
from app.live.store import Announced, LiveStore, dumps
from app.services.durable.finish import Finisher
from app.services.fanout.feed import Feed
from app.services.play import moves
from app.services.tables.settle import settled
from app.services.tables.transact import ServiceError
from app.wire.between import PlayedReply, RelayedPlay, Resubscribed
from app.wire.notes import PROCESS_NOTES, ProcessNote

log = logging.getLogger(__name__)

# How long a relayed move waits for the process that holds the table before it is applied
# where it arrived.
RELAY_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Relayed:
    """A move the holder applied: the version it wrote."""

    version: int


@dataclass(frozen=True, slots=True)
class Unanswered:
    """A relayed move its holder did not answer within `RELAY_SECONDS`: it is applied where
    it arrived, and the holder may yet apply it too (it was only slow). Its answer is still
    listened for (`Relay.applied_late`) until `Relay.forget`."""

    rid: str
    answer: asyncio.Future[PlayedReply]
    table_id: str


class Relay:
    def __init__(self, store: LiveStore, hub: Hub, feed: Feed, finisher: Finisher) -> None:
        self.store = store
        self.hub = hub
        self.feed = feed
        self.finisher = finisher
        self.channel = store.keys.process_channel(store.writer_prefix)
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[PlayedReply]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.hub.on_answer = self._answered
        await self.hub.add(self.channel, self._on_message, PROCESS_NOTES)

    async def stop(self) -> None:
        await self.hub.remove(self.channel)
        for task in list(self._tasks):
            task.cancel()

    async def play(
        self, holder: str, player_id: int, table_id: str, tile: str, end: str | None,
        seq: int, fields: Mapping[str, Any] | None, charge: Charge | None,
    ) -> Relayed | Unanswered | None:
        """Have `holder` (a process's writer prefix) apply the move; None when it is gone,
        `Unanswered` when it did not answer in time (either way: apply it here). Its
        refusals are raised as they would be here."""
        # The request's name: this process's writer prefix first, so its answer is known here.
        rid = f"{self.store.writer_prefix}.{next(self._ids)}"
        answer: asyncio.Future[PlayedReply] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = answer
        late = False
        request: RelayedPlay = {
            "kind": "play", "rid": rid, "reply_to": self.channel, "player": player_id,
            "table_id": table_id, "tile": tile, "end": end, "seq": seq,
            "fields": dict(fields or {}),  # JSON values: the move's fields as it came
            "charge": None if charge is None else [list(charge.keys), list(charge.args)],
        }
        try:
            heard = await self.store.command("SPUBLISH", self.store.keys.process_channel(holder),
                                             dumps(request))
            if not heard:
                return None  # that process is gone
            reply = await asyncio.wait_for(asyncio.shield(answer), RELAY_SECONDS)
        except TimeoutError:
            late = True
            return Unanswered(rid, answer, table_id)
        finally:
            if not late:
                self._waiting.pop(rid, None)
        if "refused" in reply:
            if charge is not None:
                charge.verdict = Verdict(False, reply["refused"])
            raise Refused(reply["refused"])
        if "error" in reply:
            error = reply["error"]
            raise ServiceError.worded(error["code"], error["message"], error["status"],
                                      error.get("key"), error.get("params"))
        if "version" not in reply:
            return None  # an answer of no use: apply it here, where the CAS decides
        if charge is not None and charge.verdict is None and charge.keys:
            charge.verdict = Verdict(True, 0)  # taken by the move's write, as here
        return Relayed(reply["version"])

    async def applied_late(self, unanswered: Unanswered) -> int | None:
        """The version the holder wrote for a move it did not answer in time, if it applied
        it after all (within another `RELAY_SECONDS`); None if it refused it or is silent.
        Asked when the move, applied here, was found stale: the holder was only slow, and
        the move the mover is waiting for is the holder's change. Its answer, the change's
        announcement, may never come here (this process was resubscribing: a table's slot
        moving to another master, a lost connection): the write's record of the request
        (`LiveStore.answered`) says it all the same."""
        written = await self.store.answered(unanswered.table_id, unanswered.rid)
        if written is not None:
            return written
        try:
            reply = await asyncio.wait_for(asyncio.shield(unanswered.answer), RELAY_SECONDS)
        except TimeoutError:
            return await self.store.answered(unanswered.table_id, unanswered.rid)
        return reply.get("version")

    def forget(self, unanswered: Unanswered) -> None:
        """Stop listening for a late answer."""
        if self._waiting.get(unanswered.rid) is unanswered.answer:
            del self._waiting[unanswered.rid]

    def _answered(self, rid: str, change: Announced) -> None:
        """The change a relayed move made, announced (see `Hub.on_answer`)."""
        answer = self._waiting.get(rid)
        if answer is not None and not answer.done():
            answer.set_result({"kind": "played", "rid": rid, "version": change.version})

    def _on_message(self, message: ProcessNote | Resubscribed) -> None:
        if message["kind"] == "play":
            task = asyncio.create_task(self._apply(message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif message["kind"] == "played":
            answer = self._waiting.get(message["rid"])
            if answer is not None and not answer.done():
                answer.set_result(message)

    async def _apply(self, message: RelayedPlay) -> None:
        """A move another process relayed: applied here as one of this process's own."""
        rid = message["rid"]
        reply: PlayedReply = {"kind": "played", "rid": rid}
        charge = None
        try:
            table_id, seq = message["table_id"], message["seq"]
            if message["charge"] is not None:
                keys, args = message["charge"]
                charge = Charge(cast(list[str], keys), cast(list[float], args))
            known = self.feed.latest(table_id)
            if known is not None and known.version != seq:
                known = None
            change = await settled(moves.play(
                self.store, message["player"], table_id, message["tile"], message["end"],
                seq, None if known is None else known.table,
                None if known is None else known.take_game(), message["fields"], charge,
                answers=rid), self.finisher)
            if change.published:
                return  # its announcement answers the relaying process
            reply["version"] = change.version
        except Refused as refusal:
            reply["refused"] = refusal.retry_ms
        except ServiceError as error:
            reply["error"] = {"code": error.code, "message": error.message,
                              "status": error.status, "key": error.key,
                              "params": dict(error.params)}
        except Exception as error:
            # Not answered: the relaying process applies the move itself after its wait.
            log.warning("a relayed move failed here: %r", error)
            return
        try:
            await self.store.command("SPUBLISH", message["reply_to"], dumps(reply))
        except Exception as error:
            log.warning("could not answer a relayed move: %r", error)
