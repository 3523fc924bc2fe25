"""The "Add a bot" button of a waiting table, in headless Chromium against a real server:
a player alone at a 2-seat table adds a strong bot, the game starts, and he plays it to
the end by clicking while the bot answers through the server."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.bots.test_tables import bot_env
from tests.e2e.browser import (  # noqa: F401 (fixtures)
    DESKTOP,
    GAME_SECONDS,
    browser,
    finished,
    open_tab,
    others_join,
    shot,
    sign_up,
    take_turn,
)
from tests.servers import Server, run_server


@pytest.fixture(scope="module")
def bot_server(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    log_dir: Path = tmp_path_factory.mktemp("botbrowser")
    with run_server(bot_env(pg_url, redis_url, f"{redis_prefix}_botui"), log_dir=log_dir) as s:
        yield s


def test_a_player_adds_a_bot_and_plays_it_to_the_end(bot_server: Server, open_tab) -> None:  # noqa: F811
    name = f"solo_{secrets.token_hex(3)}"
    tab = open_tab(DESKTOP)
    sign_up(tab, bot_server, name)
    page = tab.page
    form = page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("goat")
    form.locator("select[name=seats]").select_option("2")
    form.locator("input[name=rated][value=casual]").check()  # bots sit at casual tables
    form.locator("input[name=round_pause_seconds]").fill("1")
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"#/table/"))
    expect(page.get_by_text("Waiting for 1 more player")).to_be_visible()
    page.locator("[data-testid=bot-strength]").select_option("strong")
    shot(page, "add-bot")
    page.get_by_role("button", name="Add a bot").click()
    expect(page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    expect(page.locator(".seat-card").filter(has_text="Computer 2 (Strong)")).to_have_count(1)
    deadline = time.monotonic() + GAME_SECONDS
    while not finished(page):
        assert time.monotonic() < deadline, "the game did not finish in time"
        if not take_turn(page):
            page.wait_for_timeout(50)
    expect(page.locator("[data-testid=result]")).to_be_visible()
    shot(page, "bot-game-over")
    tab.assert_clean()


def test_the_chosen_strength_survives_the_waiting_box_being_redrawn(
    bot_server: Server,
    open_tab,  # noqa: F811
) -> None:
    """The waiting box is rebuilt when someone joins; the strength the owner chose before
    that is the one his bot gets, not the select's default."""
    owner = open_tab(DESKTOP)
    sign_up(owner, bot_server, f"own_{secrets.token_hex(3)}")
    page = owner.page
    form = page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("goat")
    form.locator("select[name=seats]").select_option("3")
    form.locator("input[name=rated][value=casual]").check()
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"#/table/"))
    expect(page.get_by_text("Waiting for 2 more players")).to_be_visible()
    page.locator("[data-testid=bot-strength]").select_option("strong")
    guest = open_tab(DESKTOP)
    sign_up(guest, bot_server, f"gst_{secrets.token_hex(3)}")
    others_join([owner, guest], bot_server)
    expect(page.get_by_text("Waiting for 1 more player")).to_be_visible()
    expect(page.locator("[data-testid=bot-strength]")).to_have_value("strong")
    page.get_by_role("button", name="Add a bot").click()
    expect(page.locator(".seat-card").filter(has_text="Computer 3 (Strong)")).to_have_count(1)
    owner.assert_clean()
    guest.assert_clean()


def test_a_rated_table_offers_no_bot_and_says_why(bot_server: Server, open_tab) -> None:  # noqa: F811
    tab = open_tab(DESKTOP)
    sign_up(tab, bot_server, f"rtd_{secrets.token_hex(3)}")
    page = tab.page
    form = page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("goat")
    form.locator("select[name=seats]").select_option("2")
    form.get_by_role("button", name="Create table").click()  # rated, as the form starts
    page.wait_for_url(re.compile(r"#/table/"))
    expect(page.get_by_text("Waiting for 1 more player")).to_be_visible()
    expect(page.locator("[data-testid=bots-casual-only]")).to_have_text(
        "Computer players sit at casual tables only: ratings are earned among people.")
    expect(page.locator("[data-testid=add-bot]")).to_have_count(0)
    tab.assert_clean()
