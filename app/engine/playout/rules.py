"""Which variants the simulation core plays, and by which rules of the tiles' play."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.game import Game
from app.engine.variants import VARIANTS


@dataclass(frozen=True)
class LineRules:
    """What a variant's round does differently, as far as the play of the tiles goes."""

    # Goat (RULES 1.4): both ends show v and all non-doubles with v are down: a fish at once.
    closed_number_fish: bool


# The rules a variant class may name in its `playout_core` (app/engine/game.py).
CORE_RULES: dict[str, LineRules] = {
    "draw": LineRules(closed_number_fish=False),
    "goat_fish": LineRules(closed_number_fish=True),
}


def core_rules(variant: str | type[Game]) -> LineRules | None:
    """The core's rules for a variant (its class or its name), if the class itself names
    them; a subclass that does not say so again changes the rules and is not covered."""
    cls = VARIANTS.get(variant) if isinstance(variant, str) else variant
    name = None if cls is None else vars(cls).get("playout_core")
    return None if name is None else CORE_RULES[name]


def supports(variant: str | type[Game]) -> bool:
    """Whether the core plays this variant's rounds (the others are searched on `Game`)."""
    return core_rules(variant) is not None


def rules_of(game: Game) -> LineRules:
    rules = core_rules(type(game))
    if rules is None:
        raise ValueError(f"the simulation core does not play {game.variant}")
    return rules

