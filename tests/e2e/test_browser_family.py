"""Sport Goat in the browser (RULES §11): four players in headless Chromium (two on a
desktop, two on a phone) play a 4-round game by clicking, to its last round and its end.
The score sheet has one column per team and all four rounds from the start; each round's
summary names the teams, explains a special hand when one is left (RULES §7's 0-0 = 25,
6-6 = 50, both = 75); the result names the winning team or a draw. Screenshots land in
artifacts/screenshots/.
"""

from __future__ import annotations

import re
import secrets
import time

from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    finished,
    others_join,
    seq_of,
    shot,
    sign_up,
    signed_up_tabs,
    take_turn,
    wait_seq_after,
)
from tests.servers import Server

SPECIAL_WORTH = {("0-0",): 25, ("6-6",): 50, ("0-0", "6-6"): 75}  # RULES §7
GAME_SECONDS = 600  # four rounds of four players, clicked, on a busy machine


def sheet_rounds(page: Page) -> tuple[int, int]:
    """(finished rounds, all rounds) on the score sheet."""
    sheet = page.locator("[data-testid=score-sheet]")
    done = sheet.locator("tr.score-points").count()
    return done, done + sheet.locator("tr.score-future").count()


def summary_hands(page: Page) -> list[list[str]]:
    """The hands the open round summary shows, one list of tiles per seat."""
    return page.locator("[data-testid=round-summary] .seat-hand").evaluate_all(
        "els => els.map(e => [...e.querySelectorAll('.mini-tile')].map(t => t.title))"
    )


def test_four_players_play_sport_goat_to_the_last_round(server: Server, open_tab) -> None:
    suffix = secrets.token_hex(3)
    names = [f"{n}_{suffix}" for n in ("masha", "alex", "olya", "serg")]
    tabs = signed_up_tabs(open_tab, server, names, [DESKTOP, PHONE, DESKTOP, PHONE])
    a = tabs[0]
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("sport_goat")
    # Four seats only (the engine says so), and the rounds option from GET /api/variants.
    assert form.locator("select[name=seats] option").all_inner_texts() == ["4 players"]
    rounds = form.locator("select[name=rounds]")
    assert rounds.locator("option").all_inner_texts() == ["4 rounds", "8 rounds", "12 rounds"]
    rounds.select_option("4")
    form.locator("input[name=turn_seconds]").fill("300")
    form.locator("input[name=round_pause_seconds]").fill("2")
    form.get_by_role("button", name="Create table").click()
    others_join(tabs, server)

    for i, tab in enumerate(tabs):
        page = tab.page
        expect(page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
        # Partners sit opposite: the sheet has a column per team, naming both partners.
        heads = page.locator("[data-testid=score-sheet] th.side-name")
        expect(heads).to_have_count(2)
        expect(heads.first).to_contain_text(f"Team A: {names[0]} & {names[2]}")
        expect(heads.last).to_contain_text(f"Team B: {names[1]} & {names[3]}")
        assert sheet_rounds(page) == (0, 4)
        expect(page.locator(f"[data-testid=seat-{(i + 2) % 4}] .pill.team")).to_have_text(
            f"Team {'AB'[i % 2]}")
    # Round 0 is led by seat 0 (RULES §11: seat r mod 4), with any tile.
    assert a.page.locator("[data-testid=hand] .hand-tile.legal").count() == 7

    seen = {"summaries": 0, "special": 0, "moves": 0}
    last_summary = -1
    deadline = time.monotonic() + GAME_SECONDS
    while not all(finished(tab.page) for tab in tabs):
        assert time.monotonic() < deadline, "the game did not finish in time"
        summary = a.page.locator("[data-testid=round-summary]")
        if summary.is_visible():
            title = summary.locator("h2").inner_text()
            n = int(re.search(r"\d+", title).group())
            if n != last_summary:
                last_summary = n
                seen["summaries"] += 1
                rows = summary.locator("tbody tr th")
                expect(rows).to_have_count(2)  # one row per team
                hands = summary_hands(a.page)
                special = [h for h in hands if sorted(h) in (["0-0"], ["6-6"], ["0-0", "6-6"])]
                notes = summary.locator("[data-testid=special-hand]")
                if special:
                    seen["special"] += 1
                    expect(notes).to_have_count(len(special))
                    for hand in special:
                        worth = SPECIAL_WORTH[tuple(sorted(hand))]
                        expect(summary).to_contain_text(f"counts {worth}")
                    shot(a.page, "sport-goat-special-hand")
                if n == 1:
                    shot(a.page, "sport-goat-round-summary-1280")
                    shot(tabs[1].page, "sport-goat-round-summary-360")
        played = False
        for tab in tabs:
            if not finished(tab.page) and take_turn(tab.page):
                played = True
                seen["moves"] += 1
                if seen["moves"] == 10:
                    shot(tabs[0].page, "sport-goat-1280")
                    shot(tabs[1].page, "sport-goat-360")
        if not played:
            a.page.wait_for_timeout(50)
    assert seen["summaries"] >= 3, seen

    for tab in tabs:
        page = tab.page
        result = page.locator("[data-testid=result]")
        expect(result).to_be_visible()
        assert sheet_rounds(page) == (4, 4)
        totals = page.locator("[data-testid=score-sheet] tr.score-total").last.locator(
            "td").all_inner_texts()
        team_a, team_b = (int(x) for x in totals)
        headline = result.locator("[data-testid=result-headline]")
        if team_a == team_b:
            expect(headline).to_have_text("A draw")
        else:
            winners = (names[0], names[2]) if team_a > team_b else (names[1], names[3])
            expect(headline).to_contain_text(winners[0])
            expect(headline).to_contain_text(winners[1])
        tab.assert_clean()
    a.page.locator("[data-testid=score-sheet]").scroll_into_view_if_needed()
    shot(a.page, "sport-goat-final-1280")
    shot(tabs[1].page, "sport-goat-final-360")


def test_a_general_round_in_the_browser(server: Server, open_tab) -> None:
    """RULES §12 in the browser: the table shows the Generals tally per team, 1-1 must
    lead, and the first round's summary says whether it made a General."""
    suffix = secrets.token_hex(3)
    names = [f"{n}_{suffix}" for n in ("nok", "lan", "khamla", "vong")]
    tabs = signed_up_tabs(open_tab, server, names, [DESKTOP, PHONE, DESKTOP, PHONE])
    a = tabs[0]
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("general")
    minutes = form.locator("select[name=minutes]")
    assert minutes.locator("option").all_inner_texts() == ["30 minutes", "60 minutes"]
    form.locator("input[name=turn_seconds]").fill("300")
    form.locator("input[name=round_pause_seconds]").fill("30")
    form.get_by_role("button", name="Create table").click()
    others_join(tabs, server)
    for tab in tabs:
        expect(tab.page.locator("[data-testid=generals-tally]")).to_have_text("Generals: A 0 · B 0")
    # Whoever holds 1-1 may lead nothing else.
    leader = next(t for t in tabs if "1-1" in t.page.locator("[data-testid=hand]").evaluate(
        "e => [...e.querySelectorAll('.hand-tile')].map(b => b.dataset.tile)"))
    legal = leader.page.locator("[data-testid=hand] .hand-tile.legal")
    expect(legal).to_have_count(1)
    assert legal.get_attribute("data-tile") == "1-1"

    deadline = time.monotonic() + GAME_SECONDS
    summary = a.page.locator("[data-testid=round-summary]")
    while not summary.is_visible():
        assert time.monotonic() < deadline, "the first round did not end in time"
        if not any(take_turn(tab.page) for tab in tabs):
            a.page.wait_for_timeout(50)
    note = summary.locator("[data-testid=general-note]")
    expect(note).to_be_visible()
    credited = a.page.locator("[data-testid=score-sheet] tr.score-total").last.locator(
        "td").all_inner_texts()
    tally = f"Generals: A {credited[0]} · B {credited[1]}"
    expect(a.page.locator("[data-testid=generals-tally]")).to_have_text(tally)
    if credited == ["0", "0"]:
        expect(note).to_have_text(re.compile(r"No General this round|A fish scores nothing"))
    else:
        expect(note).to_contain_text("a General for team")
    shot(a.page, "general-round-summary-1280")
    shot(tabs[1].page, "general-round-summary-360")
    # Each of the family has its rules page (the create form links to it).
    for variant, title, words in (("sea_goat", "Sea Goat", "bald goat"),
                                  ("sport_goat", "Sport Goat", "draw"),
                                  ("general", "General", "1-1")):
        a.page.goto(f"{server.url}/#/rules/{variant}")
        expect(a.page.locator("h1")).to_have_text(f"Rules: {title}")
        expect(a.page.locator("[data-testid=rules]")).to_contain_text(words)
    shot(a.page, "general-rules")
    for tab in tabs:
        tab.assert_clean()


def take_sea_goat_turn(page: Page) -> str | None:
    """One turn of Sea Goat by clicking: a tile that may go down with a second double is
    played with it (the "also" choice); otherwise a legal tile that is not a double if
    there is one (keeping doubles makes two-double turns likelier). Returns "also",
    "played", or None when this page has nothing to play."""
    pair = page.locator("[data-testid=hand] .hand-tile.legal.with-double")
    if pair.count():
        seq = seq_of(page)
        pair.first.click()
        also = page.locator(".also-button")
        expect(also.first).to_be_visible()
        expect(also.first).to_contain_text(re.compile(r"end \(\d\), and \d-\d on the \w+ end"))
        shot(page, f"sea-goat-two-doubles-choice-{page.viewport_size['width']}")
        also.first.click()
        wait_seq_after(page, seq)
        return "also"
    legal = page.locator("[data-testid=hand] .hand-tile.legal")
    if legal.count() == 0:
        return None
    tiles = legal.evaluate_all("els => els.map(e => e.dataset.tile)")
    plain = [t for t in tiles if len(set(t.split("-"))) == 2]
    seq = seq_of(page)
    page.locator(f"[data-testid=hand] .hand-tile[data-tile='{(plain or tiles)[0]}']").click()
    choice = page.locator("[data-testid=board] .end-choice")
    if choice.count():
        choice.last.click()
    wait_seq_after(page, seq)
    return "played"


def test_two_doubles_in_one_turn_in_the_browser(server: Server, open_tab) -> None:
    """RULES §7 in the browser: a tile that may go down with a second double is marked in
    the hand; choosing it offers "left end (a), and b-b on the right end (b)" beside the
    plain ends; that choice places both doubles in one turn, and the log tells both."""
    suffix = secrets.token_hex(3)
    tabs = [open_tab(DESKTOP), open_tab(PHONE)]
    names = [f"sea_{suffix}", f"goat_{suffix}"]
    for tab, name in zip(tabs, names, strict=True):
        sign_up(tab, server, name)
    a = tabs[0]
    for _attempt in range(3):  # a deal may, rarely, never offer two doubles
        form = a.page.locator("[data-testid=create-table]")
        form.locator("select[name=variant]").select_option("sea_goat")
        form.locator("select[name=seats]").select_option("2")
        form.locator("input[name=turn_seconds]").fill("300")
        form.locator("input[name=round_pause_seconds]").fill("0")
        form.locator("input[value=casual]").check()
        form.get_by_role("button", name="Create table").click()
        a.page.wait_for_url(re.compile(r"#/table/"))
        table_id = a.page.url.split("#/table/")[1]
        tabs[1].page.goto(f"{server.url}/#/table/{table_id}")
        tabs[1].page.get_by_role("button", name="Join this table").click()
        expect(a.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
        deadline = time.monotonic() + GAME_SECONDS
        doubled = None
        while doubled is None and not finished(a.page):
            assert time.monotonic() < deadline, "no two-double turn came in time"
            moved = False
            for tab in tabs:
                before = tab.page.locator("[data-testid=board] .chain-tile").count()
                how = take_sea_goat_turn(tab.page)
                moved = moved or how is not None
                if how == "also":
                    doubled = (tab, before)
                    break
            if not moved:
                a.page.wait_for_timeout(50)
        if doubled is not None:
            break
        a.page.goto(f"{server.url}/#/lobby")
    assert doubled is not None, "three games without a chance of two doubles in one turn"
    tab, before = doubled
    # Both doubles went down in that one turn (unless it emptied the hand: a new deal).
    after = tab.page.locator("[data-testid=board] .chain-tile").count()
    assert after in (before + 2, 0) or finished(tab.page), (before, after)
    log = tab.page.locator("[data-testid=log]")
    expect(log).to_contain_text("in the same turn")
    shot(tab.page, f"sea-goat-two-doubles-{'desktop' if tab is a else 'phone'}")
    for t in tabs:
        t.assert_clean()
