"""Fan-out under load: every version reaches every subscriber once, bursts wait for the
Redis pool instead of failing, closing many sockets at once leaves nothing behind, and a
socket that stops reading holds up nobody else."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import uvicorn
import websockets
from fastapi import FastAPI

from tests.e2e.client import Account, Player, autoplay, create_table, register
from tests.e2e.game import play_game
from tests.servers import LOAD_LIMITS, Server, free_port, run_server


def _env(pg_url: str, redis_url: str, prefix: str, **extra: str) -> dict[str, str]:
    return {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": prefix,
        **LOAD_LIMITS,
        **extra,
    }


@contextlib.contextmanager
def servers(count: int, env: dict[str, str], log_dir: Path) -> Iterator[list[Server]]:
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(run_server(env, log_dir=log_dir)) for _ in range(count)]


def seqs(player: Player, table_id: str) -> list[int]:
    return [s["seq"] for s in player.states(table_id)]


async def test_subscribers_get_every_version_once_while_other_processes_change_tables(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    """Hundreds of subscriptions on one process while the other changes the tables: each
    subscriber sees the versions from the one it subscribed at to the last, each once."""
    env = _env(pg_url, redis_url, f"{redis_prefix}_fan_{secrets.token_hex(3)}")
    with servers(2, env, tmp_path) as (changer, watcher):
        async with httpx.AsyncClient(base_url=changer.url, timeout=30) as http:
            owners = [await register(http) for _ in range(8)]
            guests = [[await register(http) for _ in range(2)] for _ in owners]
            tables = [(await create_table(http, o))["id"] for o in owners]
            stop = asyncio.Event()

            async def churn(table_id: str, guest: Account, seat: int) -> None:
                # Each join and each leave is a new version of the table.
                while not stop.is_set():
                    for action, body in (("join", {"seat": seat}), ("leave", None)):
                        try:
                            r = await http.post(f"/api/tables/{table_id}/{action}",
                                                headers=guest.headers, json=body)
                        except httpx.TransportError:
                            continue  # a dropped keep-alive connection on a busy machine
                        # 409: the step before was applied although its reply got lost.
                        assert r.status_code in (200, 409), r.text

            churners = [
                asyncio.create_task(churn(t, g, seat))
                for t, pair in zip(tables, guests, strict=True)
                for seat, g in enumerate(pair, start=1)
            ]
            rng = random.Random(5)
            watchers: list[tuple[Player, str]] = []

            async def watch() -> None:
                await asyncio.sleep(rng.uniform(0, 3))
                player = await Player(watcher.ws_url).connect()
                table_id = rng.choice(tables)
                await player.request({"type": "table.subscribe", "table_id": table_id})
                watchers.append((player, table_id))

            try:
                await asyncio.gather(*(watch() for _ in range(500)))
                await asyncio.sleep(0.5)
            finally:
                stop.set()
                await asyncio.gather(*churners)
            # The last version of every table, as a fresh reader on the changer sees it.
            probe = await Player(changer.ws_url).connect()
            final = {t: (await probe.request({"type": "table.subscribe", "table_id": t}))["seq"]
                     for t in tables}
            await probe.close()
            for player, table_id in watchers:
                await player.expect(
                    lambda m, t=table_id: m["type"] == "table.state" and m["table_id"] == t
                    and m["seq"] == final[t], timeout=30)
            changes = 0
            for player, table_id in watchers:
                got = seqs(player, table_id)
                assert got == list(range(got[0], final[table_id] + 1)), got
                changes += len(got) - 1
                await player.close()
            # The subscriptions really raced with the changes.
            assert changes > 300


async def test_a_burst_beyond_the_redis_pool_waits_and_succeeds(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = _env(pg_url, redis_url, f"{redis_prefix}_pool_{secrets.token_hex(3)}",
               DOMINO_REDIS_POOL_SIZE="4")
    with servers(1, env, tmp_path) as (server,):
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            owner = await register(http)
            table_ids = [(await create_table(http, owner, rated=False))["id"] for _ in range(20)]
        spectators = await asyncio.gather(*(Player(server.ws_url).connect() for _ in range(500)))
        # 500 subscriptions at once, 25 to each of 20 tables, through 4 Redis connections.
        replies = await asyncio.gather(*(
            p.request({"type": "table.subscribe", "table_id": table_ids[i % 20]}, timeout=60)
            for i, p in enumerate(spectators)
        ))
        assert [r["type"] for r in replies] == ["table.state"] * 500
        await asyncio.gather(*(p.close() for p in spectators))
        # All of them gone at once; the server still serves (and said nothing went wrong).
        late = await Player(server.ws_url).connect()
        reply = await late.request({"type": "table.subscribe", "table_id": table_ids[0]})
        assert reply["type"] == "table.state"
        await late.close()
        log = server.output()
        assert "Too many connections" not in log
        assert "Traceback" not in log


async def test_the_lobby_hears_of_a_table_only_when_its_entry_changes(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = _env(pg_url, redis_url, f"{redis_prefix}_lobby_{secrets.token_hex(3)}")
    with servers(1, env, tmp_path) as (server,):
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            watcher = await Player(server.ws_url, await register(http)).connect()
        await watcher.request({"type": "lobby.subscribe"})
        played = await play_game([server], seed=4)
        await watcher.expect(lambda m: m["type"] == "lobby.update"
                             and m["table"]["id"] == played.table_id
                             and m["table"]["status"] == "finished", timeout=10)
        updates = [m["table"] for m in watcher.frames
                   if m["type"] == "lobby.update" and m["table"]["id"] == played.table_id]
        # Created, three joins (the last one starts the game), finished: never a move.
        assert [(t["status"], sum(s["player"] is not None for s in t["seats"]))
                for t in updates] == [("waiting", 1), ("waiting", 2), ("waiting", 3),
                                      ("playing", 4), ("finished", 4)]
        await watcher.close()


@contextlib.asynccontextmanager
async def in_process_server(pg_url: str, redis_url: str, prefix: str
                            ) -> AsyncIterator[tuple[str, FastAPI, uvicorn.Server]]:
    """The app served by uvicorn in this test's event loop, so its tasks can be counted
    (and its connections reached)."""
    from app.config import settings
    from app.main import create_app

    saved = settings.model_dump()
    settings.database_url, settings.redis_url, settings.redis_prefix = pg_url, redis_url, prefix
    for name, value in LOAD_LIMITS.items():
        setattr(settings, name.removeprefix("DOMINO_").lower(), type(getattr(
            settings, name.removeprefix("DOMINO_").lower()))(value))
    settings.redis_pool_size = 8
    port = free_port()
    app = create_app()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not serving.done(), "the server did not start"
            await asyncio.sleep(0.05)
        yield f"127.0.0.1:{port}", app, server
    finally:
        server.should_exit = True
        await serving
        for name, value in saved.items():
            setattr(settings, name, value)


@pytest.mark.timeout(900)
async def test_closing_a_thousand_sockets_at_once_leaks_no_task(
    pg_url: str, redis_url: str, redis_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    prefix = f"{redis_prefix}_close_{secrets.token_hex(3)}"
    async with in_process_server(pg_url, redis_url, prefix) as (address, app, _):
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            owner = await register(http)
            table_ids = [(await create_table(http, owner, rated=False))["id"]
                         for _ in range(50)]
        before = len(asyncio.all_tasks())
        limit = asyncio.Semaphore(10)

        async def open_one(i: int) -> Player:
            async with limit:
                # The table's owner on some sockets (present at his seat), spectators on the rest.
                player = await Player(f"ws://{address}/ws", owner if i < 50 else None).connect()
                await player.request({"type": "table.subscribe", "table_id": table_ids[i % 50]})
                return player

        sockets = await asyncio.gather(*(open_one(i) for i in range(1000)))
        feed = app.state.live.feed
        assert sum(len(w.subs) for w in feed.watches.values()) == 1000
        assert len(asyncio.all_tasks()) > before + 2000  # each socket: server side, client side
        # Through 8 Redis connections, all at once.
        await asyncio.gather(*(p.close() for p in sockets))
        for _ in range(200):
            if len(asyncio.all_tasks()) <= before:
                break
            await asyncio.sleep(0.05)
        assert len(asyncio.all_tasks()) <= before
        assert feed.watches == {}
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# Enough busy tables that a client reading nothing fills the buffers on the way to it.
STALLED_TABLES = 4


async def test_a_socket_that_stops_reading_holds_up_no_other_and_loses_nothing(
    pg_url: str, redis_url: str, redis_prefix: str
) -> None:
    """A spectator whose client stops reading (a frozen tab) at several busy tables: the
    server's sends to it wait, while the players and another spectator get every version
    at once; when it reads again, it gets every version it missed, once each and in order."""
    prefix = f"{redis_prefix}_stall_{secrets.token_hex(3)}"
    async with in_process_server(pg_url, redis_url, prefix) as (address, app, server):
        ws_url = f"ws://{address}/ws"
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            # A signed-in spectator that reads; the frozen one is the only anonymous socket.
            watcher = await Player(ws_url, await register(http)).connect()
            # The frozen client: a tiny receive buffer, and it reads nothing until the end.
            raw = socket.socket()
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            raw.setblocking(False)
            await asyncio.get_running_loop().sock_connect(raw, _host_port(address))
            frozen = await websockets.connect(ws_url, sock=raw, max_size=2**22, max_queue=1)
            # ... behind a slow path: the server's own buffer for it is small too.
            _server_side(server, raw).setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            tables: list[tuple[str, list[Player]]] = []
            for _ in range(STALLED_TABLES):
                accounts = [await register(http) for _ in range(4)]
                table_id = (await create_table(http, accounts[0]))["id"]
                players = [await Player(ws_url, a).connect() for a in accounts]
                for p in [*players, watcher]:
                    assert (await p.request({"type": "table.subscribe",
                                             "table_id": table_id}))["type"] == "table.state"
                await frozen.send(orjson.dumps({"type": "table.subscribe",
                                                "table_id": table_id}).decode())
                tables.append((table_id, players))
            for table_id, players in tables:
                for seat, p in enumerate(players[1:], start=1):
                    assert p.account is not None
                    r = await http.post(f"/api/tables/{table_id}/join",
                                        headers=p.account.headers, json={"seat": seat})
                    assert r.status_code == 200, r.text

        feed = app.state.live.feed
        most_waiting = 0

        async def measure() -> None:
            nonlocal most_waiting
            while True:
                for watch in list(feed.watches.values()):
                    for sub in watch.subs:
                        if sub.player_id is None:
                            most_waiting = max(most_waiting, len(sub.outbox))
                await asyncio.sleep(0.005)

        measuring = asyncio.create_task(measure())
        rng = random.Random(11)
        finals = await asyncio.gather(*(
            autoplay(p, table_id, random.Random(rng.random()), timeout=120)
            for table_id, players in tables for p in players))
        measuring.cancel()
        assert all(f["errors"] == [] and f["view"]["status"] == "finished" for f in finals)
        last = {f["table_id"]: f["seq"] for f in finals}
        for table_id, final in last.items():
            await watcher.expect(lambda m, t=table_id, v=final: m.get("table_id") == t
                                 and m.get("seq") == v, timeout=10)
            got = seqs(watcher, table_id)
            assert got == list(range(got[0], final + 1))
        # It reads again: every version of every table, once each, in order.
        seen: dict[str, list[int]] = {t: [] for t in last}
        received = 0
        while any(not s or s[-1] < last[t] for t, s in seen.items()):
            text = await asyncio.wait_for(frozen.recv(), 10)
            received += len(text)
            message = orjson.loads(text)
            if message["type"] == "table.state":
                seen[message["table_id"]].append(message["seq"])
        for table_id, got in seen.items():
            assert got == list(range(got[0], last[table_id] + 1))
        # The frozen socket's sends really waited: messages were queued behind one.
        assert most_waiting > 0, f"{received} bytes never made a send wait"
        await frozen.close()
        await watcher.close()
        for _, players in tables:
            for p in players:
                await p.close()



def _server_side(server: uvicorn.Server, client: socket.socket) -> Any:
    """The server's socket of the connection `client` made."""
    for protocol in server.server_state.connections:
        transport = protocol.transport
        if transport.get_extra_info("peername")[1] == client.getsockname()[1]:
            return transport.get_extra_info("socket")
    raise AssertionError("no such connection")


def _host_port(address: str) -> tuple[str, int]:
    host, port = address.rsplit(":", 1)
    return host, int(port)
