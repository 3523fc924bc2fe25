"""The message catalogue, read by the server: the browser client's own words
(app/web/lang/<code>.json), in its five languages (PROTOCOL §2a "lang").

What the server tells a person (an error `message`, an HTTP `detail`) is a catalogue
entry `error.<key>` filled with named parameters: `{name}` puts a parameter in,
`{name!r}` puts it in quoted the way Python's repr does (English says "no table 'x1'",
the other languages name the table bare). Plural forms are the client's alone: an
`error.` entry is one string. `ErrorKey` declares every key the server's own code says;
the engine's errors carry keys of their own.

The files are read once, when this module is imported; every language has every key of
English (tests/test_words.py), and a key a language lacks is said in English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal, get_args

LANGUAGES = ("en", "ru", "th", "fa", "lo")
DEFAULT = "en"
# Written right to left (the page's dir).
RIGHT_TO_LEFT = frozenset({"fa"})
FOLDER = Path(__file__).parent / "web" / "lang"

Param = str | int
Params = Mapping[str, Param]

# Every `error.<key>` the server's own code (services and API) can say.
ErrorKey = Literal[
    # tables and seats
    "no_table", "table_changed", "table_busy", "table_changed_while_made",
    "table_not_created", "game_started", "table_full", "no_seat", "seat_taken",
    "seated_already", "not_seated_here", "too_many_waiting", "takeover_casual_only",
    "no_seat_to_reclaim", "rematch_after_game",
    # the courtyard table (PROTOCOL §2d)
    "courtyard_teams_only", "courtyard_only", "courtyard_in_already", "courtyard_seat_free",
    "courtyard_queue_full", "courtyard_not_queued", "courtyard_no_rematch", "courtyard_people_only",
    # play
    "game_is_over", "stale_seq", "others_turn", "next_round_in", "clocks_restarting",
    "time_ran_out", "nothing_to_resign", "no_game_in_progress", "chat_empty",
    "chat_seated_only",
    # computer players
    "unknown_strength", "bots_by_seated", "rated_people_only",
    # seeks
    "rating_range_reversed", "seek_open_already", "no_seek",
    # tournaments
    "no_tournament", "swiss_needs_rounds", "arena_needs_minutes", "max_players_below_seats",
    "tournament_closed", "in_tournament_already", "tournament_full", "not_in_tournament",
    "tournament_over", "only_creator_starts", "tournament_started", "tournament_too_few",
    "only_creator_cancels", "too_many_tournaments",
    # clubs, club tournaments and team battles
    "no_club", "club_name_invalid", "club_name_taken", "too_many_clubs", "club_admins_only",
    "club_owner_only", "club_members_only", "club_member_already", "not_club_member",
    "club_owner_stays", "club_no_request", "club_or_battle", "battle_arena_only",
    "battle_clubs_twice",
    # people: friends, blocks, challenges, one's account
    "people_yourself", "people_forbidden", "people_no_challenge", "people_challenge_closed",
    "people_too_many_challenges", "people_playing_now",
    # accounts and sign-in
    "name_taken", "wrong_credentials", "wrong_password", "not_authenticated",
    "log_in_first", "no_player", "no_game",
    # reviews
    "no_review", "reviews_busy",
    # limits, origins, outages
    "too_many_messages", "too_many_requests", "too_many_new_connections",
    "too_many_tabs", "too_many_from_address", "cross_origin", "database_unavailable",
    "live_store_unavailable", "data_unreachable", "not_processed", "write_not_known",
    "body_too_large",
    # bounded inputs and fair ratings
    "nul_refused", "rating_range_bounds", "rated_game_already",
    # reports and moderation
    "chat_muted", "report_yourself", "report_not_in_game", "no_report", "report_closed",
    "moderators_only", "mod_yourself", "mod_on_moderator", "mod_bad_name", "mod_no_gains",
    "mod_nothing_to_lift",
    "account_suspended", "account_suspended_until", "account_renamed",
]
ERROR_KEYS: tuple[str, ...] = get_args(ErrorKey)

# The PROTOCOL codes whose general sentence (`error.<code>`, the words the client shows for
# the code) stands in for a message that has no words of its own (a frame a client got
# wrong, a framework's reply).
GENERAL_CODES = (
    "rate_limited", "bad_request", "unauthorized", "not_found", "not_seated", "game_over",
    "stale", "not_your_turn", "illegal_move", "unavailable",
)

Entry = str | dict[str, str]
# How much of a parameter's value a message shows (a name or id as sent may be long).
PARAM_CHARS = 64
PLACEHOLDER = re.compile(r"\{(\w+)(!r)?\}")


def _read(code: str) -> dict[str, Entry]:
    words = json.loads((FOLDER / f"{code}.json").read_text(encoding="utf-8"))
    assert isinstance(words, dict), code
    return words


CATALOGUES: dict[str, dict[str, Entry]] = {code: _read(code) for code in LANGUAGES}


def pick_language(wanted: str | Iterable[str] | None) -> str:
    """The first supported language among `wanted` (a code, an Accept-Language header or
    a list of codes); English if none."""
    if wanted is None:
        return DEFAULT
    items = wanted.split(",") if isinstance(wanted, str) else list(wanted)
    for item in items:
        code = item.split(";")[0].strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    return DEFAULT


def has_words(key: str) -> bool:
    """Whether the catalogue has `error.<key>` (in English, and so in every language)."""
    return isinstance(CATALOGUES[DEFAULT].get(f"error.{key}"), str)


def entry(key: str, lang: str = DEFAULT) -> str | None:
    """The catalogue's words for `key` in `lang` (English where `lang` has none), None if
    it has none or they are plural forms."""
    words = CATALOGUES.get(lang, {}).get(key, CATALOGUES[DEFAULT].get(key))
    return words if isinstance(words, str) else None


def fill(template: str, params: Params) -> str:
    """`template` with its placeholders filled; one without its parameter stays as it is."""
    def one(found: re.Match[str]) -> str:
        name, quoted = found.group(1), found.group(2)
        if name not in params:
            return found.group(0)
        value = params[name]
        if isinstance(value, str) and len(value) > PARAM_CHARS:
            value = value[:PARAM_CHARS] + "…"
        return repr(value) if quoted else str(value)

    return PLACEHOLDER.sub(one, template)


# Parameters whose values are words of the game, which the catalogue says too: an end
# ("left" is "левый"), a variant ("goat" is "Коза"). In English they stay as they are.
WORDED_PARAMS = {"end": "end.", "variant": "variant."}


def _worded(params: Params, lang: str) -> Params:
    words = CATALOGUES.get(lang, {})
    said = {}
    for name, value in params.items():
        word = words.get(f"{WORDED_PARAMS[name]}{value}") if name in WORDED_PARAMS else None
        said[name] = word if isinstance(word, str) else value
    return said


def say(key: str, params: Params | None = None, lang: str = DEFAULT) -> str:
    """The catalogue's `error.<key>` in `lang` (English where `lang` has none)."""
    template = entry(f"error.{key}", lang)
    if template is None:
        raise KeyError(f"the catalogue has no words error.{key}")
    params = params or {}
    return fill(template, params if lang == DEFAULT else _worded(params, lang))


def said(code: str, key: str | None, params: Params, english: str, lang: str) -> str:
    """A message for a person in `lang`: its own words when it has a key the catalogue
    knows, else its code's general sentence; English is `english` as it is."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return english
    if key is not None and has_words(key):
        return say(key, params, lang)
    if code in GENERAL_CODES:
        return say(code, {}, lang)
    return english

