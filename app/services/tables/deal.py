"""What a game starts from, and a table's game begun from it (at a table whose every seat
is taken: by its last join, a rematch, a pairing, or a courtyard's next game)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace

from app.engine import new_seed, start_game
from app.services.tables.table import Step, Table
from app.services.tables.transact import now_ms


@dataclass(frozen=True, slots=True)
class Deal:
    """What a game starts from: a fresh secret seed (only its commitment is shown, in the
    start event and every view, until the game ends), the game's id, and the time."""

    seed: bytes
    game_id: str
    now: int

    @classmethod
    def fresh(cls) -> Deal:
        return cls(new_seed(), uuid.uuid4().hex, now_ms())


def begin(table: Table, deal: Deal) -> Step:
    """The game of a table whose every seat is taken, dealt from `deal`."""
    game, started = start_game(table.variant, table.players, table.options, deal.seed,
                               clock=now_ms)
    # Every reserve whole, and nobody has moved yet (a rematch starts afresh too); a
    # courtyard counts its games (PROTOCOL §2d).
    yard = table.courtyard
    if yard is not None:
        table = replace(table, courtyard=replace(yard, games=yard.games + 1))
    return Step(replace(table, game_id=deal.game_id, started_at=deal.now, reserve_ms=None,
                        moved=(), stand_ins=()), started, game)
