"""Every byte layout the server builds by hand instead of serialising a whole object, with
the function that builds it and the one that reads it back.

They exist because the move path cannot afford to serialise a table's state or a view
twice: a piece of JSON made once is spliced into the next message as bytes.

- A change's announcement (published by app/live/lua/write.lua and restore.lua): a JSON
  header line (`change_header`: kind, table id, version, writer, whatever the writer adds,
  the state's length in bytes), a newline, the state's JSON, then the writer's parts
  (`change_message`; the scripts concatenate the same three pieces). `announced` reads one
  back without parsing the state.
- The writer's parts: pieces of bytes one after another, their sizes in the header
  (`join_parts`, `split_parts`).
- A view spliced from a part every seat shares and each seat's own rest (`view_head`,
  `view_rest`, `joined_view`): the shared part is serialised once for every seat.
- A table's state with its log's entries as they were serialised by the changes that made
  them, the log its last member (`with_log`), so a reader finds the entries again by their
  sizes without parsing them (`log_sizes`, `logged`).
- The write script's arguments (`write_argv`, `read_write_argv`): one JSON header of named
  small values, then the big payloads as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson

from app.wire.between import ChangeHeader

# -- a change's announcement ------------------------------------------------------------

CHANGE_PREFIX = b'{"kind":"change",'


def members(fields: Mapping[str, Any]) -> bytes:
    """`fields` as more members of a JSON object made elsewhere: `,"name":value,...` (empty
    for no fields), to go just before that object's closing brace."""
    if not fields:
        return b""
    return b"," + orjson.dumps(fields)[1:-1]


def change_header(table_id: str, version: int, writer: str, more: bytes, state_size: int
                  ) -> bytes:
    """The header line of a change's announcement: `more` (from `members`) after the
    change's own fields, the state's size last, then the newline."""
    return b'{"kind":"change","table_id":%b,"v":%d,"writer":%b%b,"state":%d}\n' % (
        orjson.dumps(table_id), version, orjson.dumps(writer), more, state_size)


def change_message(header: bytes, state: bytes, parts: bytes = b"") -> bytes:
    """A whole announcement: what the write script publishes as `header .. state .. parts`."""
    return header + state + parts


@dataclass(frozen=True, slots=True)
class Announced:
    """A change's announcement as received: its header, and where the state's JSON and the
    writer's parts lie in the message (neither parsed nor copied yet)."""

    header: ChangeHeader
    message: bytes
    start: int

    @property
    def version(self) -> int:
        return int(self.header["v"])

    @property
    def writer(self) -> str:
        return str(self.header["writer"])

    def state(self) -> bytes:
        return self.message[self.start:self.start + self.header["state"]]

    def parts(self) -> bytes:
        return self.message[self.start + self.header["state"]:]


def announced(message: bytes) -> Announced | None:
    """A change's announcement (`change_message`), its header read and the rest left as it
    is; None for any other message, or a malformed one."""
    if not message.startswith(CHANGE_PREFIX):
        return None
    end = message.find(b"\n")
    if end < 0:
        return None
    try:
        header = orjson.loads(message[:end])
    except orjson.JSONDecodeError:
        return None
    if not (isinstance(header, dict) and isinstance(header.get("v"), int)
            and isinstance(header.get("state"), int) and isinstance(header.get("writer"), str)
            and 0 <= header["state"] <= len(message) - end - 1):
        return None
    return Announced(cast(ChangeHeader, header), message, end + 1)


# -- pieces one after another -----------------------------------------------------------


def join_parts(parts: Sequence[bytes]) -> tuple[bytes, list[int]]:
    """The pieces one after another, and their sizes (for `split_parts`)."""
    return b"".join(parts), [len(part) for part in parts]


def split_parts(joined: bytes, sizes: Sequence[Any]) -> list[bytes] | None:
    """The pieces `join_parts` joined, by their sizes; None when the sizes are not sizes or
    do not add up to `joined`."""
    if not all(type(size) is int and size >= 0 for size in sizes) or sum(sizes) != len(joined):
        return None
    pieces, at = [], 0
    for size in sizes:
        pieces.append(joined[at:at + size])
        at += size
    return pieces


# -- a view spliced from a shared part and a seat's own ----------------------------------


def view_head(shared: Mapping[str, Any]) -> bytes:
    """The part of a JSON object every seat's view shares, open for a seat's own members:
    `{...,` (`{` when it has none)."""
    text = orjson.dumps(shared)
    return b"{" if len(text) == 2 else text[:-1] + b","


def view_rest(own: Mapping[str, Any]) -> bytes:
    """A seat's own members, closing the object: `...}` (`}` when it has none)."""
    return orjson.dumps(own)[1:]


def joined_view(head: bytes, rest: bytes) -> bytes:
    """One seat's whole view: `head` (`view_head`) closed by `rest` (`view_rest`); the JSON
    of the shared members followed by the seat's own."""
    if len(rest) == 1 and len(head) > 1:
        return head[:-1] + rest  # no members of its own: the head's comma goes
    return head + rest


# -- a state whose log is kept as its entries' JSON -------------------------------------


def with_log(fields: Mapping[str, Any], entries: Sequence[bytes]) -> bytes:
    """The JSON object of `fields` with `"log"`, the array of `entries` (each a JSON text,
    as it is), as its last member (a "log" among `fields` is replaced)."""
    data = dict(fields)
    data.pop("log", None)
    data["log"] = orjson.Fragment(b"[" + b",".join(entries) + b"]")
    return orjson.dumps(data)


def log_sizes(entries: Sequence[bytes]) -> list[int]:
    """What `logged` needs to find `entries` in a `with_log` again."""
    return [len(entry) for entry in entries]


def logged(state: bytes, sizes: Sequence[int]) -> tuple[bytes, ...] | None:
    """The log's entries as they lie in `state` (a `with_log` of entries of these sizes: the
    log is its last member, `"log":[...]}`). None when `state` does not hold them there."""
    end = len(state) - 2  # the log's "]"
    start = end - sum(sizes) - max(0, len(sizes) - 1)
    if start < 1 or state[end:] != b"]}" or state[start - 1:start] != b"[" \
            or not state[:start - 1].endswith(b'"log":'):
        return None
    entries = []
    for size in sizes:
        entry = state[start:start + size]
        start += size + 1
        if start <= end and state[start - 1:start] != b",":
            return None
        entries.append(entry)
    return tuple(entries)


# -- the write script's arguments -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WriteArgv:
    """The write script's arguments (app/live/lua/write.lua), as `read_write_argv` reads
    them: `header`, its named small values (a JSON object the script decodes with cjson),
    then as they are: the state, the change's announcement header line (`change_header`),
    the writer's parts, the lobby's message (b"" for none) and the rounds to archive, each
    one JSON text. None of those is copied into the header: a state, a view and a round are
    kilobytes of JSON, which a JSON string would have to escape and the script unescape (a
    copy each way, on every move)."""

    header: Mapping[str, Any]
    state: bytes
    change: bytes
    parts: bytes = b""
    lobby: bytes = b""
    rounds: Sequence[bytes] = ()


def write_argv(header: Mapping[str, Any], state: bytes, change: bytes, parts: bytes,
               lobby: bytes, rounds: Sequence[bytes]) -> list[bytes]:
    """The script's ARGV (see `WriteArgv`): ARGV[1] the header, ARGV[2] the state, ARGV[3]
    the change's header line, ARGV[4] the parts, ARGV[5] the lobby's message, ARGV[6...]
    the rounds. A value the script is to see as nil is left out of `header` (a JSON null
    is cjson.null there, which is true)."""
    return [orjson.dumps(header), state, change, parts, lobby, *rounds]


def read_write_argv(argv: Sequence[bytes]) -> WriteArgv:
    """The arguments `write_argv` made, read as the script reads them."""
    header, state, change, parts, lobby, *rounds = argv
    return WriteArgv(orjson.loads(header), state, change, parts, lobby, tuple(rounds))
