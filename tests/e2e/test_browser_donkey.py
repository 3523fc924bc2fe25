"""Donkey (RULES §8) in the browser: two players play a whole game by clicking, one lays a
double face down with the "lay face down" toggle, the other sees only its back and cannot
play past it, and its owner opens it on a later turn with the "open" toggle. Screenshots
land in artifacts/screenshots/.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import re
import secrets
import time

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    DESKTOP,
    GAME_SECONDS,
    PHONE,
    Tab,
    finished,
    play_to_the_end,
    seq_of,
    shot,
    sign_up,
    take_turn,
    wait_for_record,
    wait_seq_after,
)
from tests.servers import Server

LEGAL = "[data-testid=hand] .hand-tile.legal"


def click_move(page: Page, prefer_end: str | None = None) -> str:
    """Click the first legal tile, then an end if asked (`prefer_end` when offered);
    returns the tile clicked."""
    tile = page.locator(LEGAL).first.get_attribute("data-tile") or ""
    seq = seq_of(page)
    page.locator(LEGAL).first.click()
    choices = page.locator("[data-testid=board] .end-choice")
    if choices.count():
        preferred = page.locator(f"[data-testid=board] .end-choice[data-end={prefer_end}]")
        (preferred if prefer_end and preferred.count() else choices.last).click()
    wait_seq_after(page, seq)
    return tile


def start_donkey(a: Tab, b: Tab) -> None:
    """`a` makes a 2-seat Donkey table from the lobby, `b` joins it from his; both see a
    hand of seven."""
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("donkey")
    form.locator("select[name=seats]").select_option("2")
    form.locator("input[name=turn_seconds]").fill("120")
    form.locator("input[name=round_pause_seconds]").fill("1")
    form.get_by_role("button", name="Create table").click()
    a.page.wait_for_url(re.compile(r"#/table/"))
    table_id = a.page.url.split("#/table/")[1]
    card = b.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_contain_text("Donkey")
    card.get_by_role("button", name="Join").click()
    b.page.wait_for_url(re.compile(f"#/table/{table_id}$"))
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)


def test_two_players_play_donkey_laying_a_double_closed_and_opening_it(
    server: Server, open_tab
) -> None:
    suffix = secrets.token_hex(3)
    a, b = open_tab(DESKTOP), open_tab(PHONE)
    sign_up(a, server, f"dasha_{suffix}")
    sign_up(b, server, f"petya_{suffix}")
    start_donkey(a, b)

    other = {id(a): b, id(b): a}
    closed_by: dict[int, str] = {}  # tab -> the face of the double it last laid closed
    opened = 0

    def move(tab: Tab) -> bool:
        nonlocal opened
        page = tab.page
        them = other[id(tab)].page
        open_toggle = page.locator("[data-testid^=open-]")
        # Before looking for playable tiles: the hand shows those of the way of playing
        # chosen, and when every tile that fits needs the double opened, none shows as
        # playable until the toggle is pressed.
        if open_toggle.count():
            # A later turn of the double's owner: open it, and play on that side if a tile fits.
            end = (open_toggle.first.get_attribute("data-testid") or "").removeprefix("open-")
            shot(page, "donkey-before-open")
            open_toggle.first.click()
            expect(open_toggle.first).to_have_attribute("aria-pressed", "true")
            click_move(page, prefer_end=end)
            if not opened:
                # Opened, its face is told to both (and drawn, unless the round just ended).
                face = closed_by.get(id(tab), "")
                for p in (page, them):
                    expect(p.locator("[data-testid=log]")).to_contain_text(
                        re.compile(f"opened the double on the .*: {face}")
                    )
                shot(them, "donkey-opened")
            opened += 1
            return True
        if page.locator(LEGAL).count() == 0:
            return False
        lay_closed = page.locator("[data-testid=lay-closed]")
        # Until one has been opened, a double is laid face down whenever none is on the
        # board: a second, by the other player while the first is still closed, would make
        # two backs on the board, and a round can end before its owner gets to open it. Not
        # as a last tile: the round would end with it, and the board would never show it.
        in_hand = page.locator("[data-testid=hand] .hand-tile").count()
        backs = page.locator("[data-testid=board] [data-closed=true]").count()
        if lay_closed.count() and not backs and not opened and in_hand > 1:
            lay_closed.click()
            expect(lay_closed).to_have_attribute("aria-pressed", "true")
            # Only doubles are playable face down.
            for t in page.locator(LEGAL).evaluate_all("els => els.map(e => e.dataset.tile)"):
                low, high = t.split("-")
                assert low == high, t
            told = them.locator("[data-testid=log] li").filter(has_text="laid a double face down")
            told_before = told.count()
            face = click_move(page)
            if page.locator("[data-testid=round-summary]").is_visible():
                return True  # the closed double made the round a fish or a block: try again
            closed_by[id(tab)] = face
            for p in (page, them):
                expect(p.locator("[data-testid=board] [data-closed=true]")).to_have_count(1)
            # The other player sees its back only: no face on the board, in words or log.
            board = them.locator("[data-testid=board]")
            expect(board.locator(f"[data-tile='{face}']")).to_have_count(0)
            assert face not in (board.get_attribute("aria-label") or "")
            expect(told).to_have_count(told_before + 1)
            expect(told.last).not_to_contain_text(face)
            shot(them, "donkey-closed-double")
            return True
        return take_turn(page)

    play_to_the_end([a, b], move)
    assert closed_by, "no double was ever laid face down"
    assert opened, "no closed double was ever opened"
    for tab in (a, b):
        result = tab.page.locator("[data-testid=result]")
        # Donkey's own word for its loser, in the headline; nothing of Goat's.
        expect(result.locator("h2")).to_contain_text("the donkey")
        expect(result).not_to_contain_text("goat")
        expect(result.locator(".icon.goat")).to_have_count(0)
    shot(a.page, "donkey-final")
    game_id = a.page.get_by_role("link", name="Replay").get_attribute("href").split("#/replay/")[1]
    wait_for_record(server, game_id)
    record = httpx.get(f"{server.url}/api/games/{game_id}").json()
    moves = [m for rd in record["rounds"] for m in rd["moves"]]
    assert any(m.get("closed") is True for m in moves)
    assert any("open" in m for m in moves)
    # The rules page explains the cross and the closed doubles.
    b.page.goto(f"{server.url}/#/rules/donkey")
    expect(b.page.locator("[data-testid=rules]")).to_contain_text("face down")
    for tab in (a, b):
        tab.assert_clean()


def test_a_player_whose_tiles_fit_only_past_his_closed_double_is_told_to_open_it(
    server: Server, open_tab
) -> None:
    """One player lays every double he can face down and opens one only when nothing else
    fits. At that turn no tile of his shows as playable (the hand shows the plain way of
    playing), and the server will not move for him: the prompt says to open the double,
    not "no move", and after the toggle a tile fits and goes down."""
    suffix = secrets.token_hex(3)
    a, b = open_tab(DESKTOP), open_tab(PHONE)
    sign_up(a, server, f"vasya_{suffix}")
    sign_up(b, server, f"galya_{suffix}")
    prompt = a.page.locator("[data-testid=prompt]")
    open_toggle = a.page.locator("[data-testid^=open-]")
    lay_closed = a.page.locator("[data-testid=lay-closed]")
    deadline = time.monotonic() + GAME_SECONDS
    # A game ends without that turn now and then (rarely): then another is started.
    for _ in range(3):
        for tab in (a, b):
            tab.page.goto(f"{server.url}/#/lobby")
        start_donkey(a, b)
        while not finished(a.page):
            assert time.monotonic() < deadline, "no turn needed an opening in time"
            if open_toggle.count() and a.page.locator(LEGAL).count() == 0:
                expect(prompt).to_contain_text(
                    "Your tiles fit only once you open your closed double"
                )
                expect(prompt).not_to_contain_text("No move")
                shot(a.page, "donkey-open-to-play")
                end = (open_toggle.first.get_attribute("data-testid") or "").removeprefix("open-")
                open_toggle.first.click()
                expect(a.page.locator(LEGAL).first).to_be_visible()
                click_move(a.page, prefer_end=end)
                for tab in (a, b):
                    tab.assert_clean()
                return
            if lay_closed.count() and not open_toggle.count():
                lay_closed.click()
                expect(lay_closed).to_have_attribute("aria-pressed", "true")
                click_move(a.page)
            elif not (take_turn(a.page) or take_turn(b.page)):
                a.page.wait_for_timeout(50)
    raise AssertionError("three games passed without a turn that needed an opening")
