"""The protocol as a JSON Schema (draft 2020-12), made from the models themselves: the
client's messages (app.api.protocol), the server's (app.wire.messages) and the messages
between the server's processes. `docs/protocol.schema.json` is its output, kept equal to
it by a test:

    python -m app.api.schema > docs/protocol.schema.json

Validate a frame against `{"$ref": "#/$defs/ServerMessage"}` (or `ClientMessage`,
`InterProcess`) with this document's `$defs`. Every message allows fields it does not
name (PROTOCOL: extra fields are always allowed); the fields it names are required where
PROTOCOL sends them always.
"""

from __future__ import annotations

import sys
import types
from functools import cache
from typing import (
    Annotated,
    Any,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

import orjson
import typing_extensions
from pydantic import TypeAdapter
from typing_extensions import is_typeddict

from app.api.protocol import ClientMessage
from app.wire.between import InterProcess, PlayerNotice, TournamentNote
from app.wire.messages import PROTOCOL, ServerMessage

# Each direction's union, and the two messages between processes that go on channels of
# their own (players', tournaments') and carry no `kind`.
DIRECTIONS: dict[str, Any] = {
    "ClientMessage": ClientMessage,
    "ServerMessage": ServerMessage,
    "InterProcess": InterProcess,
    "PlayerNotice": PlayerNotice,
    "TournamentNote": TournamentNote,
}


def protocol_schema() -> dict[str, Any]:
    """The whole protocol: every message of each direction under `$defs`."""
    keyed, shared = TypeAdapter.json_schemas(
        [(name, "validation", TypeAdapter(portable(kind))) for name, kind in DIRECTIONS.items()])
    # A union's schema is made here; a single message's is already among the `$defs`.
    unions = {name: keyed[(name, "validation")] for name in DIRECTIONS
              if keyed[(name, "validation")] != {"$ref": f"#/$defs/{name}"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "The dominoes server's protocol",
        "description": (
            "Client -> server (ClientMessage) and server -> client (ServerMessage) websocket "
            "frames of PROTOCOL §2, and the messages between the server's processes "
            "(InterProcess; PlayerNotice and TournamentNote on their own channels). Made by "
            "`python -m app.api.schema` from the models."),
        "protocol": PROTOCOL,
        "$defs": {**shared.get("$defs", {}), **unions},
    }


def portable(hint: Any) -> Any:
    """`hint` with every TypedDict in it made again by typing_extensions, whose TypedDicts
    pydantic reads on Python 3.11 (the engine's, of the standard library, it does not):
    the same names, fields, optional keys and documentation."""
    origin = get_origin(hint)
    if is_typeddict(hint):
        return _typed_dict(hint)
    if origin is Annotated:
        inner, *meta = get_args(hint)
        return Annotated[(portable(inner), *meta)]
    if origin in (Union, types.UnionType):
        return Union[tuple(portable(arg) for arg in get_args(hint))]  # noqa: UP007
    if origin in (NotRequired, Required, list, dict, tuple):
        return origin[tuple(portable(arg) for arg in get_args(hint))]
    return hint


@cache
def _typed_dict(cls: Any) -> Any:
    fields = {}
    for name, hint in get_type_hints(cls, include_extras=True).items():
        if get_origin(hint) in (NotRequired, Required):
            hint = get_args(hint)[0]
        hint = portable(hint)
        fields[name] = NotRequired[hint] if name in cls.__optional_keys__ else hint
    made = typing_extensions.TypedDict(cls.__name__, fields)  # type: ignore[misc]
    made.__doc__ = cls.__doc__
    made.__module__ = cls.__module__
    return made


def dumps(schema: dict[str, Any]) -> bytes:
    """The document as it is committed: indented, one trailing newline."""
    return orjson.dumps(schema, option=orjson.OPT_INDENT_2) + b"\n"


if __name__ == "__main__":
    sys.stdout.buffer.write(dumps(protocol_schema()))
