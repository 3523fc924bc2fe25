"""axe-core (node_modules/axe-core, a development dependency) finds nothing of serious or
critical impact on the pages a new player meets, in English and in Persian (right to
left): the lobby, a rules page, a leaderboard, a table mid-game and a table after its
game, against a real server with computer players; and the table's live region tells a
screen reader each move and whose turn it is, in the page's language.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import test_browser_phone as phone
from tests.e2e.browser import DESKTOP, PHONE, Tab, take_turn
from tests.e2e.test_browser_phone import register, sign_in, table_with_bots, wait_for_my_turn
from tests.servers import REPO, Server

bot_server = phone.bot_server
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = {"serious", "critical"}


@pytest.fixture
def axe_tabs(browser: Browser) -> Iterator[Any]:
    """Tabs in a language whose page may take axe's script in (the site's
    Content-Security-Policy refuses scripts it did not send, rightly)."""
    opened: list[Tab] = []

    def make(viewport: dict[str, int], lang: str) -> Tab:
        phone_sized = viewport["width"] < 500
        context = browser.new_context(viewport=viewport, bypass_csp=True, reduced_motion="reduce",
                                      has_touch=phone_sized, is_mobile=phone_sized)
        context.add_init_script(f"localStorage.setItem('domino.lang', '{lang}');")
        page = context.new_page()
        page.set_default_timeout(20_000)
        tab = Tab(context, page)
        page.on("pageerror", lambda exc: tab.errors.append(f"pageerror: {exc}"))
        opened.append(tab)
        return tab

    yield make
    for tab in opened:
        tab.context.close()


def serious_violations(page: Page) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
        }));
    }""")
    return [v for v in found if v["impact"] in SERIOUS]


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_no_serious_axe_findings_where_a_new_player_goes(
    bot_server: Server, axe_tabs: Any, lang: str, viewport: dict[str, int]
) -> None:
    name, token = register(bot_server, "axe")
    table_id = table_with_bots(bot_server, token, "goat", 2)
    tab = axe_tabs(viewport, lang)
    page = tab.page
    sign_in(tab, bot_server, name)
    found: dict[str, list[dict[str, Any]]] = {}

    page.goto(f"{bot_server.url}/#/lobby")
    expect(page.locator("[data-testid=create-table]")).to_be_visible()
    expect(page.locator("[data-testid=table-list] li").first).to_be_visible()
    found["lobby"] = serious_violations(page)
    page.goto(f"{bot_server.url}/#/rules/goat")
    expect(page.locator("main h1")).to_be_visible()
    found["rules"] = serious_violations(page)
    page.goto(f"{bot_server.url}/#/leaderboard/goat")
    expect(page.locator("main h1")).to_be_visible()
    found["leaderboard"] = serious_violations(page)

    page.goto(f"{bot_server.url}/#/table/{table_id}")
    wait_for_my_turn(page)
    found["table"] = serious_violations(page)
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    expect(page.locator("[data-testid=round-summary]")).to_be_visible()
    found["summary"] = serious_violations(page)
    page.locator("[data-testid=close-summary]").click()
    expect(page.locator("[data-testid=result]")).to_be_visible()
    found["after the game"] = serious_violations(page)
    bad = {where: v for where, v in found.items() if v}
    assert bad == {}, json.dumps(bad, ensure_ascii=False, indent=1)
    tab.assert_clean()


@pytest.mark.parametrize(("lang", "your_turn"), [("en", "Your turn"), ("fa", "نوبت شما")])
def test_the_live_region_tells_each_move_and_whose_turn_it_is(
    bot_server: Server, axe_tabs: Any, lang: str, your_turn: str
) -> None:
    name, token = register(bot_server, "voice")
    table_id = table_with_bots(bot_server, token, "goat", 2)
    tab = axe_tabs(PHONE, lang)
    page = tab.page
    sign_in(tab, bot_server, name)
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    announce = page.locator("[data-testid=announce]")
    assert announce.get_attribute("aria-live") == "polite"
    assert announce.get_attribute("role") == "status"
    wait_for_my_turn(page)
    # Everything the region says from now on, as a screen reader would hear it in turn.
    page.evaluate("""() => {
        window.said = [];
        const region = document.querySelector('[data-testid=announce]');
        new MutationObserver(() => window.said.push(region.textContent))
            .observe(region, { childList: true, characterData: true, subtree: true });
    }""")
    legal = page.locator("[data-testid=hand] .hand-tile.legal").first
    tile = legal.get_attribute("data-tile") or ""
    take_turn(page)
    wait_for_my_turn(page)
    said: list[str] = page.evaluate("window.said")
    # My move, its tile in the page's digits; then the computer's; then my turn again.
    digits = tile if lang == "en" else "".join(
        chr(0x06F0 + int(c)) if c.isdigit() else c for c in tile)
    assert any(digits in line for line in said), (digits, said)
    assert said and said[-1].endswith(your_turn), said
    tab.assert_clean()
