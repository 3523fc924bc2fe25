"""Tables over HTTP (PROTOCOL §1): create, list, read, join, leave."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response, status
from pydantic import BaseModel, Field

from app.api.i18n import Refusal
from app.api.packed import gzipped_json
from app.api.ratelimit import LimitedPlayer
from app.api.schemas import STRICT, Detail
from app.services.accounts.credentials import PlayerRef
from app.services.play import bot_turns
from app.services.runtime import LiveTables
from app.services.tables import courtyard, lobby
from app.services.tables.settle import settled
from app.services.tables.table import Person
from app.services.tables.transact import ServiceError, public_table
from app.wire.answers import Left, Seated, SeatedBot
from app.wire.courtyard import Queued
from app.wire.messages import RematchOffer, TableInfo

router = APIRouter(prefix="/api/tables", tags=["tables"])


async def get_live(request: Request) -> LiveTables:
    live: LiveTables = request.app.state.live
    return live


LiveDep = Annotated[LiveTables, Depends(get_live)]


class TableCreate(BaseModel):
    model_config = STRICT
    variant: str
    seats: int = 4
    options: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: int = Field(30, ge=5, le=300)
    round_pause_seconds: int = Field(lobby.DEFAULT_ROUND_PAUSE, ge=0, le=30)
    rated: bool = True
    # PROTOCOL §2g: each player's reserve for the game; what a person's timeout does
    # (casual tables only may say "computer", their default; rated tables always "end")
    reserve_seconds: int = Field(lobby.DEFAULT_RESERVE, ge=0, le=lobby.MAX_RESERVE)
    on_timeout: Literal["end", "computer"] | None = None
    # PROTOCOL §2b: kept out of the lobby, reached by its link
    private: bool = False
    # PROTOCOL §2d: a courtyard table, where 2 or 4 more wait their turn
    courtyard: bool = False
    waiting_max: Literal[2, 4] = 2


class JoinRequest(BaseModel):
    model_config = STRICT
    seat: int | None = None


class BotRequest(BaseModel):
    model_config = STRICT
    strength: Literal["random", "heuristic", "strong"] = "heuristic"
    seat: int | None = None


@contextmanager
def _refusals() -> Iterator[None]:
    try:
        yield
    except ServiceError as error:
        raise Refusal.of(error) from error


def _failures(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the PROTOCOL §1 failures of a route (all `{"detail"}`)."""
    return {code: {"model": Detail} for code in (*codes, 503)}


@router.post("", status_code=status.HTTP_201_CREATED, responses=_failures(401),
             response_model=None)
async def create_table(body: TableCreate, player: LimitedPlayer, live: LiveDep) -> TableInfo:
    return await open_table(body, player, live)


async def open_table(body: TableCreate, player: PlayerRef, live: LiveTables) -> TableInfo:
    """A table made as `POST /api/tables` makes it (its caps too), by `player` in seat 0:
    also a challenge's, when it is accepted."""
    with _refusals():
        terms = lobby.Terms(
            variant=body.variant,
            seats=body.seats,
            options=body.options,
            turn_seconds=body.turn_seconds,
            rated=body.rated,
            on_timeout=body.on_timeout,
            reserve_seconds=body.reserve_seconds,
            bot_pace_ms=live.bot_pace_ms,
            round_pause_seconds=body.round_pause_seconds,
            private=body.private,
            waiting_max=body.waiting_max if body.courtyard else None,
        )
        made = await lobby.create_table(live.store, player, terms,
                                        admit=live.caps.admit_table(player.id, body.rated))
    if not body.private:
        await live.friends.tell_friends(player.id, player.name)
    return made


@router.get("", response_model=None)
async def list_tables(live: LiveDep) -> list[TableInfo]:
    with _refusals():
        return await lobby.list_tables(live.store)


@router.get("/{table_id}", responses=_failures(404), response_model=None)
async def get_table(table_id: str, live: LiveDep) -> TableInfo:
    with _refusals():
        return await live.feed.restoring(table_id, lambda: lobby.get_table(live.store, table_id))


@router.get("/{table_id}/log", responses=_failures(404), response_model=None)
async def table_log(table_id: str, live: LiveDep, request: Request) -> Response:
    """The events of the table's current game from its start, as its sockets were sent
    them (`TableLog`): the log of a spectator who arrives mid-game, or of a player in a
    new tab. Replayed once a version of the table, for every process."""
    async def read() -> bytes:
        found = await live.logs.gzipped(table_id)
        if found is None:
            raise ServiceError("not_found", "no_table", 404, table=table_id)
        return found

    with _refusals():
        return gzipped_json(request, await live.feed.restoring(table_id, read))


@router.post("/{table_id}/join", responses=_failures(401, 404, 409), response_model=None)
async def join_table(
    table_id: str, player: LimitedPlayer, live: LiveDep, body: JoinRequest | None = None
) -> Seated:
    return {"seat": await seat_player(table_id, player, live, None if body is None else body.seat)}


async def seat_player(table_id: str, player: PlayerRef, live: LiveTables,
                      seat: int | None = None) -> int:
    """Seat `player` as `POST /api/tables/{id}/join` does: never beside a player who blocks
    him or whom he blocks (403, PROTOCOL §2c)."""
    with _refusals():
        apart = await live.blocks.apart_from_all(player.id)
        seated, _change = await live.feed.restoring(table_id, lambda: lobby.join(
            live.store, player, table_id, seat, apart=apart))
        await live.friends.tell_friends(player.id, player.name)
    return seated


@router.post("/{table_id}/leave", responses=_failures(401, 404, 409), response_model=None)
async def leave_table(table_id: str, player: LimitedPlayer, live: LiveDep) -> Left:
    with _refusals():
        change = await settled(lobby.leave(live.store, player, table_id), live.finisher)
        await courtyard.tell_rotated(live.notices, change)
    return {"left": True, "table": None if change is None else public_table(change.table)}


@router.post("/{table_id}/rematch", responses=_failures(401, 404, 409), response_model=None)
async def rematch(table_id: str, player: LimitedPlayer, live: LiveDep) -> RematchOffer:
    """Offer to play again at a finished table (PROTOCOL §2a)."""
    with _refusals():
        offer = await lobby.rematch(live.store, player, table_id)
    return {"offers": offer["offers"], "new_table_id": offer["new_table_id"]}


@router.post("/{table_id}/bots", responses=_failures(401, 404, 409), response_model=None)
async def add_bot(
    table_id: str, body: BotRequest, player: LimitedPlayer, live: LiveDep
) -> SeatedBot:
    """Seat a computer player of the given strength at a waiting table you sit at."""
    with _refusals():
        seat, change = await bot_turns.add_bot(
            live.store, player.id, table_id, body.strength, body.seat
        )
    return {"seat": seat, "table": public_table(change.table)}


@router.post("/{table_id}/queue", responses=_failures(401, 403, 404, 409), response_model=None)
async def join_queue(table_id: str, player: LimitedPlayer, live: LiveDep) -> Queued:
    """Wait for a turn at a courtyard table (PROTOCOL §2d): the place taken (1: first)."""
    with _refusals():
        apart = await live.blocks.apart_from_all(player.id)
        position, change = await live.feed.restoring(table_id, lambda: courtyard.join_queue(
            live.store, Person(player.id, player.name), table_id, apart=apart))
        await courtyard.tell_rotated(live.notices, change)
        await live.friends.tell_friends(player.id, player.name)
    return {"position": position}


@router.delete("/{table_id}/queue", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 404, 409), response_model=None)
async def leave_queue(table_id: str, player: LimitedPlayer, live: LiveDep) -> None:
    """Leave a courtyard table's queue (or one's place among its next four)."""
    with _refusals():
        change = await live.feed.restoring(table_id, lambda: courtyard.leave_queue(
            live.store, Person(player.id, player.name), table_id))
        await courtyard.tell_rotated(live.notices, change)
