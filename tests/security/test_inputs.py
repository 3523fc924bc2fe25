"""Client input that once reached the database and came back as 503: now a clean 4xx."""

from __future__ import annotations

import httpx
import pytest

from tests.servers import Server


@pytest.fixture
def http(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


def test_a_nul_byte_in_the_sign_in_name_is_refused(http: httpx.Client) -> None:
    r = http.post("/api/auth/login", json={"username": "ma\u0000sha", "password": "whatever1"})
    assert r.status_code == 422


@pytest.mark.parametrize(
    "path", ["/api/players/ma%00sha", "/api/games/ab%00cd", "/api/games/ab%00cd/positions"]
)
def test_a_nul_byte_in_a_name_or_id_is_refused(http: httpx.Client, path: str) -> None:
    assert http.get(path).status_code == 422


@pytest.mark.parametrize("offset", [2**63, 2**64 + 5, 10**30])
def test_a_leaderboard_offset_past_64_bits_is_422(http: httpx.Client, offset: int) -> None:
    r = http.get("/api/leaderboard", params={"offset": offset})
    assert r.status_code == 422
    assert http.get("/api/leaderboard", params={"offset": 2**63 - 1}).status_code == 200
