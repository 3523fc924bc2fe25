"""The turn clock and a seat a computer player holds, as a person sees them on a phone in
Persian (PROTOCOL §2g): the reserve counting down once the turn time is spent, then the
button that takes his seat back, and his hand again at his next turn. Screenshots at 360 px
(fa) and 1280 px land in artifacts/screenshots/."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.bots.test_tables import bot_env
from tests.e2e.browser import DESKTOP, PHONE, REPO, shot
from tests.servers import Server, run_server

PASSWORD = "correct horse battery"
FA = json.loads((REPO / "app" / "web" / "lang" / "fa.json").read_text())


@pytest.fixture(scope="module")
def slow_bots(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server whose computer players take a while over a move, so a person can act
    between theirs."""
    log_dir: Path = tmp_path_factory.mktemp("clock")
    env = {**bot_env(pg_url, redis_url, f"{redis_prefix}_clock"), "DOMINO_BOT_PACE_SECONDS": "2"}
    with run_server(env, log_dir=log_dir) as server:
        yield server


def test_the_reserve_counts_down_and_a_held_seat_is_taken_back_on_a_phone(
    browser: Browser, slow_bots: Server
) -> None:
    name = f"clk_{secrets.token_hex(3)}"
    with httpx.Client(base_url=slow_bots.url, timeout=30) as http:
        r = http.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        r = http.post("/api/tables", json={"variant": "goat", "seats": 2, "turn_seconds": 5,
                                           "reserve_seconds": 4, "rated": False,
                                           "round_pause_seconds": 0})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                  reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('domino.lang', 'fa');")
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{slow_bots.url}/#/signin")
        form = page.locator("form").filter(has=page.locator("input[name=password]")).first
        form.locator("input[name=username]").fill(name)
        form.locator("input[name=password]").fill(PASSWORD)
        form.locator("button[type=submit]").click()
        expect(page.locator("[data-testid=me]")).to_have_text(name)
        page.goto(f"{slow_bots.url}/#/table/{table_id}")
        with httpx.Client(base_url=slow_bots.url, timeout=30, headers=http.headers) as api:
            assert api.post(f"/api/tables/{table_id}/bots",
                            json={"strength": "random"}).status_code == 200
        timer = page.locator("[data-testid=timer]")
        reserve_word = FA["clock.in_reserve"].split("{")[0].strip()
        # His turn: the turn time with the reserve beside it, then the reserve alone.
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=hand] .hand-tile.legal').length > 0",
            timeout=30_000)
        expect(timer).to_contain_text("+")
        expect(timer).to_have_class(re.compile(r"\breserve\b"), timeout=12_000)
        expect(timer).to_contain_text(reserve_word)
        expect(timer).not_to_contain_text("+")
        shot(page, "clock-reserve-360-fa")
        # He lets it run out: a computer player takes his seat; he may take it back.
        reclaim = page.locator("[data-testid=reclaim]")
        expect(reclaim).to_be_visible(timeout=15_000)
        expect(reclaim).to_have_text(FA["clock.reclaim"])
        expect(page.locator("[data-testid=hand] .hand-tile")).to_have_count(0)
        shot(page, "clock-reclaim-360-fa")
        reclaim.click()
        # At his next turn the seat and its hand are his again.
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=hand] .hand-tile.legal').length > 0",
            timeout=30_000)
        expect(reclaim).to_have_count(0)
        shot(page, "clock-back-360-fa")
        page.set_viewport_size(DESKTOP)
        shot(page, "clock-back-1280-fa")
        assert errors == []
    finally:
        context.close()
