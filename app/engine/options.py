"""Table options: what a variant declares (`Game.options_spec`) and how a request is checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.engine.errors import OptionsError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One option of a variant: its default and every value it may take; clients build
    their forms from these (GET /api/variants). Its words for people are the message
    catalogue's, by the option's name and value (app/web/lang)."""

    default: OptionValue
    allowed: tuple[OptionValue, ...]

    def check(self, name: str, value: Any) -> OptionValue:
        # bool is an int in Python: compare types too, so `true` is never a target of 1.
        if not any(type(value) is type(a) and value == a for a in self.allowed):
            choices = ", ".join(repr(a) for a in self.allowed)
            raise OptionsError(
                "option_not_allowed", option=repr(name), choices=choices, value=repr(value)
            )
        return value

    def to_dict(self) -> dict[str, Any]:
        return {"default": self.default, "allowed": list(self.allowed)}


def target_option(*targets: int) -> Option:
    """`target`: the score a game is played to, the first of `targets` by default."""
    return Option(targets[0], targets)


# `teams`: four players as two teams, partners opposite (the variant checks the four).
TEAMS = Option(False, (False, True))


def checked_options(
    variant: str, spec: Mapping[str, Option], options: object
) -> dict[str, OptionValue]:
    """`options` (None or an object) with defaults filled in; OptionsError names any fault."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionsError("options_not_an_object")
    unknown = sorted(set(options) - set(spec))
    if unknown:
        raise OptionsError("unknown_option", option=repr(unknown[0]), variant=variant)
    return {name: opt.check(name, options.get(name, opt.default)) for name, opt in spec.items()}
