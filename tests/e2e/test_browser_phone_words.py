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
from tests.e2e.browser import PHONE, SCREENSHOTS
from tests.e2e.test_browser_phone import register, sign_in
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
