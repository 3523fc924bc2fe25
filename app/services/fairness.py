"""Which games pay ratings: games among people only.

A rating or a leaderboard point is earned against people. A computer player always accepts
a rematch and never tires, so a table with one would let an account farm points alone
(and a bot's play says nothing about anyone's skill). So:

- a rated table takes no computer player (adding one is refused, see `bot_turns.add_bot`);
- a rated game where a computer player takes over a seat (`seats.hand_over`) is unrated
  from then on, and says so (`unrated_reason`, in the state, the event and the result);
- a game finished with any computer player seated pays nobody, whatever the table says
  (tables stored before these rules, a rematch of one).

Results already stored stay as they are.
"""

from __future__ import annotations

from typing import Any

from app.services.seats import is_bot

# Why a table made rated pays no rating (`result.unrated_reason`).
BOT_SEATED = "bot_seated"  # a computer player sat at the table
BOT_TAKEOVER = "bot_takeover"  # a computer player took over a seat during the game


def has_bots(seats: list[dict[str, Any] | None]) -> bool:
    return any(is_bot(who) for who in seats)


def unrated_reason(state: dict[str, Any]) -> str | None:
    """Why this table, made rated, pays no rating; None when it does (or was casual)."""
    reason: str | None = state.get("unrated_reason")
    if reason is not None:
        return reason
    if state["rated"] and has_bots(state["seats"]):
        return BOT_SEATED
    return None


def pays_ratings(state: dict[str, Any]) -> bool:
    """Whether the table's game, when it ends, pays ratings and leaderboard points."""
    return bool(state["rated"]) and unrated_reason(state) is None


def unrate_for_takeover(state: dict[str, Any], event: dict[str, Any]) -> None:
    """A computer player takes over a seat of `state` (a copy being changed): a rated game
    is unrated from now on, in the state and in the takeover's `event`."""
    if state["rated"]:
        state["rated"] = False
        state["unrated_reason"] = BOT_TAKEOVER
        event["unrated"] = BOT_TAKEOVER


def with_reason(result: dict[str, Any] | None, state: dict[str, Any]) -> dict[str, Any] | None:
    """`result` (a view's or a record's) with `unrated_reason` when the table pays none."""
    if result is None:
        return None
    reason = unrated_reason(state)
    return result if reason is None else {**result, "unrated_reason": reason}
