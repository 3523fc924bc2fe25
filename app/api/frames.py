"""Reading a websocket frame (PROTOCOL §2): its size, its JSON, its message's shape, its id.

What is refused here is the client's own mistake, answered `bad_request` with the frame's
id when it can be found (and echoed exactly as sent).
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import ValidationError

from app.api.bounds import holds_nul
from app.api.protocol import client_message

MAX_FRAME_BYTES = 16 * 1024

# The id of a frame that has none (or none that can be echoed): the reply carries no id.
NO_ID: Any = object()
# A number `id` is echoed exactly only within JavaScript's safe integers (and JSON readers
# like ours): beyond 2**53 it would come back as a rounded float, so it is refused.
MAX_ID_MAGNITUDE = 2**53


def frame_id(text: str | None) -> Any:
    """The id of a frame we refuse before reading it properly, when it is cheap to find."""
    if text is None or len(text) > MAX_FRAME_BYTES:
        return NO_ID
    try:
        data = orjson.loads(text)
    except ValueError:
        return NO_ID
    return echoable(data.get("id", NO_ID)) if isinstance(data, dict) else NO_ID


def echoable(msg_id: Any) -> Any:
    """`msg_id` if it can be echoed exactly as sent, else `NO_ID`."""
    if isinstance(msg_id, int | float) and not isinstance(msg_id, bool) \
            and abs(msg_id) > MAX_ID_MAGNITUDE:
        return NO_ID
    return msg_id


def is_chat(text: str | None) -> bool:
    """Whether a frame looks like a chat message (chat has a budget of its own); a cheap
    look, before the frame is parsed, that a frame could only fool into a smaller budget."""
    return text is not None and '"chat"' in text


def read(text: str | None) -> tuple[Any, Any, str | None]:
    """A frame as (message, its id, None), or (None, its id if found, why it is refused)."""
    if text is None:
        return None, NO_ID, "frames must be JSON text"
    if len(text.encode()) > MAX_FRAME_BYTES:
        return None, NO_ID, f"frame larger than {MAX_FRAME_BYTES} bytes"
    try:
        data = orjson.loads(text)
    except ValueError:
        return None, NO_ID, "frame is not valid JSON"
    if not isinstance(data, dict):
        return None, NO_ID, "a message is a JSON object with a `type`"
    msg_id = data.get("id", NO_ID)
    if msg_id is not NO_ID and echoable(msg_id) is NO_ID:
        return None, NO_ID, f"id: a number id must lie within ±2**53 ({MAX_ID_MAGNITUDE})"
    if holds_nul(data):
        return None, msg_id, "a message may not hold a NUL character (\\u0000)"
    try:
        return client_message.validate_python(data), msg_id, None
    except ValidationError as error:
        return None, msg_id, _describe(error, data)


def _describe(error: ValidationError, data: dict[str, Any]) -> str:
    kind = data.get("type")
    first = error.errors()[0]
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return f"unknown message type {kind!r}"
    where = ".".join(str(p) for p in first["loc"][1:]) or "message"
    return f"{kind}: {where}: {first['msg']}"
