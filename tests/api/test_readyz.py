"""Readiness: 200 while the database answers, an honest 503 (never a 500) when it is gone."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.persistence import fresh_database
from tests.servers import free_port, run_server
from tests.servers import pg_admin as _admin


def test_ready_then_503_when_the_database_is_dropped(pg_url: str, tmp_path):
    with fresh_database("postgresql", pg_url, tmp_path) as url:
        env = {"DOMINO_DATABASE_URL": url}
        with run_server(env, log_dir=tmp_path) as server, httpx.Client(base_url=server.url) as http:
            ready = http.get("/readyz")
            assert ready.status_code == 200
            assert http.get("/api/leaderboard").status_code == 200

            name = url.rsplit("/", 1)[1]
            asyncio.run(_admin(f'DROP DATABASE "{name}" WITH (FORCE)'))

            down = http.get("/readyz")
            assert down.status_code == 503
            assert "database" in down.json()["detail"]
            # Requests that need the database say so instead of failing with a 500.
            for path in ("/api/leaderboard", "/api/players/anyone", "/api/games/g1"):
                response = http.get(path)
                assert response.status_code == 503, path
                assert isinstance(response.json()["detail"], str)
            # Said in the reader's language (PROTOCOL §2a), English as it always was.
            english = http.get("/api/leaderboard").json()
            assert english["detail"] == "database unavailable, try again shortly"
            thai = http.get("/api/leaderboard", headers={"Accept-Language": "th-TH,th"}).json()
            assert thai["detail"] == "ฐานข้อมูลไม่พร้อมชั่วคราว ลองใหม่อีกสักครู่"
            assert thai["retry_ms"] == english["retry_ms"] > 0
            login = http.post(
                "/api/auth/login", json={"username": "anyone", "password": "12345678"}
            )
            assert login.status_code == 503
            # The process itself still runs.
            assert http.get("/healthz").status_code == 200


def test_the_server_does_not_start_without_its_database(tmp_path):
    nowhere = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/domino"
    with (
        pytest.raises(RuntimeError, match="exited early"),
        run_server({"DOMINO_DATABASE_URL": nowhere}, log_dir=tmp_path),
    ):
        pass
