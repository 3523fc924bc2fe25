"""Finding a player by any spelling of his name, and what others may see of him now:
whether he is online, and the table (never a private one) he sits at."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import players
from app.db.players import Known
from app.db.text import storable
from app.domain import names
from app.live.store import LiveStore
from app.services.errors import ServiceError
from app.services.tables import seated
from app.services.tables.caps import SOCKETS, PlayerCaps
from app.services.tables.transact import now_ms


async def find(session: AsyncSession, name: str) -> Known:
    """The player named `name` (any case or normal form); 404 if there is none."""
    found = await players.find(session, names.key(name)) if storable(name) else None
    if found is None:
        raise ServiceError("not_found", "no_player", 404)
    return found


async def sockets_of(caps: PlayerCaps, player_id: int) -> int:
    """How many sockets the player has open, on every process."""
    return len(await caps.caps.held(SOCKETS, player_id, now_ms()))


async def online(caps: PlayerCaps, player_id: int) -> bool:
    return await sockets_of(caps, player_id) > 0


async def public_table(store: LiveStore, player_id: int) -> str | None:
    """The newest table the player sits at that is not private."""
    for table in await seated.tables_of(store, player_id):
        if not table.private:
            return table.id
    return None
