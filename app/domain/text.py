"""Text people write to each other (chat): what may reach another player's screen.

Control characters are removed (line breaks and tabs become spaces), and so are the
bidirectional formatting characters, which can make a message display other than it
reads (an override turns "gg 1-6" around and can spill into the text after it), and
every other invisible format character (Unicode category Cf: U+FEFF, U+2060, the tag
characters...), which only hides what a message holds. Kept: the zero-width non-joiner
and joiner, which Persian words and emoji sequences need to display right.
"""

from __future__ import annotations

import unicodedata

# Bidi embeddings, overrides, isolates and marks (Unicode's "Bidi_Control" property).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_SPACES = frozenset("\t\n\r\x0b\x0c")
# Format characters (Cf) that shape visible text rather than hide it.
JOINERS = frozenset("\u200c\u200d")
_DROPPED_CATEGORIES = frozenset(("Cc", "Cf"))


def readable(text: str) -> str:
    return "".join(
        " " if ch in _SPACES else ch
        for ch in text
        if ch in _SPACES or ch in JOINERS
        or (ch not in BIDI_CONTROLS and unicodedata.category(ch) not in _DROPPED_CATEGORIES)
    )
