"""Messages between processes as their receivers get them (app.wire.notes): a channel's
message is handed on typed, with its extra fields as sent; any other shape is dropped,
on its own and through a real subscription."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import orjson
import pytest

from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.wire.notes import (
    LOBBY_NOTES,
    PLAYER_NOTES,
    PROCESS_NOTES,
    RESUBSCRIBED,
    SESSION_NOTES,
    TABLE_NOTES,
    TOURNAMENT_NOTES,
    Reader,
    resubscribed,
)

RELAYED = {"kind": "play", "rid": "p1.7", "reply_to": "ch:p1", "player": 3, "table_id": "t1",
           "tile": "6-6", "end": None, "seq": 4, "fields": {}, "charge": None}


@pytest.mark.parametrize(("reader", "message"), [
    (TABLE_NOTES, {"kind": "presence", "table_id": "t1", "seats": [0, 2]}),
    (TABLE_NOTES, {"kind": "spectators", "table_id": "t1", "count": 3}),
    (TABLE_NOTES, {"kind": "chat", "message": {"type": "chat"}, "origin": "c1"}),
    (TABLE_NOTES, {"kind": "removed", "table_id": "t1", "v": 9}),
    (TABLE_NOTES, {"kind": "removed", "table_id": "t1"}),  # as an older process sent it
    (LOBBY_NOTES, {"kind": "remove", "table_id": "t1"}),
    (LOBBY_NOTES, {"kind": "update", "table_id": "t1", "v": 2, "table": {"id": "t1"}}),
    (PROCESS_NOTES, RELAYED),
    (PROCESS_NOTES, {"kind": "played", "rid": "p1.7", "refused": 250}),
    (SESSION_NOTES, {"kind": "revoked", "sessions": ["s1"]}),
    (PLAYER_NOTES, {"players": [1], "message": {"type": "seek.matched"}}),
    (TOURNAMENT_NOTES, {"tournament_id": "x", "tournament": {"id": "x"}}),
])
def test_a_channels_message_is_read_as_sent_extra_fields_and_all(
    reader: Reader[Any], message: dict[str, Any]
) -> None:
    sent = {**message, "added_by_a_newer_process": [1, 2]}
    assert reader.read(orjson.loads(orjson.dumps(sent))) == sent


@pytest.mark.parametrize(("reader", "message"), [
    (TABLE_NOTES, {"kind": "presence", "table_id": "t1"}),  # no seats
    (TABLE_NOTES, {"kind": "play", **{k: v for k, v in RELAYED.items() if k != "kind"}}),
    (TABLE_NOTES, {"table_id": "t1", "seats": []}),  # no kind
    (LOBBY_NOTES, {"kind": "update", "table_id": "t1", "v": 2}),  # no table
    (PROCESS_NOTES, {k: v for k, v in RELAYED.items() if k != "seq"}),
    (PROCESS_NOTES, {"kind": "presence", "table_id": "t1", "seats": []}),  # not this channel's
    (SESSION_NOTES, {"kind": "revoked"}),
    (PLAYER_NOTES, {"players": [1]}),
    (TOURNAMENT_NOTES, ["x"]),
    (TOURNAMENT_NOTES, "x"),
])
def test_any_other_shape_is_dropped(reader: Reader[Any], message: object) -> None:
    assert reader.read(message) is None


def test_the_word_after_a_gap_is_told_from_every_channels_messages() -> None:
    assert resubscribed(RESUBSCRIBED)
    # Equal is not enough: a channel's own message could look like it.
    assert not resubscribed({"kind": "resubscribed"})
    assert not resubscribed({"players": [1], "message": {}})


async def test_a_subscription_hands_on_its_channels_messages_and_drops_the_rest(
    redis_url: str, redis_prefix: str
) -> None:
    store = LiveStore(connect(redis_url), f"{redis_prefix}_notes_{secrets.token_hex(3)}")
    hub = Hub(store)
    heard: list[object] = []
    channel = store.keys.process_channel("elsewhere")
    await hub.start(lambda message: None)
    try:
        await hub.add(channel, heard.append, PROCESS_NOTES)
        for message in [b"not json", b"[1]", orjson.dumps({"kind": "play", "rid": "x"}),
                        orjson.dumps({"kind": "presence", "table_id": "t", "seats": []}),
                        orjson.dumps(RELAYED)]:
            await store.command("SPUBLISH", channel, message)
        for _ in range(100):
            if heard:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # nothing else comes after the last one
        assert heard == [RELAYED]
    finally:
        await hub.stop()
        await store.close()
