"""A Redis without persistence that loses everything while many tables run, again and again:
both processes race to put every game back from its database copy, and whichever loses a
race must serve the table the other restored. No socket is ever told a restored table is
gone, and every socket is shown each restored game.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path

from tests.e2e.client import Message, Player, autoplay
from tests.e2e.game import Seated, seat_players
from tests.faults.games import fault_env
from tests.faults.stores import PrivateRedis, saved_snapshot
from tests.servers import run_server

TABLES = 6
FLUSHES = 3


async def unhurried(view: Message, rng: random.Random) -> Message:
    """A random legal move, after a moment's thought: the games outlast the flushes."""
    await asyncio.sleep(0.4)
    return dict(rng.choice(view["legal"]))


def newest(seated: Seated) -> Message:
    """The newest state of the table any of its players has been shown."""
    states = [m for p in seated.players if (m := p.latest(seated.table_id)) is not None]
    return max(states, key=lambda m: int(m["seq"]))


def last_status(frames: list[Message], table_id: str) -> str | None:
    states = [f for f in frames if f["type"] == "table.state" and f["table_id"] == table_id]
    return str(states[-1]["view"]["status"]) if states else None


def newer(table_id: str, seq: int) -> Callable[[Message], bool]:
    """A state of the table past `seq`."""
    return lambda m: m["type"] == "table.state" and m["table_id"] == table_id \
        and m["seq"] > seq


async def test_repeated_flushes_never_tell_a_socket_its_restored_table_is_gone(
    pg_url: str, tmp_path: Path
) -> None:
    redis = PrivateRedis(tmp_path, persistent=False)
    redis.start()
    # Restored by the processes serving the tables, both at their heartbeats (the sweep
    # for lost tables comes too late here): every table a race.
    env = fault_env(pg_url, redis.url, DOMINO_RECOVER_SECONDS="60")
    try:
        with run_server(env, log_dir=tmp_path) as first, \
                run_server(env, log_dir=tmp_path) as second:
            tables: list[Seated] = []
            for _ in range(TABLES):
                seated = await seat_players([first, second], turn_seconds=60)
                await seated.first_playing_state()
                await saved_snapshot(pg_url, seated.table_id)
                tables.append(seated)
            sockets: list[tuple[str, Player]] = [
                (s.table_id, p) for s in tables for p in [*s.players, s.spectator]]
            rng = random.Random(11)
            # The players keep moving at every table throughout.
            moving = [asyncio.create_task(autoplay(p, s.table_id, random.Random(rng.random()),
                                                   timeout=600, choose=unhurried))
                      for s in tables for p in s.players]
            try:
                for _ in range(FLUSHES):
                    await asyncio.sleep(1.5)
                    latest = {s.table_id: newest(s) for s in tables}
                    redis.flush()
                    # Every socket is shown its running game again (a seq past any it had
                    # seen); a game over and written has no copy to come back from.
                    for table_id, player in sockets:
                        if latest[table_id]["view"]["status"] != "playing":
                            continue
                        back = await player.expect(newer(table_id, latest[table_id]["seq"]),
                                                   timeout=20)
                        assert back["view"]["status"] == "playing"
                # Any late loser of a race has spoken by now.
                await asyncio.sleep(3)
            finally:
                for task in moving:
                    task.cancel()
                for task in moving:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
            # Only a game that is over and written may be gone.
            removed = [(table_id, i) for table_id, p in sockets for i, f in enumerate(p.frames)
                       if f["type"] == "table.removed"
                       and last_status(p.frames[:i], table_id) != "finished"]
            assert removed == []
            for output in (first.output(), second.output()):
                assert "Traceback" not in output
    finally:
        redis.kill()
