"""A master of the live store's Redis Cluster killed mid-game: its replica takes over, and
the game goes on where it was; and a master of the shared sets away while a table is
written: the table is written, and the sets are kept by the next sweep.

The first: moves sent meanwhile are answered `unavailable` (or wait) and taken once the
replica is master; none is lost or made twice, and every player sees every move, also
those of the other process.

The replica must have what the master acknowledged: Redis replicates after answering, so a
master killed within that moment loses its last writes (as a Redis's AOF loses its last
second: the database copy of each round bounds it; README, "Beyond one Redis"). The test kills the
master once its replica has caught up.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import RedisError

from app.live.keys import Keys
from app.live.store import LiveStore, Write, connect, dumps, outage
from tests.e2e.client import Message, autoplay
from tests.e2e.game import Seated, seat_players
from tests.faults.games import fault_env, played_fairly_to_the_end
from tests.faults.gate import RedisGate
from tests.faults.stores import PrivateCluster
from tests.faults.test_store_faults import current
from tests.servers import Server, run_server


@contextlib.asynccontextmanager
async def a_game_on(cluster: PrivateCluster, pg_url: str, tmp_path: Path
                    ) -> AsyncIterator[tuple[Keys, Server, Server, Seated]]:
    """Two server processes on `cluster`, and a game of two begun, a seat on each."""
    env = fault_env(pg_url, cluster.url)
    with run_server(env, log_dir=tmp_path) as first, \
            run_server(env, log_dir=tmp_path) as second:
        seated = await seat_players([first, second], seats=2, turn_seconds=60)
        yield Keys(env["DOMINO_REDIS_PREFIX"]), first, second, seated


def traceback_in(output: str) -> str:
    """A server's log from a little before its first traceback, to read it whole."""
    at = output.find("Traceback")
    return output[max(0, at - 500):at + 4000]


async def test_a_master_killed_mid_game_hands_over_to_its_replica_and_loses_no_move(
    pg_url: str, tmp_path: Path
) -> None:
    cluster = PrivateCluster(tmp_path)
    cluster.start()
    try:
        async with a_game_on(cluster, pg_url, tmp_path) as (keys, first, second, seated):
            before = await current(first, seated.table_id)
            seat = before["view"]["turn"]
            mine = await seated.players[seat].request(
                {"type": "table.subscribe", "table_id": seated.table_id})
            legal = mine["view"]["legal"]
            move = {"type": "play", "table_id": seated.table_id, "tile": legal[0]["tile"],
                    "end": legal[0]["end"], "seq": before["seq"]}
            master = cluster.master_of(keys.table(seated.table_id))
            deadline = time.monotonic() + 10
            while not cluster.replica_caught_up(master):
                assert time.monotonic() < deadline, "the replica never caught up"
                await asyncio.sleep(0.05)
            cluster.kill(master)

            # The seat on turn moves until the store takes it. Meanwhile: `unavailable`, and
            # once the store is back its clocks restart (a version of their own: the move is
            # `stale` then, and sent again on the state as it is now).
            answers: list[str] = []
            reply: Message = {}
            for _ in range(200):
                reply = await seated.players[seat].request(move, timeout=30)
                answers.append(str(reply.get("code", reply["type"])))
                if reply.get("code") == "stale":
                    now = await seated.players[seat].request(
                        {"type": "table.subscribe", "table_id": seated.table_id})
                    assert now["view"]["hand"].count(move["tile"]) == 1, "taken, yet refused"
                    move = {**move, "seq": now["seq"]}
                elif reply.get("code") != "unavailable":
                    break
                await asyncio.sleep(reply.get("retry_ms", 200) / 1000)
            assert reply["type"] == "table.state", (reply, answers)
            assert "unavailable" in answers, answers
            assert set(answers[:-1]) <= {"unavailable", "stale"}, answers
            # Taken once: at the version after the one it was sent for, out of the hand.
            assert reply["seq"] == move["seq"] + 1, answers
            assert move["tile"] not in reply["view"]["hand"]
            for player in [*seated.players, seated.spectator]:
                await player.expect(
                    lambda m: m["type"] == "table.state" and m["seq"] >= reply["seq"],
                    timeout=30)
            # The replica is the master now, and the game goes on to its end, everyone in
            # step (no move missing or twice in anyone's states), nobody timed out.
            assert cluster.master_of(keys.table(seated.table_id)) != master
            await played_fairly_to_the_end([(seated.table_id, seated.players)],
                                           random.Random(5), timeout=120)
            for output in (first.output(), second.output()):
                assert "Traceback" not in output, traceback_in(output)
    finally:
        cluster.stop()


async def test_sets_a_write_could_not_keep_while_their_master_was_away_are_kept_later(
    tmp_path: Path,
) -> None:
    # No replica and a long node timeout: the cluster stays up for the other slots.
    cluster = PrivateCluster(tmp_path, replicas=False, node_timeout_ms=60_000)
    cluster.start()
    store = LiveStore(connect(cluster.url, timeout=1.0), f"kept_{secrets.token_hex(3)}")
    try:
        keys = store.keys
        # (the lobby's shard: not the first master, which the client needs to read the map)
        away = cluster.master_of(keys.retire)
        slots = cluster.masters()[away]
        table_id = next(t for t in (secrets.token_hex(8) for _ in range(1000))
                        if not any(lo <= key_slot(keys.table(t).encode()) <= hi
                                   for lo, hi in slots))
        assert await store.write(Write(table_id, 0, dumps({"id": table_id}), 1)) == 1
        cluster.kill(away)
        # The table's own shard takes the move; the retire set's shard is away.
        done = await store.write(Write(table_id, 1, dumps({"id": table_id, "n": 2}), 1,
                                       deadline_ms=10**13, retire_at_ms=10**13))
        assert done == 2
        current = await store.load(table_id)
        assert current is not None and current.state["n"] == 2
        with pytest.raises(RedisError):  # still away: the sweep keeps them for later
            await store.keep_sets()
        cluster.start_node(away)
        cluster.wait_ok()
        assert await store.redis.zscore(keys.retire, table_id) is None  # never reached it
        for _ in range(50):
            try:
                await store.keep_sets()
                break
            except RedisError:
                await asyncio.sleep(0.2)
        assert await store.deadline_of(table_id) == 10**13
        assert await store.redis.zscore(keys.retire, table_id) == 10**13
        await store.keep_sets()  # nothing left to keep
    finally:
        await store.close()
        cluster.stop()


async def test_a_process_gone_right_after_its_write_leaves_the_turn_deadline_to_the_clocks(
    tmp_path: Path,
) -> None:
    """On a cluster the shared sets are kept by calls around the table's script: a process
    that dies after the script and before the call after it (here: that call is held back
    at the deadline shard's gate, and the writer is gone) still leaves the new turn's
    deadline where any process's clock claims it, not later than it is (lua/write.lua's
    call before it: ZADD LT)."""
    cluster = PrivateCluster(tmp_path, replicas=False)
    cluster.start()
    writer = LiveStore(connect(cluster.url, timeout=1.0), f"gone_{secrets.token_hex(3)}")
    clock = LiveStore(connect(cluster.url, timeout=1.0), writer.keys.prefix)
    table_id = secrets.token_hex(8)
    held_at = cluster.master_of(writer.keys.deadlines(table_id))
    with RedisGate(f"redis://127.0.0.1:{held_at}") as gate:
        cast(RedisCluster, writer.redis).nodes_manager.address_remap = (
            lambda address: ("127.0.0.1", gate.port) if address[1] == held_at else address)
        try:
            assert await writer.write(Write(table_id, 0, dumps({"n": 1}), 1)) == 1
            # the call after the script: ZADD key deadline table (the one before has LT)
            gate.arm(rb"\*4\r\n\$4\r\nZADD\r\n", lambda: None, reply=False)
            deadline = 10**12
            moving = asyncio.create_task(writer.write(
                Write(table_id, 1, dumps({"n": 2}), 1, deadline_ms=deadline)))
            for _ in range(100):
                if gate.sprung.is_set():
                    break
                await asyncio.sleep(0.05)
            assert gate.sprung.is_set(), "the call after the script was never made"
            moving.cancel()  # the writer is gone: it makes nothing more
            with contextlib.suppress(asyncio.CancelledError, RedisError):
                await moving
            current = await clock.load(table_id)
            assert current is not None and current.version == 2
            claimed = await clock.claim_deadlines(deadline, lease_ms=1000)
            assert claimed == [table_id]
        finally:
            await writer.close()
            await clock.close()
            cluster.stop()


async def test_a_table_whose_slot_moves_to_another_master_is_followed_there(
    tmp_path: Path,
) -> None:
    """Resharding: a table's slot moves from one master to another while a process holds
    the old map. Its writes follow the slot (ASK while the keys move, MOVED after), none is
    lost or made twice, and the table reads back whole from the new master."""
    cluster = PrivateCluster(tmp_path, replicas=False)
    cluster.start()
    store = LiveStore(connect(cluster.url, timeout=2.0), f"moved_{secrets.token_hex(3)}")
    try:
        table_id = secrets.token_hex(8)
        keys = store.keys
        slot = key_slot(keys.table(table_id).encode())
        source = cluster.master_of(keys.table(table_id))
        target = next(port for port in cluster.masters() if port != source)
        # every key a write names exists (a round archived)
        assert await store.write(Write(table_id, 0, dumps({"n": 1}), 1,
                                       archive=[{"round": 1}])) == 1
        # a table of the same slot whose round archive does not exist yet
        young = next(t for t in (secrets.token_hex(8) for _ in range(200_000))
                     if key_slot(keys.table(t).encode()) == slot)
        assert await store.write(Write(young, 0, dumps({"n": 1}), 1)) == 1
        assert keys.table(table_id) in cluster.migrate_slot_keys(slot, source, target)
        # the keys are on the target, the slot not yet: the source answers ASK
        assert await store.write(Write(table_id, 1, dumps({"n": 2}), 1)) == 2
        # a write whose keys are not all there is refused meanwhile (TRYAGAIN), as an
        # outage is, and makes nothing
        with pytest.raises(RedisError) as refused:
            await store.write(Write(young, 1, dumps({"n": 2}), 1))
        assert outage(refused.value), refused.value
        cluster.assign_slot(slot, target)
        assert await store.write(Write(young, 1, dumps({"n": 2}), 1)) == 2
        assert cluster.cli(source, "hget", keys.table(table_id), "version").startswith("MOVED")
        # the slot is the target's: the source answers MOVED to the old map
        assert await store.write(Write(table_id, 2, dumps({"n": 3}), 1)) == 3
        assert await store.write(Write(table_id, 2, dumps({"n": 4}), 1)) is None  # once
        current = await store.load(table_id)
        assert current is not None and (current.version, current.state) == (3, {"n": 3})
        assert await store.archived_rounds(table_id) == [{"round": 1}]
        assert cluster.master_of(keys.table(table_id)) == target
    finally:
        await store.close()
        cluster.stop()


async def test_a_table_whose_slot_moves_mid_game_is_played_on_to_its_end(
    pg_url: str, tmp_path: Path,
) -> None:
    """Resharding with the site up: halfway through a game whose seats are on two
    processes, the table's slot (its keys and its channel) moves to another master. Both
    processes follow it (their writes by MOVED, their subscriptions by the old master's
    SUNSUBSCRIBE), and the game is played on to its end: every move taken once, every
    player in step, nobody timed out."""
    cluster = PrivateCluster(tmp_path, replicas=False)
    cluster.start()
    try:
        async with a_game_on(cluster, pg_url, tmp_path) as (keys, first, second, seated):
            table_id = seated.table_id
            rng = random.Random(11)
            halfway = await asyncio.gather(*(
                autoplay(player, table_id, random.Random(rng.random()),
                         stop=lambda state: state["seq"] >= 8, timeout=60)
                for player in seated.players))
            assert all(state["errors"] == [] and state["view"]["status"] == "playing"
                       for state in halfway), halfway
            slot = key_slot(keys.table(table_id).encode())
            source = cluster.master_of(keys.table(table_id))
            target = next(port for port in cluster.masters() if port != source)
            assert keys.table(table_id) in cluster.migrate_slot_keys(slot, source, target)
            cluster.assign_slot(slot, target)
            assert cluster.master_of(keys.table(table_id)) == target
            finals = await played_fairly_to_the_end([(table_id, seated.players)], rng,
                                                    timeout=120)
            assert len({final["seq"] for final in finals}) == 1  # both at the last version
            for output in (first.output(), second.output()):
                assert "Traceback" not in output, traceback_in(output)
    finally:
        cluster.stop()
