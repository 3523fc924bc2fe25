"""A rolling restart: SIGTERM one of two processes mid-game loses no move and no game.

The sockets of the stopped process are told to reconnect (1012); they come back on the
other process and play on. A spectator who stays on the other process sees every move;
the stored record must hold exactly those moves, and replay to the same result.
"""

from __future__ import annotations

import asyncio
import random
import signal
from typing import Any

import pytest

from tests.e2e.client import Account, Player, autoplay
from tests.e2e.game import PlayedGame, Seated, check_replay, fetch_record, seat_players
from tests.ops.conftest import shared_env
from tests.servers import Server, run_server

pytestmark = pytest.mark.timeout(600)

SHUTDOWN = 8.0


async def _play_through_restarts(
    account: Account, first: Player, table_id: str, survivor: Server, rng: random.Random,
    sockets: list[Player],
) -> dict[str, Any]:
    """Random legal moves to the end; told to reconnect, come back on `survivor`."""
    player = first
    while True:
        try:
            return await autoplay(player, table_id, rng, timeout=180)
        except Exception:
            if player.closed != 1012:
                raise
        player = await Player(survivor.ws_url, account).connect()
        sockets.append(player)
        reply = await player.request({"type": "table.subscribe", "table_id": table_id})
        assert reply["type"] == "table.state", reply


async def play_with_a_stop(
    seated: Seated, comeback: Server, doomed: Server, *, after_seq: int, seed: int
) -> tuple[list[dict[str, Any]], list[Player]]:
    """Play `seated` to the end, SIGTERM `doomed` once the table reaches `after_seq`;
    sockets told to reconnect come back through `comeback`. Returns the final states
    and every socket the players used."""
    sockets = list(seated.players)
    rng = random.Random(seed)
    games = [
        asyncio.create_task(
            _play_through_restarts(
                seated.accounts[i], seated.players[i], seated.table_id, comeback,
                random.Random(rng.random()), sockets,
            )
        )
        for i in range(len(seated.players))
    ]
    # Mid-game: some moves made, many to come; then the deploy's SIGTERM.
    await seated.spectator.expect(
        lambda m: m["type"] == "table.state" and m["table_id"] == seated.table_id
        and m["seq"] >= after_seq,
        timeout=120,
    )
    doomed.process.send_signal(signal.SIGTERM)
    return list(await asyncio.gather(*games)), sockets


def _moves_seen(spectator: Player, table_id: str) -> list[tuple[int, int, str]]:
    seen: list[tuple[int, int, str]] = []
    for frame in spectator.states(table_id):
        for event in frame["events"]:
            if event["type"] == "play":
                seen.append((event["round"], event["seat"], event["tile"]))
    return seen


async def test_a_rolling_restart_mid_game_loses_no_move_and_no_game(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env = shared_env(
        pg_url, redis_url, f"{redis_prefix}_rolling", shutdown_seconds=str(SHUTDOWN)
    )
    log_dir = tmp_path_factory.mktemp("rolling")
    with run_server(env, log_dir=log_dir) as survivor, run_server(env, log_dir=log_dir) as doomed:
        # Seats 0 and 2 on the doomed process, 1 and 3 and the spectator on the survivor.
        seated = await seat_players([doomed, survivor], seats=4)
        table_id = seated.table_id
        await seated.first_playing_state()
        finals, sockets = await play_with_a_stop(
            seated, survivor, doomed, after_seq=12, seed=14
        )
        assert doomed.process.wait(timeout=SHUTDOWN + 5) == -signal.SIGTERM, doomed.output()
        assert "exiting now" not in doomed.output()
        assert [p.closed for p in seated.players[0::2]] == [1012, 1012]
        assert len(sockets) == 6  # the two told to reconnect came back
        for final in finals:
            assert final["errors"] == [] or all(e["code"] == "stale" for e in final["errors"])
            assert final["view"]["status"] == "finished"
        game = PlayedGame(
            table_id, finals[0]["view"]["game_id"], seated.accounts, sockets[2:],
            seated.spectator, list(finals),
        )
        record = await fetch_record(survivor, game)
        stored = [
            (r, move["seat"], move["tile"])
            for r, rnd in enumerate(record["rounds"])
            for move in rnd["moves"]
        ]
        assert stored == _moves_seen(seated.spectator, table_id)
        assert record["result"] == finals[0]["view"]["result"]
        check_replay(record)
