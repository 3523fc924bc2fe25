"""docs/protocol.schema.json is what the models make (so it never goes stale), and the
check of frames against it catches a frame whose field was renamed."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from typing import Any

import orjson

from app.api.schema import dumps, protocol_schema
from app.services.fanout.snapshot import Snapshot
from app.services.tables.lobby import Deal, Terms, begin, new_table
from app.services.tables.table import Person
from app.services.tables.transact import seal
from app.wire.messages import PROTOCOL
from tests.protocol_schema import SCHEMA, problems, schema
from tests.servers import REPO


def test_the_committed_schema_is_what_the_models_make() -> None:
    assert SCHEMA.read_bytes() == dumps(protocol_schema()), (
        "docs/protocol.schema.json is stale: python -m app.api.schema > "
        "docs/protocol.schema.json")


def test_the_command_prints_the_committed_schema() -> None:
    done = subprocess.run([sys.executable, "-m", "app.api.schema"], cwd=REPO,
                          capture_output=True, timeout=120, check=True)
    assert done.stdout == SCHEMA.read_bytes()


def test_the_schema_names_the_protocol_and_both_directions() -> None:
    document = schema()
    assert document["protocol"] == PROTOCOL == 1
    assert {"ClientMessage", "ServerMessage", "InterProcess"} <= set(document["$defs"])
    welcome = document["$defs"]["Welcome"]
    assert {"type", "player", "protocol"} <= set(welcome["required"])


def _started_state() -> dict[str, Any]:
    """A real `table.state` of seat 0 just after a four-seat Goat game started, as the
    server serialises it."""
    people = tuple(Person(n + 1, f"p{n}") for n in range(4))
    waiting = replace(new_table("t1", people[0], Terms("goat", 4), people, 1), version=1)
    step = begin(waiting, Deal.fresh())
    table = seal(waiting, step, 2).table
    snapshot = Snapshot(table, {0, 1, 2, 3}, step.game)
    return dict(orjson.loads(orjson.dumps(snapshot.message(1, table.version - 1))))


def _renamed(frame: dict[str, Any], path: list[Any], new: str) -> dict[str, Any]:
    copy = orjson.loads(orjson.dumps(frame))
    *parents, last = path
    where = copy
    for key in parents:
        where = where[key]
    where[new] = where.pop(last)
    return dict(copy)


def test_a_frame_with_a_renamed_field_is_caught() -> None:
    state = _started_state()
    assert state["events"], "a start has events"
    assert problems(state) == []
    assert problems({"type": "welcome", "player": {"id": 1, "name": "x"}, "protocol": 1}) == []
    # extra fields are allowed (PROTOCOL); renamed ones are breakage
    assert problems({**state, "extra": True}) == []
    for path, new in ((["seq"], "sequence"), (["view", "legal"], "moves"),
                      (["view", "seats", 0, "connected"], "online"),
                      (["events", 0, "round"], "rnd"), (["table_id"], "table")):
        found = problems(_renamed(state, path, new))
        assert found, f"renaming {path} to {new!r} went unnoticed"
        assert any(repr(path[-1]) in p for p in found), found
    assert problems({**state, "type": "table.stat"}), "an unknown message type passes"
    assert problems({"type": "welcome", "player": {"id": 1, "name": "x"}}), \
        "a welcome without its protocol passes"
    assert problems({**state, "seq": "3"}), "a mistyped field passes"


def test_the_client_direction_is_checked_too() -> None:
    assert problems({"type": "play", "table_id": "t", "tile": "1-1", "seq": 3},
                    "ClientMessage") == []
    assert problems({"type": "play", "table_id": "t", "tile": "1-1", "sequence": 3},
                    "ClientMessage")
