"""The last details of the phone table, in headless Chromium against a real server: a
Persian page's form fields write numbers in Persian digits and read them in any digits;
Goat's header says its game is to 101, learned from GET /api/variants; on a 360 px phone
the header's language and theme switches are reachable without scrolling sideways; the
replay names computer players as the table did.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e import test_browser_phone as phone
from tests.e2e.browser import PHONE, SCREENSHOTS, wait_for_record
from tests.e2e.test_browser_phone import register, sign_in, table_with_bots
from tests.servers import Server

# The same server and tabs as the phone table's tests.
bot_server = phone.bot_server
tabs = phone.tabs

LATIN_DIGIT = re.compile(r"[0-9]")


def fa(n: int) -> str:
    """`n` in Persian digits."""
    return "".join(chr(0x06F0 + int(d)) for d in str(n))


def test_a_persian_create_form_writes_and_reads_persian_digits(
    bot_server: Server, tabs: Any
) -> None:
    name, _token = register(bot_server, "raqam")
    tab = tabs(PHONE, lang="fa")
    page = tab.page
    page.goto(f"{bot_server.url}/#/signin")
    rule = page.locator("[data-testid=signup] [data-testid=username-rule]")
    expect(rule).to_contain_text(fa(3))
    assert not LATIN_DIGIT.search(rule.inner_text())
    sign_in(tab, bot_server, name)
    page.goto(f"{bot_server.url}/#/lobby")
    form = page.locator("[data-testid=create-table]")
    turn = form.locator("input[name=turn_seconds]")
    pause = form.locator("input[name=round_pause_seconds]")
    expect(turn).to_have_value(fa(30))
    expect(pause).to_have_value(fa(5))
    assert turn.get_attribute("inputmode") == "numeric"
    # Every choice of every game's form is written in the page's digits.
    variants = httpx.get(f"{bot_server.url}/api/variants", timeout=30).json()
    for info in variants:
        form.locator("select[name=variant]").select_option(info["name"])
        labels = form.locator("select option").all_inner_texts()
        latin = [label for label in labels if LATIN_DIGIT.search(label)]
        assert latin == [], (info["name"], latin)
    form.locator("select[name=variant]").select_option("goat")
    # Out of range: the form says so in Persian and sends nothing.
    turn.fill(fa(400))
    message = turn.evaluate("e => e.validationMessage")
    assert fa(300) in message and not LATIN_DIGIT.search(message), message
    # Persian digits and Latin ones are read alike; the field then shows Persian.
    turn.fill(fa(45))
    pause.fill("2")
    pause.blur()
    expect(pause).to_have_value(fa(2))
    page.screenshot(path=str(SCREENSHOTS / "phone-form-digits-fa-360.png"), full_page=True)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/"))
    table_id = page.url.split("#/table/")[1]
    table = httpx.get(f"{bot_server.url}/api/tables/{table_id}", timeout=30).json()
    assert (table["turn_seconds"], table["round_pause_seconds"]) == (45, 2), table
    tab.assert_clean()


def test_goats_header_says_its_game_is_to_101(bot_server: Server, tabs: Any) -> None:
    """Goat's 101 and Donkey's are no option: the header learns them from the engine."""
    name, token = register(bot_server, "kozel")
    goat = table_with_bots(bot_server, token, "goat", 2)
    donkey = table_with_bots(bot_server, token, "donkey", 2)
    tab = tabs(PHONE)
    sign_in(tab, bot_server, name)
    page = tab.page
    for table_id in (goat, donkey):
        page.goto(f"{bot_server.url}/#/table/{table_id}")
        expect(page.locator(".table-subtitle")).to_contain_text("To 101")
    page.locator("[data-testid=lang]").select_option("fa")
    expect(page.locator(".table-subtitle")).to_contain_text(f"تا {fa(101)}")
    tab.assert_clean()


# Where the header's parts are, and how wide the page and the header are, measured at once.
HEADER = """() => {
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; };
  const header = document.querySelector('.site-header');
  return {
    width: innerWidth, page: document.documentElement.scrollWidth,
    header: box('.site-header'), overflow: header.scrollWidth - header.clientWidth,
    lang: box('[data-testid=lang]'), theme: box('[data-testid=theme]'),
    mute: box('[data-testid=mute]'), menu: box('[data-testid=menu]'),
  };
}"""


def test_the_phone_header_keeps_its_switches_on_screen(bot_server: Server, tabs: Any) -> None:
    """At 360 px, signed in and at a table, in English and in Persian: the language,
    theme and sound switches are on screen with nothing to scroll sideways; the links and
    the player's name are behind the menu button, laid over the page when it opens."""
    name, token = register(bot_server, "longername")
    table_id = table_with_bots(bot_server, token, "goat", 2)
    tab = tabs(PHONE)
    sign_in(tab, bot_server, name)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    expect(page.locator("[data-testid=hand] .hand-tile").first).to_be_visible()
    for lang in ("en", "fa"):
        page.locator("[data-testid=lang]").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        at = page.evaluate(HEADER)
        assert at["page"] <= at["width"] and at["overflow"] <= 0, at
        for part in ("lang", "theme", "mute", "menu"):
            assert at[part] is not None and at[part]["width"] > 0, (part, at)
            assert at[part]["left"] >= 0 and at[part]["right"] <= at["width"], (part, at)
        assert at["header"]["bottom"] <= 48, at  # one row: the table keeps its height
        expect(page.locator("[data-testid=me]")).to_be_hidden()
        page.screenshot(path=str(SCREENSHOTS / f"phone-header-{lang}-360.png"))
    # The theme switch answers from where it is.
    theme = page.locator("[data-testid=theme]")
    before = theme.get_attribute("title")
    theme.click()
    expect(theme).not_to_have_attribute("title", before or "")
    # The menu opens over the page (the table below does not move) and closes on a link.
    hand_top = page.locator("[data-testid=hand]").bounding_box()
    menu = page.locator("[data-testid=menu]")
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.locator("[data-testid=me]")).to_be_visible()
    lobby = page.locator(".site-nav a[data-nav=lobby]")
    expect(lobby).to_be_visible()
    box = lobby.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.locator("[data-testid=hand]").bounding_box() == hand_top
    page.screenshot(path=str(SCREENSHOTS / "phone-header-menu-fa-360.png"))
    lobby.click()
    page.wait_for_url(re.compile(r"#/lobby$"))
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(lobby).to_be_hidden()
    tab.assert_clean()


def test_the_replay_names_computer_players_as_the_table_did(bot_server: Server, tabs: Any) -> None:
    """A person's seat has its stored row, a computer's has none: the replay names the
    computer by its strength in the page's words, never by its stored English name."""
    name, token = register(bot_server, "replay")
    table_id = table_with_bots(bot_server, token, "goat", 3, strength="heuristic")
    tab = tabs(PHONE, lang="ru")
    sign_in(tab, bot_server, name)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    expect(page.locator("[data-testid=hand] .hand-tile").first).to_be_visible()
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    page.locator("[data-testid=close-summary]").click()
    replay = page.locator("[data-testid=result] a[href^='#/replay/']")
    game_id = (replay.get_attribute("href") or "").split("#/replay/")[1]
    wait_for_record(bot_server, game_id)
    positions = httpx.get(f"{bot_server.url}/api/games/{game_id}/positions", timeout=30).json()
    assert positions["bots"] == [None, "heuristic", "heuristic"]
    record = httpx.get(f"{bot_server.url}/api/games/{game_id}", timeout=30).json()
    assert record["players"][1] == "Bot 2 (heuristic)"  # what is stored stays as it was
    page.goto(f"{bot_server.url}/#/replay/{game_id}")
    heading = page.locator(".replay-page > p.muted").first
    dash = " \u2013 "  # the replay's heading joins the names with an en dash
    bots = ["Компьютер 2 (Надёжный)", "Компьютер 3 (Надёжный)"]
    expect(heading).to_contain_text(dash.join([name, *bots]))
    page.locator("[data-testid=last]").click()
    for where in (".replay-page", ".replay-hands"):
        expect(page.locator(where)).not_to_contain_text("Bot ")
        expect(page.locator(where)).not_to_contain_text("heuristic")
    expect(page.locator("[data-testid=replay-result]")).to_contain_text(bots[0])
    # The longer names leave the phone's page as wide as the screen.
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(SCREENSHOTS / "phone-replay-bots-ru-360.png"), full_page=True)
    tab.assert_clean()
