"""Computer players in seats: how a bot is written into a table, how a bot takes over
the seat of a player who timed out at a table that allows it (`on_timeout: "computer"`),
and how the person takes it back at his next turn (PROTOCOL §2g).

A bot's seat holds `Person(-1 - seat, "Bot 3 (strong)", bot="strong")`: its id is never a
player's (player ids are positive), so no person can act for it and no rating row is ever
touched for it; its name has a space and brackets, which no username may have.
"""

from __future__ import annotations

from dataclasses import replace

from app.engine import Game
from app.services.tables.events import BotTakeoverEvent, SeatReclaimEvent, TableEvent
from app.services.tables.table import DEFAULT_PACE_MS, Person, StandIn, Table

# Strength of the bot that takes over a timed-out seat (RULES 1.10 otherwise ends the game).
TAKEOVER_STRENGTH = "heuristic"

__all__ = ["DEFAULT_PACE_MS", "TAKEOVER_STRENGTH", "bot_entry", "bot_on_turn", "bot_strength",
           "hand_over", "is_bot", "seat_returned", "wake_at"]


def bot_entry(strength: str, seat: int) -> Person:
    return Person(-1 - seat, f"Bot {seat + 1} ({strength})", strength)


def bot_strength(name: str, seat: int) -> str | None:
    """The strength a bot's name at `seat` was written with (`bot_entry`), else None."""
    head, tail = f"Bot {seat + 1} (", ")"
    if name.startswith(head) and name.endswith(tail) and len(name) > len(head) + len(tail):
        return name[len(head):-len(tail)]
    return None


def is_bot(who: Person | None) -> bool:
    return who is not None and who.is_bot


def bot_on_turn(table: Table, game: Game | None) -> Person | None:
    """The seat entry of the bot whose turn it is, if it is a bot's turn."""
    if game is None or game.turn is None or game.status != "playing":
        return None
    who = table.seats[game.turn]
    return who if is_bot(who) else None


def wake_at(table: Table, game: Game | None, now: int) -> int | None:
    """When the clock must look at the table next: the turn's deadline, or for a bot's turn
    the moment it should move (the bot then plays well inside that deadline)."""
    if table.status == "finished" and table.courtyard is not None:
        return table.next_round_at  # a courtyard's next game (PROTOCOL §2d)
    if table.status == "waiting" and table.courtyard is not None:
        return table.deadline  # a courtyard waiting again for a player goes then
    if table.status != "playing":
        return None
    if table.next_round_at is not None:  # nobody moves before the next round's deal
        return table.next_round_at
    if bot_on_turn(table, game) is not None:
        return now + table.bot_pace_ms
    return table.deadline


def hand_over(table: Table, game: Game) -> tuple[Table, list[TableEvent]]:
    """The table with the player on turn replaced by a bot (which holds the seat for him),
    and the event that says so."""
    seat = game.turn
    assert seat is not None
    gone = table.seats[seat]
    assert gone is not None
    event: BotTakeoverEvent = {
        "type": "bot_takeover",
        "round": game.round,
        "seat": seat,
        "player": gone.name,
        "bot": TAKEOVER_STRENGTH,
    }
    held = replace(table.with_seat(seat, bot_entry(TAKEOVER_STRENGTH, seat)),
                   stand_ins=(*table.stand_ins, StandIn(seat, gone)))
    return held, [event]


def reclaimed(table: Table, stand_in: StandIn, round_number: int
              ) -> tuple[Table, SeatReclaimEvent]:
    """The table once the person a bot holds a seat for has asked for it back (he takes it
    at his next turn: `seat_returned`), and the event that says so."""
    asked = replace(stand_in, back=True)
    event: SeatReclaimEvent = {"type": "seat_reclaim", "round": round_number,
                               "seat": stand_in.seat, "player": stand_in.person.name,
                               "returned": False}
    return replace(table, stand_ins=tuple(asked if s is stand_in else s
                                          for s in table.stand_ins)), event


def seat_returned(table: Table, turn: int | None, round_number: int
                  ) -> tuple[Table, SeatReclaimEvent | None]:
    """The table with the seat now on turn (`turn`) given back to its person, when he has
    asked for it; else the table as it is and None."""
    stand_in = next((s for s in table.stand_ins if s.seat == turn and s.back), None)
    if stand_in is None:
        return table, None
    event: SeatReclaimEvent = {"type": "seat_reclaim", "round": round_number,
                               "seat": stand_in.seat, "player": stand_in.person.name,
                               "returned": True}
    back = replace(table.with_seat(stand_in.seat, stand_in.person),
                   stand_ins=tuple(s for s in table.stand_ins if s is not stand_in))
    return back, event
