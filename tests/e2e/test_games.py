"""Whole games by real websocket clients against real server processes.

Each game is checked end to end: every seat's result, the rating gains paid by the
formula, the stored record, its replay by `python -m app.cli replay`, the revealed
seed against the commitment and the deals, and that no frame leaked a hidden tile.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json

import httpx
import pytest

from tests.e2e.client import Account, Player, register
from tests.e2e.game import _stream, check_finished_game, check_no_leaks, play_game, seed_deals
from tests.servers import Server


@pytest.mark.parametrize("fish_rule", ["all", "one"])
async def test_four_players_play_a_rated_goat_game(server: Server, fish_rule: str) -> None:
    game = await play_game([server], options={"fish_rule": fish_rule}, seed=11)
    record = await check_finished_game(server, game)
    assert record["options"]["fish_rule"] == fish_rule
    assert game.finals[0]["view"]["result"]["reason"] == "goat"


@pytest.mark.cluster
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


@pytest.mark.cluster
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


@pytest.mark.timeout(900)  # about 900 moves, each announced to every socket
@pytest.mark.parametrize(("seats", "scoring"), [(2, "plus"), (4, "penalty")])
async def test_mexican_train_thirteen_rounds(server: Server, seats: int, scoring: str) -> None:
    """RULES §5 end to end: a whole 13-round Mexican Train game over websockets; every move
    names its train, each round opens with its engine double, markers come and go."""
    game = await play_game(
        [server], variant="mexican_train", seats=seats, options={"scoring": scoring},
        seed=70 + seats, timeout=600,
    )
    record = await check_finished_game(server, game)
    _check_trains(game, record, seats)


@pytest.mark.timeout(900)
async def test_mexican_train_eight_players_on_two_processes(
    server_pair: tuple[Server, Server],
) -> None:
    """RULES §5 at a full table: 8 sockets, alternating between two server processes."""
    game = await play_game(
        list(server_pair), variant="mexican_train", seats=8, seed=78, timeout=900
    )
    record = await check_finished_game(server_pair[1], game)
    _check_trains(game, record, 8)


def _check_trains(game, record: dict, seats: int) -> None:
    result = game.finals[0]["view"]["result"]
    assert result["reason"] == "rounds" and len(record["rounds"]) == 13
    assert [e["number"] for e in _events(game, "engine")][-12:] == list(range(11, -1, -1))
    ends = {m["end"] for rd in record["rounds"] for m in rd["moves"]}
    assert ends <= {"mexican", *(f"train:{s}" for s in range(seats))} and "mexican" in ends
    markers = _events(game, "marker")
    assert {e["on"] for e in markers} == {True, False}


async def test_embedded_default_takes_sign_ins_at_once(embedded_server: Server) -> None:
    """SQLite has one writer: a sign-in reads the account, checks the password (slow by
    design) and then writes its session; another sign-in committing meanwhile must not turn
    it into a 500 ("database is locked"). Likewise a password change."""
    async with httpx.AsyncClient(base_url=embedded_server.url, timeout=60) as http:
        accounts = [await register(http) for _ in range(6)]

        async def sign_in(account: Account) -> int:
            async with httpx.AsyncClient(base_url=embedded_server.url, timeout=60) as own:
                r = await own.post("/api/auth/login", json={
                    "username": account.name, "password": "password123"})
                return r.status_code

        async def change(account: Account) -> int:
            r = await http.post("/api/auth/password", headers=account.headers, json={
                "current_password": "password123", "new_password": "password123"})
            return r.status_code

        for _ in range(2):  # 36 sign-in requests in all: within one address's budget
            codes = await asyncio.gather(*(sign_in(a) for a in accounts for _ in range(2)),
                                         *(change(a) for a in accounts[:3]))
            assert set(codes) == {200}, codes
