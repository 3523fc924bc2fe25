"""People in the browser (PROTOCOL §2c): two players in their own scripts become friends,
one challenges, the other accepts from the offer that arrives, and they play the game to
its end; the friends list, the offer and the settings page on a phone in fa and ru."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from tests.e2e.browser import DESKTOP, PHONE, Tab, play_to_the_end, shot, sign_up, take_turn
from tests.servers import Server


def _language(tab: Tab, code: str) -> None:
    tab.page.locator("[data-testid=lang]").select_option(code)
    expect(tab.page.locator("html")).to_have_attribute("lang", code)


def test_friends_a_challenge_accepted_from_its_offer_and_a_game(
    server: Server, open_tab,
) -> None:
    tag = str(secrets.randbelow(10**6))
    masha, maryam = f"Маша{tag}", f"مریم{tag}"
    a, b = open_tab(DESKTOP), open_tab(PHONE)
    sign_up(a, server, masha)
    sign_up(b, server, maryam)
    # a Persian name in a Latin line is isolated: the header shows it in a <bdi>
    expect(b.page.locator("[data-testid=me] bdi")).to_have_text(maryam)

    a.page.goto(f"{server.url}/#/player/{maryam}")
    expect(a.page.locator("h1 bdi")).to_have_text(maryam)
    a.page.locator("[data-testid=add-friend]").click()
    b.page.goto(f"{server.url}/#/friends")
    request = b.page.locator("[data-testid=friend-request]")
    expect(request).to_contain_text(masha)
    request.locator("[data-testid=friend-accept]").click()
    expect(b.page.locator("[data-testid=friend]")).to_contain_text(masha)
    # Masha's list shows Maryam online (her phone is open)
    a.page.goto(f"{server.url}/#/friends")
    friend = a.page.locator("[data-testid=friend]")
    expect(friend).to_contain_text(maryam)
    expect(friend).to_have_class(re.compile(r"\bonline\b"))
    for code in ("fa", "ru"):
        _language(b, code)
        expect(b.page.locator("[data-testid=friend]")).to_contain_text(masha)
        shot(b.page, f"people-friends-phone-{code}")

    # Masha challenges; the offer reaches Maryam on whatever page she is
    _language(b, "fa")
    b.page.goto(f"{server.url}/#/lobby")
    a.page.goto(f"{server.url}/#/player/{maryam}")
    a.page.locator("[data-testid=challenge-variant] option[value=goat]").wait_for(state="attached")
    a.page.locator("[data-testid=challenge-variant]").select_option("goat")
    a.page.locator("[data-testid=challenge]").click()
    offer = b.page.locator("[data-testid=challenge-offer]")
    expect(offer).to_contain_text(masha)
    shot(b.page, "people-challenge-phone-fa")
    offer.locator("[data-testid=challenge-accept]").click()
    # both are taken to the new table, private, and play it to its end
    for tab in (a, b):
        tab.page.wait_for_url(re.compile(r"#/table/"), timeout=20_000)
    assert a.page.url.split("#/table/")[1] == b.page.url.split("#/table/")[1]
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
        expect(tab.page.locator(".pill.private")).to_have_count(1)
    play_to_the_end([a, b], lambda tab: take_turn(tab.page))

    # the settings page
    for code in ("fa", "ru"):
        b.page.goto(f"{server.url}/#/settings")
        _language(b, code)
        expect(b.page.locator("[data-testid=settings-delete]")).to_be_visible()
        shot(b.page, f"people-settings-phone-{code}")
    for tab in (a, b):
        tab.assert_clean()
