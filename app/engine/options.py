"""Table options: what a variant declares (`Game.options_spec`) and how a request is checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.engine.errors import OptionsError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One option of a variant: its default and every value it may take."""

    default: OptionValue
    allowed: tuple[OptionValue, ...]

    def check(self, name: str, value: Any) -> OptionValue:
        # bool is an int in Python: compare types too, so `true` is never a target of 1.
        if not any(type(value) is type(a) and value == a for a in self.allowed):
            choices = ", ".join(repr(a) for a in self.allowed)
            raise OptionsError(f"option {name!r} must be one of {choices}, not {value!r}")
        return value

    def to_dict(self) -> dict[str, Any]:
        return {"default": self.default, "allowed": list(self.allowed)}


def checked_options(
    variant: str, spec: Mapping[str, Option], options: object
) -> dict[str, OptionValue]:
    """`options` (None or an object) with defaults filled in; OptionsError names any fault."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionsError("options must be an object")
    unknown = sorted(set(options) - set(spec))
    if unknown:
        raise OptionsError(f"unknown option {unknown[0]!r} for {variant}")
    return {name: opt.check(name, options.get(name, opt.default)) for name, opt in spec.items()}
