"""A player's move applied wherever its table is held: here, or by the process that holds
it (app.services.play.relay), with the late answer of a slow holder reconciled.

The gateway hands over the move as the client sent it and gets back what to answer with:
the table as the move left it, when it was applied here, or the version the holder wrote
(its announcement reaches this process like any other change). A refusal is raised as a
`ServiceError` (or `Refused`, for the rate limits taken by the move's write), in PROTOCOL
§2's order whichever process checked it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app import metrics
from app.live.ratelimit import Charge
from app.live.store import LiveStore
from app.services.fanout.feed import Feed, Snapshot
from app.services.play import moves
from app.services.play.relay import Relay, Relayed, Unanswered
from app.services.tables.settle import ResultsWriter, settled
from app.services.tables.transact import ServiceError


@dataclass(frozen=True, slots=True)
class Moved:
    """A move that was applied: at `version`; `snapshot`, the table as its change left it,
    when this process made the change (None: the holder made it, and its announcement is
    the state to answer with)."""

    version: int
    snapshot: Snapshot | None = None


class Route:
    def __init__(self, store: LiveStore, feed: Feed, relay: Relay,
                 results: ResultsWriter) -> None:
        self.store = store
        self.feed = feed
        self.relay = relay
        self.results = results

    async def play(
        self, player_id: int, table_id: str, tile: str, end: str | None, seq: int,
        fields: Mapping[str, Any] | None, charge: Charge | None,
    ) -> Moved:
        """Apply the move chosen at `seq`: relayed to the table's holder when this process
        serves the table at `seq` but another made that version (unless every seat's socket
        is here: then this process takes the table over); applied here otherwise, and when
        the holder is gone or does not answer in time (the compare-and-set keeps it from
        being applied twice). A holder that was only slow may have applied it first: its
        change is then the move's, not a `stale` refusal of a move that was made."""
        started = time.perf_counter()
        known = self.feed.latest(table_id)
        if known is not None and known.version != seq:
            known = None  # play reads the table: the move is stale, or this is behind
        unanswered: Unanswered | None = None
        if known is not None and known.holder is not None \
                and not self.feed.seats_all_here(table_id):
            done = await self.relay.play(known.holder, player_id, table_id, tile, end, seq,
                                         fields, charge)
            if isinstance(done, Relayed):
                metrics.moves.inc()
                metrics.moves_relayed.inc()
                metrics.move_seconds.observe(time.perf_counter() - started)
                return Moved(done.version)
            unanswered = done
        try:
            change = await settled(moves.play(
                self.store, player_id, table_id, tile, end, seq,
                None if known is None else known.table,
                None if known is None else known.take_game(), fields, charge,
            ), self.results)
            moved = Moved(change.version, self.feed.deliver(change.table, change.game))
        except ServiceError as error:
            # Stale here, because the holder was only slow and applied it first: its
            # change answers the move.
            if unanswered is None or error.code != "stale":
                raise
            version = await self.relay.applied_late(unanswered)
            if version is None:
                raise
            moved = Moved(version)
            metrics.moves_relayed.inc()
        finally:
            if unanswered is not None:
                self.relay.forget(unanswered)
        metrics.moves.inc()
        metrics.move_seconds.observe(time.perf_counter() - started)
        return moved

    async def resign(self, player_id: int, table_id: str) -> Snapshot:
        """Leave a running game (`moves.resign`); the table as the resignation left it."""
        change = await settled(moves.resign(self.store, player_id, table_id), self.results)
        return self.feed.deliver(change.table, change.game)

    async def reclaim(self, player_id: int, table_id: str) -> Snapshot:
        """Take back a seat a computer player holds (`moves.reclaim`); the table as it is
        after the ask."""
        change = await settled(moves.reclaim(self.store, player_id, table_id), self.results)
        return self.feed.deliver(change.table, change.game)
