"""The engine's errors: each a `ValueError` whose message a player can read."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow in the current position."""


class OptionsError(ValueError):
    """An unknown variant, an unknown option, or a bad option value."""


class RecordError(ValueError):
    """A game record that is malformed, inconsistent or contains an illegal move."""

    def __init__(self, round_index: int, move_index: int, reason: str) -> None:
        super().__init__(f"round {round_index} move {move_index}: {reason}")
        self.round = round_index
        self.move = move_index
        self.reason = reason
