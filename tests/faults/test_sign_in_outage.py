"""A PostgreSQL outage does not cost a seated player his seat: reconnecting, his hello
and his HTTP calls are checked without the database (the session cache), and he plays
on while the database is away and after it is back."""

from __future__ import annotations

import asyncio
import random
import secrets
from pathlib import Path

import httpx

from tests.e2e.client import Player, autoplay
from tests.e2e.game import seat_players
from tests.faults.stores import PrivatePostgres
from tests.servers import run_server


async def test_seated_players_reconnect_and_play_on_while_postgresql_is_down(
    private_postgres: PrivatePostgres, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = {
        "DOMINO_DATABASE_URL": private_postgres.url(),
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_pgdown_{secrets.token_hex(3)}",
        "DOMINO_SWEEP_SECONDS": "0.1",
    }
    with run_server(env, log_dir=tmp_path) as server:
        seated = await seat_players([server], turn_seconds=60)
        started = await seated.first_playing_state()
        private_postgres.stop()
        try:
            # Every player's socket drops (a network blip) and comes back while the
            # database is down: each is recognised by his token and keeps his seat.
            for player in seated.players:
                await player.close()
            players = [await Player(server.ws_url, account).connect()
                       for account in seated.accounts]
            for seat, player in enumerate(players):
                state = await player.request(
                    {"type": "table.subscribe", "table_id": seated.table_id})
                assert state["type"] == "table.state", state
                assert state["view"]["you"] == seat
            # HTTP calls are recognised too (opening a table needs no database).
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                r = await http.post("/api/tables", headers=seated.accounts[0].headers,
                                    json={"variant": "goat", "seats": 2})
                assert r.status_code == 201, r.text
            # And the game goes on meanwhile.
            target = started["seq"] + 4
            rng = random.Random(11)
            during = await asyncio.gather(*(
                autoplay(p, seated.table_id, random.Random(rng.random()),
                         stop=lambda s: s["seq"] >= target or s["view"]["status"] != "playing",
                         timeout=60)
                for p in players))
            assert all(d["errors"] == [] for d in during), [d["errors"] for d in during]
        finally:
            private_postgres.start()
        finals = await asyncio.gather(*(
            autoplay(p, seated.table_id, random.Random(rng.random()), timeout=120)
            for p in players))
        for final in finals:
            assert final["errors"] == []
            assert final["view"]["status"] == "finished"
            assert final["view"]["result"]["reason"] != "timeout"
        for player in [*players, seated.spectator]:
            await player.close()
