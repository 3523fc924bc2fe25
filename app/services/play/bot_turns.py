"""Computer players at live tables: seating them, and making them move.

A bot moves through the very path a person's move takes (`moves.play`, with the bot's seat
id and the version it saw), chosen from the very view the server would send its seat
(`build_view`), so it can neither see more than a person nor do what a person could not.

Nothing about a bot lives in a process. Whenever a change leaves a bot on turn, the write
puts the table in the store's deadline set at the moment the bot should move (the pace,
see seats.wake_at); every process's clock claims due tables there, and a claim is a lease:
if the process that claimed a bot's turn dies while the bot thinks, the turn comes back to
the set when the lease runs out and another process (or the restarted one) plays it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor

from app.bots import STRENGTHS, SeatView, player_for
from app.live.store import LiveStore
from app.services.durable.finish import Finisher
from app.services.play import moves
from app.services.tables import lobby
from app.services.tables.bot_seats import bot_entry, bot_on_turn
from app.services.tables.settle import settled
from app.services.tables.table import Person, Table
from app.services.tables.transact import Change, ServiceError, build_view, game_of, load
from app.wire.messages import View

log = logging.getLogger(__name__)

THINKERS = 2


async def add_bot(
    store: LiveStore,
    requester_id: int,
    table_id: str,
    strength: str,
    seat: int | None,
) -> tuple[int, Change]:
    """Seat a bot of `strength` at a waiting table, for a player seated there."""
    if strength not in STRENGTHS:
        raise ServiceError(
            "bad_request", "unknown_strength", 422, strength=strength, choices=", ".join(STRENGTHS)
        )

    def check(table: Table) -> None:
        if table.seat_of(requester_id) is None:
            raise ServiceError("not_seated", "bots_by_seated", 409)
        if table.rated:  # see app.services.tables.fairness
            raise ServiceError("bad_request", "rated_people_only", 409)
        if table.courtyard is not None:  # people take turns there (PROTOCOL §2d)
            raise ServiceError("bad_request", "courtyard_people_only", 409)

    return await lobby.take_seat(
        store,
        table_id,
        lambda chosen: bot_entry(strength, chosen),
        seat,
        check=check,
    )


class BotTurns:
    """Plays the bots' turns that this process's clock claims."""

    def __init__(self, store: LiveStore, finisher: Finisher, think_seconds: float) -> None:
        self.store = store
        self.finisher = finisher
        self.think_seconds = think_seconds
        # Bots think on their own small pool of threads: however many bots are on turn,
        # at most this many search at once, and the event loop keeps serving sockets.
        self._thinkers = ThreadPoolExecutor(max_workers=THINKERS, thread_name_prefix="bot")
        self._tasks: set[asyncio.Task[None]] = set()
        # Tables whose bot is thinking here: a claim that comes back before the bot has
        # moved (its lease ran out) does not start a second search for the same turn.
        self._thinking: set[str] = set()

    async def due(self, table_id: str) -> Change | None:
        """The clock's call for a table whose wake-up time has come: a bot's turn is played
        in the background (so one bot's thinking never holds up another table's clock);
        anything else is a person's deadline (moves.expire)."""
        table = await load(self.store, table_id)
        if table is not None and table.status == "playing":
            game = game_of(table)
            who = bot_on_turn(table, game)
            # (At the end of a pause between rounds, moves.expire starts the round first.)
            if who is not None and game is not None and not table.next_round_at:
                if table_id not in self._thinking:
                    self._thinking.add(table_id)
                    view = build_view(table, game, game.turn, set())
                    task = asyncio.create_task(self.move(table_id, table.version, who, view))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                    task.add_done_callback(lambda _: self._thinking.discard(table_id))
                return None
        return await moves.expire(self.store, table_id)

    async def move(
        self, table_id: str, version: int, who: Person, view: View
    ) -> None:
        try:
            assert who.bot is not None
            player = player_for(who.bot, self.think_seconds)
            move = await asyncio.get_running_loop().run_in_executor(
                self._thinkers, player.choose, SeatView.of(view), random.Random()
            )
            await settled(moves.play(
                self.store, who.id, table_id, move.tile, move.end, version,
                fields=move.extra,
            ), self.finisher)
        except ServiceError as error:
            # The table changed while the bot thought (a resignation, say): that change
            # already set the clock for whatever comes next.
            log.info("bot at table %s did not move: %s", table_id, error.message)
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            # The claim's lease brings the turn back to the clock: another try later.
            log.exception("bot at table %s failed to move", table_id)
            return

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._thinkers.shutdown(wait=False, cancel_futures=True)
