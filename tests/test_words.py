"""The message catalogue (app/web/lang/<code>.json), without a browser: the five languages
say the same things, and every error the server can tell a person has words in each."""

from __future__ import annotations

import json
from string import Formatter

import pytest

from app.api.i18n import Refusal, general, words_of
from app.engine import describe_variants
from app.engine.errors import TEMPLATES, IllegalMove, OptionsError
from app.engine.tiles import not_a_tile
from app.services.errors import ServiceError
from app.services.variants import label_key, title_key, value_keys, value_word
from app.words import (
    CATALOGUES,
    ERROR_KEYS,
    FOLDER,
    GENERAL_CODES,
    LANGUAGES,
    PLACEHOLDER,
    fill,
    pick_language,
    say,
)

OTHERS = [code for code in LANGUAGES if code != "en"]


def placeholders(entry: str | dict[str, str]) -> set[str]:
    forms = entry.values() if isinstance(entry, dict) else [entry]
    return {found.group(1) for form in forms for found in PLACEHOLDER.finditer(form)}


def server_keys() -> list[str]:
    """Every `error.<key>` the server may say: its own declared keys, the engine's, and
    its codes' general sentences (the engine's "game_over" is the code's too)."""
    return [*ERROR_KEYS, *(k for k in TEMPLATES if k not in GENERAL_CODES), *GENERAL_CODES]


def test_a_key_is_the_servers_or_the_engines_not_both() -> None:
    assert set(ERROR_KEYS) & set(TEMPLATES) == set()


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_engines_words_fill_the_engines_parameters(code: str) -> None:
    """Each language's words for an engine key name exactly the parameters the engine's
    English template gives."""
    differ = {}
    for key, template in TEMPLATES.items():
        given = {name for _, name, _, _ in Formatter().parse(template) if name}
        said = placeholders(CATALOGUES[code][f"error.{key}"])
        if said != given and key not in GENERAL_CODES:
            differ[key] = (given, said)
    assert differ == {}


def test_the_catalogue_is_one_json_file_per_language() -> None:
    assert sorted(path.stem for path in FOLDER.glob("*.json")) == sorted(LANGUAGES)
    for code in LANGUAGES:
        assert json.loads((FOLDER / f"{code}.json").read_text(encoding="utf-8")) == \
            CATALOGUES[code]
    assert len(CATALOGUES["en"]) > 300


@pytest.mark.parametrize("code", OTHERS)
def test_every_language_has_the_same_keys_as_english(code: str) -> None:
    english, words = CATALOGUES["en"], CATALOGUES[code]
    assert sorted(set(english) - set(words)) == [], "missing"
    assert sorted(set(words) - set(english)) == [], "extra"


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_words_are_empty_and_plurals_have_their_other_form(code: str) -> None:
    for key, entry in CATALOGUES[code].items():
        if isinstance(entry, dict):
            assert entry.get("other"), (code, key)
            assert set(entry) <= {"zero", "one", "two", "few", "many", "other"}, (code, key)
            assert all(isinstance(form, str) and form for form in entry.values()), (code, key)
        else:
            assert isinstance(entry, str) and entry.strip(), (code, key)


@pytest.mark.parametrize("code", OTHERS)
def test_the_same_keys_are_plural_and_fill_the_same_placeholders(code: str) -> None:
    english, words = CATALOGUES["en"], CATALOGUES[code]
    plural = sorted(k for k, v in english.items() if isinstance(v, dict))
    assert sorted(k for k, v in words.items() if isinstance(v, dict)) == plural
    differ = {
        key: (placeholders(entry), placeholders(words[key]))
        for key, entry in english.items()
        if key in words and placeholders(entry) != placeholders(words[key])
    }
    assert differ == {}


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_error_the_server_can_say_has_words_in_every_language(code: str) -> None:
    keys = server_keys()
    assert len(set(keys)) == len(keys)
    missing = [key for key in keys if not isinstance(CATALOGUES[code].get(f"error.{key}"), str)]
    assert missing == []


def test_the_english_of_an_error_is_what_it_always_was() -> None:
    assert say("no_table", {"table": "x1"}) == "no table 'x1'"
    assert say("no_table", {"table": "it's"}) == "no table " + repr("it's")
    assert ServiceError("bad_request", "seat_taken", 409, seat=2).message == "seat 2 is taken"
    error = ServiceError("not_your_turn", "next_round_in", 409, n=3)
    assert (error.code, error.key, error.params, error.status) == (
        "not_your_turn", "next_round_in", {"n": 3}, 409)
    assert str(error) == "the next round starts in 3 s"
    assert Refusal(404, "no_player").detail == "player not found"


def test_an_error_is_said_in_the_readers_language() -> None:
    refused = ServiceError("not_found", "no_table", 404, table="x1")
    assert words_of(refused, "en") == "no table 'x1'"
    assert words_of(refused, "ru") == "стола x1 нет"
    assert words_of(refused, "fa") == "میز x1 وجود ندارد"
    # Words of no key of their own: English as they are, elsewhere the code's sentence.
    assert general("bad_request", "frame is not valid JSON", "en") == "frame is not valid JSON"
    assert general("bad_request", "frame is not valid JSON", "th") == say("bad_request", lang="th")
    # An engine's error that carries no key (or one the catalogue lacks) likewise.
    bare = ServiceError.worded("illegal_move", "something odd", 409, "no_such_key")
    assert words_of(bare, "en") == "something odd"
    assert words_of(bare, "lo") == say("illegal_move", lang="lo")


def test_placeholders_are_filled_by_name_and_a_missing_one_is_left_as_it_is() -> None:
    assert fill("{a} and {b!r}", {"a": 1, "b": "x"}) == "1 and 'x'"
    assert fill("{a} and {c}", {"a": 1}) == "1 and {c}"


def test_the_language_is_picked_from_a_code_or_an_accept_language_header() -> None:
    assert pick_language("fa-IR,fa;q=0.9,en;q=0.5") == "fa"
    assert pick_language("de-DE, lo;q=0.8") == "lo"
    assert pick_language(["xx", "th_TH"]) == "th"
    assert pick_language("de") == "en"
    assert pick_language(None) == "en"


def test_every_variant_option_and_value_has_words() -> None:
    """The engine declares names and values; every one has its words in the catalogue
    (and so in every language), which the browser and GET /api/variants show."""
    english = CATALOGUES["en"]
    missing = []
    for info in describe_variants():
        if not isinstance(english.get(title_key(info["name"])), str):
            missing.append(title_key(info["name"]))
        if info["loser"] is not None and f"result.{info['loser']}" not in english:
            missing.append(f"result.{info['loser']}")
        for name, option in info["options"].items():
            if not isinstance(english.get(label_key(name)), str):
                missing.append(label_key(name))
            missing += [f"{value_keys(name, value)[0]}" for value in option["allowed"]
                        if value_word(name, value) is None]
    assert missing == []


def test_an_engine_refusal_is_said_by_its_key_in_every_language() -> None:
    error = ServiceError.of_engine("illegal_move", not_a_tile("5-3", 6), 409)
    assert (error.key, error.message) == ("tile_backwards", "'5-3' is written backwards: say '3-5'")
    said = {lang: words_of(error, lang) for lang in LANGUAGES}
    assert said["en"] == error.message
    assert said["ru"] == "'5-3' записана задом наперёд: пишите '3-5'"
    assert all("5-3" in words and "3-5" in words for words in said.values()), said
    assert len(set(said.values())) == len(LANGUAGES)
    # A word of the game among the parameters is said in the reader's language too.
    end = ServiceError.of_engine(
        "illegal_move", IllegalMove("tile_does_not_match_end", tile="6-6", end="left", n=3), 409)
    assert words_of(end, "en") == "6-6 does not match the left end (3)"
    assert words_of(end, "ru") == "6-6 не подходит: левый конец — 3"
    assert words_of(end, "fa") == "6-6 به سر چپ نمی‌خورد (3)"
    options = ServiceError.of_engine("bad_request", OptionsError("options_not_an_object"), 422)
    assert words_of(options, "th") == "ตัวเลือกต้องเป็นออบเจกต์"
