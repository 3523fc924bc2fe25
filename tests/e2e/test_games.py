"""Whole games by real websocket clients against real server processes.

Each game is checked end to end: every seat's result, the rating gains paid by the
formula, the stored record, its replay by `python -m app.cli replay`, the revealed
seed against the commitment and the deals, and that no frame leaked a hidden tile.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from tests.e2e.client import Player
from tests.e2e.game import _stream, check_finished_game, check_no_leaks, play_game, seed_deals
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
    # The scan can fail: one forged frame peeking at the other hand is caught.
    first = next(
        f for f in game.players[0].states(game.table_id) if f["view"]["status"] == "playing"
    )
    other_hand = seed_deals(record)[first["view"]["round"]][0][1]
    peek = next(t for t in other_hand if t not in {c["tile"] for c in first["view"]["chain"]})
    forged = copy.deepcopy(first)
    forged["view"]["seats"][1]["peek"] = [peek]
    spy = Player(server.ws_url, game.accounts[0], frames=[forged], raw=[json.dumps(forged)])
    with pytest.raises(AssertionError, match="saw"):
        check_no_leaks(dataclasses.replace(game, players=[spy, *game.players[1:]]), record)


async def test_embedded_default_plays_a_whole_game(embedded_server: Server) -> None:
    game = await play_game([embedded_server], seed=44)
    await check_finished_game(embedded_server, game)


def _events(game, kind: str) -> list[dict]:
    return [
        e for f in game.players[0].states(game.table_id) for e in f["events"] if e["type"] == kind
    ]


async def test_fives_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    """RULES §4 end to end: a whole Fives game over websockets on two processes; points
    during play are announced, moves on the spinner's short sides are recorded with their
    `up`/`down` ends, the first leader is PROTOCOL §4's draw(n) of round 0 with k = 1000."""
    game = await play_game(
        list(server_pair), variant="fives", seats=3, options={"spinner_count": "full"}, seed=55
    )
    record = await check_finished_game(server_pair[1], game)
    result = game.finals[0]["view"]["result"]
    assert result["reason"] == "target" and max(result["final"]) >= 100
    scores = _events(game, "score")
    assert scores and all(e["count"] % 5 == 0 and e["points"] == e["count"] for e in scores)
    ends = {m.get("end") for rd in record["rounds"] for m in rd["moves"]}
    assert ends & {"up", "down"}, "no tile was played on the spinner's short sides"
    stream = _stream(bytes.fromhex(record["seed"]), 0, 1000)
    first = next(stream)
    assert first < 2**32 - (2**32 % 3)
    assert record["rounds"][0]["moves"][0]["seat"] == first % 3


async def test_telephone_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    """RULES §6 end to end: a whole Telephone game to 72 on two processes."""
    game = await play_game(list(server_pair), variant="telephone", seats=4, seed=66)
    await check_finished_game(server_pair[0], game)
    result = game.finals[0]["view"]["result"]
    assert result["reason"] == "target" and max(result["final"]) >= 72
    scores = _events(game, "score")
    assert scores and all(e["count"] % 5 == 0 and e["points"] == e["count"] // 5 for e in scores)
