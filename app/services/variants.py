"""The variants this server plays, as the engine declares them (its registry), in the
catalogue's words.

The engine declares each variant's name, options and their allowed values; what people
read of them is the message catalogue's (app/web/lang), by key: `variant.<name>`,
`option_label.<option>`, and per value `option.<option>.<value>` (a switch's `true` and
`false`) or `option.<option>` with `{value}`; a switch that is off and has no word of its
own is "". GET /api/variants carries those words in English (`title`, `label`, `words`)
for clients without the catalogue; the browser reads them by key in its own language.
"""

from __future__ import annotations

from typing import Any

from app.engine import VARIANTS, VariantInfo, describe_variants
from app.engine.options import OptionValue
from app.words import DEFAULT, entry, fill


def title_key(variant: str) -> str:
    return f"variant.{variant}"


def label_key(option: str) -> str:
    return f"option_label.{option}"


def value_keys(option: str, value: OptionValue) -> tuple[str, str]:
    """The keys of a value's word: its own, then the option's (with `{value}`)."""
    said = str(value).lower() if isinstance(value, bool) else str(value)
    return f"option.{option}.{said}", f"option.{option}"


def value_word(option: str, value: OptionValue, lang: str = DEFAULT) -> str | None:
    """The word for one option value ("" for a switch that is off); None: the catalogue
    has none."""
    own, shared = value_keys(option, value)
    words = entry(own, lang)
    if words is not None:
        return words
    words = entry(shared, lang)
    if words is not None:
        return fill(words, {"value": value})
    return "" if value is False else None


def _word(option: str, value: OptionValue, lang: str) -> str:
    word = value_word(option, value, lang)
    return str(value) if word is None else word


def _worded(info: VariantInfo, lang: str) -> VariantInfo:
    """`info` in the catalogue's words (tests/test_words.py: it has all of them)."""
    options: dict[str, dict[str, Any]] = {
        name: {
            **option,
            "label": entry(label_key(name), lang) or name,
            "words": [_word(name, value, lang) for value in option["allowed"]],
        }
        for name, option in info["options"].items()
    }
    return {**info, "title": entry(title_key(info["name"]), lang) or info["title"],
            "options": options}


def playable() -> list[VariantInfo]:
    """Every playable variant: name, title, players, options, layout, who wins, teams."""
    return [_worded(info, DEFAULT) for info in describe_variants()]


def is_playable(variant: str) -> bool:
    return variant in VARIANTS


def names() -> list[str]:
    return list(VARIANTS)
