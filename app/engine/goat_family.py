"""Goat's family, RULES.md §1's opening: the rules of Goat (§1) that every Goat variant keeps
unless its own section changes them. Goat (§1), Donkey (§8), Sea Goat (§7), Sport Goat (§11)
and General (§12) derive from `GoatFamily`; a new Goat variant does too, and so inherits:

- the deal of 7 tiles a hand and the redeal (1.1): a hand with 5 or more doubles, or 6 or
  more tiles sharing one number, is collected and dealt again;
- who leads (1.2): the first round by `first_lead_order()` (1-1, 2-2 ... 6-6, 0-0, then the
  highest tile), every later round the player who went out, or after a fish the fisherman,
  with any tile;
- the fish (1.4): as soon as both open ends show v and the six non-doubles with v are on
  the table, whether or not v-v is (in a hand or the bazaar); the player whose tile made it
  is the fisherman.

A variant changes one of them by overriding its hook (Sea Goat's smallest double leads,
Sport Goat's leads rotate, General's 1-1 always leads).

The first edition of the rules (`FIRST_RULES`, records marked `"rules": 1`) gave Sea Goat,
Sport Goat and General neither the redeal nor the fish test: they dealt once and ended a
round only when nobody could move. `goat_rules_since` says from which edition a variant
keeps them; those records replay by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import ClassVar

from app.engine.game import Game
from app.engine.layouts import LEFT, RIGHT
from app.engine.values import FIRST_RULES

HAND_SIZE = 7
MAX_DOUBLES = 4  # a hand with 5 or more doubles is redealt (RULES 1.1)
MAX_OF_ONE_NUMBER = 5  # ... and so is one with 6 or more tiles sharing a number


class GoatFamily(Game):
    """What Goat's family shares (RULES §1's opening); scoring is each variant's own."""

    # The edition of the rule book from which this variant keeps 1.1's redeal and 1.4's fish.
    goat_rules_since: ClassVar[int] = FIRST_RULES

    def hand_size(self) -> int:
        return HAND_SIZE

    def needs_redeal(self, hands: Sequence[int]) -> bool:
        if self.rules < self.goat_rules_since:
            return False
        doubles, suits = self.ts.doubles, self.ts.suits
        for hand in hands:
            if (hand & doubles).bit_count() > MAX_DOUBLES:
                return True
            for suit in suits:
                if (hand & suit).bit_count() > MAX_OF_ONE_NUMBER:
                    return True
        return False

    @classmethod
    @cache
    def first_lead_order(cls) -> list[int]:
        """1-1 first, then 2-2 ... 6-6, then 0-0, then the highest non-double (RULES 1.2)."""
        doubles = cls.double_ids()
        return doubles[1:] + doubles[:1] + cls.value_ids()

    def lead_for_round(self) -> tuple[int, int | None]:
        if self.round == 0:
            return self.first_held(self.first_lead_order())
        # Who went out, or the fisherman (1.2); either is the previous round's `by`.
        return self.rounds[self.round - 1]["end"]["by"], None

    def makes_fish(self) -> bool:
        # Both ends show v and every non-double with v is down, whether or not v-v is (1.4).
        if self.rules < self.goat_rules_since:
            return False
        ends = self.board.open
        v = ends[LEFT]
        return v == ends[RIGHT] and self.board.on_table[v] == self.max_pip
