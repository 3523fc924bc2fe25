"""`view.spectators` is counted over every process from the shared store: the same on both
of two processes within a second of a spectator coming or going, and right on a fresh read
(a re-subscription, a new tab) whatever this process showed before."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.e2e.client import Player, create_table, register
from tests.servers import Server


async def _fresh_count(player: Player, table_id: str) -> int:
    """What a fresh read of the table says: the socket subscribes again."""
    state = await player.request({"type": "table.subscribe", "table_id": table_id})
    assert state["type"] == "table.state", state
    return int(state["view"]["spectators"])


async def _counts_settle(readers: list[Player], table_id: str, expected: int) -> float:
    """Seconds until a fresh read on every reader says `expected` (fails after 3 s)."""
    started = time.monotonic()
    while True:
        counts = [await _fresh_count(reader, table_id) for reader in readers]
        if counts == [expected] * len(readers):
            return time.monotonic() - started
        assert time.monotonic() - started < 3, (counts, expected)
        await asyncio.sleep(0.05)


async def test_spectators_are_counted_alike_on_every_process(
    server_pair: tuple[Server, Server],
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        owner = await register(http)
        table = await create_table(http, owner, seats=3)
    table_id = table["id"]
    # The seated owner reads the table on both processes; seated players are not spectators.
    readers = [await Player(server.ws_url, owner).connect() for server in (first, second)]
    assert [await _fresh_count(r, table_id) for r in readers] == [0, 0]

    # Three spectators: two on the first process, one on the second.
    watching = []
    for server in (first, first, second):
        spectator = await Player(server.ws_url).connect()
        await spectator.request({"type": "table.subscribe", "table_id": table_id})
        watching.append(spectator)
    assert await _counts_settle(readers, table_id, 3) < 1.5
    # A new tab on either process reads them and itself at once, not what was shown before.
    for server in (second, first):
        newcomer = await Player(server.ws_url).connect()
        assert await _fresh_count(newcomer, table_id) == 4
        await newcomer.close()
    await _counts_settle(readers, table_id, 3)
    # The sockets already there are told the count as it changes.
    for reader in readers:
        note = await reader.expect(
            lambda m: m["type"] == "table.presence" and m.get("spectators") == 3, timeout=5)
        assert note["table_id"] == table_id

    # One leaves on the first process, one stops watching on the second.
    await watching[0].close()
    await watching[2].send({"type": "table.unsubscribe", "table_id": table_id})
    assert await _counts_settle(readers, table_id, 1) < 1.5
    for player in [*readers, *watching[1:]]:
        await player.close()
