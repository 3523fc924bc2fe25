"""Whole games by real websocket clients against real server processes.

Each game is checked end to end: every seat's result, the rating gains paid by the
formula, the stored record, its replay by `python -m app.cli replay`, the revealed
seed against the commitment and the deals, and that no frame leaked a hidden tile.
"""

from __future__ import annotations

import pytest

from tests.e2e.game import check_finished_game, play_game
from tests.servers import Server


@pytest.mark.parametrize("fish_rule", ["all", "one"])
async def test_four_players_play_a_rated_goat_game(server: Server, fish_rule: str) -> None:
    game = await play_game([server], options={"fish_rule": fish_rule}, seed=11)
    record = await check_finished_game(server, game)
    assert record["options"]["fish_rule"] == fish_rule
    assert game.finals[0]["view"]["result"]["reason"] == "goat"


async def test_four_players_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    game = await play_game(list(server_pair), options={"fish_rule": "one"}, seed=22)
    await check_finished_game(server_pair[1], game)


async def test_two_players_with_a_bazaar_see_no_hidden_tile(server: Server) -> None:
    game = await play_game([server], seats=2, seed=33, rated=False)
    record = await check_finished_game(server, game, rated=False)
    # The scan above is only meaningful if tiles were drawn from a non-empty bazaar.
    draws = [
        e
        for f in game.players[0].states(game.table_id)
        for e in f["events"]
        if e["type"] == "draw"
    ]
    assert draws, "no tile was drawn in the whole game"
    assert len(record["rounds"]) >= 1


async def test_embedded_default_plays_a_whole_game(embedded_server: Server) -> None:
    game = await play_game([embedded_server], seed=44)
    await check_finished_game(embedded_server, game)
