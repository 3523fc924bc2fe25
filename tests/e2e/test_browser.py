"""The browser client in headless Chromium against a real server process.

Two players sign up, one creates a 2-player Goat table ("Fish to one"), the other
joins it from the lobby, and they play the whole game by clicking tiles; a third,
anonymous browser watches. Screenshots land in artifacts/screenshots/.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import re
import secrets
import time

from playwright.sync_api import expect

from tests.e2e.browser import (
    DESKTOP,
    GAME_SECONDS,
    PHONE,
    expect_resignation_told,
    finished,
    hand_of,
    shot,
    sign_up,
    take_turn,
    wait_for_record,
)
from tests.servers import Server


def test_two_players_play_a_whole_goat_game_in_the_browser(server: Server, open_tab) -> None:
    suffix = secrets.token_hex(3)
    masha, alex = f"masha_{suffix}", f"alex_{suffix}"
    a = open_tab(DESKTOP)
    b = open_tab(PHONE)  # the second player plays on a 360 px phone screen
    sign_up(a, server, masha)
    sign_up(b, server, alex)

    # Alex waits in the lobby; Masha's new table must appear there live.
    expect(b.page.get_by_role("heading", name="Lobby")).to_be_visible()
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("goat")
    form.locator("select[name=seats]").select_option("2")
    form.get_by_label("Fish to one").check()
    form.locator("input[name=turn_seconds]").fill("120")
    form.locator("input[name=round_pause_seconds]").fill("1")
    form.get_by_role("button", name="Create table").click()
    a.page.wait_for_url(re.compile(r"#/table/"))
    table_id = a.page.url.split("#/table/")[1]
    expect(a.page.get_by_text("Waiting for 1 more player")).to_be_visible()

    card = b.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_contain_text("Fish to one")
    expect(card).to_contain_text("120 s per move")
    shot(b.page, "lobby")
    card.get_by_role("button", name="Join").click()
    b.page.wait_for_url(re.compile(f"#/table/{table_id}$"))

    # Each player sees seven tiles of his own and none of the other's.
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    hand_a, hand_b = set(hand_of(a.page)), set(hand_of(b.page))
    assert len(hand_a) == 7 and len(hand_b) == 7 and not hand_a & hand_b
    expect(a.page.locator(".seats [data-testid=tile-count]")).to_have_text("7 tiles")

    # A third browser, not signed in, watches from the lobby: no hand for it.
    c = open_tab(DESKTOP)
    c.page.goto(f"{server.url}/#/lobby")
    c.page.locator(f".table-card[data-table-id='{table_id}']").get_by_role(
        "link", name="Watch"
    ).click()
    expect(c.page.locator(".spectator-note")).to_be_visible()
    expect(c.page.locator("[data-testid=hand] .hand-tile")).to_have_count(0)
    expect(c.page.locator(".seat-card")).to_have_count(2)

    # Chat is shown as text, never as markup.
    a.page.get_by_label("Chat message").fill("<b>hello</b> & good luck")
    a.page.get_by_role("button", name="Send").click()
    for tab in (a, b, c):
        chat = tab.page.locator("[data-testid=chat] .chat-text")
        expect(chat).to_have_text("<b>hello</b> & good luck")
    assert b.page.locator("[data-testid=chat] b").count() == 0

    # Play the whole game by clicking, reloading one player's page once mid-game.
    moves = 0
    reloaded = False
    deadline = time.monotonic() + GAME_SECONDS
    while not (finished(a.page) and finished(b.page)):
        assert time.monotonic() < deadline, "the game did not finish in time"
        played = False
        for tab in (a, b):
            if not finished(tab.page) and take_turn(tab.page, keyboard=moves % 3 == 1):
                played = True
                moves += 1
        if moves >= 6 and not reloaded:
            shot(a.page, "table-mid-game")
            shot(b.page, "table-mid-game-phone")
            before = sorted(hand_of(a.page))
            a.page.reload()
            expect(a.page.locator("[data-testid=hand] .hand-tile")).to_have_count(len(before))
            assert sorted(hand_of(a.page)) == before
            reloaded = True
        if not played:
            a.page.wait_for_timeout(50)
    assert reloaded and moves > 10

    # The end: the score sheet, the goat and the rating gains, for players and watcher.
    for tab in (a, b, c):
        result = tab.page.locator("[data-testid=result]")
        expect(result).to_be_visible()
        expect(result).to_contain_text("goat")
        gains = result.locator("[data-testid^=gain-]").all_inner_texts()
        assert len(gains) == 2 and all(re.fullmatch(r"\+?\d+", g) for g in gains), gains
        sheet = tab.page.locator("[data-testid=score-sheet] table.score-sheet")
        expect(sheet).to_be_visible()
        assert sheet.locator("tr.score-total").count() >= 1
        # RULES 1.6 display: an opened account in red without "+" (someone reached 101).
        accounts = sheet.locator("tr.score-total").last.locator(".account").all_inner_texts()
        assert any(int(x) >= 101 for x in accounts), accounts
    expect(c.page.locator("[data-testid=hand] .hand-tile")).to_have_count(0)
    a.page.locator("[data-testid=score-sheet]").scroll_into_view_if_needed()
    shot(a.page, "final-score")
    shot(b.page, "final-score-phone")

    # The replay of the stored game, move by move, with the hands the server replays.
    game_id = a.page.get_by_role("link", name="Replay").get_attribute("href").split("#/replay/")[1]
    wait_for_record(server, game_id)
    a.page.get_by_role("link", name="Replay").click()
    counter = a.page.locator("[data-testid=step-counter]")
    expect(counter).to_contain_text("step 1 of")
    expect(a.page.locator(".replay-hand")).to_have_count(2)
    expect(a.page.locator(".replay-hand").first.locator(".mini-tile")).to_have_count(7)
    a.page.get_by_role("button", name="Next move").click()
    a.page.get_by_role("button", name="Next move").click()
    expect(a.page.locator("[data-testid=replay-board] .chain-tile")).to_have_count(2)
    shot(a.page, "replay")
    a.page.get_by_role("button", name="Last position").click()
    total = int(re.search(r"of (\d+)", counter.inner_text()).group(1))
    expect(counter).to_contain_text(f"step {total} of {total}")
    expect(a.page.locator(".replay-result")).to_contain_text("goat")

    # The leaderboard has both players; the player page charts the rating history.
    b.page.goto(f"{server.url}/#/leaderboard/goat")
    board = b.page.locator("table.data")
    expect(board).to_contain_text(masha)
    expect(board).to_contain_text(alex)
    b.page.get_by_role("button", name="Skill").click()
    expect(b.page.get_by_role("button", name="Skill")).to_have_attribute("aria-pressed", "true")
    shot(b.page, "leaderboard")
    board.get_by_role("link", name=alex).click()
    expect(b.page.get_by_role("heading", name=alex)).to_be_visible()
    expect(b.page.locator("svg.chart")).to_have_count(1)
    expect(b.page.locator("table.recent-games tbody tr")).to_have_count(1)
    shot(b.page, "player")

    for tab in (a, b, c):
        tab.assert_clean()


def test_resigning_asks_first_and_ends_the_game(server: Server, open_tab) -> None:
    suffix = secrets.token_hex(3)
    olya, serg = f"olya_{suffix}", f"serg_{suffix}"
    a, b = open_tab(DESKTOP), open_tab(DESKTOP)
    sign_up(a, server, olya)
    sign_up(b, server, serg)
    form = a.page.locator("[data-testid=create-table]")
    form.get_by_label("Casual").check()
    form.get_by_role("button", name="Create table").click()
    a.page.wait_for_url(re.compile(r"#/table/"))
    table_id = a.page.url.split("#/table/")[1]
    b.page.goto(f"{server.url}/#/table/{table_id}")
    b.page.get_by_role("button", name="Join this table").click()
    expect(b.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    expect(a.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)

    a.page.get_by_role("button", name="Resign").click()
    a.page.get_by_role("button", name="Keep playing").click()  # changed his mind
    expect(a.page.locator("[data-testid=result]")).to_be_hidden()
    a.page.get_by_role("button", name="Resign").click()
    a.page.get_by_role("button", name="Yes, resign").click()
    for tab in (a, b):
        # A resignation says so (not "ran out of time"); a casual table shows no rating line.
        expect_resignation_told(tab, olya)
        expect(tab.page.locator("[data-testid=result]")).to_contain_text("casual table")
    for tab in (a, b):
        tab.assert_clean()


def test_the_turn_clock_counts_down_right_on_a_browser_whose_clock_is_wrong(
    server: Server, open_tab
) -> None:
    """The deadline is on the server's clock: a browser an hour slow must still show the
    seconds actually left (at most the table's 30), not an hour more."""
    suffix = secrets.token_hex(3)
    a, b = open_tab(DESKTOP), open_tab(DESKTOP)
    a.page.add_init_script("{ const real = Date.now; Date.now = () => real() - 3600000; }")
    sign_up(a, server, f"slow_{suffix}")
    sign_up(b, server, f"fast_{suffix}")
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=seats]").select_option("2")
    form.locator("input[name=turn_seconds]").fill("30")
    form.get_by_role("button", name="Create table").click()
    a.page.wait_for_url(re.compile(r"#/table/"))
    table_id = a.page.url.split("#/table/")[1]
    b.page.goto(f"{server.url}/#/table/{table_id}")
    b.page.get_by_role("button", name="Join this table").click()
    timer = a.page.locator("[data-testid=timer]")
    expect(timer).to_have_text(re.compile(r"^0:[0-3]\d$"))
    minutes, seconds = timer.inner_text().split(":")
    assert 0 < int(minutes) * 60 + int(seconds) <= 30
    for tab in (a, b):
        tab.assert_clean()
