"""Frames checked against the committed JSON Schema of the protocol,
docs/protocol.schema.json (made from the models by `python -m app.api.schema`), with the
`jsonschema` package: the file itself is what outside clients get, so it is what is checked."""

from __future__ import annotations

import json
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"


def schema() -> dict[str, Any]:
    return dict(json.loads(SCHEMA.read_text()))


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator of one of the schema's `$defs` (`ServerMessage`, `ClientMessage`,
    `InterProcess`, or one message such as `TableState`) by the committed schema."""
    document = schema()
    assert name in document["$defs"], name
    root = {"$schema": document["$schema"], "$defs": document["$defs"],
            "$ref": f"#/$defs/{name}"}
    Draft202012Validator.check_schema(root)
    return Draft202012Validator(root)


def problems(frame: Any, direction: str = "ServerMessage") -> list[str]:
    """Why `frame` is not a message of `direction` ([] when it is one; `direction` may
    also name one message, e.g. `PlayerNotice`). The message is
    found by its discriminator (`type`, or `kind` between processes), as a client does, so
    each error names the field at fault."""
    union = schema()["$defs"][direction]
    if "discriminator" not in union:  # one message, not a union of them
        return [_said(error) for error in validator(direction).iter_errors(frame)]
    key = union["discriminator"]["propertyName"]
    ref = union["discriminator"]["mapping"].get(frame.get(key)) \
        if isinstance(frame, dict) else None
    if ref is None:
        found = [_said(error) for error in validator(direction).iter_errors(frame)]
        return found or [f"{key}: no message is called {frame!r}"]
    return [_said(error) for error in validator(ref.rsplit("/", 1)[1]).iter_errors(frame)]


def _said(error: ValidationError) -> str:
    best = _deepest(error)
    where = "/".join(str(p) for p in best.absolute_path) or "(frame)"
    return f"{where}: {best.message}"


def _deepest(error: ValidationError) -> ValidationError:
    """The error inside a `oneOf` (of events, say) of the branch the instance's own tag
    chose, rather than "not valid under any of the given schemas"."""
    if not error.context:
        return error
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for inner in error.context:
        branches[inner.relative_schema_path[0]].append(inner)

    def tag_differs(errors: list[ValidationError]) -> bool:
        return any(e.validator == "const" and list(e.relative_path) in (["type"], ["kind"])
                   for e in errors)

    chosen = [errors for errors in branches.values() if not tag_differs(errors)]
    if len(chosen) != 1:
        return error
    return _deepest(chosen[0][0])
