"""PROTOCOL §5: `domino serve` with several workers needs a shared live store."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.servers import run_server


def test_more_workers_are_refused_on_the_embedded_store(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--workers", "2"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "DOMINO_REDIS_URL" in done.stderr
    assert not (tmp_path / "domino.db").exists()  # refused before touching anything


def test_two_workers_share_redis_and_the_database(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_workers",
    }
    with run_server(env, log_dir=tmp_path, workers=2) as server:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            r = http.post(
                "/api/auth/register", json={"username": "two_workers", "password": "password123"}
            )
            assert r.status_code == 201, r.text
            token = r.json()["token"]
            made = http.post(
                "/api/tables",
                headers={"Authorization": f"Bearer {token}"},
                json={"variant": "goat", "seats": 2, "options": {"fish_rule": "one"}},
            )
            assert made.status_code == 201, made.text
            # Whichever worker answers, the table is there: it lives in Redis.
            for _ in range(10):
                got = http.get(f"/api/tables/{made.json()['id']}")
                assert got.status_code == 200 and got.json()["options"]["fish_rule"] == "one"
        # Both workers come up (the first to answer /readyz may be alone for a moment).
        deadline = time.monotonic() + 30
        while server.output().count("Application startup complete") < 2:
            assert time.monotonic() < deadline, server.output()
            time.sleep(0.2)
