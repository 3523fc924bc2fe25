"""Per-address rate limits on the HTTP API (DESIGN: per-connection and per-IP limits)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.servers import Server, run_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Tiny budgets that do not refill during the test.
    env = {
        "DOMINO_AUTH_BURST": "5",
        "DOMINO_AUTH_RATE": "0.0001",
        "DOMINO_API_BURST": "8",
        "DOMINO_API_RATE": "0.0001",
    }
    log_dir: Path = tmp_path_factory.mktemp("ratelimit")
    with run_server(env, log_dir=log_dir) as running:
        yield running


def test_sign_in_attempts_are_limited_and_a_refused_request_changes_nothing(
    server: Server,
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        wrong = {"username": "nobody_here", "password": "not the password"}
        for _ in range(5):
            assert http.post("/api/auth/login", json=wrong).status_code == 401
        refused = http.post("/api/auth/login", json=wrong)
        assert refused.status_code == 429
        assert "too many" in refused.json()["detail"]
        blocked = http.post(
            "/api/auth/register", json={"username": "eve_blocked", "password": "long enough"}
        )
        assert blocked.status_code == 429
        # The rest of the API has its own budget, and the refused sign-up wrote nothing.
        assert http.get("/api/players/eve_blocked").status_code == 404
        assert http.get("/api/tables").status_code == 200
        statuses = [http.get("/api/tables").status_code for _ in range(8)]
        assert statuses[:6] == [200] * 6 and statuses[6:] == [429, 429]
        # The refusal is said in the reader's language (PROTOCOL §2a); the rest is the same.
        said = {lang: http.get("/api/tables", headers={"Accept-Language": lang})
                for lang in ("en", "ru", "fa")}
        assert {lang: r.status_code for lang, r in said.items()} == dict.fromkeys(said, 429)
        assert said["en"].json()["detail"] == "too many requests; slow down"
        assert said["ru"].json()["detail"] == "слишком много запросов, помедленнее"
        persian = "درخواست‌ها بیش از حد زیاد است، آهسته‌تر"  # noqa: RUF001
        assert said["fa"].json()["detail"] == persian
        assert all(r.json()["retry_ms"] > 0 and r.headers["retry-after"] for r in said.values())
        # Health probes are never limited.
        assert http.get("/healthz").status_code == 200
