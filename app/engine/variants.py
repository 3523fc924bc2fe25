"""The variant registry and each variant's options: defaults, allowed values, validation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.classic import Classic
from app.engine.errors import OptionsError
from app.engine.game import Event, Game
from app.engine.goat import Goat


@dataclass(frozen=True)
class Option:
    default: Any
    allowed: tuple[Any, ...]

    def check(self, name: str, value: Any) -> Any:
        # bool is an int in Python: compare types too, so `true` is never a target of 1.
        if not any(type(value) is type(a) and value == a for a in self.allowed):
            choices = ", ".join(repr(a) for a in self.allowed)
            raise OptionsError(f"option {name!r} must be one of {choices}, not {value!r}")
        return value


VARIANTS: dict[str, type[Game]] = {"goat": Goat, "classic": Classic}  # type: ignore[type-abstract]

OPTIONS: dict[str, dict[str, Option]] = {
    "goat": {
        "fish_rule": Option("all", ("all", "one")),
        "teams": Option(False, (False, True)),
    },
    "classic": {"target": Option(100, (100, 150, 200))},
}


def validate_options(variant: str, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Options with defaults filled in; OptionsError names whatever is wrong."""
    cls = VARIANTS.get(variant)
    if cls is None:
        raise OptionsError(f"unknown variant {variant!r}; playable: {', '.join(VARIANTS)}")
    if type(players) is not int or not cls.min_players <= players <= cls.max_players:
        raise OptionsError(
            f"{variant} is played by {cls.min_players} to {cls.max_players} players, "
            f"not {players!r}"
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionsError("options must be an object")
    spec = OPTIONS[variant]
    unknown = sorted(set(options) - set(spec))
    if unknown:
        raise OptionsError(f"unknown option {unknown[0]!r} for {variant}")
    checked = {name: opt.check(name, options.get(name, opt.default)) for name, opt in spec.items()}
    cls.check_options(players, checked)
    return checked


def start_game(
    variant: str, players: int, options: dict[str, Any] | None, seed: bytes | None
) -> tuple[Game, list[Event]]:
    """A game dealt from `seed` and ready for its first move, with the events of its start
    (the commitment, any redeals, who leads). With seed None the deals come later."""
    game = VARIANTS[variant](players, validate_options(variant, players, options), seed)
    return game, game.start()


def new_game(
    variant: str, players: int, options: dict[str, Any] | None, seed: bytes | None
) -> Game:
    """`start_game` for callers that need no events."""
    return start_game(variant, players, options, seed)[0]


def game_from_dict(data: dict[str, Any]) -> Game:
    """The inverse of `Game.to_dict()`."""
    seed = bytes.fromhex(data["seed"]) if data["seed"] is not None else None
    cls = VARIANTS[data["variant"]]
    game = cls(data["players"], dict(data["options"]), seed)
    game.load(data)
    return game
