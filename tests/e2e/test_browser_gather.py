"""Finding a game in the browser: "Play now" seats four browsers at one table, and a
tournament made, joined and started from four browsers runs to its end by itself (each
browser taken to its table and back), its page showing the winner.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    Tab,
    play_to_the_end,
    shot,
    signed_up_tabs,
    take_turn,
)
from tests.servers import Server


def _names(prefix: str, count: int) -> list[str]:
    suffix = secrets.token_hex(3)
    return [f"{prefix}{i}_{suffix}" for i in range(count)]


def test_play_now_seats_four_browsers_at_one_table(server: Server, open_tab) -> None:
    tabs = signed_up_tabs(open_tab, server, _names("pn", 4), [DESKTOP, PHONE, DESKTOP, DESKTOP])
    for tab in tabs:
        box = tab.page.locator("[data-testid=play-now-box]")
        box.locator("select[name=seek_variant]").select_option("goat")
        box.locator("select[name=seek_seats]").select_option("4")
        box.locator("input[name=seek_turn_seconds]").fill("77")
        box.locator("input[name=seek_rated]").uncheck()
    first = tabs[0].page
    first.get_by_role("button", name="Play now").click()
    expect(first.locator("[data-testid=play-now-waiting]")).to_be_visible()
    # the others see who is looking; one asks and thinks better of it
    expect(tabs[1].page.locator("[data-testid=seek-list]")).to_contain_text(
        "77 s per move", timeout=10_000)
    shot(tabs[1].page, "lobby-play-now-phone")
    second = tabs[1].page
    second.get_by_role("button", name="Play now").click()
    expect(second.locator("[data-testid=play-now-waiting]")).to_be_visible()
    second.get_by_role("button", name="Cancel").click()
    expect(second.locator("[data-testid=play-now-waiting]")).to_be_hidden()
    shot(first, "lobby-play-now")
    for tab in tabs[1:]:
        tab.page.get_by_role("button", name="Play now").click()
    for tab in tabs:
        tab.page.wait_for_url(re.compile(r"#/table/"), timeout=20_000)
    table_ids = {tab.page.url.split("#/table/")[1] for tab in tabs}
    assert len(table_ids) == 1
    for tab in tabs:
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
        expect(tab.page.locator(".seat-card")).to_have_count(4)
    for tab in tabs:
        tab.assert_clean()


def test_a_tournament_made_and_joined_in_browsers_runs_to_its_winner(
    server: Server, open_tab
) -> None:
    names = _names("tt", 4)
    tabs = signed_up_tabs(open_tab, server, names, [DESKTOP, PHONE, DESKTOP, PHONE])
    maker = tabs[0].page
    maker.goto(f"{server.url}/#/tournaments")
    form = maker.locator("[data-testid=create-tournament]")
    form.locator("input[name=name]").fill(f"Evening {names[0][-6:]}")
    form.locator("select[name=variant]").select_option("sport_goat")
    form.locator("select[name=rounds]").select_option("4")
    form.locator("select[name=seats]").select_option("4")
    form.get_by_label("Swiss (rounds)").check()
    form.locator("input[name=rounds]").fill("1")
    form.locator("input[name=turn_seconds]").fill("90")
    form.locator("input[name=rated]").uncheck()
    shot(maker, "tournaments")
    form.get_by_role("button", name="Create tournament").click()
    maker.wait_for_url(re.compile(r"#/tournament/"))
    tournament_url = maker.url
    tournament_id = tournament_url.split("#/tournament/")[1]
    maker.get_by_role("button", name="Join the tournament").click()
    expect(maker.locator("[data-testid=standings] tbody tr")).to_have_count(1)
    for tab in tabs[1:]:
        tab.page.goto(tournament_url)
        tab.page.get_by_role("button", name="Join the tournament").click()
        expect(tab.page.get_by_role("button", name="Leave the tournament")).to_be_visible()
    # the creator's page hears every join live
    expect(maker.locator("[data-testid=standings] tbody tr")).to_have_count(4)
    shot(maker, "tournament-waiting")
    shot(tabs[1].page, "tournament-waiting-phone")
    maker.get_by_role("button", name="Start the tournament").click()
    # every browser is taken to its table by itself
    for tab in tabs:
        tab.page.wait_for_url(re.compile(r"#/table/"), timeout=20_000)
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    # the tournament page, read again, says where his table is
    phone = tabs[1].page
    table_url = phone.url
    phone.goto(tournament_url)
    ready = phone.locator("[data-testid=table-ready] a")
    expect(ready).to_be_visible()
    assert table_url.endswith(ready.get_attribute("href") or "-")
    shot(phone, "tournament-table-ready-phone")
    ready.click()
    phone.wait_for_url(table_url)
    expect(phone.locator("[data-testid=hand] .hand-tile")).to_have_count(7)

    def move(tab: Tab) -> bool:
        return take_turn(tab.page)

    play_to_the_end(tabs, move)
    # ... and back to the tournament page when the game is over
    for tab in tabs:
        tab.page.wait_for_url(re.compile(f"#/tournament/{tournament_id}$"), timeout=20_000)
    winner = maker.locator("[data-testid=winner]")
    expect(winner).to_be_visible(timeout=20_000)
    text = winner.inner_text()
    assert text.startswith("Winner: ") and text.removeprefix("Winner: ") in names
    rows = maker.locator("[data-testid=standings] tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text(text.removeprefix("Winner: "))
    # round by round: a row a player, his points linked to the game's replay
    cross = maker.locator("[data-testid=crosstable] tbody tr")
    expect(cross).to_have_count(4)
    expect(cross.first.locator("td a")).to_have_count(1)
    results = maker.locator("[data-testid=tournament-results] li")
    expect(results).to_have_count(1)
    replay = results.first.get_by_role("link", name="Replay")
    assert "#/replay/" in (replay.get_attribute("href") or "")
    shot(maker, "tournament-finished")
    shot(tabs[1].page, "tournament-finished-phone")
    phone = tabs[1].page
    for lang in ("fa", "ru"):
        phone.evaluate(f"localStorage.setItem('domino.lang', '{lang}')")
        phone.reload()
        expect(phone.locator("[data-testid=crosstable] tbody tr")).to_have_count(4)
        shot(phone, f"tournament-finished-phone-{lang}")
    phone.evaluate("localStorage.setItem('domino.lang', 'en')")
    # the same page in Persian, right to left
    maker.evaluate("localStorage.setItem('domino.lang', 'fa')")
    maker.reload()
    expect(maker.locator("html")).to_have_attribute("dir", "rtl")
    expect(maker.locator("[data-testid=winner]")).to_contain_text("برنده")
    shot(maker, "tournament-finished-fa")
    maker.goto(f"{server.url}/#/tournaments")
    expect(maker.locator(f"[data-tournament-id='{tournament_id}']")).to_be_visible()
    shot(maker, "tournaments-fa")
    tabs[1].page.evaluate("localStorage.setItem('domino.lang', 'fa')")
    tabs[1].page.reload()
    shot(tabs[1].page, "tournament-finished-fa-phone")
    for tab in tabs:
        tab.assert_clean()
