"""app.wire.bytes: every layout built by hand reads back as the parts it was built from,
whatever JSON-safe contents they hold (keys that look like the layout's own text, unicode,
empty pieces)."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.wire.bytes import (
    CHANGE_PREFIX,
    WriteArgv,
    announced,
    change_header,
    change_message,
    join_parts,
    joined_view,
    log_sizes,
    logged,
    members,
    read_write_argv,
    split_parts,
    view_head,
    view_rest,
    with_log,
    write_argv,
)

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text as JSON carries it: any character but a lone surrogate, with the layouts' own bytes
# among them often.
TRICKY = ["log", '"log"', '"log":', '"log":[', "]}", "[", "]", ",", ":", '"', "\\", "\n",
          "{", "}", '{"kind":"change",', "state", "\u0431", "✓", "\U0001f0a1", "\x00"]
texts = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.lists(st.sampled_from(TRICKY), max_size=4).map("".join),
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False), texts,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(texts, inner, max_size=4)),
    max_leaves=8,
)
objects = st.dictionaries(texts, values, max_size=5)


@SETTINGS
@given(objects, objects)
def test_members_extend_an_object_made_elsewhere(first: dict[str, Any],
                                                 more: dict[str, Any]) -> None:
    made = orjson.dumps(first)
    assert orjson.loads(made[:-1] + (members(more)[1:] if len(made) == 2 else members(more))
                        + b"}") == {**first, **more}
    assert members({}) == b""


RESERVED = {"kind", "table_id", "v", "writer", "state"}


@SETTINGS
@given(texts, st.integers(0, 2**53), texts,
       st.dictionaries(texts.filter(lambda key: key not in RESERVED), values, max_size=5),
       values, st.binary(max_size=64))
def test_a_change_announcement_reads_back_as_its_parts(
    table_id: str, version: int, writer: str, extra: dict[str, Any], state: Any, parts: bytes,
) -> None:
    state_json = orjson.dumps(state)
    header = change_header(table_id, version, writer, members(extra), len(state_json))
    assert header.startswith(CHANGE_PREFIX) and header.endswith(b"\n")
    assert header.count(b"\n") == 1
    change = announced(change_message(header, state_json, parts))
    assert change is not None
    assert change.version == version and change.writer == writer
    assert change.header == {"kind": "change", "table_id": table_id, "v": version,
                             "writer": writer, **extra, "state": len(state_json)}
    assert change.state() == state_json and change.parts() == parts
    # Cut short, it is not taken for a change.
    assert announced(change_message(header, state_json)[:-1] if state_json else header[:-1]
                     ) is None


@SETTINGS
@given(st.binary(max_size=40))
def test_other_messages_are_not_changes(message: bytes) -> None:
    assert announced(message) is None or message.startswith(CHANGE_PREFIX)
    assert announced(orjson.dumps({"kind": "update", "table_id": "t", "v": 1})) is None


@SETTINGS
@given(st.lists(st.binary(max_size=20), max_size=8))
def test_parts_split_again_by_their_sizes(parts: list[bytes]) -> None:
    joined, sizes = join_parts(parts)
    assert split_parts(joined, sizes) == parts
    assert split_parts(joined + b"x", sizes) is None
    if sizes:
        assert split_parts(joined, [*sizes[:-1], -1]) is None
        assert split_parts(joined, [*sizes[:-1], "1"]) is None


@SETTINGS
@given(objects, objects)
def test_a_view_spliced_from_a_shared_part_and_a_seats_own_is_both(
        shared: dict[str, Any], more: dict[str, Any]) -> None:
    own = {key: value for key, value in more.items() if key not in shared}
    whole = joined_view(view_head(shared), view_rest(own))
    assert orjson.loads(whole) == {**shared, **own}
    assert list(orjson.loads(whole)) == [*shared, *own]


@SETTINGS
@given(objects, st.lists(values, max_size=6))
def test_log_entries_are_found_again_in_the_state_by_their_sizes(
        fields: dict[str, Any], log: list[Any]) -> None:
    entries = [orjson.dumps(entry) for entry in log]
    state = with_log(fields, entries)
    read = orjson.loads(state)
    assert list(read)[-1] == "log" and read["log"] == log
    assert {k: v for k, v in read.items() if k != "log"} == \
        {k: v for k, v in fields.items() if k != "log"}
    sizes = log_sizes(entries)
    assert logged(state, sizes) == tuple(entries)
    assert logged(state + b" ", sizes) is None
    if sizes:
        assert logged(state, [*sizes[:-1], sizes[-1] + 1]) is None
        assert logged(orjson.dumps({**fields, "other": 0}), sizes) is None


header_values = st.one_of(st.booleans(), st.integers(-(2**53), 2**53), texts,
                          st.lists(st.floats(0.001, 1000), max_size=4))


@SETTINGS
@given(st.dictionaries(texts, header_values, max_size=8), st.binary(max_size=30),
       st.binary(max_size=30), st.binary(max_size=30), st.binary(max_size=30),
       st.lists(st.binary(max_size=10), max_size=4))
def test_the_write_scripts_arguments_read_back_as_named(
    header: dict[str, Any], state: bytes, change: bytes, parts: bytes, lobby: bytes,
    rounds: list[bytes],
) -> None:
    argv = write_argv(header, state, change, parts, lobby, rounds)
    assert argv[1:] == [state, change, parts, lobby, *rounds]
    assert read_write_argv(argv) == WriteArgv(header, state, change, parts, lobby,
                                              tuple(rounds))
