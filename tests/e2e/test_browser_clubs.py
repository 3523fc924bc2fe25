"""Clubs in the browser (PROTOCOL §2e): two clubs made from the clubs page, one open and
one closed; a player joins the open one, another asks to join the closed one and its owner
lets him in; the first owner makes a team battle of the two clubs, all four join and play
it to its winning club, the page showing the clubs' standings. Screens of the club page
and of the battle's standings at 360 px in Persian and Russian.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import DESKTOP, PHONE, play_to_the_end, shot, signed_up_tabs, take_turn
from tests.e2e.conftest import _env
from tests.servers import Server, run_server


@pytest.fixture(scope="module")
def quick_server(pg_url: str, redis_url: str, redis_prefix: str,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose arena minute lasts a second: the battle ends with its first game."""
    env = {**_env(pg_url, redis_url, f"{redis_prefix}_clubs"),
           "DOMINO_TOURNAMENT_MINUTE_SECONDS": "1"}
    log_dir: Path = tmp_path_factory.mktemp("clubs")
    with run_server(env, log_dir=log_dir) as running:
        yield running


def _make_club(page: Page, server: Server, name: str, *, open_: bool) -> str:
    page.goto(f"{server.url}/#/clubs")
    form = page.locator("[data-testid=create-club]")
    form.locator("input[name=club_name]").fill(name)
    form.locator("textarea[name=club_description]").fill(
        "Dominoes behind the garages, every evening")
    if not open_:
        form.locator("input[name=club_open]").uncheck()
    form.get_by_role("button", name="Create the club").click()
    page.wait_for_url(re.compile(r"#/club/\d+$"))
    expect(page.locator("[data-testid=club] h1")).to_contain_text(name)
    return page.url


def _in_languages(page: Page, name: str, ready: str) -> None:
    for lang in ("fa", "ru"):
        page.evaluate(f"localStorage.setItem('domino.lang', '{lang}')")
        page.reload()
        expect(page.locator(ready).first).to_be_visible()
        shot(page, f"{name}-{lang}")
    page.evaluate("localStorage.setItem('domino.lang', 'en')")
    page.reload()


def test_four_people_in_two_clubs_play_a_team_battle_to_its_winner(
    quick_server: Server, open_tab
) -> None:
    server = quick_server
    suffix = secrets.token_hex(3)
    names = [f"g{i}_{suffix}" for i in range(2)] + [f"m{i}_{suffix}" for i in range(2)]
    tabs = signed_up_tabs(open_tab, server, names, [DESKTOP, PHONE, DESKTOP, PHONE])
    garage, garage_phone, mill, mill_phone = (tab.page for tab in tabs)
    garages = _make_club(garage, server, f"Garages {suffix}", open_=True)
    mills = _make_club(mill, server, f"Mill {suffix}", open_=False)
    # found by name, joined at once: an open club
    garage_phone.goto(f"{server.url}/#/clubs")
    garage_phone.locator("[data-testid=club-search]").fill(f"garages {suffix}")
    garage_phone.get_by_role("button", name="Find", exact=True).click()
    expect(garage_phone.locator("[data-testid=club-list] li")).to_have_count(1)
    shot(garage_phone, "clubs-phone")
    garage_phone.locator("[data-testid=club-list] a").click()
    garage_phone.get_by_role("button", name="Join the club").click()
    expect(garage_phone.locator("[data-testid=club-leave]")).to_be_visible()
    # a closed club: asked, and let in by its owner
    mill_phone.goto(mills)
    mill_phone.get_by_role("button", name="Ask to join").click()
    expect(mill_phone.locator("[data-testid=club-requested]")).to_be_visible()
    mill.reload()
    mill.locator("[data-testid=club-accept]").click()
    expect(mill.locator("[data-testid=club-member]")).to_have_count(2)
    shot(mill, "club-owner")
    mill_phone.reload()
    expect(mill_phone.locator("[data-testid=club-leave]")).to_be_visible()
    shot(mill_phone, "club-phone")
    _in_languages(mill_phone, "club-phone", "[data-testid=club-member]")

    # the team battle, made from the first club's page
    garage.goto(garages)
    garage.locator("[data-testid=club-new-tournament]").click()
    form = garage.locator("[data-testid=create-tournament]")
    form.locator("input[name=name]").fill(f"Garages against the mill {suffix}")
    form.locator("select[name=variant]").select_option("sport_goat")
    form.locator("select[name=rounds]").select_option("4")
    # the owner's club is offered for a club tournament, and chosen to start from
    expect(form.locator("select[name=club_scope] option")).to_have_count(3)
    expect(form.locator("select[name=club_scope]")).to_have_value(re.compile(r"^club:\d+$"))
    form.locator("select[name=club_scope]").select_option("battle")
    expect(form.locator("input[name=battle_club]:checked")).to_have_count(1)
    form.locator("input[name=battle_search]").fill(f"Mill {suffix}")
    form.locator("[data-testid=battle-find]").click()
    expect(form.locator("input[name=battle_club]:checked")).to_have_count(2)
    form.locator("input[name=battle_leaders]").fill("2")
    form.locator("input[name=minutes]").fill("5")
    form.locator("input[name=turn_seconds]").fill("90")
    form.locator("input[name=rated]").uncheck()
    form.get_by_role("button", name="Create tournament").click()
    garage.wait_for_url(re.compile(r"#/tournament/"))
    tournament_url = garage.url
    tournament_id = tournament_url.split("#/tournament/")[1]
    expect(garage.locator("[data-testid=battle-standings] tbody tr")).to_have_count(2)
    for page in (garage, garage_phone, mill, mill_phone):
        if page is not garage:
            page.goto(tournament_url)
        page.get_by_role("button", name="Join the tournament").click()
        expect(page.get_by_role("button", name="Leave the tournament")).to_be_visible()
    expect(garage.locator("[data-testid=standings] tbody tr")).to_have_count(4)
    garage.get_by_role("button", name="Start the tournament").click()
    for tab in tabs:
        tab.page.wait_for_url(re.compile(r"#/table/"), timeout=20_000)
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    play_to_the_end(tabs, lambda tab: take_turn(tab.page))
    for tab in tabs:
        tab.page.wait_for_url(re.compile(f"#/tournament/{tournament_id}$"), timeout=20_000)
    winner = garage.locator("[data-testid=battle-winner]")
    expect(winner).to_be_visible(timeout=20_000)
    rows = garage.locator("[data-testid=battle-standings] tbody tr")
    expect(rows).to_have_count(2)
    first_club = rows.first.locator("th").inner_text()
    assert winner.inner_text() == f"Winning club: {first_club}"
    assert first_club in (f"Garages {suffix}", f"Mill {suffix}")
    shot(garage, "battle-finished")
    shot(mill_phone, "battle-finished-phone")
    _in_languages(mill_phone, "battle-finished-phone", "[data-testid=battle-standings]")
    for tab in tabs:
        tab.assert_clean()
