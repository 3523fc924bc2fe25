"""DESIGN: a process crash loses no table and no deadline.

Two processes share Redis and PostgreSQL; every socket of a game is on the first one,
which is then killed outright (SIGKILL: no shutdown code runs). The second process's
sweeper must still time out the player on turn, and its results writer must store the
game and pay the ratings.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.e2e.client import Player
from tests.e2e.conftest import running_pair
from tests.e2e.game import PlayedGame, check_finished_game, seat_players
from tests.e2e.test_clocks import finished, play_until
from tests.servers import Server


@pytest.fixture
def doomed_pair(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    log_dir = tmp_path_factory.mktemp("crash")
    with running_pair(pg_url, redis_url, f"{redis_prefix}_crash", log_dir) as pair:
        yield pair


@pytest.mark.cluster
async def test_a_killed_process_loses_no_table_and_no_deadline(
    doomed_pair: tuple[Server, Server],
) -> None:
    doomed, survivor = doomed_pair
    seated = await seat_players([doomed], seats=2, turn_seconds=5)
    last = await play_until(seated, 4, seed=11)
    on_turn = last["view"]["turn"]
    assert last["view"]["deadline"] - time.time() * 1000 <= 5_000

    doomed.process.kill()
    doomed.process.wait()

    # The table lives on in Redis: the other process serves it, and its clock runs out.
    watcher = await Player(survivor.ws_url, seated.accounts[1 - on_turn]).connect()
    state = await watcher.request({"type": "table.subscribe", "table_id": seated.table_id})
    assert state["type"] == "table.state" and state["seq"] >= last["seq"]
    final = await watcher.expect(finished(seated.table_id), timeout=20)
    result = final["view"]["result"]
    assert result["reason"] == "timeout" and result["losers"] == [on_turn]

    # Written and paid by the survivor; the frames seen before the crash count too.
    names = [a.name for a in seated.accounts]
    finals = []
    for account in seated.accounts:
        player = await Player(survivor.ws_url, account).connect()
        finals.append(
            await player.request({"type": "table.subscribe", "table_id": seated.table_id})
        )
    game = PlayedGame(
        seated.table_id, final["view"]["game_id"], seated.accounts, seated.players,
        seated.spectator, finals,
    )
    record = await check_finished_game(survivor, game)
    assert record["players"] == names
