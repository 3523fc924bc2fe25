"""Which games pay ratings: games among people only.

A rating or a leaderboard point is earned against people. A computer player always accepts
a rematch and never tires, so a table with one would let an account farm points alone
(and a bot's play says nothing about anyone's skill). So:

- a rated table takes no computer player (adding one is refused, see `bot_turns.add_bot`);
- a rated game where a computer player takes over a seat (`seats.hand_over`) is unrated
  from then on, and says so (`Table.unrated_reason`, the event and the result);
- a game finished with any computer player seated pays nobody, whatever the table says
  (tables stored before these rules, a rematch of one);
- a game that ends before every seat has made a move is aborted (RULES 1.10): no rating
  and no tournament points, at any table (`seal` in app.services.tables.transact marks it).

Results already stored stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from app.services.tables.bot_seats import is_bot
from app.services.tables.events import TableEvent
from app.services.tables.table import Person, Table
from app.wire.messages import Result

# Why a table made rated pays no rating (`Table.unrated_reason`, `result.unrated_reason`).
BOT_SEATED = "bot_seated"  # a computer player sat at the table
BOT_TAKEOVER = "bot_takeover"  # a computer player took over a seat during the game
ABORTED = "aborted"  # the game ended before every seat had made a move


def has_bots(seats: Iterable[Person | None]) -> bool:
    return any(is_bot(who) for who in seats)


def unrated_reason(table: Table) -> str | None:
    """Why this table, made rated, pays no rating (an aborted game, at any table, pays no
    tournament points either); None when it does (or was casual)."""
    if table.unrated_reason is not None:
        return table.unrated_reason
    if table.rated and has_bots(table.seats):
        return BOT_SEATED
    return None


def pays_ratings(table: Table) -> bool:
    """Whether the table's game, when it ends, pays ratings and leaderboard points."""
    return table.rated and unrated_reason(table) is None


def unrate_for_takeover(table: Table, events: list[TableEvent]) -> tuple[Table, list[TableEvent]]:
    """A computer player has taken over a seat of `table` (`events`: the takeover's): a
    rated game is unrated from now on, in the table and in the takeover's event."""
    if not table.rated:
        return table, events
    first, *rest = events
    assert first["type"] == "bot_takeover"
    return (replace(table, rated=False, unrated_reason=BOT_TAKEOVER),
            [{**first, "unrated": BOT_TAKEOVER}, *rest])


def with_reason(result: Result | None, table: Table) -> Result | None:
    """`result` (a view's or a record's) with `unrated_reason` when the table pays none."""
    if result is None:
        return None
    reason = unrated_reason(table)
    return result if reason is None else {**result, "unrated_reason": reason}
