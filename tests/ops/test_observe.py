"""What an operator sees of an e2e game: /metrics moving, and JSON logs that tell
which request, table and game a line is about but never a token, password or tile."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.client import Player
from tests.e2e.game import fetch_record, play_game, seat_players, seed_deals
from tests.ops.conftest import shared_env
from tests.servers import Server, free_port, run_server, scrape

pytestmark = pytest.mark.timeout(600)

SECRET_KEY = "ops-test-secret-key-never-to-be-logged"
# A tile standing alone ("3-5"), as a hand or the bazaar would show it.
TILE = re.compile(r"(?<![\w-])[0-6]-[0-6](?![\w-])")


@pytest.fixture(scope="module")
def observed(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    env = shared_env(
        pg_url, redis_url, f"{redis_prefix}_observed", log_format="json", mode="production",
        secret_key=SECRET_KEY,
        # The test machine's Redis keeps no append-only file; production's does.
        redis_unpersisted_ok="true", metrics_port=str(free_port()),
    )
    with run_server(env, log_dir=tmp_path_factory.mktemp("observed")) as server:
        yield server


async def scrape_until(server: Server, done: Callable[[dict[str, float]], bool],
                       seconds: float = 20) -> dict[str, float]:
    """The metrics once `done` holds for them (the census is taken every few seconds)."""
    for _ in range(int(seconds * 10)):
        samples = scrape(server)
        if done(samples):
            return samples
        await asyncio.sleep(0.1)
    raise AssertionError(f"the metrics never got there: {samples}")


async def test_metrics_move_during_a_game(observed: Server) -> None:
    before = scrape(observed)
    assert before["domino_open_sockets"] == 0
    watcher = await Player(observed.ws_url).connect()
    assert scrape(observed)["domino_open_sockets"] == 1

    game = await play_game([observed], seats=2, seed=5)
    during = scrape(observed)
    assert during["domino_open_sockets"] == 1 + 2 + 1  # watcher, players, spectator
    record = await fetch_record(observed, game)
    moves = sum(len(rnd["moves"]) for rnd in record["rounds"])
    after = scrape(observed)

    assert after["domino_moves_total"] - before["domino_moves_total"] == moves
    assert after["domino_move_seconds_count"] - before["domino_move_seconds_count"] == moves
    assert after["domino_move_seconds_sum"] > before["domino_move_seconds_sum"]
    assert after["domino_games_finished_total"] - before["domino_games_finished_total"] == 1
    # The tables are counted every few seconds (app.services.tables.census), not at a scrape.
    # The record is committed before the table leaves the backlog, and the census may count
    # between the two: the backlog is empty by a count after both.
    counted = await scrape_until(
        observed, lambda s: s.get("domino_tables{status=finished,variant=goat}", 0) >= 1
        and s.get("domino_results_backlog") == 0)
    assert counted["domino_results_backlog"] == 0  # written (fetch_record saw it), then let go
    # The cycle collector stays off the move path (app.collector): what a move makes is
    # freed as it goes, so a whole game hardly ever wakes it.
    young = "python_gc_collections_total{generation=0}"
    assert after[young] - before[young] <= moves // 25, (after[young] - before[young], moves)
    for name in ("domino_timeouts_total", "domino_redis_errors_total",
                 "domino_database_errors_total", "domino_rate_limited_total{channel=http}",
                 "domino_rate_limited_total{channel=ws}"):
        assert name in after

    # A socket over its message budget is refused and counted.
    for _ in range(70):
        await watcher.send({"type": "ping"})
    await watcher.expect(lambda m: m.get("code") == "rate_limited")
    assert scrape(observed)["domino_rate_limited_total{channel=ws}"] > 0

    for player in [*game.players, game.spectator, watcher]:
        await player.close()
    assert scrape(observed)["domino_open_sockets"] == 0

    # A game nobody plays ends on the clock: a timeout, and one more finished game.
    idle = await seat_players([observed], seats=2, turn_seconds=5)
    await idle.spectator.expect(
        lambda m: m["type"] == "table.state" and m["view"]["status"] == "finished", timeout=30
    )
    last = scrape(observed)
    assert last["domino_timeouts_total"] - after["domino_timeouts_total"] == 1
    assert last["domino_games_finished_total"] - after["domino_games_finished_total"] == 1
    for player in [*idle.players, idle.spectator]:
        await player.close()


def _log_lines(server: Server) -> list[dict[str, Any]]:
    lines = []
    for raw in server.output().splitlines():
        entry = json.loads(raw)  # every line is one JSON object
        assert isinstance(entry, dict), raw
        lines.append(entry)
    return lines


async def test_json_logs_name_their_ids_and_never_a_secret_or_a_tile(
    observed: Server,
) -> None:
    game = await play_game([observed], seats=4, seed=9)
    record = await fetch_record(observed, game)
    # A failed login and a bad token are where a careless log would show secrets.
    async with httpx.AsyncClient(base_url=observed.url) as http:
        await http.post("/api/auth/login", json={"username": game.accounts[0].name,
                                                 "password": "wrong-password-1"})
        await http.get("/api/me", headers={"Authorization": f"Bearer {game.accounts[1].token}x"})
    for player in [*game.players, game.spectator]:
        await player.close()

    entries = _log_lines(observed)
    secrets = {SECRET_KEY, "password123", "wrong-password-1", record["seed"]}
    secrets |= {a.token for a in game.accounts}
    for entry in entries:
        text = json.dumps({k: v for k, v in entry.items() if k != "time"})
        for secret in secrets:
            assert secret not in text, entry
        assert not TILE.search(text), entry
    everything = "\n".join(json.dumps(e) for e in entries)
    for hands, bazaar in seed_deals(record):
        for tiles in [t for t in [*hands, bazaar] if t]:
            assert json.dumps(tiles)[1:-1] not in everything

    assert {"time", "level", "logger", "message", "request_id"} <= set(entries[-1])
    access = [e for e in entries if e["logger"] == "uvicorn.access"]
    assert access and all(e["request_id"] for e in access)
    about_game = [e for e in entries if e.get("game_id") == game.game_id]
    assert {e["message"] for e in about_game} >= {
        "game started: goat, 4 players", "game result written"
    }
    assert all(e["table_id"] == game.table_id for e in about_game)


def test_a_request_keeps_the_id_its_proxy_gave_it(observed: Server) -> None:
    r = httpx.get(f"{observed.url}/healthz", headers={"X-Request-ID": "proxy-abc.123"})
    assert r.headers["x-request-id"] == "proxy-abc.123"
    r = httpx.get(f"{observed.url}/healthz", headers={"X-Request-ID": "no good; id"})
    assert re.fullmatch(r"[0-9a-f]{16}", r.headers["x-request-id"])
    assert any(
        e.get("request_id") == "proxy-abc.123" for e in _log_lines(observed)
    )


def test_the_log_scan_would_see_a_leak(tmp_path: Path) -> None:
    """The scan's patterns catch what they look for (a hand, a token) in a real line."""
    assert TILE.search(json.dumps({"message": "hand ['1-3', '6-6']"}))
    assert not TILE.search(json.dumps({"message": "GET /api/games/3a-5f1 200"}))


async def test_workers_add_up_their_metrics(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    """With --workers 2 each scrape lands on one worker, yet counts every worker's sockets."""
    env = shared_env(pg_url, redis_url, f"{redis_prefix}_workers_metrics",
                     metrics_port=str(free_port()))
    with run_server(env, log_dir=tmp_path, workers=2) as server:
        sockets = [await Player(server.ws_url).connect() for _ in range(12)]
        for socket in sockets:
            assert (await socket.request({"type": "ping"}))["type"] == "pong"
        for _ in range(8):
            assert scrape(server)["domino_open_sockets"] == 12
        for socket in sockets:
            await socket.close()
        for _ in range(50):
            if scrape(server)["domino_open_sockets"] == 0:
                break
            await asyncio.sleep(0.1)
        assert scrape(server)["domino_open_sockets"] == 0


async def test_store_and_database_failures_are_counted(tmp_path: Path) -> None:
    """A Redis or a database that does not answer moves its error counter."""
    from app import metrics
    from app.config import Settings
    from app.db.session import Database
    from app.services.runtime import LiveTables

    dead = f"127.0.0.1:{free_port()}"
    redis_before = metrics.redis_errors._value.get()
    database_before = metrics.database_errors._value.get()

    db = Database(f"postgresql+asyncpg://postgres@{dead}/nothing")
    assert not await db.ping()
    assert metrics.database_errors._value.get() > database_before

    live = LiveTables(Settings(redis_url=f"redis://{dead}/0", sweep_seconds=0.05), db)
    live.clock.start()  # its sweep reads the store, which is not there
    for _ in range(100):
        if metrics.redis_errors._value.get() > redis_before:
            break
        await asyncio.sleep(0.05)
    await live.clock.stop()
    await db.dispose()
    assert metrics.redis_errors._value.get() > redis_before
