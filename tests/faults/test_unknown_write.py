"""A move whose write reached a Redis that then stopped answering (SIGSTOP): the store carries
it out when it wakes, so the mover must not be told `unavailable` ("nothing changed", and
he would send it again only to be told `stale`). He is told `not_known`, and the table read
again after the thaw shows his move, made once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.client import Message, Player
from tests.e2e.game import seat_players
from tests.faults.games import fault_env
from tests.faults.stores import PrivateRedis
from tests.servers import run_server


async def on_turn(players: list[Player], table_id: str) -> tuple[Player, Message]:
    """The player on turn with a tile to play, and his state, once every socket has it;
    the others move meanwhile."""
    for _ in range(400):
        states = [p.latest(table_id) for p in players]
        if all(s is not None for s in states) and len({s["seq"] for s in states}) == 1:  # type: ignore[index]
            for p, s in zip(players, states, strict=True):
                assert s is not None
                view = s["view"]
                if view["turn"] == view["you"] and view["legal"]:
                    if p is players[0]:
                        return p, s
                    await p.request({**view["legal"][0], "type": "play",
                                     "table_id": table_id, "seq": s["seq"]})
                    break
        await asyncio.sleep(0.05)
    raise AssertionError("nobody had a move to make")


async def test_a_move_sent_to_a_frozen_redis_is_not_known_yet_not_unavailable(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url)
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        # The players' sockets on the first process (which holds the table), a spectator's
        # on the second.
        seated = await seat_players([first], seats=2, turn_seconds=60)
        await seated.first_playing_state()
        table_id = seated.table_id
        watcher = await Player(second.ws_url).connect()
        assert (await watcher.request({"type": "table.subscribe", "table_id": table_id}))[
            "type"] == "table.state"
        mover, state = await on_turn(seated.players, table_id)
        seq, move = state["seq"], state["view"]["legal"][0]
        private_redis.freeze()
        try:
            reply = await mover.request({**move, "type": "play", "table_id": table_id,
                                         "seq": seq}, timeout=20)
        finally:
            private_redis.thaw()
        assert reply["type"] == "error", reply
        assert reply["code"] == "not_known", reply
        assert reply["retry_ms"] > 0
        # Read again, as the client does: the move is in (the clocks' restart after the
        # outage may be a change after it), made once.
        await asyncio.sleep(1)
        again = await mover.request({"type": "table.subscribe", "table_id": table_id})
        assert again["type"] == "table.state", again
        assert again["seq"] > seq
        seen = await watcher.expect(lambda m: m["type"] == "table.state" and m["seq"] == seq + 1,
                                    timeout=20)
        assert [e["tile"] for e in seen["events"] if e["type"] == "play"] == [move["tile"]]
        later = [e for m in watcher.states(table_id) if m["seq"] > seq + 1
                 for e in m["events"] if e["type"] == "play"]
        assert later == []
        for output in (first.output(), second.output()):
            assert "Traceback" not in output
