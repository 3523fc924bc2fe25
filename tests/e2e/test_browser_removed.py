"""The browser client told a table is gone asks for it once more before it says so: an
announcement that came too late (the table was put back meanwhile) is not believed, one
that is true is shown.
"""

from __future__ import annotations

import json
import secrets

import httpx
import redis
from playwright.sync_api import WebSocket, expect

from app.live.keys import Keys
from tests.e2e.browser import Tab
from tests.servers import Server

GONE = "This table no longer exists"


def test_a_table_announced_gone_is_asked_for_again_before_it_is_shown_gone(
    server: Server, open_tab, redis_url: str, redis_prefix: str
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        r = http.post("/api/auth/register", json={"username": f"g{secrets.token_hex(5)}",
                                                  "password": "password123"})
        assert r.status_code == 201, r.text
        owner = {"Authorization": f"Bearer {r.json()['token']}"}
        http.cookies.clear()
        r = http.post("/api/tables", headers=owner, json={
            "variant": "goat", "seats": 4, "options": {}, "turn_seconds": 60, "rated": False})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]

        tab: Tab = open_tab()
        subscribes: list[str] = []

        def watch(ws: WebSocket) -> None:
            ws.on("framesent", lambda frame: subscribes.append(str(frame))
                  if '"table.subscribe"' in str(frame) else None)

        tab.page.on("websocket", watch)
        tab.page.goto(f"{server.url}/#/table/{table_id}")
        expect(tab.page.locator(".table-page[data-seq]")).to_be_attached()
        before = len(subscribes)

        # An announcement that the table is gone, while it is there (as a process that lost
        # a race to put it back used to send).
        store = redis.Redis.from_url(redis_url)
        try:
            store.spublish(Keys(redis_prefix).table_channel(table_id),
                          json.dumps({"kind": "removed", "table_id": table_id}))
        finally:
            store.close()
        waited = 0
        while len(subscribes) <= before and waited < 10_000:
            tab.page.wait_for_timeout(100)
            waited += 100
        assert len(subscribes) > before, "the client did not ask for the table again"
        tab.page.wait_for_timeout(1000)
        expect(tab.page.get_by_text(GONE)).to_have_count(0)
        expect(tab.page.locator(".table-page[data-seq]")).to_be_attached()

        # The table really goes (its only player leaves): now the client says so.
        assert http.post(f"/api/tables/{table_id}/leave", headers=owner).status_code == 200
        expect(tab.page.get_by_text(GONE)).to_be_visible()
        tab.assert_clean()
