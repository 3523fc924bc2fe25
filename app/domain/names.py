"""Player names (PROTOCOL §2c): 3-20 characters after NFC, letters and digits of one script
(Latin, Cyrillic, Thai, Arabic with the Persian letters, Lao) plus `_` and ASCII digits;
unique ignoring case and Unicode TR39 look-alikes.

ICU (through PyICU) answers both questions of Unicode's own data: the script of a character
and the confusable skeleton of a string (TR39 §4, kept current with each Unicode release),
so no table of look-alikes is kept here.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import icu

# ICU's short script names of the scripts a name may be written in.
SCRIPTS = frozenset({"Latn", "Cyrl", "Thai", "Arab", "Laoo"})
MIN_CHARS = 3
MAX_CHARS = 20
ASCII_DIGITS = frozenset("0123456789")


@cache
def _checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def normal(name: str) -> str:
    """The form a name is kept and compared in: NFC."""
    return unicodedata.normalize("NFC", name)


def problem(name: str) -> str | None:
    """Why `name` (already NFC) is not a valid new name, or None when it is one: the key of
    the refusal's words (`name_length`, `name_characters`, `name_scripts`)."""
    if not MIN_CHARS <= len(name) <= MAX_CHARS:
        return "name_length"
    scripts: set[str] = set()
    for ch in name:
        if ch == "_" or ch in ASCII_DIGITS:
            continue
        category = unicodedata.category(ch)
        if category[0] not in "LMN" or category == "Nl" or category == "No":
            return "name_characters"
        script = icu.Script.getScript(ch).getShortName()
        if script == "Zinh":  # a combining mark: it belongs to the letter it sits on
            if category[0] != "M":
                return "name_characters"
            continue
        if script not in SCRIPTS:
            return "name_characters"
        scripts.add(script)
    if len(scripts) > 1:
        return "name_scripts"
    if unicodedata.category(name[0])[0] == "M":
        return "name_characters"  # a mark with no letter under it
    return None


def key(name: str) -> str:
    """Names are unique in any letter case: Unicode case folding of the NFC form."""
    return normal(name).casefold()


def skeleton(name: str) -> str:
    """The TR39 confusable skeleton of the name in any case: two names with the same
    skeleton are the same name."""
    return str(_checker().getSkeleton(0, key(name)))
