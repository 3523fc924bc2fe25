"""A finished game's review in the browser (PROTOCOL §2f), on a 360 px phone in Persian
(right to left): "Review this game" in the player's games asks for it, the worker that
`domino serve` starts beside itself computes it, and the page steps through the moves
with their marks, the played and the best move on the board, the curve with the current
move marked and each player's accuracy."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from playwright.sync_api import expect

from app.db.session import Database
from tests.e2e.browser import PHONE, Tab, shot, sign_up
from tests.e2e.conftest import _env
from tests.reviewed import finished_record, store_finished
from tests.servers import Server, run_server

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def review_server(pg_url: str, redis_url: str, redis_prefix: str,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {**_env(pg_url, redis_url, f"{redis_prefix}rv"), "DOMINO_REVIEW_WORKER": "embedded",
           "DOMINO_REVIEW_BUDGET": "24", "DOMINO_REVIEW_POLL_SECONDS": "0.2"}
    with run_server(env, log_dir=tmp_path_factory.mktemp("review")) as running:
        yield running


async def _store(url: str, name: str, player_id: int) -> str:
    db = Database(url)
    try:
        record = finished_record("goat", [name, "Bot2", "Bot3", "Bot4"], 31)
        return await store_finished(db, record, [player_id, None, None, None])
    finally:
        await db.dispose()


def fa(n: int) -> str:
    return "".join(chr(0x06F0 + int(d)) for d in str(n))


def _persian(tab: Tab) -> None:
    tab.page.evaluate("localStorage.setItem('domino.lang', 'fa')")


def test_a_review_on_a_persian_phone(review_server: Server, open_tab, pg_url: str) -> None:
    tab = open_tab(PHONE)
    page = tab.page
    sign_up(tab, review_server, "barresi")
    player_id = page.evaluate("JSON.parse(localStorage.getItem('domino.player')).id")
    # Playwright's loop runs in this thread: the database is written from another.
    with ThreadPoolExecutor(1) as pool:
        game_id = pool.submit(asyncio.run, _store(pg_url, "barresi", player_id)).result()
    _persian(tab)
    page.goto(f"{review_server.url}/#/player/barresi")
    page.reload()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.locator("[data-testid=review-game]").first.click()
    page.wait_for_url(re.compile(f"#/review/{game_id}$"))
    expect(page.locator("[data-testid=review-players]")).to_be_visible(timeout=120_000)
    accuracy = page.locator("[data-testid=review-accuracy]")
    expect(accuracy).to_have_count(4)
    expect(page.locator("[data-testid=review-curve] polyline")).to_have_count(4)
    shot(page, "review-fa-360-start")
    # Step through the game: each move is weighed; the curve marks where we are.
    marked = best_shown = weighed = 0
    for step in range(60):
        page.locator("[data-testid=next]").click()
        expect(page.locator("[data-testid=step-counter]")).to_contain_text(fa(step + 2))
        if not page.locator("[data-testid=review-move]").count():
            continue  # a deal: no decision to weigh
        weighed += 1
        expect(page.locator("[data-testid=review-now]")).to_have_count(1)
        if page.locator("[data-testid=board-best]").count():
            best_shown += 1
            expect(page.locator("[data-testid=review-best]")).to_be_visible()
            if best_shown == 1:
                shot(page, "review-fa-360-best")
        marked += page.locator("[data-testid=review-mark]").count()
    review = httpx.get(f"{review_server.url}/api/games/{game_id}/review", timeout=30).json()
    assert review["status"] == "done" and review["engine"]["budget"] == 24
    assert weighed > 50 and best_shown > 0  # the search found better moves than the Steady player's
    body = page.locator("body")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "review-fa-360-stepped")
    assert "review." not in body.inner_text()  # every word from the catalogue
    tab.assert_clean()
