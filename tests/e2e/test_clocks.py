"""Turn clocks, resignation, leaving a running game and reconnecting (RULES 1.10)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from tests.e2e.client import Message, Player, autoplay
from tests.e2e.game import PlayedGame, Seated, check_finished_game, seat_players
from tests.servers import Server


def finished(table_id: str) -> Any:
    return lambda m: (
        m["type"] == "table.state"
        and m["table_id"] == table_id
        and m["view"]["status"] == "finished"
    )


async def play_until(seated: Seated, moves: int, seed: int) -> Message:
    """Random legal moves until `moves` changes after the start; returns the last state."""
    start = await seated.first_playing_state()
    rng = random.Random(seed)
    target = start["seq"] + moves
    states = await asyncio.gather(
        *(
            autoplay(p, seated.table_id, random.Random(rng.random()),
                     stop=lambda s: s["seq"] >= target)
            for p in seated.players
        )
    )
    assert all(s["errors"] == [] for s in states)
    return max(states, key=lambda s: s["seq"])


async def finish(seated: Seated, server: Server, timeout: float = 20) -> PlayedGame:
    finals = [
        await p.expect(finished(seated.table_id), timeout=timeout)
        for p in [*seated.players, seated.spectator]
    ]
    game = PlayedGame(
        seated.table_id, finals[0]["view"]["game_id"], seated.accounts, seated.players,
        seated.spectator, finals[:-1],
    )
    await check_finished_game(server, game)
    return game


async def test_a_turn_timeout_ends_the_game_by_the_timeout_formula(server: Server) -> None:
    seated = await seat_players([server], turn_seconds=5)
    last = await play_until(seated, 6, seed=1)
    on_turn = last["view"]["turn"]
    deadline = last["view"]["deadline"]
    assert isinstance(deadline, int)
    assert deadline - time.time() * 1000 <= 5_000
    await seated.players[0].expect(finished(seated.table_id), timeout=20)
    # Not before the deadline (the server's clock and ours are the same machine's), and
    # not long after it: the sweepers look every 0.1 s.
    ended = time.time() * 1000
    assert deadline <= ended <= deadline + 10_000
    game = await finish(seated, server)
    result = game.finals[0]["view"]["result"]
    assert result["reason"] == "timeout"
    assert result["losers"] == [on_turn]
    # The state that ended the game carries the timeout (later frames may be heartbeats).
    events = game.finals[0]["events"]
    assert {"type": "timeout", "round": last["view"]["round"], "seat": on_turn,
            "reason": "timeout"} in events


async def test_resigning_is_a_timeout_of_the_resigning_seat(server: Server) -> None:
    seated = await seat_players([server])
    last = await play_until(seated, 5, seed=2)
    resigner = (last["view"]["turn"] + 1) % 4  # not even on turn
    reply = await seated.players[resigner].request(
        {"type": "resign", "table_id": seated.table_id}
    )
    assert reply["type"] == "table.state" and reply["view"]["status"] == "finished"
    game = await finish(seated, server)
    result = game.finals[0]["view"]["result"]
    # Scored as a timeout (RULES 1.10) but told as what it was (PROTOCOL §2a).
    assert result["reason"] == "resign" and result["losers"] == [resigner]
    again = await seated.players[resigner].request(
        {"type": "resign", "table_id": seated.table_id}
    )
    assert again["code"] == "game_over"


async def test_leaving_a_running_game_over_http_resigns(server: Server) -> None:
    seated = await seat_players([server], seats=2)
    await play_until(seated, 3, seed=3)
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post(
            f"/api/tables/{seated.table_id}/leave", headers=seated.accounts[1].headers
        )
        assert r.status_code == 200, r.text
        game = await finish(seated, server)
        assert game.finals[0]["view"]["result"]["losers"] == [1]
        # The finished table stays readable, but is no longer listed as open or running.
        r = await http.get(f"/api/tables/{seated.table_id}")
        assert r.status_code == 200 and r.json()["status"] == "finished"
        assert seated.table_id not in [t["id"] for t in (await http.get("/api/tables")).json()]


async def test_a_player_who_reconnects_in_time_goes_on_with_the_same_hand(
    server_pair: tuple[Server, Server],
) -> None:
    seated = await seat_players(list(server_pair), turn_seconds=30)
    last = await play_until(seated, 4, seed=4)
    seat = last["view"]["turn"]
    gone = seated.players[seat]
    before = gone.latest(seated.table_id)
    assert before is not None and before["seq"] == last["seq"]
    watcher = seated.players[(seat + 1) % 4]
    mark = len(watcher.frames) - 1
    await gone.close()

    def presence(connected: bool) -> Any:
        return lambda m: m["type"] == "table.presence" and any(
            s["seat"] == seat and s["connected"] is connected for s in m["seats"]
        )

    await watcher.expect(presence(False), after=mark)
    # Back on the other process; the clock kept running meanwhile.
    mark = len(watcher.frames) - 1
    back = await Player(server_pair[seat % 2 ^ 1].ws_url, seated.accounts[seat]).connect()
    state = await back.request({"type": "table.subscribe", "table_id": seated.table_id})
    assert state["seq"] == before["seq"]
    for key in ("hand", "legal", "turn", "deadline", "chain"):
        assert state["view"][key] == before["view"][key], key
    assert state["view"]["seats"][seat]["connected"] is True
    await watcher.expect(presence(True), after=mark)
    seated.players[seat] = back
    rng = random.Random(5)
    finals = await asyncio.gather(
        *(autoplay(p, seated.table_id, random.Random(rng.random())) for p in seated.players)
    )
    assert all(f["errors"] == [] for f in finals)
    await finish(seated, server_pair[0])
