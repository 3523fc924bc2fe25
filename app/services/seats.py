"""Computer players in seats: how a bot is written into a table's state, and how a bot takes
over the seat of a player who timed out at a table that allows it.

A bot's seat holds `{"id": -1 - seat, "name": "Bot 3 (strong)", "bot": "strong"}`: its id is
never a player's (player ids are positive), so no person can act for it and no rating row
is ever touched for it; its name has a space and brackets, which no username may have.
"""

from __future__ import annotations

from typing import Any

from app.engine import Game

# Strength of the bot that takes over a timed-out seat (RULES 1.10 otherwise ends the game).
TAKEOVER_STRENGTH = "heuristic"
# Default pause before a bot places a tile, so that a table of bots looks like people.
DEFAULT_PACE_MS = 1500


def bot_entry(strength: str, seat: int) -> dict[str, Any]:
    return {"id": -1 - seat, "name": f"Bot {seat + 1} ({strength})", "bot": strength}


def is_bot(who: dict[str, Any] | None) -> bool:
    return who is not None and "bot" in who


def bot_on_turn(state: dict[str, Any], game: Game | None) -> dict[str, Any] | None:
    """The seat entry of the bot whose turn it is, if it is a bot's turn."""
    if game is None or game.turn is None or game.status != "playing":
        return None
    who: dict[str, Any] | None = state["seats"][game.turn]
    return who if is_bot(who) else None


def people(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [who for who in state["seats"] if who is not None and not is_bot(who)]


def wake_at(state: dict[str, Any], game: Game | None, now: int) -> int | None:
    """When the clock must look at the table next: the turn's deadline, or for a bot's turn
    the moment it should move (the bot then plays well inside that deadline)."""
    if state["status"] != "playing":
        return None
    if state.get("next_round_at") is not None:  # nobody moves before the next round's deal
        return int(state["next_round_at"])
    if bot_on_turn(state, game) is not None:
        return now + int(state.get("bot_pace_ms", DEFAULT_PACE_MS))
    deadline: int | None = state["deadline"]
    return deadline


def hand_over(state: dict[str, Any], game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state with the player on turn replaced by a bot, and the event that says so."""
    seat = game.turn
    assert seat is not None
    seats = list(state["seats"])
    gone = seats[seat]
    seats[seat] = bot_entry(TAKEOVER_STRENGTH, seat)
    event = {
        "type": "bot_takeover",
        "round": game.round,
        "seat": seat,
        "player": gone["name"],
        "bot": TAKEOVER_STRENGTH,
    }
    return {**state, "seats": seats}, [event]
