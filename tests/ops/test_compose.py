"""The deployment files as an operator gets them, read (no container engine here) and
their start-up sequence run natively: migrations, two `domino serve` processes and
Debian's nginx with the very nginx file compose mounts, then a game and a reconnect."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.e2e.client import Account, Message, Player
from tests.e2e.game import PlayedGame, check_replay, fetch_record, seat_players
from tests.ops.test_restart import play_with_a_stop
from tests.servers import REPO, Server, database_url, free_port, pg_admin, run_server

pytestmark = pytest.mark.timeout(600)

NGINX = "/usr/sbin/nginx"
NGINX_CONF = REPO / "deploy" / "nginx" / "domino.conf"


def _compose() -> dict[str, Any]:
    return dict(yaml.safe_load((REPO / "docker-compose.yml").read_text()))


def _env_example() -> dict[str, str]:
    pairs = {}
    for line in (REPO / ".env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            pairs[name] = value
    return pairs


def test_compose_has_the_production_shape() -> None:
    services = _compose()["services"]
    assert set(services) == {"postgres", "redis", "migrate", "app", "worker", "proxy",
                             "prometheus", "redis-cluster",
                             *(f"redis-node-{n}" for n in range(1, 7))}
    assert services["worker"]["command"] == ["domino", "worker"]

    postgres = services["postgres"]
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])

    redis = services["redis"]
    command = " ".join(redis["command"])
    assert "--appendonly yes" in command
    assert any(v.endswith(":/data") for v in redis["volumes"])
    assert "ping" in redis["healthcheck"]["test"]

    migrate = services["migrate"]
    assert migrate["command"] == ["domino", "migrate"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"

    app = services["app"]
    assert app["command"][:2] == ["domino", "serve"]
    assert app["deploy"]["replicas"] == 2
    assert app["depends_on"] == {
        "migrate": {"condition": "service_completed_successfully"},
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    assert "ports" not in app  # reached only through the proxy
    env = app["environment"]
    assert env["DOMINO_DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert "@postgres:5432/" in env["DOMINO_DATABASE_URL"]
    assert env["DOMINO_REDIS_URL"] == "${DOMINO_REDIS_URL:-redis://redis:6379/0}"
    assert _env_example()["DOMINO_REDIS_URL"] == "redis://redis:6379/0"
    # Metrics on a port of their own, scraped inside the network, published nowhere.
    assert env["DOMINO_METRICS_PORT"] == "9100" and "9100" in app["expose"]
    prometheus = services["prometheus"]
    assert prometheus["profiles"] == ["monitoring"] and "ports" not in prometheus
    scrape = yaml.safe_load((REPO / "deploy" / "prometheus" / "prometheus.yml").read_text())
    targets = scrape["scrape_configs"][0]["dns_sd_configs"][0]
    assert targets["names"] == ["app"] and targets["port"] == 9100
    grace = int(str(app["stop_grace_period"]).rstrip("s"))
    assert grace > float(_env_example()["DOMINO_SHUTDOWN_SECONDS"])

    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx")
    assert "./deploy/nginx/domino.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    assert set(_compose()["volumes"]) == {"pgdata", "redisdata",
                                          *(f"redis-node-{n}" for n in range(1, 7))}


def test_the_cluster_profile_is_three_masters_and_a_replica_each_that_keep_their_data() -> None:
    services = _compose()["services"]
    nodes = [services[f"redis-node-{n}"] for n in range(1, 7)]
    for n, node in enumerate(nodes, 1):
        command = " ".join(node["command"])
        assert node["profiles"] == ["cluster"]
        assert "--cluster-enabled yes" in command and "--appendonly yes" in command
        assert "--cluster-replica-validity-factor 0" in command
        assert node["volumes"] == [f"redis-node-{n}:/data"]
    join = services["redis-cluster"]
    assert join["profiles"] == ["cluster"] and join["restart"] == "no"
    script = " ".join(join["command"])
    assert "--cluster create" in script and "--cluster-replicas 1" in script
    assert "cluster_state:ok" in script  # a cluster already up is left alone
    assert set(join["depends_on"]) == {f"redis-node-{n}" for n in range(1, 7)}


def test_every_setting_compose_asks_for_is_in_env_example() -> None:
    text = (REPO / "docker-compose.yml").read_text()
    asked = set(re.findall(r"\$\{(\w+)", text))
    assert asked <= set(_env_example()), asked - set(_env_example())
    assert _env_example()["DOMINO_MODE"] == "production"


def test_the_proxy_passes_websockets_and_hides_metrics() -> None:
    conf = NGINX_CONF.read_text()
    assert "proxy_http_version 1.1;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert re.search(r"location /ws \{[^}]*proxy_read_timeout 1h;", conf)
    assert re.search(r"location = /metrics \{\s*return 404;", conf)
    # Sockets by table: those naming one table meet on one replica, the others spread.
    assert re.search(r"upstream domino_sockets \{\s*hash \$arg_table consistent;", conf)
    assert re.search(r"location /ws \{\s*proxy_pass http://domino_sockets;", conf)


def test_the_image_is_slim_non_root_without_dev_extras_and_checks_readyz() -> None:
    lines = [
        line.strip() for line in (REPO / "Dockerfile").read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    # The image is the last stage; the one before makes the client's bundle from the lock.
    stages = [line for line in lines if line.startswith("FROM ")]
    assert re.fullmatch(r"FROM python:3\.1\d-slim", stages[-1])
    assert "RUN npm ci --no-audit --no-fund --loglevel=error" in lines
    assert "COPY --from=web /src/app/web/dist ./app/web/dist" in lines
    installs = [line for line in lines if "pip install" in line]
    assert installs == [
        "RUN pip install --require-hashes -r requirements.lock \\",
        "&& pip install --require-hashes -r requirements-build.lock",
        "RUN pip install --no-deps --no-build-isolation -e .",
    ]
    # The server's lock holds no development tool.
    locked = re.findall(r"^([A-Za-z0-9._-]+)==", (REPO / "requirements.lock").read_text(), re.M)
    assert "redis" in locked
    assert not {"pytest", "playwright", "ruff", "mypy", "hypothesis"} & set(locked)
    # What builds the package is pinned too: no build downloads a release of its choosing.
    build = re.findall(r"^([A-Za-z0-9._-]+)==", (REPO / "requirements-build.lock").read_text(),
                       re.M)
    assert "setuptools" in build
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    healthcheck = next(i for i, line in enumerate(lines) if line.startswith("HEALTHCHECK"))
    assert "/readyz" in " ".join(lines[healthcheck : healthcheck + 2])
    ignored = (REPO / ".dockerignore").read_text().split()
    assert {".venv", ".git", ".env", "tests"} <= set(ignored)


# -- the same start-up, natively ------------------------------------------------------------


def _nginx_conf(folder: Path, port: int, upstreams: list[str]) -> Path:
    """The compose file's nginx conf with the replicas' addresses and a free port."""
    site = NGINX_CONF.read_text()
    servers = "".join(f"    server {u} max_fails=1 fail_timeout=2s;\n" for u in upstreams)
    site, replaced = re.subn(r"    server app:8000[^;]*;\n", servers, site)
    assert replaced == 2  # the upstream for requests, the one for sockets
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    (folder / "site.conf").write_text(site)
    main = folder / "nginx.conf"
    user = "user root;\n" if os.geteuid() == 0 else ""
    main.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log info;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n  log_format routes '$request_uri $upstream_addr';\n"
        f"  access_log {folder}/access.log routes;\n"
        f"  client_body_temp_path {folder}/body;\n  proxy_temp_path {folder}/proxy;\n"
        f"  fastcgi_temp_path {folder}/fastcgi;\n  uwsgi_temp_path {folder}/uwsgi;\n"
        f"  scgi_temp_path {folder}/scgi;\n  include {folder}/site.conf;\n}}\n"
    )
    return main


def _start_nginx(folder: Path, upstreams: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    conf = _nginx_conf(folder, port, upstreams)
    check = subprocess.run(
        [NGINX, "-t", "-p", str(folder), "-c", str(conf), "-e", "stderr"],
        capture_output=True, text=True, check=False,
    )
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(conf), "-e", "stderr"],
        stdout=subprocess.DEVNULL, stderr=(folder / "nginx.out").open("wb"),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        assert process.poll() is None, (folder / "nginx.out").read_text()
        assert time.monotonic() < deadline, "nginx did not pass /readyz through"
        time.sleep(0.1)


@pytest.fixture
def deployment(
    redis_url: str, redis_prefix: str, tmp_path: Path
) -> Iterator[tuple[Server, Server, Server]]:
    """migrate, then two replicas, then nginx in front: as `docker compose up` does."""
    name = f"domino_compose_{secrets.token_hex(6)}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    database = database_url(name)
    example = _env_example()
    env = {
        "DOMINO_DATABASE_URL": database,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_compose",
        "DOMINO_SWEEP_SECONDS": "0.1",
        # (but the test machine's Redis, not the compose network's)
        **{k: v for k, v in example.items()
           if k.startswith("DOMINO_") and k != "DOMINO_REDIS_URL"},
        # compose's Redis keeps an append-only file; the test machine's does not.
        "DOMINO_REDIS_UNPERSISTED_OK": "true",
    }
    migrated = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        env={**os.environ, **env}, cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert migrated.returncode == 0, migrated.stderr
    nginx: subprocess.Popen[bytes] | None = None
    try:
        with run_server(env, log_dir=tmp_path) as one, run_server(env, log_dir=tmp_path) as two:
            upstreams = [s.url.removeprefix("http://") for s in (one, two)]
            nginx, url = _start_nginx(tmp_path, upstreams)
            proxy = Server(url, url.replace("http://", "ws://") + "/ws", nginx,
                           tmp_path / "nginx.out")
            yield one, two, proxy
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def test_a_game_and_a_reconnect_through_nginx(
    deployment: tuple[Server, Server, Server],
) -> None:
    one, two, proxy = deployment
    # The replicas log JSON (as .env.example sets) and never had to migrate: it was done.
    assert "Running upgrade" not in one.output() + two.output()
    assert httpx.get(f"{proxy.url}/metrics").status_code == 404
    assert httpx.get(f"{one.url}/metrics").status_code == 404  # not on the app's port

    seated = await seat_players([proxy], seats=4)
    table_id = seated.table_id
    await seated.first_playing_state()
    # One replica goes away (a rolling update): its sockets reconnect through nginx.
    finals, sockets = await play_with_a_stop(seated, proxy, one, after_seq=10, seed=7)
    assert one.process.wait(timeout=20) == -signal.SIGTERM
    told = [p for p in seated.players if p.closed == 1012]
    assert told, "no socket was on the stopped replica"
    assert len(sockets) == 4 + len(told)

    assert all(f["view"]["status"] == "finished" for f in finals)
    game_id = finals[0]["view"]["game_id"]
    played = PlayedGame(table_id, game_id, seated.accounts, sockets, seated.spectator, finals)
    record = await fetch_record(proxy, played)
    assert record["result"] == finals[0]["view"]["result"]
    check_replay(record)
    stored = {
        (r, m["seat"], m["tile"]) for r, rnd in enumerate(record["rounds"]) for m in rnd["moves"]
    }
    seen = {
        (e["round"], e["seat"], e["tile"])
        for p in [*sockets, seated.spectator]
        for f in p.states(table_id)
        for e in f["events"]
        if e["type"] == "play"
    }
    assert seen == stored

    # The client's files come compressed when asked; an API answer never does.
    script = httpx.get(f"{proxy.url}/js/views/table.js", headers={"Accept-Encoding": "gzip"})
    assert script.status_code == 200 and script.headers["content-encoding"] == "gzip"
    assert script.content == (REPO / "app" / "web" / "js" / "views" / "table.js").read_bytes()
    assert script.num_bytes_downloaded < len(script.content) // 2
    # The message catalogue is a JSON module: served as JSON (a browser refuses a JSON
    # module of another type), compressed like the scripts.
    words = httpx.get(f"{proxy.url}/lang/ru.json", headers={"Accept-Encoding": "gzip"})
    assert words.status_code == 200 and words.headers["content-encoding"] == "gzip"
    assert words.headers["content-type"].startswith("application/json")
    assert words.content == (REPO / "app" / "web" / "lang" / "ru.json").read_bytes()
    assert words.num_bytes_downloaded < len(words.content) // 2
    variants = httpx.get(f"{proxy.url}/api/variants", headers={"Accept-Encoding": "gzip"})
    assert variants.status_code == 200 and len(variants.content) > 1024
    assert "content-encoding" not in variants.headers

    # A socket that reconnects through the proxy picks the table up where it is.
    again = await Player(proxy.ws_url, seated.accounts[0]).connect()
    state = await again.request({"type": "table.subscribe", "table_id": table_id})
    assert state["type"] == "table.state" and state["view"]["status"] == "finished"
    await again.close()



def _routes(folder: Path) -> list[tuple[str, str]]:
    """(request URI, replica) of every socket nginx has passed on and seen closed; the
    replica that took it (nginx names each it tried, the last took it)."""
    lines = (folder / "access.log").read_text().splitlines()
    return [(uri, upstream.split(", ")[-1])
            for uri, _, upstream in (line.partition(" ") for line in lines)
            if uri.startswith("/ws")]


async def test_a_tables_sockets_meet_on_one_replica_and_move_when_it_stops(
    deployment: tuple[Server, Server, Server], tmp_path: Path,
) -> None:
    """The proxy routes a socket by the table its address names (as the browser client's
    does), so a table's seats share one process; without a name, sockets spread. When that
    replica stops, the table's sockets all meet again on another, which serves the table."""
    one, two, proxy = deployment
    seated = await seat_players([proxy], seats=4)
    table_id = seated.table_id
    await seated.first_playing_state()
    at_table = f"{proxy.ws_url}?table={table_id}"

    async def visit(url: str, account: Account | None) -> Message:
        player = await Player(url, account).connect()
        try:
            return await player.request({"type": "table.subscribe", "table_id": table_id})
        finally:
            await player.close()

    for _ in range(2):
        states = await asyncio.gather(*(visit(at_table, a) for a in seated.accounts))
        assert all(s["type"] == "table.state" for s in states)
    await asyncio.gather(*(visit(proxy.ws_url, None) for _ in range(16)))
    await asyncio.sleep(0.5)  # nginx logs a socket once it is closed
    routes = _routes(tmp_path)
    named = {upstream for uri, upstream in routes if uri == f"/ws?table={table_id}"}
    assert len(named) == 1, routes
    unnamed = {upstream for uri, upstream in routes if uri == "/ws"}
    assert unnamed == {one.url.removeprefix("http://"), two.url.removeprefix("http://")}

    # The table's replica stops (a rolling update): its sockets now all meet on the other.
    holder = one if named == {one.url.removeprefix("http://")} else two
    other = two if holder is one else one
    holder.process.send_signal(signal.SIGTERM)
    assert holder.process.wait(timeout=20) == -signal.SIGTERM
    states = await asyncio.gather(*(visit(at_table, a) for a in seated.accounts))
    assert all(s["type"] == "table.state" and s["view"]["status"] == "playing" for s in states)
    await asyncio.sleep(0.5)
    after = [upstream for uri, upstream in _routes(tmp_path)[len(routes):]
             if uri == f"/ws?table={table_id}"]
    assert after == [other.url.removeprefix("http://")] * 4, after
    for player in [*seated.players, seated.spectator]:
        await player.close()
