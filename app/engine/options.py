"""Table options: what a variant declares (`Game.options_spec`) and how a request is checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.engine.errors import OptionsError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One option of a variant: its default, every value it may take, and the words a
    client shows for it (a label, and a word per allowed value, "" for a switch that is
    off); clients build their forms from these (GET /api/variants)."""

    default: OptionValue
    allowed: tuple[OptionValue, ...]
    label: str = ""
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.words and len(self.words) != len(self.allowed):
            raise ValueError("an option needs one word per allowed value")

    def check(self, name: str, value: Any) -> OptionValue:
        # bool is an int in Python: compare types too, so `true` is never a target of 1.
        if not any(type(value) is type(a) and value == a for a in self.allowed):
            choices = ", ".join(repr(a) for a in self.allowed)
            raise OptionsError(
                "option_not_allowed", option=repr(name), choices=choices, value=repr(value)
            )
        return value

    def to_dict(self) -> dict[str, Any]:
        return {
            "default": self.default,
            "allowed": list(self.allowed),
            "label": self.label,
            "words": list(self.words),
        }


def target_option(*targets: int) -> Option:
    """`target`: the score a game is played to, the first of `targets` by default."""
    return Option(targets[0], targets, "Play to", tuple(f"Target {t}" for t in targets))


# `teams`: four players as two teams, partners opposite (the variant checks the four).
TEAMS = Option(False, (False, True), "Teams (partners sit opposite)", ("", "Teams"))


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
