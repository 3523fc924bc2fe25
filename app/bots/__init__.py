"""Computer players: strategies that see one seat's view and choose one of its legal moves."""

from app.bots.players import (
    STRENGTHS,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    StrongPlayer,
    play_to_end,
    player_for,
)
from app.bots.view import LegalMove, SeatView

__all__ = [
    "STRENGTHS",
    "HeuristicPlayer",
    "LegalMove",
    "Player",
    "RandomPlayer",
    "SeatView",
    "StrongPlayer",
    "play_to_end",
    "player_for",
]
