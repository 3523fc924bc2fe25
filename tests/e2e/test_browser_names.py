"""Names a phone can read, in headless Chromium against a real server: at a four-seat table
of players whose names share a long beginning, on a 360 px Persian page, every seat and
every column of the score sheet shows a name that tells its player apart (a beginning of
the name no other player shares, never cut by an ellipsis), the whole name one tap away;
the round summary's last column is reachable; "Play the computer" in the lobby starts a
game against a computer player at once, and the create form says what Rated means for
computer players before one chooses.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e import test_browser_phone as phone
from tests.e2e.browser import DESKTOP, PHONE, SCREENSHOTS, box_in_view
from tests.e2e.test_browser_phone import register, sign_in
from tests.servers import Server

bot_server = phone.bot_server
tabs = phone.tabs

# For each name shown short or whole: what it shows, the whole name, and whether any of
# it is cut (its box narrower than its text, or outside the screen).
SHOWN = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const r = el.getBoundingClientRect();
  const cell = el.parentElement.getBoundingClientRect();
  return {
    // What the eye sees: the short form or the whole name (the other is hidden).
    text: [...el.children]
      .filter((s) => getComputedStyle(s).position !== "absolute" && s.offsetWidth > 0)
      .map((s) => s.innerText).join("").trim(),
    full: el.dataset.full,
    box: [r.left, r.right, el.scrollWidth, el.clientWidth, cell.left, cell.right].map(Math.round),
    cut: el.scrollWidth > el.clientWidth + 1 || r.left < cell.left - 1 || r.right > cell.right + 1
      || r.left < -1 || r.right > innerWidth + 1,
  };
})"""


def four_seat_table(server: Server, prefix: str) -> tuple[str, list[str], str]:
    """A classic table of four players whose names all begin with `prefix`, its game
    begun; its id, the names (the first made it) and the first one's token."""
    players = [register(server, prefix) for _ in range(4)]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        r = http.post("/api/tables", headers=players[0][1], json={
            "variant": "classic", "seats": 4, "turn_seconds": 300, "rated": False})
        assert r.status_code == 201, r.text
        table_id = str(r.json()["id"])
        for _name, token in players[1:]:
            r = http.post(f"/api/tables/{table_id}/join", headers=token, json={})
            assert r.status_code == 200, r.text
    return table_id, [name for name, _ in players], players[0][0]


def assert_told_apart(shown: list[dict[str, Any]], names: list[str]) -> None:
    texts = [s["text"] for s in shown]
    assert len(set(texts)) == len(texts), texts
    for s in shown:
        assert not s["cut"], s
        assert s["full"] in names, s
        # The name's first letters, then maybe "…" and a later part of it.
        parts = s["text"].split("…")
        assert re.match(".*".join(map(re.escape, parts)), s["full"]), s
        assert s["full"].startswith(parts[0]) and len(parts[0]) >= 3, s
        assert len(s["text"]) <= 12, s  # short enough for a phone's seat


def test_seats_sheet_and_summary_tell_the_players_apart_on_a_persian_phone(
    bot_server: Server, tabs: Any
) -> None:
    # Names alike for their first eleven letters: "hamnamvarz_" and six of their own.
    table_id, names, owner = four_seat_table(bot_server, "hamnamvarz")
    tab = tabs(PHONE, lang="fa")
    page = tab.page
    sign_in(tab, bot_server, owner)
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    expect(page.locator("[data-testid=seat-name]")).to_have_count(4)  # three others and mine
    page.wait_for_timeout(300)
    shown = page.evaluate(SHOWN, ".seats [data-testid=seat-name]")
    assert len(shown) == 3
    assert_told_apart(shown, names[1:])
    assert all(s["text"] != s["full"] for s in shown), shown  # short on a phone
    # One tap shows the whole name.
    first = page.locator(".seats [data-testid=seat-name]").first
    first.click()
    expect(first).to_have_class(re.compile(r"\bwhole\b"))
    assert page.evaluate(SHOWN, ".seats [data-testid=seat-name]")[0]["text"] == shown[0]["full"]
    page.screenshot(path=str(SCREENSHOTS / "names-seats-fa-360.png"))

    # A resignation ends the game: the summary's last column is reachable on the phone.
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    summary = page.locator("[data-testid=round-summary]")
    expect(summary).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = box_in_view(summary.locator("thead th").last)
    assert box["x"] >= -1 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    page.screenshot(path=str(SCREENSHOTS / "names-summary-fa-360.png"), full_page=True)
    # Every name in the summary whole.
    rows = summary.locator("tbody th").all_inner_texts()
    assert sorted(r.strip() for r in rows) == sorted(names), rows

    page.locator("[data-testid=close-summary]").click()
    expect(page.locator("[data-testid=result]")).to_be_visible()
    expect(page.locator("[data-testid=side-name]")).to_have_count(4)
    box_in_view(page.locator("[data-testid=score-sheet]"))
    page.screenshot(path=str(SCREENSHOTS / "names-sheet-fa-360.png"), full_page=True)
    assert_told_apart(page.evaluate(SHOWN, "[data-testid=side-name]"), names)
    tab.assert_clean()


def test_the_sheet_tells_the_players_apart_at_1280(bot_server: Server, tabs: Any) -> None:
    """The score sheet's side column is narrow on a wide screen too."""
    table_id, names, owner = four_seat_table(bot_server, "hamnamvarz")
    tab = tabs(DESKTOP)
    page = tab.page
    sign_in(tab, bot_server, owner)
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    shown = page.evaluate(SHOWN, ".seats [data-testid=seat-name]")
    assert [s["text"] for s in shown] == [s["full"] for s in shown]  # whole where there is room
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    page.locator("[data-testid=close-summary]").click()
    expect(page.locator("[data-testid=side-name]")).to_have_count(4)
    page.screenshot(path=str(SCREENSHOTS / "names-sheet-en-1280.png"), full_page=True)
    sheet = page.locator("[data-testid=score-sheet]")
    sheet.screenshot(path=str(SCREENSHOTS / "names-sheet-box-en-1280.png"))
    assert_told_apart(page.evaluate(SHOWN, "[data-testid=side-name]"), names)
    tab.assert_clean()


def started(page: Page) -> bool:
    return bool(page.evaluate("""() => document.querySelectorAll(
        '[data-testid=hand] .hand-tile').length > 0"""))


def test_play_the_computer_starts_a_casual_game_in_one_tap(bot_server: Server, tabs: Any) -> None:
    name, _token = register(bot_server, "tanha")
    tab = tabs(PHONE, lang="fa")
    page = tab.page
    sign_in(tab, bot_server, name)
    page.goto(f"{bot_server.url}/#/lobby")
    # The create form tells what Rated means for computer players, above the choice.
    help_box = page.locator("[data-testid=create-table] [data-testid=rated-help]")
    expect(help_box).to_be_visible()
    rated_box = page.locator("[data-testid=create-table] input[value=rated]").bounding_box()
    help_at = help_box.bounding_box()
    assert rated_box and help_at and help_at["y"] < rated_box["y"]
    button = page.locator("[data-testid=play-computer]")
    expect(button).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "play-computer-fa-360.png"), full_page=True)
    begun = time.monotonic()
    button.click()
    page.wait_for_function("""() => document.querySelectorAll(
        '[data-testid=hand] .hand-tile').length > 0""", timeout=3_000)
    assert time.monotonic() - begun < 3
    table_id = page.url.split("#/table/")[1]
    table = httpx.get(f"{bot_server.url}/api/tables/{table_id}", timeout=30).json()
    assert table["rated"] is False and table["status"] == "playing", table
    assert [bool(s.get("bot")) for s in table["seats"]] == [False, True], table
    tab.assert_clean()


def test_play_the_computer_sends_a_newcomer_to_sign_up_first(bot_server: Server, tabs: Any) -> None:
    tab = tabs(DESKTOP)
    page = tab.page
    page.goto(f"{bot_server.url}/#/lobby")
    page.locator("[data-testid=play-computer]").click()
    page.wait_for_url(re.compile(r"#/signin$"))
    page.screenshot(path=str(SCREENSHOTS / "play-computer-en-1280.png"), full_page=True)
    tab.assert_clean()
