"""The page's shell in its reader's language, drawn by the server.

The page (index.html) marks its fixed words with `data-i18n="key"` (an element's text)
and `data-i18n-label="key"` (its aria-label), as the browser client fills them. The
server fills them first, once per language at start, and puts in the reader's catalogue
as a JSON data block (`<script type="application/json" id="words">`, never run): so the
first paint already reads in the reader's language, right to left in Persian, and the
client starts without asking for its catalogue (app/web/js/i18n.js reads the block).

The reader's language is the one he chose (the `domino.lang` cookie the client keeps
beside its own copy of the choice), else the first of his browser's languages the site
speaks (Accept-Language, as the client's `navigator.languages`), else English.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping

from app.words import CATALOGUES, LANGUAGES, RIGHT_TO_LEFT, pick_language

LANG_COOKIE = "domino.lang"
_TEXT = re.compile(r'(<(?P<tag>\w+)\b[^>]*\bdata-i18n="(?P<key>[\w.]+)"[^>]*>)(</(?P=tag)>)')
_LABEL = re.compile(r'\bdata-i18n-label="(?P<key>[\w.]+)"')
_HTML = re.compile(r"<html\b[^>]*>")
_TITLE = re.compile(r"<title>[^<]*</title>")


def reader_language(cookies: Mapping[str, str], accept_language: str | None) -> str:
    chosen = cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return pick_language(accept_language)


def _said(lang: str, key: str) -> str:
    words = CATALOGUES[lang].get(key)
    return html.escape(words if isinstance(words, str) else key)


def in_language(page: str, lang: str) -> str:
    """`page` with its marked words said in `lang`, its lang and dir set, and the
    catalogue of `lang` as a data block at the end of its head."""
    direction = "rtl" if lang in RIGHT_TO_LEFT else "ltr"
    page = _HTML.sub(f'<html lang="{lang}" dir="{direction}">', page, count=1)
    page = _TITLE.sub(f"<title>{_said(lang, 'site.title')}</title>", page, count=1)
    page = _TEXT.sub(lambda m: f"{m.group(1)}{_said(lang, m['key'])}{m.group(4)}", page)
    page = _LABEL.sub(lambda m: f'{m.group(0)} aria-label="{_said(lang, m["key"])}"', page)
    # "</" written "<\/" (the same JSON): the block cannot end early.
    words = json.dumps(CATALOGUES[lang], ensure_ascii=False, separators=(",", ":"))
    words = words.replace("</", "<\\/")
    block = f'<script type="application/json" id="words" data-lang="{lang}">{words}</script>'
    return page.replace("</head>", f"  {block}\n</head>", 1)
