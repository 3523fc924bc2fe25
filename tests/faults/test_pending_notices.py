"""A pairing told while the player had no socket (reconnecting at that moment): it is kept
as his pending notice and sent when he says hello again, on either process, until he has
gone to his table; then it is not sent again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.e2e.client import Player, register
from tests.faults.games import fault_env
from tests.servers import run_server


async def test_a_pairing_told_while_the_player_was_away_reaches_him_at_hello(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    env = fault_env(pg_url, redis_url)
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            accounts = [await register(http) for _ in range(2)]
            made = await http.post("/api/tournaments", headers=accounts[0].headers, json={
                "name": "Away", "variant": "classic", "seats": 2, "format": "swiss",
                "rounds": 1, "turn_seconds": 60, "round_pause_seconds": 0, "rated": False})
            assert made.status_code == 201, made.text
            tournament_id = made.json()["id"]
            for account in accounts:
                assert (await http.post(f"/api/tournaments/{tournament_id}/join",
                                        headers=account.headers)).status_code == 200
            assert (await http.post(f"/api/tournaments/{tournament_id}/start",
                                    headers=accounts[0].headers)).status_code == 200
            for _ in range(100):  # paired and told while nobody had a socket
                tables = (await http.get(f"/api/tournaments/{tournament_id}")).json()["tables"]
                if tables:
                    break
                await asyncio.sleep(0.1)
            assert len(tables) == 1
            await asyncio.sleep(1)
        table_id = tables[0]["table_id"]
        for account, server in zip(accounts, (first, second), strict=True):
            player = await Player(server.ws_url, account).connect()
            note = await player.expect(lambda m: m["type"] == "tournament.pairing")
            assert note == {"type": "tournament.pairing", "tournament_id": tournament_id,
                            "table_id": table_id}
            assert (await player.request({"type": "table.subscribe", "table_id": table_id}))[
                "type"] == "table.state"
            await player.close()
            # At his table: the next hello has nothing more to tell.
            again = await Player(server.ws_url, account).connect()
            await again.request({"type": "lobby.subscribe"})
            await asyncio.sleep(0.5)
            assert [m for m in again.frames if m["type"] == "tournament.pairing"] == []
            await again.close()
