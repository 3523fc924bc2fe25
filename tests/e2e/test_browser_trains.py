"""Mexican Train in the browser (RULES §5): four players in headless Chromium, two on a
1280 px desktop and two on a 360 px phone, play a round by clicking. The board shows the
engine and a row per train (fitting the phone), markers, the open double; a tile that fits
several trains is placed on the train whose row was clicked; the score sheet has 13 rounds.
Screenshots land in artifacts/screenshots/.
"""

from __future__ import annotations

import secrets
import time

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    others_join,
    seq_of,
    shot,
    signed_up_tabs,
    wait_seq_after,
)
from tests.servers import Server

ROUND_SECONDS = 360  # one round of four players, clicked, on a busy machine


def take_train_turn(page: Page) -> tuple[str, str | None] | None:
    """Play one legal tile by clicking, a double first if there is one; when the tile fits
    several trains, click the last of the rows offered. Returns (tile, the train clicked
    or None), or None when this page has nothing to play."""
    legal = page.locator("[data-testid=hand] .hand-tile.legal:not([disabled])")
    if legal.count() == 0:
        return None
    tiles = legal.evaluate_all("els => els.map(e => e.dataset.tile)")
    doubles = [t for t in tiles if len(set(t.split("-"))) == 1]
    tile = (doubles or tiles)[0]
    seq = seq_of(page)
    page.locator(f"[data-testid=hand] .hand-tile[data-tile='{tile}']").click()
    rows = page.locator("[data-testid=board] .train-row.choosable")
    train = None
    if rows.count():
        assert rows.count() >= 2
        train = rows.last.get_attribute("data-train")
        rows.last.locator(".end-choice").click()
    wait_seq_after(page, seq)
    return tile, train


def sheet_rounds(page: Page) -> tuple[int, int]:
    """(finished rounds, all rounds) on the score sheet."""
    sheet = page.locator("[data-testid=score-sheet]")
    done = sheet.locator("tr.score-points").count()
    return done, done + sheet.locator("tr.score-future").count()


def fits_the_board(page: Page) -> None:
    """Every tile, end and button of the trains lies inside the board (measured in one go
    in the page, so a state arriving meanwhile cannot detach what is being measured)."""
    outside = page.evaluate("""() => {
        const board = document.querySelector("[data-testid=board]").getBoundingClientRect();
        return [...document.querySelectorAll(
            "[data-testid=trains] .chain-tile, [data-testid=trains] .end-choice, "
            + "[data-testid=trains] .train-end")]
          .map((el) => el.getBoundingClientRect())
          .filter((b) => b.left < board.left - 1 || b.right > board.right + 1).length;
    }""")
    assert outside == 0, f"{outside} pieces of the trains run off the board"


def test_four_players_play_mexican_train_in_the_browser(server: Server, open_tab) -> None:
    suffix = secrets.token_hex(3)
    names = [f"{n}_{suffix}" for n in ("nok", "lan", "khamla", "vong")]
    tabs = signed_up_tabs(open_tab, server, names, [DESKTOP, PHONE, DESKTOP, PHONE])
    a = tabs[0]
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("mexican_train")
    form.locator("select[name=seats]").select_option("4")
    form.locator("input[name=turn_seconds]").fill("300")
    form.get_by_role("button", name="Create table").click()
    others_join(tabs, server)
    for tab in tabs:
        page = tab.page
        expect(page.locator("[data-testid=engine]")).to_contain_text("Engine 12-12")
        # The Mexican train and one train per seat, yours first after the Mexican.
        rows = page.locator("[data-testid=trains] .train-row")
        expect(rows).to_have_count(5)
        assert rows.first.get_attribute("data-train") == "mexican"
        assert "mine" in (rows.nth(1).get_attribute("class") or "")
        assert sheet_rounds(page) == (0, 13)
        assert page.locator("[data-testid=hand] .hand-tile").count() >= 11

    seen = {"choice": False, "marker": False, "open_double": False, "moves": 0}
    deadline = time.monotonic() + ROUND_SECONDS
    while sheet_rounds(a.page)[0] == 0:
        assert time.monotonic() < deadline, "the first round did not end in time"
        played = False
        for i, tab in enumerate(tabs):
            page = tab.page
            move = take_train_turn(page)
            if move is None:
                continue
            played = True
            seen["moves"] += 1
            tile, train = move
            if train is not None and not seen["choice"]:
                seen["choice"] = True
                # The tile went on the train whose row was clicked (as the server says).
                view_train = page.locator(
                    f"[data-testid=trains] [data-train='{train}'] .chain-tile[data-tile='{tile}']"
                )
                expect(view_train).to_have_count(1)
            if not seen["marker"] and page.locator("[data-testid=marker]").count():
                seen["marker"] = True
                shot(page, f"trains-marker-{'phone' if i % 2 else 'desktop'}")
            if not seen["open_double"] and page.locator(".chain-tile.open-double").count():
                seen["open_double"] = True
                expect(page.locator("[data-testid=open-double]")).to_be_visible()
                shot(tabs[0].page, "trains-open-double-1280")
                shot(tabs[1].page, "trains-open-double-360")
            if seen["moves"] == 12:
                shot(tabs[0].page, "trains-1280")
                shot(tabs[1].page, "trains-360")
                fits_the_board(tabs[1].page)
        if not played:
            a.page.wait_for_timeout(50)
    assert seen["choice"], "no tile ever fitted several trains"
    assert seen["marker"], "no marker was ever shown"

    # The round is over: the sheet has its first row filled in and 12 more to come.
    for tab in tabs:
        expect(tab.page.locator("[data-testid=score-sheet] tr.score-points")).to_have_count(1)
        assert sheet_rounds(tab.page) == (1, 13)
        expect(tab.page.locator("[data-testid=engine]")).to_contain_text("Engine 11-11")
    fits_the_board(tabs[1].page)
    shot(tabs[0].page, "trains-sheet-1280")
    shot(tabs[1].page, "trains-sheet-360")

    # The trains of a finished game are in its record; a resignation ends it here.
    a.page.get_by_role("button", name="Resign").click()
    a.page.get_by_role("button", name="Yes, resign").click()
    for tab in tabs:
        expect(tab.page.locator("[data-testid=result]")).to_contain_text("resigned")
    game_id = a.page.get_by_role("link", name="Replay").get_attribute("href").split("#/replay/")[1]
    deadline = time.monotonic() + 20
    while (r := httpx.get(f"{server.url}/api/games/{game_id}")).status_code != 200:
        assert time.monotonic() < deadline, "the finished game was never stored"
        time.sleep(0.2)
    ends = {m["end"] for m in r.json()["rounds"][0]["moves"]}
    assert ends <= {"mexican", "train:0", "train:1", "train:2", "train:3"}
    # The replay viewer draws the same trains, every one of them from the first position.
    b = tabs[1].page
    b.goto(f"{server.url}/#/replay/{game_id}")
    expect(b.locator("[data-testid=trains] .train-row")).to_have_count(5)
    expect(b.locator("[data-testid=engine]")).to_contain_text("Engine 12-12")
    for tab in tabs:
        tab.assert_clean()


def test_an_eight_seat_table_fits_a_phone(server: Server, open_tab) -> None:
    """Eight players (seated over HTTP): the player on a 360 px phone sees the engine, the
    Mexican train and eight trains, every row inside the board, and seven other seats."""
    suffix = secrets.token_hex(3)
    names = [f"p{i}_{suffix}" for i in range(8)]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        tokens = []
        for name in names:
            r = http.post("/api/auth/register", json={"username": name, "password": "password123"})
            assert r.status_code == 201, r.text
            tokens.append({"Authorization": f"Bearer {r.json()['token']}"})
        r = http.post("/api/tables", headers=tokens[0], json={
            "variant": "mexican_train", "seats": 8, "options": {}, "turn_seconds": 300,
            "rated": False,
        })
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        for seat in range(1, 8):
            r = http.post(f"/api/tables/{table_id}/join", headers=tokens[seat], json={"seat": seat})
            assert r.status_code == 200, r.text
    tab = open_tab(PHONE)
    page = tab.page
    page.goto(f"{server.url}/#/signin")
    form = page.locator("form").filter(has=page.get_by_role("button", name="Sign in"))
    form.locator("input[name=username]").fill(names[5])
    form.locator("input[name=password]").fill("password123")
    form.get_by_role("button", name="Sign in").click()
    expect(page.locator("[data-testid=me]")).to_have_text(names[5])
    page.goto(f"{server.url}/#/table/{table_id}")
    rows = page.locator("[data-testid=trains] .train-row")
    expect(rows).to_have_count(9)
    assert rows.nth(1).get_attribute("data-train") == "train:5"
    expect(page.locator(".seats .seat-card")).to_have_count(7)
    expect(page.locator("[data-testid=hand] .hand-tile").first).to_be_visible()
    fits_the_board(page)
    shot(page, "trains-eight-seats-360")
    tab.assert_clean()
