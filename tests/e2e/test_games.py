"""Whole games by real websocket clients against real server processes.

Each game is checked end to end: every seat's result, the rating gains paid by the
formula, the stored record, its replay by `python -m app.cli replay`, the revealed
seed against the commitment and the deals, and that no frame leaked a hidden tile.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.engine import rating
from tests.e2e.game import (
    PlayedGame,
    check_no_leaks,
    check_replay,
    check_seed,
    fetch_record,
    play_game,
)
from tests.servers import Server


def expected_gains(result: dict[str, Any]) -> list[int]:
    final = result["final"]
    if result["reason"] == "timeout":
        return rating.timeout_gains(final, result["losers"][0])
    assert result["reason"] == "goat"
    return rating.goat_gains(final, result["losers"])


async def leaderboard_points(server: Server, names: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=server.url) as http:
        offset = 0
        while True:
            r = await http.get(
                "/api/leaderboard",
                params={"variant": "goat", "sort": "points", "limit": 200, "offset": offset},
            )
            assert r.status_code == 200, r.text
            board = r.json()
            for entry in board["entries"]:
                if entry["player"] in names:
                    found[entry["player"]] = entry["points"]
            offset += 200
            if offset >= board["total"]:
                return found


async def check_finished_game(
    server: Server, game: PlayedGame, *, rated: bool = True
) -> dict[str, Any]:
    """Everything a finished game must satisfy; returns its stored record."""
    result = game.finals[0]["view"]["result"]
    for final in game.finals:
        assert final["view"]["result"] == result
    assert result["rating"] == expected_gains(result)
    record = await fetch_record(server, game)
    assert record["result"] == result
    assert record["players"] == [a.name for a in game.accounts]
    check_seed(game, record)
    check_replay(record)
    check_no_leaks(game, record)
    names = [a.name for a in game.accounts]
    points = await leaderboard_points(server, names)
    if rated:
        assert points == dict(zip(names, result["rating"], strict=True))
    else:
        assert all(points.get(n, 0) == 0 for n in names)
    return record


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
