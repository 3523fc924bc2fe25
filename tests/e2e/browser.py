"""Browser plumbing shared by the browser tests: Chromium, tabs, screenshots, players.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    FloatRect,
    Locator,
    Page,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import REPO, Server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
GAME_SECONDS = 240  # the whole game must be played within this (turn clocks are longer)
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class Tab:
    """One browser context with one page, and every console error it printed."""

    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.errors == [], f"browser console errors: {self.errors}"


# Module scope: Playwright's sync API keeps an event loop running while it is open, which
# the asyncio tests of other modules must not meet.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_tab(browser: Browser) -> Iterator:
    tabs: list[Tab] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Tab:
        # Reduced motion: no tile slides in, so a whole game clicked through costs the
        # machine no animation frames (the client's motion is checked in test_client).
        context = browser.new_context(viewport=viewport, reduced_motion="reduce")
        page = context.new_page()
        page.set_default_timeout(15_000)
        tab = Tab(context, page)
        page.on("console", lambda msg: tab.errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: tab.errors.append(f"pageerror: {exc}"))
        tabs.append(tab)
        return tab

    yield make
    for tab in tabs:
        tab.context.close()


def box_in_view(locator: Locator, timeout: float = 10.0) -> FloatRect:
    """Scroll `locator`'s element into view and return its box. A page that draws the
    element again meanwhile (a live update) detaches the one Playwright held: it is found
    afresh and tried again, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            locator.scroll_into_view_if_needed(timeout=2000)
            box = locator.bounding_box(timeout=2000)
            if box is not None:
                return box
        except PlaywrightError as error:
            if "not attached" not in str(error) and not isinstance(error, PlaywrightTimeout):
                raise
        assert time.monotonic() < deadline, f"{locator} never stayed in view"
        time.sleep(0.05)


def shot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_up(tab: Tab, server: Server, name: str, *, then: str = "#/lobby", go: bool = True) -> None:
    """Sign up through the form (in any language); the page then shows `then`."""
    page = tab.page
    if go:
        page.goto(f"{server.url}/#/signin")
    form = page.locator("[data-testid=signup]")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill("correct horse battery")
    form.locator("button[type=submit]").click()
    expect(page.locator("[data-testid=me]")).to_have_text(name)
    page.wait_for_url(re.compile(f"{re.escape(then)}$"))
    if then == "#/lobby":
        expect(page.locator("[data-testid=table-list]")).to_be_attached()


def signed_up_tabs(open_tab: Callable[..., Tab], server: Server, names: list[str],
                   viewports: list[Any]) -> list[Tab]:
    """A tab per name, in its viewport, each signed up as that name."""
    tabs = [open_tab(v) for v in viewports]
    for tab, name in zip(tabs, names, strict=True):
        sign_up(tab, server, name)
    return tabs


def others_join(tabs: list[Tab], server: Server) -> str:
    """After the first tab made a table: every other tab opens it and joins; its id."""
    tabs[0].page.wait_for_url(re.compile(r"#/table/"))
    table_id = tabs[0].page.url.split("#/table/")[1]
    for tab in tabs[1:]:
        tab.page.goto(f"{server.url}/#/table/{table_id}")
        tab.page.get_by_role("button", name="Join this table").click()
    return table_id


def hand_of(page: Page) -> list[str]:
    return page.locator("[data-testid=hand] .hand-tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)"
    )


def seq_of(page: Page) -> int:
    return int(page.locator(".table-page").get_attribute("data-seq") or "-1")


def wait_seq_after(page: Page, seq: int) -> None:
    page.wait_for_function(
        "seq => Number(document.querySelector('.table-page')?.dataset.seq ?? -1) > seq", arg=seq
    )


def take_turn(page: Page, *, keyboard: bool = False) -> bool:
    """If this page has a playable tile, play one (and pick an end if asked).

    With `keyboard`, the tile is focused and chosen with Enter, and so is the end: the
    client moves the focus to the first end button by itself.
    """
    legal = page.locator("[data-testid=hand] .hand-tile.legal:not([disabled])")
    if legal.count() == 0:
        return False
    seq = seq_of(page)
    if keyboard:
        legal.first.focus()
        page.keyboard.press("Enter")
    else:
        legal.first.click()
    choice = page.locator("[data-testid=board] .end-choice")
    if choice.count():
        if keyboard:
            expect(page.locator(".end-choice:focus")).to_have_count(1)
            page.keyboard.press("Enter")
        else:
            choice.last.click()
    wait_seq_after(page, seq)
    return True


def finished(page: Page) -> bool:
    return page.locator("[data-testid=result]").is_visible()


def play_to_the_end(tabs: list[Tab], move: Callable[[Tab], bool]) -> None:
    """Each player in turn makes `move` (True: he played) until every page shows the
    result, within GAME_SECONDS."""
    deadline = time.monotonic() + GAME_SECONDS
    while not all(finished(tab.page) for tab in tabs):
        assert time.monotonic() < deadline, "the game did not finish in time"
        played = False
        for tab in tabs:
            if not finished(tab.page) and move(tab):
                played = True
        if not played:
            tabs[0].page.wait_for_timeout(50)


def wait_for_record(server: Server, game_id: str) -> None:
    """The results writer stores a finished game a moment after its last move."""
    deadline = time.monotonic() + 20
    while httpx.get(f"{server.url}/api/games/{game_id}").status_code != 200:
        assert time.monotonic() < deadline, "the finished game was never stored"
        time.sleep(0.2)


def resign(tab: Tab) -> None:
    """Resign through the table's button and its confirmation."""
    button = tab.page.locator("[data-testid=resign]")
    try:
        button.wait_for(state="visible")
    except PlaywrightTimeout:
        raise AssertionError(f"no Resign button on the page: {page_state(tab.page)}") from None
    button.click()
    tab.page.locator("[data-testid=resign-yes]").click()


def page_state(page: Page) -> str:
    """What a table page shows, for a failure's message: its address, version, heading,
    status line and whether its result is up."""
    return str(page.evaluate("""() => {
        const text = (sel) => document.querySelector(sel)?.textContent?.trim() ?? null;
        return JSON.stringify({
            url: location.href, seq: document.querySelector('.table-page')?.dataset.seq ?? null,
            head: text('.table-page header') ?? text('h1'), status: text('[data-testid=turn]'),
            result: Boolean(document.querySelector('[data-testid=result]:not([hidden])')),
            hand: document.querySelectorAll('[data-testid=hand] .hand-tile').length,
            gone: document.body.textContent.includes('no longer exists'),
        });
    }"""))


def expect_resignation_told(tab: Tab, who: str) -> None:
    """The result card and the log say `who` resigned; a casual table shows no rating line."""
    result = tab.page.locator("[data-testid=result]")
    expect(result.locator("[data-testid=result-headline]")).to_have_text(f"{who} resigned")
    expect(result).not_to_contain_text("ran out of time")
    expect(result.locator("[data-testid^=gain-]")).to_have_count(0)
    expect(tab.page.locator("[data-testid=log]")).to_contain_text(f"{who} resigned")
