"""Telephone, RULES.md §6: Fives' play on a house, scored in fifths, to 72.

The first double is the house (a spinner counted the "gambler" way: once both its long
sides are covered only the tiles played on it count; RULES §6's example). After a tile,
a count that is a positive multiple of 5 scores count ÷ 5; the hand's winner scores the
other hands' pips ÷ 5, rounded up.

Choices where RULES §6 is silent (as in Fives, app/engine/fives.py): the house's short
sides open once both its long sides are covered, as a spinner's do; the first leader is
drawn from the seed's stream (PROTOCOL §4), later hands are led by the previous winner;
a block is won by the lowest hand (a tie scores nothing), which scores the other hands'
pips ÷ 5 rounded up, its own pips not subtracted; the game ends after the hand in which
someone reaches 72.
"""

from __future__ import annotations

from typing import ClassVar

from app.engine.fives import Fives
from app.engine.layouts import Layout, Spinner
from app.engine.options import Option

TARGET = 72
FIFTH = 5


class Telephone(Fives):
    variant: ClassVar[str] = "telephone"
    title: ClassVar[str] = "Telephone"
    options_spec: ClassVar[dict[str, Option]] = {}
    team_play: ClassVar[bool] = False
    fixed_target: ClassVar[int | None] = TARGET

    @property
    def target(self) -> int:
        return TARGET

    @property
    def multiple(self) -> int:
        return FIFTH

    def play_score(self, count: int) -> int:
        return count // FIFTH

    def hand_bonus(self, others: int, own: int) -> int:
        return -(-others // FIFTH)  # ÷ 5, rounded up

    def new_layout(self) -> Layout:
        return Spinner(self.ts)

    def hand_size(self) -> int:
        return 7
