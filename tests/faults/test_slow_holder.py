"""A holder that answers a relayed move late (app.services.play.relay): it was only slow, and it
applied the move after the process the mover's socket is on had stopped waiting and tried
the move itself. That try is stale, because the move is made: the mover is answered with
the holder's change, not told that his move failed. The move is made once.

The order is forced with stopped processes: the holder is stopped while the move is relayed
to it, then Redis is stopped while the holder's write and, after the relaying process's
wait has run out, that process's own try of the move queue up in it; when Redis goes on it
runs the holder's write first.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import httpx

from app.services.play.relay import RELAY_SECONDS
from tests.e2e.client import Message, Player, create_table, join, register
from tests.faults.games import fault_env
from tests.faults.stores import PrivateRedis
from tests.servers import Server, run_server


async def play_until_seat_1_moves(table_id: str, a: Player, b: Player) -> Message:
    """Seat 0 (on the holder) moves whenever it is his turn, until it is seat 1's turn with
    a tile to play and both sockets have that version; returns seat 1's state then."""
    for _ in range(400):
        sa, sb = a.latest(table_id), b.latest(table_id)
        if sa is not None and sb is not None and sa["seq"] == sb["seq"]:
            view = sb["view"]
            if view["turn"] == view["you"] == 1 and view["legal"]:
                return sb
            view = sa["view"]
            if view["turn"] == view["you"] == 0 and view["legal"]:
                await a.request({**view["legal"][0], "type": "play", "table_id": table_id,
                                 "seq": sa["seq"]})
                continue
        await asyncio.sleep(0.05)
    raise AssertionError("seat 1 never had a move to make")


async def test_a_move_the_slow_holder_made_is_answered_as_made(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url)
    with run_server(env, log_dir=tmp_path) as holder, run_server(env, log_dir=tmp_path) as other:
        await slow_holder(holder, other, private_redis)


async def slow_holder(holder: Server, other: Server, redis: PrivateRedis) -> None:
    # Made, joined and started through the holder's HTTP: it made the last change.
    async with httpx.AsyncClient(base_url=holder.url, timeout=30) as http:
        accounts = [await register(http), await register(http)]
        table_id = (await create_table(http, accounts[0], seats=2, rated=False))["id"]
        a = await Player(holder.ws_url, accounts[0]).connect()
        b = await Player(other.ws_url, accounts[1]).connect()
        for p in (a, b):
            assert (await p.request({"type": "table.subscribe", "table_id": table_id}))[
                "type"] == "table.state"
        assert await join(http, table_id, accounts[1], seat=1) == 1
    state = await play_until_seat_1_moves(table_id, a, b)
    seq, move = state["seq"], state["view"]["legal"][0]
    try:
        holder.process.send_signal(signal.SIGSTOP)
        mark = len(b.frames) - 1
        await b.send({**move, "type": "play", "table_id": table_id, "seq": seq, "id": "m"})
        await asyncio.sleep(0.3)  # relayed: waiting in the stopped holder's socket
        redis.freeze()
        holder.process.send_signal(signal.SIGCONT)  # writes the move: queued in Redis
        await asyncio.sleep(RELAY_SECONDS + 0.2)  # `other` stops waiting, tries it: queued
    finally:
        redis.thaw()
        holder.process.send_signal(signal.SIGCONT)
    reply = await b.expect(lambda m: m.get("id") == "m", after=mark)
    assert reply["type"] == "table.state", reply
    assert reply["seq"] == seq + 1
    # Made once: both sockets see that version, with the tile on the table once.
    tile = move["tile"]
    for p in (a, b):
        made = await p.expect(lambda m: m["type"] == "table.state" and m["seq"] == seq + 1)
        plays = [e for e in made["events"] if e["type"] == "play"]
        assert [e["tile"] for e in plays] == [tile], made["events"]
    await asyncio.sleep(0.5)  # nobody moves now: nothing else comes
    for p in (a, b):
        assert [m["seq"] for m in p.states(table_id)][-1] == seq + 1
        await p.close()
