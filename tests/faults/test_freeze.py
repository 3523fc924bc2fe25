"""A Redis that stops answering but keeps its connections open (SIGSTOP: a stalled host, a
long fork, a partition) for longer than a turn, while players move at once whenever it is
their turn: it is an outage like a Redis that refuses connections. Moves are answered
within the store's timeout (`unavailable` when they surely did not apply, `not_known` when
their write reached the stalled store), nobody loses on time, each process says so once
in its log, and the games go on when it thaws.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.client import Player
from tests.e2e.game import Seated, seat_players
from tests.faults.games import fault_env
from tests.faults.stores import PrivateRedis
from tests.servers import run_server

TABLES = 3
TURN_SECONDS = 5
FROZEN_SECONDS = 8
# A player moves well inside his turn, yet slowly enough that no game is over before the
# freeze (players who move at no cost finish a whole game in two seconds on a quiet machine).
THINK_SECONDS = 0.2
OUTAGE_LINE = "live store unreachable"


@dataclass
class Tally:
    unanswered_moves: int = 0
    slowest_refusal: float = 0.0
    timeouts: int = 0


async def patiently(player: Player, table_id: str, seat: int, rng: random.Random,
                    tally: Tally, done: asyncio.Event) -> None:
    """Plays as the browser client does: a move a moment after his turn comes; after
    `unavailable` or `not_known` he waits `retry_ms` and reads the table again, after
    `stale` or a newer heartbeat seq he reads it again. Counts every timeout he is shown."""
    handled, seq, moving = len(player.frames) - 1, 0, -1
    sent: dict[str, float] = {}
    moves = 0

    async def read_again() -> None:
        await player.send({"type": "table.subscribe", "table_id": table_id,
                           "id": f"s{rng.random()}"})

    await read_again()
    while not done.is_set():
        try:
            handled = await player.expect_index(lambda m: True, after=handled, timeout=1)
        except TimeoutError:
            continue
        msg = player.frames[handled]
        kind = msg["type"]
        if kind == "error":
            moving = -1
            if msg.get("code") in ("unavailable", "not_known"):
                if str(msg.get("id", "")).startswith("m"):
                    tally.unanswered_moves += 1
                    tally.slowest_refusal = max(tally.slowest_refusal,
                                                time.monotonic() - sent.get(msg["id"], 0.0))
                await asyncio.sleep(msg["retry_ms"] / 1000)
            await read_again()
        elif kind == "table.heartbeat":
            if msg["tables"].get(table_id, 0) > seq:
                await read_again()
        elif kind == "table.state" and msg["table_id"] == table_id and msg["seq"] >= seq:
            seq = msg["seq"]
            tally.timeouts += sum(1 for e in msg["events"] if e["type"] == "timeout")
            view = msg["view"]
            if view["status"] != "playing":
                return
            if view["turn"] == view["you"] == seat and view["legal"] and moving < seq:
                moving = seq
                move = rng.choice(view["legal"])
                await asyncio.sleep(THINK_SECONDS)
                moves += 1
                move_id = f"m{seat}-{moves}"
                sent[move_id] = time.monotonic()
                await player.send({**move, "type": "play", "table_id": table_id, "seq": seq,
                                   "id": move_id})


def newest_seq(seated: Seated) -> int:
    return max(m["seq"] for p in seated.players if (m := p.latest(seated.table_id)) is not None)


async def test_a_frozen_redis_costs_nobody_his_turn_and_the_games_go_on(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url)
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        tally, done, rng = Tally(), asyncio.Event(), random.Random(5)
        tables: list[Seated] = []
        players: list[asyncio.Task[None]] = []
        try:
            for _ in range(TABLES):  # each table plays from the moment it starts
                seated = await seat_players([first, second], turn_seconds=TURN_SECONDS)
                tables.append(seated)
                players += [asyncio.create_task(patiently(
                    p, seated.table_id, seat, random.Random(rng.random()), tally, done))
                    for seat, p in enumerate(seated.players)]
                await seated.first_playing_state()
            await asyncio.sleep(1)
            assert all(s.players[0].latest(s.table_id)["view"]["status"] == "playing"  # type: ignore[index]
                       for s in tables)
            private_redis.freeze()
            try:
                await asyncio.sleep(FROZEN_SECONDS)  # longer than a whole turn
            finally:
                private_redis.thaw()
            thawed = {s.table_id: newest_seq(s) for s in tables}
            # The games go on: a dozen more moves at every table.
            deadline = time.monotonic() + 60
            while any(newest_seq(s) < thawed[s.table_id] + 12 for s in tables
                      if s.players[0].latest(s.table_id)["view"]["status"] == "playing"):  # type: ignore[index]
                assert time.monotonic() < deadline, "the games did not go on after the thaw"
                await asyncio.sleep(0.2)
        finally:
            done.set()
            ended = await asyncio.gather(*players, return_exceptions=True)
        assert [e for e in ended if e is not None] == []
        # Moves were refused as "try again", each within the store's timeout (2 s) and the
        # answer's way back, not held for the whole freeze.
        assert tally.unanswered_moves > 0
        assert tally.slowest_refusal < 4.0
        # Nobody lost a turn to the freeze, let alone a game.
        assert tally.timeouts == 0
        for seated in tables:
            for player in seated.players:
                for state in player.states(seated.table_id):
                    result = state["view"]["result"]
                    assert result is None or result["reason"] != "timeout"
        # Each process said it once.
        for server in (first, second):
            assert server.output().count(OUTAGE_LINE) == 1, server.output()[-4000:]
