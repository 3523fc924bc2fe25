"""Runs the tournaments: starts them at their time, credits each finished game's points,
pairs the next Swiss round or the waiting arena players, and ends them.

One process at a time does it: every process tries to take a lease in the store at each
tick, and only its holder works, so two processes never pair a player twice. All it
knows is in the database, written before any table is made: a table row is stored, then
the live table; a table row with no live table, no snapshot and no written game (a crash
in between) is made again under the same id. So a restart of every process loses no
tournament, no point and no pairing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from redis.exceptions import RedisError

from app import metrics
from app.db import games, people, players, tournaments
from app.db.models import Tournament, TournamentPlayer, TournamentTable
from app.db.session import Database
from app.domain.arena import Waiting, pair_waiting
from app.domain.points import game_points
from app.domain.swiss import Entrant, pair_round
from app.engine import variant_class
from app.live.keys import new_table_id
from app.live.leases import Lease
from app.live.store import LiveStore
from app.live.tasks import stop_task
from app.services.durable.recovery import Recovery
from app.services.fanout.notices import PlayerNotices
from app.services.fanout.tournament_feed import TournamentFeed
from app.services.gathering.seating import seat_and_start, start_seated
from app.services.gathering.tournaments import describe_in, epoch_ms
from app.services.gathering.tournaments import start as start_tournament
from app.services.tables.caps import RatedGameAlready, RatedSeats
from app.services.tables.fairness import ABORTED
from app.services.tables.lobby import TableExists, Terms
from app.services.tables.table import Person
from app.services.tables.transact import ServiceError, load

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
LEASE_MS = 5_000


def _now() -> datetime:
    return datetime.now(UTC)


def points_of(variant: str, result: dict[str, Any]) -> list[float]:
    """The tournament points of a finished game's result (PROTOCOL §2b): none for anyone
    in a game aborted before every seat had moved (PROTOCOL §2g)."""
    if result.get("unrated_reason") == ABORTED:
        return [0.0] * len(result["final"])
    return game_points(result["final"], variant_class(variant).wins, result["reason"],
                       result.get("losers") or [])


class Director:
    def __init__(self, store: LiveStore, db: Database, notices: PlayerNotices,
                 feed: TournamentFeed, recovery: Recovery, process_id: str,
                 every: float = TICK_SECONDS) -> None:
        self.store = store
        self.db = db
        self.notices = notices
        self.feed = feed
        self.recovery = recovery
        self.every = every
        self.lease = Lease(store.redis, f"{store.keys.prefix}:lease:tournaments", process_id)
        self.rated = RatedSeats(store)
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        # Tournaments changed by this director whose update is still to be published.
        self._untold: set[str] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tournament-director")

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(RedisError, OSError):
            await self.lease.give_up()

    def kick(self) -> None:
        """Look at the tournaments now rather than at the next tick (one just started)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)
            self._wake.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not metrics.count_error(error):
                    log.exception("the tournament tick failed; trying again")

    async def tick(self) -> None:
        if await self.lease.take(LEASE_MS):
            await self._direct()
        # Told even after the lease went to another process: an update is anyone's to send.
        await self._tell()

    async def _direct(self) -> None:
        now = _now()
        # This live store's tournaments (and those made before tournaments named one).
        ours = self.store.keys.prefix
        async with self.db.session() as session:
            due = await tournaments.ids_of_store(session, ours, "waiting", starts_by=now)
            running = await tournaments.ids_of_store(session, ours, "running")
        for tournament_id in due:
            with contextlib.suppress(ServiceError):  # started by its creator meanwhile
                # Started, or cancelled for too few players: either way told, and due no
                # more (a tournament short of players is not tried again at every tick).
                if await start_tournament(self.db, None, tournament_id):
                    running.append(tournament_id)
                self._untold.add(tournament_id)
        for tournament_id in running:
            # One tournament's trouble (logged, tried again next tick) holds up no other.
            try:
                if await self.advance(tournament_id):
                    self._untold.add(tournament_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not metrics.count_error(error):
                    log.exception("tournament %s: its tick failed", tournament_id)

    async def _tell(self) -> None:
        """Publish each tournament changed here and not yet told (its followers' update);
        one that fails is told at the next tick, so a finished tournament's last update
        is not lost to a moment's trouble with the database or Redis."""
        for tournament_id in list(self._untold):
            try:
                await self.feed.changed(tournament_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not metrics.count_error(error):
                    log.exception("tournament %s: its update was not published", tournament_id)
                continue
            self._untold.discard(tournament_id)

    # -- one tournament ------------------------------------------------------------------

    async def advance(self, tournament_id: str) -> bool:
        """Credit finished games, pair whoever is due, end it when it is over; True when
        anything changed."""
        changed = False
        async with self.db.session() as session:
            row = await tournaments.get(session, tournament_id)
            if row is None or row.status != "running":
                return False
            playing = await tournaments.tables(session, tournament_id, playing=True)
        # A pairing is a step: tables made, started, players told. Whoever directs now
        # finishes any step its maker did not (it died or stalled in between).
        untold = await self.notices.untold([t.table_id for t in playing])
        for table in playing:
            if table.table_id in untold:
                await self._finish_pairing(row, table)
        for table in playing:
            points = await self._outcome(row, table)
            if points is not None:
                await self._credit(tournament_id, table.table_id, points)
                changed = True
        if row.format == "swiss":
            changed = await self._swiss(row) or changed
        else:
            changed = await self._arena(row) or changed
        return changed

    async def _outcome(self, row: Tournament, table: TournamentTable) -> list[float] | None:
        """The points of the table's game once its record is written; None while it is
        played or being written (a table that was never made, or lost with no way back, is
        made again).

        The points are read from the written record, never from the live table: a table
        credited is one whose game anyone can open (GET /api/games), and the points are
        the very result stored there."""
        current = await load(self.store, table.table_id)
        if current is not None and current.status != "finished":
            return None
        async with self.db.session() as session:
            record = await games.record_of_table(session, table.table_id)
        if record is not None and isinstance(record.get("result"), dict):
            return points_of(row.variant, record["result"])
        if current is not None:
            return None  # over, and its record is being written (app/services/finish.py)
        if await self.recovery.restore(table.table_id):
            return None
        log.warning("tournament table %s was lost before it began; making it again",
                    table.table_id)
        await self._make_table(row, table.table_id, table.seats)
        return None

    async def _credit(self, tournament_id: str, table_id: str, points: list[float]) -> None:
        """The game's points, once: the table row turns finished in the same transaction."""
        async with self.db.writing() as session:
            seats = await tournaments.table_finished(session, table_id, points, _now())
            if seats is None:
                return
            for player_id, scored in zip(seats, points, strict=True):
                await tournaments.add_points(session, tournament_id, player_id, scored,
                                             games=1)

    async def _read(self, tournament_id: str
                    ) -> tuple[list[TournamentTable], list[TournamentPlayer]]:
        """The tournament's tables and players."""
        async with self.db.session() as session:
            return (await tournaments.tables(session, tournament_id),
                    await tournaments.members(session, tournament_id))

    async def _swiss(self, row: Tournament) -> bool:
        tables, members = await self._read(row.id)
        if any(t.status == "playing" for t in tables):
            return False
        active = [m for m in members if not m.withdrawn]
        done = row.round or 0
        if done >= (row.rounds or 0) or len(active) < row.seats:
            return await self._finish(row.id)
        met: dict[int, set[int]] = {}
        for t in tables:
            for p in t.seats:
                met.setdefault(p, set()).update(q for q in t.seats if q != p)
        # A large Swiss's search may take a tenth of a second: off the event loop.
        pairing = await asyncio.to_thread(
            pair_round, [Entrant(m.player_id, m.points, m.rating, m.byes) for m in active],
            row.seats, {p: frozenset(q) for p, q in met.items()})
        bye = (row.seats - 1) / 2
        made = [(new_table_id(), seats) for seats in pairing.tables]
        async with self.db.writing() as session:
            if not await tournaments.next_round(session, row):
                return False
            tournaments.add_tables(session, row.id, made, done + 1)
            for player_id in pairing.byes:
                await tournaments.add_points(session, row.id, player_id, bye, byes=1)
        await self._seat(row, made)
        log.info("tournament %s: round %d paired, %d tables, %d byes", row.id, done + 1,
                 len(made), len(pairing.byes))
        return True

    async def _arena(self, row: Tournament) -> bool:
        now = _now()
        tables, members = await self._read(row.id)
        if (epoch_ms(now) or 0) >= (epoch_ms(row.ends_at) or 0):
            if any(t.status == "playing" for t in tables):
                return False
            return await self._finish(row.id)
        busy = {p for t in tables if t.status == "playing" for p in t.seats}
        free_since: dict[int, int] = {}
        last: dict[int, frozenset[int]] = {}
        for t in sorted((t for t in tables if t.finished_at is not None),
                        key=lambda t: epoch_ms(t.finished_at) or 0):
            for p in t.seats:
                free_since[p] = max(free_since.get(p, 0), epoch_ms(t.finished_at) or 0)
                last[p] = frozenset(q for q in t.seats if q != p)
        free = [m for m in members if not m.withdrawn and m.player_id not in busy]
        if row.rated:  # one rated game at a time: who plays one elsewhere waits here
            busy |= await self.rated.busy([m.player_id for m in free])
        started = epoch_ms(row.started_at) or 0
        waiting = [
            Waiting(m.player_id, m.points, m.rating, free_since.get(m.player_id, started))
            for m in free if m.player_id not in busy
        ]
        async with self.db.session() as session:  # players who block one another
            apart = await people.pairs_apart(session, [w.id for w in waiting])
        # a team battle: each plays for his club, and club-mates meet only when no one
        # else waits (PROTOCOL §2e)
        clubs = {m.player_id: m.club_id for m in free if m.club_id is not None} \
            if row.battle_leaders is not None else None
        # Hundreds waiting at once (an arena's start) may take a tenth of a second or more
        # where the clubs cannot all be parted: off the event loop, as a Swiss round is.
        groups = await asyncio.to_thread(pair_waiting, waiting, row.seats, last, apart, clubs)
        if not groups:
            return False
        made = [(new_table_id(), seats) for seats in groups]
        async with self.db.writing() as session:
            # The lease keeps one director at work, but a holder stalled past it may still
            # be pairing when the next one starts: the tournament's row, locked, orders them,
            # and a pairing with a player seated or withdrawn meanwhile is dropped.
            locked = await tournaments.get(session, row.id, lock=True)
            if locked is None or locked.status != "running":
                return False  # cancelled meanwhile: it pairs no more
            paired = {p for _, seats in made for p in seats}
            if paired & (await tournaments.seated(session, row.id)
                         | await tournaments.withdrawn(session, row.id)):
                return False
            tournaments.add_tables(session, row.id, made, None)
        await self._seat(row, made)
        return True

    async def _seat(self, row: Tournament, made: list[tuple[str, list[int]]]) -> None:
        """Make the paired tables at once (not one after another: the last of a large
        round would start late) and tell their players."""
        async with self.db.session() as session:
            names = await players.names(session, (p for _, seats in made for p in seats))
        await asyncio.gather(*(self._make_table(row, table_id, seats, names)
                               for table_id, seats in made))

    async def _make_table(self, row: Tournament, table_id: str, seats: list[int],
                          names: dict[int, str] | None = None) -> None:
        if names is None:
            async with self.db.session() as session:
                names = await players.names(session, seats)
        # Which tournament a table belongs to is the database's table row, not the table.
        try:
            await seat_and_start(
                self.store, [Person(p, names[p]) for p in seats],
                # a timeout at a tournament's table always ends its game (PROTOCOL §2g)
                Terms(row.variant, len(seats), row.options, row.turn_seconds, row.rated,
                      on_timeout="end", round_pause_seconds=row.round_pause_seconds,
                      private=row.private, reserve_seconds=row.reserve_seconds),
                table_id=table_id)
        except TableExists:
            # Made already, by another director: one that found the table's row before its
            # maker had written it took it for lost and made it too. The store's write at
            # version 0 let one of them through; the step is finished all the same.
            log.info("tournament table %s was made by another director", table_id)
            await start_seated(self.store, table_id)
        except RatedGameAlready as busy:
            # Seated at another rated table since he was paired: this one is made when
            # that game is over (its row has no live table: made again at a later tick).
            log.info("tournament table %s waits: player %d plays a rated game elsewhere",
                     table_id, busy.player_id)
            return
        await self._tell_pairing(row, table_id, seats)

    async def _tell_pairing(self, row: Tournament, table_id: str, seats: list[int]) -> None:
        await self.notices.tell(seats, {"type": "tournament.pairing", "tournament_id": row.id,
                                        "table_id": table_id}, step=table_id)

    async def _finish_pairing(self, row: Tournament, table: TournamentTable) -> None:
        """The rest of a pairing step its maker left undone: a table written but not
        started is started, and its players are told (a table never written is made again
        by `_outcome`)."""
        current = await load(self.store, table.table_id)
        if current is None or current.status == "finished":
            return  # to be made again, or over: nobody is to go there now
        if current.status == "waiting":
            log.warning("tournament table %s was made but not started; starting it",
                        table.table_id)
            await start_seated(self.store, table.table_id)
        await self._tell_pairing(row, table.table_id, table.seats)

    async def _finish(self, tournament_id: str) -> bool:
        async with self.db.writing() as session:
            # Its winner is kept with it, so a list of tournaments names him unread.
            described = await describe_in(session, tournament_id)
            first = next((p["id"] for p in described["players"] if p["place"] == 1), None)
            done = await tournaments.finish(session, tournament_id, _now(), first)
        if done:
            log.info("tournament %s finished", tournament_id)
            return True
        return False
