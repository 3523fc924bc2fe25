"""A courtyard's waiting player whose last socket has closed leaves its queue once he has
been away longer than the table's `turn_seconds` (PROTOCOL §2d).

When a player's last socket closes (on any process), each courtyard table he waits at (or
is about to sit at: the next game's four) gets an entry in one sorted set shared by every
process, due `turn_seconds` later; a later close pushes it back. Every process sweeps it:
the claim script hands each due entry to one of them, which drops him from the queue by
compare-and-set unless he has a socket again by then. A claimer that dies leaves the entry
to come back after its lease.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from app.live.scripts import register
from app.live.store import LiveStore
from app.live.tasks import stop_task
from app.services.sweeps import sweep_every
from app.services.tables import seated
from app.services.tables.caps import SOCKETS, PlayerCaps
from app.services.tables.courtyard import Teller, queue_out, tell_rotated
from app.services.tables.events import QueueEvent
from app.services.tables.lobby import departure
from app.services.tables.table import Remove, Step, Table
from app.services.tables.transact import Command, ServiceError, now_ms, transact

log = logging.getLogger(__name__)

SWEEP_SECONDS = 1.0
CLAIM_LEASE_MS = 10_000


def absent(player_id: int) -> Command:
    """`player_id`, away too long, leaves a courtyard table: its queue, or his place among
    the next four; seated at its game, he plays it out (his clock runs) and then neither
    stays nor waits, as if he had left it; seated at it while it waits for players (a seat
    nobody came for), his seat is freed, and a table left empty goes."""

    def apply(table: Table) -> Step | Remove | None:
        yard = table.courtyard
        if yard is None or not table.holds(player_id):
            return None
        waiting = [*yard.queue, *(yard.next or ())]
        person = next((w for w in waiting if w is not None and w.id == player_id), None)
        if person is not None:
            return queue_out(person)(table)
        seat = table.seat_of(player_id)
        if seat is None:
            return None
        who = table.seats[seat]
        assert who is not None
        if table.status == "waiting":  # his seat is freed (the last one's table goes)
            return departure(who)(table)
        if table.status != "playing":
            return None
        event: QueueEvent = {"type": "queue", "round": int((table.game or {}).get("round", 0)),
                             "player": who.name, "joined": False, "position": None}
        return Step(replace(table, courtyard=replace(yard, gone=(*yard.gone, player_id))),
                    [event], clock="keep")

    return apply


class QueueAbsence:
    def __init__(self, store: LiveStore, caps: PlayerCaps, notices: Teller) -> None:
        self.store = store
        self.caps = caps
        self.notices = notices  # who takes a place given up among the next four is told
        self._claim = register(store.redis, "claim")
        self._task: asyncio.Task[None] | None = None

    @property
    def _away(self) -> str:
        return self.store.keys.courtyard_away

    async def _online(self, player_id: int) -> bool:
        return bool(await self.caps.caps.held(SOCKETS, player_id, now_ms()))

    async def socket_closed(self, player_id: int) -> None:
        """A socket of `player_id` closed: if it was his last, his places at courtyard
        tables (seated or waiting) are his for `turn_seconds` more."""
        if await self._online(player_id):
            return
        now = now_ms()
        for table in await seated.tables_of(self.store, player_id):
            yard = table.courtyard
            if yard is not None:
                await self.store.command("ZADD", self._away, now + table.turn_seconds * 1000,
                                         f"{table.id}:{player_id}")

    async def sweep(self) -> int:
        """Drop the waiting players whose time away is up; returns how many were dropped."""
        now = now_ms()
        dropped = 0
        for raw in await self._claim(keys=[self._away], args=[now, now + CLAIM_LEASE_MS, 100]):
            member = raw.decode() if isinstance(raw, bytes) else str(raw)
            table_id, player = member.rsplit(":", 1)
            if not await self._online(int(player)):
                try:
                    change = await transact(self.store, table_id, absent(int(player)))
                except ServiceError as error:
                    if error.code != "not_found":
                        continue  # busy: it comes back after the lease
                    change = None
                await tell_rotated(self.notices, change)
                if change is not None and change.written:
                    dropped += 1
                    log.info("player %s left the queue of %s: away too long", player, table_id)
            await self.store.command("ZREM", self._away, member)
        return dropped

    def start(self) -> None:
        self._task = asyncio.create_task(self._sweep(), name="courtyard-absence")

    async def stop(self) -> None:
        await stop_task(self._task)

    async def _sweep(self) -> None:
        await sweep_every(SWEEP_SECONDS, self.sweep, "the courtyard queues' sweep")
