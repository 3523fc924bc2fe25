"""`Table` reads and writes exactly the JSON the live store keeps.

`stored_tables.json` holds tables as the server stored them before the state was typed
(waiting, with a bot, mid-game at a table with a pause and bot takeover, finished, with a
rematch offered), with the lobby's `table` and every seat's `view` that server made of them:
the typed table writes them back unchanged and shows them the same. They were stored before
tables could be private, and before the reserve and `on_timeout` (which replaced the flag
`bot_takeover`): they load as public tables with no reserve, a bot taking over where the
flag said so, and say so.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.live.store import dumps
from app.services.tables.table import LogEntry, Person, Rematch, Table
from app.services.tables.transact import build_view, game_of, public_table

STORED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "stored_tables.json").read_text())


def _later(state: dict[str, Any]) -> dict[str, Any]:
    """What a state stored before the later fields says of them once read."""
    return {"private": False, "reserve_seconds": 0,
            "on_timeout": "computer" if state.get("bot_takeover") else "end"}


def _without_flag(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "bot_takeover"}


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_table_round_trips_exactly(name: str) -> None:
    state = STORED[name]["state"]
    table = Table.from_dict(state, 7)
    assert table.version == 7
    expected = {"next_round_at": None, **_without_flag(state), **_later(state)}
    assert table.to_dict() == expected
    assert orjson.loads(table.to_json()) == expected
    assert Table.from_dict(table.to_dict()) == table


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_table_shows_as_it_did(name: str) -> None:
    table = Table.from_dict(STORED[name]["state"])
    state = STORED[name]["state"]
    assert public_table(table) == {**_without_flag(STORED[name]["table"]), **_later(state)}
    game = game_of(table)
    views = [build_view(table, game, seat, {0}, 2) for seat in [None, *range(table.players)]]
    # A game stored before rule editions were named plays on by the first rules, and its
    # views now say so, and that nobody has a reserve; nothing else of them changed.
    edition = {} if game is None else {"rules": 1}
    clock = {"clock": {"reserve_ms": [0] * table.players}}
    assert views == [{**view, **edition, **clock} for view in STORED[name]["views"]]


def test_the_stored_tables_cover_every_field() -> None:
    playing = Table.from_dict(STORED["playing"]["state"])
    assert playing.status == "playing" and playing.game is not None and playing.log
    assert playing.on_timeout == "computer" and playing.round_pause_seconds == 5
    assert playing.seats[3] == Person(-4, "Bot 4 (strong)", "strong")
    assert playing.seats[3] is not None and playing.seats[3].is_bot
    offered = Table.from_dict(STORED["rematch_offered"]["state"])
    assert offered.rematch == Rematch((0,), None)
    assert offered.finished_at is not None and offered.rated


def test_a_table_stored_before_its_later_fields_loads_with_their_defaults() -> None:
    old = {k: v for k, v in STORED["playing"]["state"].items()
           if k not in ("round_pause_seconds", "bot_takeover", "bot_pace_ms", "next_round_at",
                        "rematch", "private")}
    table = Table.from_dict(old)
    assert (table.round_pause_seconds, table.on_timeout, table.bot_pace_ms,
            table.next_round_at, table.rematch, table.private) == (0, "end", 1500, None, None,
                                                                     False)
    assert (table.reserve_seconds, table.reserve_ms, table.moved, table.stand_ins) == (
        0, None, None, ())
    assert table.to_dict() == {**old, "round_pause_seconds": 0, "on_timeout": "end",
                               "bot_pace_ms": 1500, "next_round_at": None, "private": False,
                               "reserve_seconds": 0}
    assert public_table(table)["round_pause_seconds"] == 0
    assert public_table(table)["private"] is False


def test_a_private_table_says_so_and_round_trips() -> None:
    table = replace(Table.from_dict(STORED["playing"]["state"]), private=True)
    assert table.to_dict()["private"] is True
    assert Table.from_dict(orjson.loads(table.to_json())) == table
    assert public_table(table)["private"] is True


def test_the_log_kept_as_json_is_written_as_the_log_itself() -> None:
    table = Table.from_dict(STORED["playing"]["state"])
    assert table.log_json is None
    kept = replace(table, log_json=tuple(dumps(entry.to_dict()) for entry in table.log))
    assert orjson.loads(kept.to_json()) == table.to_dict()
    # What is kept is what is written: a log entry the JSON does not hold is not stored.
    longer = replace(kept, log=(*kept.log, LogEntry(99, [])))
    assert orjson.loads(longer.to_json())["log"] == table.to_dict()["log"]


@pytest.mark.parametrize("name", sorted(STORED))
def test_the_log_entries_are_found_again_in_the_written_state(name: str) -> None:
    """A process that receives a table's state finds its log entries' JSON in it by their
    sizes (and only there), so it need not serialise them again."""
    table = Table.from_dict(STORED[name]["state"])
    kept = replace(table, log_json=tuple(dumps(entry.to_dict()) for entry in table.log))
    state = kept.to_json()
    sizes = kept.log_sizes()
    assert sizes is not None and len(sizes) == len(table.log)
    assert Table.logged(state, sizes) == kept.log_json
    read = Table.from_dict(orjson.loads(state), 5, Table.logged(state, sizes))
    assert read.log_json == kept.log_json and read.to_json() == state
    if sizes:
        assert Table.logged(state, [*sizes[:-1], sizes[-1] + 1]) is None
        assert Table.logged(state + b" ", sizes) is None
    assert table.log_sizes() is None


def test_seats_are_found_by_player() -> None:
    table = Table.from_dict(STORED["playing"]["state"])
    ids = [None if who is None else who.id for who in table.seats]
    assert [table.seat_of(i) for i in ids] == [0, 1, 2, 3]
    assert table.seat_of(12345) is None and table.seat_of(None) is None
    assert [who.name for who in table.people()] == ["p1", "p2", "p3"]
    emptied = table.with_seat(1, None)
    assert emptied.free_seats() == [1] and table.free_seats() == []


def test_why_a_rated_game_pays_nothing_is_stored_only_when_there_is_a_reason() -> None:
    stored = STORED["playing"]["state"]
    assert "unrated_reason" not in stored
    assert Table.from_dict(stored).unrated_reason is None
    unrated = replace(Table.from_dict(stored), rated=False, unrated_reason="bot_takeover")
    assert unrated.to_dict()["unrated_reason"] == "bot_takeover"
    assert orjson.loads(unrated.to_json())["unrated_reason"] == "bot_takeover"
    assert Table.from_dict(unrated.to_dict()) == unrated
