"""The turn clock of a running game: each player's reserve, and when the player on turn
times out (RULES 1.10, PROTOCOL §2g).

A player on turn has `turn_seconds`, then what is left of his reserve; his deadline counts
both (`turn_deadline`). Nothing runs in a process: when a change ends a turn, the time it
took comes off the reserve of whoever was on turn (`spent`), read from the deadline the
change replaces, so every process and a restart agree to the millisecond. A turn is only
ever charged once (the compare-and-set lets one change through), and never for time the
store was away (a change that restarts the clock charges nothing) or a computer player's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.services.tables.bot_seats import is_bot
from app.services.tables.events import TableEvent
from app.services.tables.table import Table

# The events by which a seat takes its turn: it has made a move in the game (a placement,
# or a knock: nothing to place, its turn passed). A draw is forced, never a choice: the seat
# then places, or knocks.
MOVES = frozenset({"play", "knock"})


def clock_seat(table: Table) -> int | None:
    """The seat whose turn clock runs at `table` (None: none runs: no game, a pause
    between rounds, a computer player's turn)."""
    if table.status != "playing" or table.next_round_at is not None or table.game is None:
        return None
    turn = table.game.get("turn")
    if not isinstance(turn, int) or is_bot(table.seats[turn]):
        return None
    return turn


def spent(table: Table, now: int) -> tuple[int, ...]:
    """The reserves after the clock of `table`'s player on turn has run until `now`: of
    the time left before his deadline, no more than his reserve is left."""
    reserves = table.reserves()
    seat = clock_seat(table)
    if seat is not None and table.deadline is not None:
        reserves[seat] = min(reserves[seat], max(0, table.deadline - now))
    return tuple(reserves)


def turn_deadline(table: Table, turn: int | None, now: int) -> int:
    """When the player on turn (`turn`) times out if his turn begins at `now`."""
    reserve = 0 if turn is None else table.reserves()[turn]
    return now + table.turn_seconds * 1000 + reserve


def moved_after(moved: tuple[int, ...] | None, events: Iterable[TableEvent]
                ) -> tuple[int, ...] | None:
    """The seats that have moved, once `events` have happened (None: not counted)."""
    if moved is None:
        return None
    seats = set(moved)
    for event in events:
        seat = event.get("seat")
        if event["type"] in MOVES and isinstance(seat, int):
            seats.add(seat)
    return moved if len(seats) == len(moved) else tuple(sorted(seats))


def all_moved(moved: Sequence[int] | None, players: int) -> bool:
    """Whether every seat has made a move (a game not counted is taken as so)."""
    return moved is None or len(set(moved)) >= players
