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

from tests.e2e.browser import DESKTOP, PHONE, SCREENSHOTS, wait_for_record
from tests.e2e.test_browser_phone import (  # noqa: F401  (fixtures)
    bot_server,
    register,
    sign_in,
    table_with_bots,
    tabs,
)
from tests.servers import Server

LATIN_DIGIT = re.compile(r"[0-9]")


def test_a_persian_create_form_writes_and_reads_persian_digits(
    bot_server: Server, tabs: Any
) -> None:
    name, token = register(bot_server, "raqam")
    tab = tabs(PHONE, lang="fa")
    page = tab.page
    page.goto(f"{bot_server.url}/#/signin")
    rule = page.locator("[data-testid=signup] [data-testid=username-rule]")
    expect(rule).to_contain_text("۳")
    assert not LATIN_DIGIT.search(rule.inner_text())
    sign_in(tab, bot_server, name)
    page.goto(f"{bot_server.url}/#/lobby")
    form = page.locator("[data-testid=create-table]")
    turn = form.locator("input[name=turn_seconds]")
    pause = form.locator("input[name=round_pause_seconds]")
    expect(turn).to_have_value("۳۰")
    expect(pause).to_have_value("۵")
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
    turn.fill("۴۰۰")
    message = turn.evaluate("e => e.validationMessage")
    assert "۳۰۰" in message and not LATIN_DIGIT.search(message), message
    # Persian digits and Latin ones are read alike; the field then shows Persian.
    turn.fill("۴۵")
    pause.fill("2")
    pause.blur()
    expect(pause).to_have_value("۲")
    page.screenshot(path=str(SCREENSHOTS / "phone-form-digits-fa-360.png"), full_page=True)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/"))
    table_id = page.url.split("#/table/")[1]
    table = httpx.get(f"{bot_server.url}/api/tables/{table_id}", timeout=30).json()
    assert (table["turn_seconds"], table["round_pause_seconds"]) == (45, 2), table
    tab.assert_clean()
