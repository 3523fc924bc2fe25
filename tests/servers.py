"""Real server processes for tests: `domino serve` on a free port, forked from a warm
interpreter (tests/warm.py) so that each start does not import the libraries again."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import asyncpg
import httpx
import redis
from prometheus_client.parser import text_string_to_metric_families
from redis.cluster import ClusterNode

from app.live.client import cluster_address, clustered_url
from tests.warm import Forked, fork_server

REPO = Path(__file__).resolve().parent.parent
PG_ADMIN_DSN = os.environ.get("DOMINO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


async def pg_admin(sql: str) -> None:
    """Run one statement as PostgreSQL's administrator (create or drop a database)."""
    conn = await asyncpg.connect(PG_ADMIN_DSN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def database_url(name: str) -> str:
    """The SQLAlchemy URL of database `name` on the administrator's server."""
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    return f"{base}/{name}"


def sync_redis(redis_url: str) -> redis.Redis:
    """A blocking client of `redis_url`: one Redis, or a Redis Cluster's
    (`redis+cluster://`, whose SCAN goes over every master)."""
    if clustered_url(redis_url):
        nodes = cluster_address(redis_url).nodes
        return cast(redis.Redis, redis.RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in nodes]))
    return redis.Redis.from_url(redis_url)


def clear_redis_prefix(redis_url: str, prefix: str) -> None:
    """Delete every key under `prefix`: leave a shared Redis as we found it."""
    client = sync_redis(redis_url)
    for key in client.scan_iter(match=f"{prefix}*"):
        client.delete(key)
    client.close()


# Limits and caps out of the way, for tests and benchmarks that load one server from one
# address (the limits themselves are tested in tests/security).
LOAD_LIMITS = {
    "DOMINO_API_BURST": "100000",
    "DOMINO_AUTH_BURST": "100000",
    "DOMINO_CREATE_BURST": "100000",
    "DOMINO_TOURNAMENT_CREATE_BURST": "100000",
    "DOMINO_TOURNAMENT_ADDRESS_BURST": "100000",
    "DOMINO_PLAYER_BURST": "100000",
    "DOMINO_WS_CONNECT_BURST": "100000",
    "DOMINO_WS_ADDRESS_BURST": "1000000",
    "DOMINO_WS_PLAYER_BURST": "1000000",
    "DOMINO_MAX_WAITING_TABLES": "100000",
    "DOMINO_MAX_SOCKETS_PER_PLAYER": "100000",
    "DOMINO_MAX_ANON_SOCKETS_PER_ADDRESS": "100000",
    "DOMINO_LOBBY_MAX_TABLES": "100000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    ws_url: str
    process: subprocess.Popen[bytes] | Forked
    log: Path
    # Where its metrics are served (DOMINO_METRICS_PORT), when they are.
    metrics_url: str | None = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def run_server(
    env: dict[str, str], *, log_dir: Path, workers: int = 1, port: int | None = None
) -> Iterator[Server]:
    """Start `domino serve` with `env` added to the environment; stop it afterwards.

    `port`: a given port, e.g. to restart a server where its browsers reconnect.
    """
    port = port or free_port()
    log = log_dir / f"server-{port}.log"
    full_env = {**os.environ, "DOMINO_PORT": str(port), "DOMINO_HOST": "127.0.0.1", **env}
    process = fork_server(["serve", "--workers", str(workers)], full_env, log_dir, log)
    server = Server(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", process, log)
    if env.get("DOMINO_METRICS_PORT"):
        server.metrics_url = f"http://127.0.0.1:{env['DOMINO_METRICS_PORT']}/metrics"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{server.output()}")
            try:
                if httpx.get(f"{server.url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not become ready:\n{server.output()}")
            time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def scrape(server: Server) -> dict[str, float]:
    """Every sample of the server's metrics by name and labels, e.g.
    'domino_tables{status=...}' (it must serve them: DOMINO_METRICS_PORT)."""
    assert server.metrics_url is not None
    r = httpx.get(server.metrics_url, timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples
