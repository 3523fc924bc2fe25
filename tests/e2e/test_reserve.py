"""The reserve and computer players who finish a casual game, across two processes
(RULES 1.10, PROTOCOL §2g): every seat's socket on one process or the other, the table's
clock swept by both."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from tests.e2e.client import Message, Player, autoplay
from tests.e2e.game import Seated, seat_players
from tests.servers import Server


def _state(table_id: str, check: Any) -> Any:
    return lambda m: m["type"] == "table.state" and m["table_id"] == table_id and check(m)


async def _move(player: Player, state: Message) -> Message:
    """`player` makes his first legal move at `state`; the reply."""
    legal = state["view"]["legal"][0]
    return await player.request({**legal, "type": "play", "table_id": state["table_id"],
                                 "seq": state["seq"]})


async def _on_turn(seated: Seated, seat: int, after: int) -> Message:
    """The first state past seq `after` at which `seat` is on turn, as his socket has it."""
    return await seated.players[seat].expect(_state(
        seated.table_id, lambda m: m["seq"] > after and m["view"]["turn"] == seat
        and m["view"]["status"] == "playing" and m["view"]["legal"]), timeout=20)


async def test_the_reserve_lets_a_slow_player_finish_his_move_then_he_times_out_when_it_is_spent(
    server_pair: tuple[Server, Server],
) -> None:
    seated = await seat_players(list(server_pair), seats=2, turn_seconds=5, reserve_seconds=6)
    start = await seated.first_playing_state()
    view = start["view"]
    assert view["clock"] == {"reserve_ms": [6000, 6000]}
    slow = view["turn"]
    other = 1 - slow
    assert view["deadline"] - start["server_time"] <= 11_000
    first = await _on_turn(seated, slow, 0)
    into_reserve = first["view"]["deadline"] - first["view"]["clock"]["reserve_ms"][slow] + 1500
    # Past his turn time, 1.5 s into his reserve: the move still counts.
    await asyncio.sleep(max(0.0, into_reserve / 1000 - time.time()))
    moved = await _move(seated.players[slow], first)
    assert moved["type"] == "table.state", moved
    left = moved["view"]["clock"]["reserve_ms"][slow]
    assert 0 < left <= 6000 - 1500, left
    assert moved["view"]["clock"]["reserve_ms"][other] == 6000
    # Both processes show the same clock.
    seen = await seated.players[other].expect(_state(
        seated.table_id, lambda m: m["seq"] == moved["seq"]))
    assert seen["view"]["clock"] == moved["view"]["clock"]
    assert seen["view"]["deadline"] == moved["view"]["deadline"]
    reply = await _move(seated.players[other], seen)
    assert reply["type"] == "table.state", reply
    # His next turn: his turn time and what is left of his reserve, then he times out.
    again = await _on_turn(seated, slow, reply["seq"] - 1)
    assert again["view"]["clock"]["reserve_ms"][slow] == left
    deadline = again["view"]["deadline"]
    assert deadline - again["server_time"] <= 5000 + left
    final = await seated.spectator.expect(_state(
        seated.table_id, lambda m: m["view"]["status"] == "finished"), timeout=30)
    assert time.time() * 1000 >= deadline
    result = final["view"]["result"]
    assert result["reason"] == "timeout" and result["losers"] == [slow]
    assert "unrated_reason" not in result  # both had moved: a rated game that pays
    assert final["view"]["clock"]["reserve_ms"][slow] == 0


async def test_a_computer_player_finishes_a_casual_game_and_the_person_takes_his_seat_back(
    server_pair: tuple[Server, Server],
) -> None:
    seated = await seat_players(list(server_pair), seats=2, turn_seconds=5, rated=False)
    async with httpx.AsyncClient(base_url=server_pair[0].url) as http:
        table = (await http.get(f"/api/tables/{seated.table_id}")).json()
    assert table["on_timeout"] == "computer" and table["reserve_seconds"] == 0
    start = await seated.first_playing_state()
    gone = start["view"]["turn"]
    stays = 1 - gone
    person = seated.accounts[gone]
    # He does not move: a Steady computer player takes his seat and plays on.
    taken = await seated.spectator.expect(_state(seated.table_id, lambda m: any(
        e["type"] == "bot_takeover" for e in m["events"])), timeout=20)
    assert taken["view"]["status"] == "playing"
    seat_view = taken["view"]["seats"][gone]
    assert seat_view["bot"] == "heuristic" and seat_view["stand_in_for"] == person.name
    # Now a spectator of his own seat: he sees no hand.
    mine = await seated.players[gone].expect(_state(
        seated.table_id, lambda m: m["seq"] >= taken["seq"]))
    assert mine["view"]["you"] is None and mine["view"]["hand"] == []
    # The other player plays on against the computer player meanwhile.
    rng = random.Random(7)
    playing_on = asyncio.create_task(autoplay(seated.players[stays], seated.table_id, rng))
    await seated.spectator.expect(_state(seated.table_id, lambda m: any(
        e["type"] == "play" and e["seat"] == gone for e in m["events"])), timeout=20)
    # Someone else cannot take it; he asks for it back from the other process.
    wrong = await seated.players[stays].request(
        {"type": "seat.reclaim", "table_id": seated.table_id})
    assert wrong["type"] == "error" and wrong["code"] == "not_seated"
    back = await Player(server_pair[1 - gone % 2].ws_url, person).connect()
    await back.request({"type": "table.subscribe", "table_id": seated.table_id})
    asked = await back.request({"type": "seat.reclaim", "table_id": seated.table_id})
    assert asked["type"] == "table.state", asked
    # At his next turn the seat is his again, with his hand.
    his = await back.expect(_state(seated.table_id, lambda m: m["view"]["you"] == gone
                                   or m["view"]["status"] == "finished"), timeout=30)
    assert his["view"]["status"] == "playing" and his["view"]["turn"] == gone
    assert his["view"]["seats"][gone]["player"] == person.name
    assert "bot" not in his["view"]["seats"][gone]
    assert his["view"]["hand"]
    returned = [e for m in back.states(seated.table_id) for e in m["events"]
                if e["type"] == "seat_reclaim"]
    assert returned and returned[-1]["returned"] is True
    final = await autoplay(back, seated.table_id, random.Random(8))
    done = await playing_on
    assert final["errors"] == [] and done["errors"] == []
    assert final["view"]["status"] == "finished"
    assert final["view"]["result"]["reason"] != "timeout"  # finished, not ended by the clock
    await back.close()


async def test_a_game_aborted_before_every_seat_has_moved_pays_nothing(
    server_pair: tuple[Server, Server],
) -> None:
    seated = await seat_players(list(server_pair), seats=2)
    start = await seated.first_playing_state()
    leader = start["view"]["turn"]
    first = await _on_turn(seated, leader, 0)
    led = await _move(seated.players[leader], first)
    assert led["type"] == "table.state"
    quitter = 1 - leader
    resigned = await seated.players[quitter].request(
        {"type": "resign", "table_id": seated.table_id})
    assert resigned["view"]["status"] == "finished"
    assert resigned["view"]["result"]["unrated_reason"] == "aborted"
    game_id = resigned["view"]["game_id"]
    async with httpx.AsyncClient(base_url=server_pair[leader % 2].url) as http:
        for _ in range(100):
            r = await http.get(f"/api/games/{game_id}")
            if r.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200
        assert r.json()["result"]["unrated_reason"] == "aborted"
        for account in seated.accounts:
            page = (await http.get(f"/api/players/{account.name}")).json()
            assert [g["rating"] for g in page["recent_games"]] == [0]
            assert all(r["games"] == 0 for r in page["ratings"].values())
