"""The browser client in headless Chromium against a real server process.

Two players sign up, one creates a 2-player Goat table ("Fish to one"), the other
joins it from the lobby, and they play the whole game by clicking tiles; a third,
anonymous browser watches. Screenshots land in artifacts/screenshots/.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import json
import re
import secrets

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    Tab,
    expect_resignation_told,
    hand_of,
    play_to_the_end,
    seq_of,
    shot,
    sign_up,
    take_turn,
    wait_for_record,
    wait_seq_after,
)
from tests.servers import Server


def test_two_players_play_a_whole_goat_game_in_the_browser(server: Server, open_tab) -> None:
    suffix = secrets.token_hex(3)
    masha, alex = f"masha_{suffix}", f"alex_{suffix}"
    a = open_tab(DESKTOP)
    b = open_tab(PHONE)  # the second player plays on a 360 px phone screen
    # Every websocket each tab opens, by its address.
    sockets: dict[str, list[str]] = {"a": [], "b": []}
    a.page.on("websocket", lambda ws: sockets["a"].append(ws.url))
    b.page.on("websocket", lambda ws: sockets["b"].append(ws.url))
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
    # At the table, each tab's socket names it: a proxy puts a table's sockets together.
    at_table = f"{server.ws_url}?table={table_id}"
    assert sockets["a"][-1] == at_table and sockets["b"][-1] == at_table, sockets
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

    def move(tab: Tab) -> bool:
        nonlocal moves, reloaded
        if not take_turn(tab.page, keyboard=moves % 3 == 1):
            return False
        moves += 1
        if moves >= 6 and not reloaded:
            shot(a.page, "table-mid-game")
            shot(b.page, "table-mid-game-phone")
            before = sorted(hand_of(a.page))
            opened = len(sockets["a"])
            a.page.reload()
            expect(a.page.locator("[data-testid=hand] .hand-tile")).to_have_count(len(before))
            assert sorted(hand_of(a.page)) == before
            # A page opened at a table connects to it at once, not first without it.
            assert sockets["a"][opened:] == [at_table], sockets["a"][opened:]
            reloaded = True
        return True

    play_to_the_end([a, b], move)
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


def two_signed_up(
    server: Server, open_tab, first: str, second: str, viewports=(DESKTOP, DESKTOP)
) -> tuple[Tab, Tab, str, str]:
    """Two browsers, each signed up as a new player (names made unique)."""
    suffix = secrets.token_hex(3)
    a, b = (open_tab(v) for v in viewports)
    names = f"{first}_{suffix}", f"{second}_{suffix}"
    sign_up(a, server, names[0])
    sign_up(b, server, names[1])
    return a, b, *names


def test_resigning_asks_first_and_ends_the_game(server: Server, open_tab) -> None:
    a, b, olya, _serg = two_signed_up(server, open_tab, "olya", "serg")
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
        # A resignation says so (not "ran out of time"); one before every seat has moved is
        # an aborted game, which the card says pays nothing (PROTOCOL §2g).
        expect_resignation_told(tab, olya)
        expect(tab.page.locator("[data-testid=result]")).to_contain_text(
            "Aborted before every player had moved")
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
    form.locator("input[name=reserve_seconds]").fill("0")  # the turn's own clock alone
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


def take_turn_preferring_up(page: Page) -> bool | None:
    """Play a tile on the spinner's `up` arm if one fits (True), else any tile (False);
    None if this page has nothing to play. Clicks only, as a player would."""
    legal = page.locator("[data-testid=hand] .hand-tile.legal:not([disabled])")
    if legal.count() == 0:
        return None
    ends = json.loads(page.locator("[data-testid=board]").get_attribute("data-ends") or "{}")
    tiles = legal.evaluate_all("els => els.map(e => e.dataset.tile)")
    up = ends.get("up")
    fitting = [t for t in tiles if up is not None and str(up) in t.split("-")]
    seq = seq_of(page)
    if fitting:
        legal.and_(page.locator(f"[data-tile='{fitting[0]}']")).click()
        choice = page.locator("[data-testid=board] .end-choice[data-end=up]")
        if page.locator("[data-testid=board] .end-choice").count():
            choice.click()
    else:
        legal.first.click()
        choice = page.locator("[data-testid=board] .end-choice")
        if choice.count():
            choice.last.click()
    wait_seq_after(page, seq)
    return bool(fitting)


# The spinner's tiles on a board, and those that stick out of its sides (1 px of slack).
CROSS_FIT = """board => {
  const box = board.getBoundingClientRect();
  const tiles = [...board.querySelectorAll("[data-testid=spinner] .chain-tile")];
  const outside = tiles.map((t) => t.getBoundingClientRect())
    .filter((r) => r.left < box.left - 1 || r.right > box.right + 1)
    .map((r) => [r.left, r.right]);
  return { tiles: tiles.length, outside, board: [box.left, box.right] };
}"""


def test_two_players_play_fives_by_clicking_with_a_move_on_the_spinner(
    server: Server, open_tab
) -> None:
    """RULES §4 in the browser: the create form and its options come from GET /api/variants;
    a whole Fives game is played by clicking, including tiles on the spinner's `up` arm;
    points during play pop up as "+N"; the cross fits a 360 px phone."""
    a, b, vera, ivan = two_signed_up(server, open_tab, "vera", "ivan", (DESKTOP, PHONE))
    form = a.page.locator("[data-testid=create-table]")
    form.locator("select[name=variant]").select_option("fives")
    expect(form.locator("select[name=target]")).to_have_value("100")
    form.get_by_label("Spinner: its open sides count").check()
    expect(form.get_by_label("Teams (partners sit opposite)")).to_be_hidden()
    form.locator("select[name=seats]").select_option("2")
    form.locator("input[name=turn_seconds]").fill("120")
    shot(a.page, "create-fives")
    form.get_by_role("button", name="Create table").click()
    a.page.wait_for_url(re.compile(r"#/table/"))
    table_id = a.page.url.split("#/table/")[1]
    card = b.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_contain_text("Fives")
    expect(card).to_contain_text("Spinner: its open sides count")
    card.get_by_role("button", name="Join").click()
    b.page.wait_for_url(re.compile(f"#/table/{table_id}$"))
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)

    up_moves = 0
    pops = 0

    def move(tab: Tab) -> bool:
        nonlocal up_moves, pops
        on_up = take_turn_preferring_up(tab.page)
        if on_up is None:
            return False
        pops += tab.page.locator("[data-testid=score-pop]").count()
        if on_up and not up_moves:
            for t in (a, b):
                expect(t.page.locator("[data-testid=spinner] [data-arm=up]")).not_to_have_count(0)
            shot(a.page, "fives-spinner")
            shot(b.page, "fives-spinner-phone")
            # The cross fits the phone's board: no tile is cut off at the sides. Measured in
            # one go in the page: the board is redrawn whenever a state arrives, and a tile
            # found before a redraw has no box after it.
            fit = b.page.locator("[data-testid=board]").evaluate(CROSS_FIT)
            assert fit["tiles"] > 0 and fit["outside"] == [], fit
        up_moves += on_up
        return True

    play_to_the_end([a, b], move)
    assert up_moves >= 1, "no tile was ever played on the spinner's up arm"
    assert pops >= 1, "no points scored during play were shown"

    for tab in (a, b):
        result = tab.page.locator("[data-testid=result]")
        expect(result).to_contain_text("won")
        sheet = tab.page.locator("[data-testid=score-sheet] table.score-sheet")
        expect(sheet).to_be_visible()
        assert max(int(x) for x in sheet.locator("tr.score-total").last.locator(".total")
                   .all_inner_texts()) >= 100
    shot(b.page, "fives-final-phone")
    game_id = a.page.get_by_role("link", name="Replay").get_attribute("href").split("#/replay/")[1]
    wait_for_record(server, game_id)
    record = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert any(m.get("end") == "up" for rd in record["rounds"] for m in rd["moves"])
    # The replay draws the same cross, position by position.
    a.page.get_by_role("link", name="Replay").click()
    a.page.get_by_role("button", name="Last position").click()
    expect(a.page.locator(".replay-result")).to_contain_text("won")
    a.page.get_by_role("button", name="Previous move").click()
    expect(a.page.locator("[data-testid=replay-board] .chain-tile")).not_to_have_count(0)
    shot(a.page, "fives-replay")

    # The leaderboard has a tab per variant the server plays, Fives with both players.
    b.page.goto(f"{server.url}/#/leaderboard/fives")
    tabs = b.page.locator("[data-testid=variant-tabs] a")
    expect(tabs).to_have_count(len(httpx.get(f"{server.url}/api/variants").json()))
    expect(b.page.locator("[data-testid=variant-tabs]")).to_contain_text("Telephone")
    board = b.page.locator("table.data")
    expect(board).to_contain_text(vera)
    expect(board).to_contain_text(ivan)
    for tab in (a, b):
        tab.assert_clean()
