"""GET /api/variants (PROTOCOL §2a) from a real server: what the engine declares."""

from __future__ import annotations

import httpx

from app.engine import describe_variants


def test_variants_lists_every_playable_variant(client: httpx.Client) -> None:
    response = client.get("/api/variants")
    assert response.status_code == 200
    listed = response.json()
    assert listed == describe_variants()
    goat = next(v for v in listed if v["name"] == "goat")
    assert set(goat) >= {"name", "players", "options", "layout", "wins", "teams"}
    assert goat["players"] == [2, 4] and goat["layout"] == "line"
