"""The whole log of a table's current game, for whoever arrives after it began.

The live state keeps only its last changes' events (`tables.LOG_LENGTH`), enough for a
socket that missed a few. A spectator who arrives mid-game, or a player who reloads in a
new tab, gets the game from its start instead: the engine replays the game's moves and
gives back the events each one caused. Those are the events every socket was sent as the
game went (nothing of the hands or the bazaar before a round's end shows them); the deals
and the seed used for the replay never leave this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import game_from_dict, replay_events
from app.engine.events import Event
from app.live.store import LiveStore
from app.services.tables.transact import full_game_dict, load, public_table
from app.wire.answers import TableLog


@dataclass(frozen=True)
class GameLog:
    """The events of the current game up to the table's version `version`."""

    table_id: str
    version: int
    game_id: str | None
    events: list[Event]

    def to_dict(self) -> TableLog:
        return {"table_id": self.table_id, "version": self.version, "game_id": self.game_id,
                "events": self.events}


async def game_log(store: LiveStore, table_id: str) -> GameLog | None:
    """The table's current game from its start (None: no such table)."""
    current = await load(store, table_id)
    if current is None:
        return None
    if current.game is None:
        return GameLog(table_id, current.version, current.game_id, [])
    game = game_from_dict(await full_game_dict(store, table_id, current.game))
    players = [seat["player"] or "" for seat in public_table(current)["seats"]]
    events = replay_events(game.record(players))
    return GameLog(table_id, current.version, current.game_id, events)
