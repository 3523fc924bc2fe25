"""The variant registry: one line per playable variant (each class declares its own options,
layout and turn policy; see app/engine/game.py)."""

from __future__ import annotations

from typing import Any

from app.engine.classic import Classic
from app.engine.donkey import Donkey
from app.engine.errors import OptionsError
from app.engine.events import Event
from app.engine.fives import Fives
from app.engine.game import Game
from app.engine.general import General
from app.engine.goat import Goat
from app.engine.mexican_train import MexicanTrain
from app.engine.sea_goat import SeaGoat
from app.engine.sport_goat import SportGoat
from app.engine.telephone import Telephone
from app.engine.values import Clock, VariantInfo

VARIANTS: dict[str, type[Game]] = {
    "goat": Goat,  # type: ignore[type-abstract]
    "classic": Classic,  # type: ignore[type-abstract]
    "fives": Fives,
    "telephone": Telephone,
    "mexican_train": MexicanTrain,
    "sea_goat": SeaGoat,
    "sport_goat": SportGoat,
    "general": General,
    "donkey": Donkey,
}


def variant_class(variant: object) -> type[Game]:
    """The class of a playable variant; OptionsError for any other name."""
    cls = VARIANTS.get(variant) if isinstance(variant, str) else None
    if cls is None:
        raise OptionsError(
            "unknown_variant", variant=repr(variant), playable=", ".join(VARIANTS)
        )
    return cls


def describe_variants() -> list[VariantInfo]:
    """Every playable variant as GET /api/variants lists it (PROTOCOL §2a)."""
    return [cls.describe() for cls in VARIANTS.values()]


def validate_options(variant: str, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Options with defaults filled in; OptionsError names whatever is wrong."""
    return variant_class(variant).validate_options(players, options)


def in_two_teams(variant: str, players: int, options: dict[str, Any]) -> bool:
    """Whether a game of `variant` with these validated options is one of two teams of
    partners, as the variant declares (`Game.in_two_teams`)."""
    return variant_class(variant).in_two_teams(players, options)


def start_game(
    variant: str,
    players: int,
    options: dict[str, Any] | None,
    seed: bytes | None,
    clock: Clock | None = None,
) -> tuple[Game, list[Event]]:
    """A game dealt from `seed` and ready for its first move, with the events of its start
    (the commitment, any redeals, who leads). With seed None the deals come later.
    `clock`: the server's clock, for the variants whose rules read the time (General)."""
    game = VARIANTS[variant](players, validate_options(variant, players, options), seed)
    game.clock = clock
    return game, game.start()


def new_game(
    variant: str, players: int, options: dict[str, Any] | None, seed: bytes | None
) -> Game:
    """`start_game` for callers that need no events."""
    return start_game(variant, players, options, seed)[0]


def game_from_dict(data: dict[str, Any], clock: Clock | None = None) -> Game:
    """The inverse of `Game.to_dict()`; `clock` as in `start_game`."""
    seed = bytes.fromhex(data["seed"]) if data["seed"] is not None else None
    cls = VARIANTS[data["variant"]]
    game = cls(data["players"], dict(data["options"]), seed)
    game.load(data)
    game.clock = clock
    return game
