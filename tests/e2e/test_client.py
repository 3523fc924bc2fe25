"""The browser client "at the table as players expect", in headless Chromium against
real server processes: languages, round summaries, alerts, rematches, invites,
connection truth, dark mode, keyboard and contrast, replays, rules and phone layouts.

The screenshots of the lobby, a table mid-game, a round summary and a final result in
English, Russian and Persian and in dark mode, at 1280 and 360 px, land in
artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from contextlib import ExitStack

import httpx
from playwright.sync_api import Page, expect
from websockets.sync.client import connect as ws_connect

from app.words import CATALOGUES
from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Tab,
    expect_resignation_told,
    finished,
    resign,
    seq_of,
    signed_up_tabs,
    take_turn,
    wait_for_record,
    wait_seq_after,
)
from tests.e2e.browser import sign_up as sign_up_as
from tests.servers import Server, free_port, run_server

ROUND_SECONDS = 120  # a round of 2-player Goat is played within this


def name(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(3)}"


def create_table(
    tab: Tab, *, seats: int = 2, pause: int = 0, turn: int = 120, casual: bool = False,
    fish: str | None = None,
) -> str:
    """Create a Goat table through the lobby's form; returns its id."""
    page = tab.page
    form = page.locator("[data-testid=create-table]")
    form.locator("select[name=seats]").select_option(str(seats))
    form.locator("input[name=turn_seconds]").fill(str(turn))
    form.locator("input[name=round_pause_seconds]").fill(str(pause))
    form.locator("input[name=reserve_seconds]").fill("0")  # the turn's own clock alone
    if fish:
        form.locator(f"input[name=fish_rule][value={fish}]").check()
    if casual:
        form.locator("input[name=rated][value=casual]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/"))
    return page.url.split("#/table/")[1]


def join(tab: Tab, server: Server, table_id: str) -> None:
    tab.page.goto(f"{server.url}/#/table/{table_id}")
    tab.page.locator("[data-testid=waiting] button.primary").click()
    expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)


def seated_pair(open_tab, server: Server, **table: object) -> tuple[Tab, Tab, str, list[str]]:
    a, b = open_tab(DESKTOP), open_tab(DESKTOP)
    names = [name("ann"), name("bob")]
    sign_up_as(a, server, names[0])
    sign_up_as(b, server, names[1])
    table_id = create_table(a, **table)  # type: ignore[arg-type]
    join(b, server, table_id)
    expect(a.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    return a, b, table_id, names


def play_until(tabs: list[Tab], done, seconds: float = ROUND_SECONDS) -> int:
    """Both players play tiles until `done()`; returns how many moves were made."""
    moves = 0
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the position was not reached in time"
        played = False
        for tab in tabs:
            if done():
                break
            if not finished(tab.page) and take_turn(tab.page):
                moves += 1
                played = True
        if not played:
            tabs[0].page.wait_for_timeout(50)
    return moves


def summary_shown(tab: Tab) -> bool:
    return tab.page.locator("[data-testid=round-summary]").is_visible()


LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def untranslated(page: Page, allowed: set[str]) -> list[str]:
    """Visible words of the page (text, labels, titles, placeholders) that are Latin,
    leaving out `allowed` (player names) and tile names, seeds and keys' names."""
    texts = page.evaluate(
        """() => {
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const el = walker.currentNode.parentElement;
            if (el && el.closest('noscript, script, style, [hidden], [translate=no]')) continue;
            if (el && el.getClientRects().length === 0) continue;
            out.push(walker.currentNode.textContent);
          }
          for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
            for (const a of ['aria-label', 'title', 'placeholder']) {
              if (el.getAttribute(a)) out.push(el.getAttribute(a));
            }
          }
          out.push(document.title);
          return out;
        }"""
    )
    found = []
    for text in texts:
        for word in LATIN_WORD.findall(text):
            if any(word in a for a in allowed) or word == "Esc" or re.fullmatch("[0-9a-f]+", word):
                continue
            found.append(f"{word!r} in {text.strip()[:80]!r}")
    return found


# ---------------------------------------------------------------------------------------
# languages


def test_every_language_has_every_key_and_the_browser_language_is_chosen(
    server: Server, browser
) -> None:
    ru = browser.new_context(locale="ru-RU", viewport=DESKTOP)
    page = ru.new_page()
    page.goto(f"{server.url}/#/lobby")
    expect(page.locator("h1")).to_have_text("Лобби")
    assert page.evaluate("document.documentElement.lang") == "ru"
    players = set(page.locator(".seat-list li.taken").all_inner_texts())
    assert untranslated(page, players) == []
    page.goto(f"{server.url}/#/signin")
    expect(page.locator("h1")).to_have_text("Добро пожаловать")
    assert untranslated(page, set()) == []
    # The page came with the reader's catalogue (the server read the browser's languages)
    # and asked for no other (every catalogue has every key: tests/test_words.py), and its
    # words are the catalogue's.
    assert page.evaluate("document.getElementById('words').dataset.lang") == "ru"
    catalogues = page.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/lang/'))")
    assert catalogues == [], catalogues
    assert page.evaluate("async () => (await import('/js/i18n.js')).t('nav.lobby')") == \
        CATALOGUES["ru"]["nav.lobby"]

    fa = browser.new_context(locale="fa-IR", viewport=PHONE)
    farsi = fa.new_page()
    farsi.goto(f"{server.url}/#/signin")
    expect(farsi.locator("html")).to_have_attribute("dir", "rtl")
    expect(farsi.locator("h1")).to_have_text("خوش آمدید")
    # The page is laid out right to left: the brand sits at the right edge.
    brand = farsi.locator(".brand").bounding_box()
    assert brand and brand["x"] > PHONE["width"] / 2

    # Switched by hand and remembered: the Persian browser asks for Lao, then reloads.
    farsi.locator("[data-testid=lang]").select_option("lo")
    expect(farsi.locator("html")).to_have_attribute("dir", "ltr")
    expect(farsi.locator("h1")).to_have_text("ຍິນດີຕ້ອນຮັບ")
    farsi.reload()
    expect(farsi.locator("html")).to_have_attribute("lang", "lo")
    th = browser.new_context(locale="th-TH")
    thai = th.new_page()
    thai.goto(f"{server.url}/#/rules/goat")
    expect(thai.locator("h1")).to_have_text("กติกา: แพะ")
    for context in (ru, fa, th):
        context.close()


def test_a_russian_and_a_persian_player_see_no_english_and_numbers_in_their_digits(
    server: Server, browser
) -> None:
    ru_ctx = browser.new_context(locale="ru-RU", viewport=DESKTOP)
    fa_ctx = browser.new_context(locale="fa-IR", viewport=DESKTOP)
    ru, fa = Tab(ru_ctx, ru_ctx.new_page()), Tab(fa_ctx, fa_ctx.new_page())
    for tab in (ru, fa):
        tab.page.on(
            "console", lambda m, t=tab: t.errors.append(m.text) if m.type == "error" else None
        )
    names = [name("ivan"), name("dara")]
    sign_up_as(ru, server, names[0])
    sign_up_as(fa, server, names[1])
    table_id = create_table(ru, pause=2)
    join(fa, server, table_id)
    # Persian digits: 120 seconds per move and 7 tiles are written in Persian digits.
    expect(fa.page.locator(".table-subtitle")).to_contain_text("\u06f1\u06f2\u06f0")
    expect(fa.page.locator(".seats [data-testid=tile-count]")).to_have_text("\u06f7 مهره")
    expect(ru.page.locator(".seats [data-testid=tile-count]")).to_have_text("7 костяшек")
    play_until([ru, fa], lambda: ru.page.locator("[data-testid=log] li").count() > 4, 30)
    # The Persian page runs right to left; its line of tiles keeps its geometry.
    expect(fa.page.locator("html")).to_have_attribute("dir", "rtl")
    for part in ("board", "hand"):
        direction = "e => getComputedStyle(e).direction"
        assert fa.page.locator(f"[data-testid={part}]").evaluate(direction) == "ltr", part
    for page in (ru.page, fa.page):
        assert untranslated(page, set(names)) == []
    ru.page.goto(f"{server.url}/#/lobby")
    expect(ru.page.locator(".table-card")).not_to_have_count(0)
    # Other tables are seated by other tests' players, and more arrive while the page is
    # read: their names are marked as names (translate="no"), which the check leaves out.
    expect(ru.page.locator(".seat-list li.taken bdi").first).to_have_attribute("translate", "no")
    assert untranslated(ru.page, set(names)) == []
    ru.page.goto(f"{server.url}/#/leaderboard/goat")
    expect(ru.page.locator("h1")).to_contain_text("Рейтинг")
    # The rows are in once the count under the title is; ranked players' names are marked
    # as names.
    expect(ru.page.locator(".leaderboard p.muted")).not_to_be_empty()
    for link in ru.page.locator("table.data tbody a").all():
        expect(link).to_have_attribute("translate", "no")
    assert untranslated(ru.page, set(names)) == []
    ru.page.goto(f"{server.url}/#/rules/goat")
    assert untranslated(ru.page, set(names)) == []
    ru.page.goto(f"{server.url}/#/player/{names[0]}")
    expect(ru.page.locator("h1")).to_have_text(names[0])
    assert untranslated(ru.page, set(names)) == []
    for tab in (ru, fa):
        tab.assert_clean()
    # A refusal from the server is said in the player's language too.
    ru.page.goto(f"{server.url}/#/table/{table_id}")
    expect(ru.page.locator("[data-testid=hand] .hand-tile")).not_to_have_count(0)
    reply = ru.page.evaluate(
        """async (id) => {
          const r = await fetch('/api/tables/' + id + '/join', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'Accept-Language': 'ru'},
            body: '{}', credentials: 'same-origin'});
          return [r.status, (await r.json()).detail];
        }""",
        table_id,
    )
    assert reply == [409, "вы уже сидите за этим столом"]
    for tab in (ru, fa):
        tab.context.close()


# ---------------------------------------------------------------------------------------
# round end, alerts


def test_the_round_summary_shows_every_hand_and_the_next_clock_starts_after_the_pause(
    server: Server, open_tab
) -> None:
    a, b, _table_id, names = seated_pair(open_tab, server, pause=4, turn=60)
    play_until([a, b], lambda: summary_shown(a) and summary_shown(b))
    for tab in (a, b):
        box = tab.page.locator("[data-testid=round-summary]")
        expect(box).to_contain_text(names[0])
        expect(box).to_contain_text(names[1])
        # Every hand is shown face up (the one who went out has none left).
        assert box.locator(".summary-hand .mini-tile").count() >= 1
        expect(box.locator("[data-testid=next-round]")).to_contain_text("Next round in")
        # No clock runs during the pause, and nobody can move.
        expect(tab.page.locator("[data-testid=timer]")).to_have_text("")
        assert tab.page.locator("[data-testid=hand] .hand-tile.legal").count() == 0
    # After the pause the summary goes away and the leader's clock starts from full.
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=round-summary]")).to_be_hidden(timeout=10_000)
        expect(tab.page.locator("[data-testid=timer]")).to_have_text(re.compile(r"^(1:00|0:5\d)$"))
    expect(a.page.locator("[data-testid=log]")).to_contain_text("the clock is running")
    for tab in (a, b):
        tab.assert_clean()


def test_alerts_change_the_title_sound_notify_and_warn_when_time_runs_low(
    server: Server, open_tab
) -> None:
    a, b = open_tab(DESKTOP), open_tab(DESKTOP)
    names = [name("cleo"), name("dan")]
    sign_up_as(a, server, names[0])
    sign_up_as(b, server, names[1])
    # The creator waits with his tab hidden and notifications allowed.
    a.context.grant_permissions(["notifications"], origin=server.url)
    a.page.evaluate(
        """() => {
          window.__notes = [];
          window.Notification = class { constructor(title, o) { window.__notes.push(title); }
            static get permission() { return 'granted'; } };
          Object.defineProperty(document, 'hidden', { get: () => true, configurable: true });
        }"""
    )
    table_id = create_table(a, turn=12)
    join(b, server, table_id)
    expect(a.page.locator("body")).to_have_attribute("data-sounds", re.compile(r"\d+"))
    notes = a.page.evaluate("window.__notes")
    assert "The game has started" in notes
    # Whoever is on turn sees it in his tab's title; the other does not.
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=turn]")).not_to_have_text("")
    on_turn, waiting = (a, b) if a.page.locator(".your-turn").count() else (b, a)
    expect(on_turn.page).to_have_title(re.compile(r"^● Your turn"))
    assert not waiting.page.title().startswith("●")
    # Ten seconds before his time runs out he is warned (sound and message).
    expect(on_turn.page.locator("body")).to_have_attribute(
        "data-last-sound", "warning", timeout=8000
    )
    expect(on_turn.page.locator("[data-testid=toast]").filter(has_text="Hurry")).to_be_visible()
    # Muted: remembered, and no more sounds.
    waiting.page.locator("[data-testid=mute]").click()
    expect(waiting.page.locator("[data-testid=mute]")).to_have_attribute("aria-pressed", "true")
    waiting.page.reload()
    expect(waiting.page.locator("[data-testid=mute]")).to_have_attribute("aria-pressed", "true")
    for tab in (a, b):
        tab.assert_clean()


# ---------------------------------------------------------------------------------------
# rematch, invites, resignations


def test_an_invite_survives_sign_up_and_a_rematch_accepted_by_both_starts_a_new_table(
    server: Server, open_tab
) -> None:
    a = open_tab(DESKTOP)
    host, guest = name("hana"), name("gil")
    sign_up_as(a, server, host)
    table_id = create_table(a, casual=True, fish="one")
    link = a.page.locator("[data-testid=invite-link]")
    expect(link).to_have_value(f"{server.url}/#/table/{table_id}")
    a.page.locator("[data-testid=copy-invite]").click()
    expect(a.page.locator(".invite")).to_contain_text("Copied")

    # A friend opens the link, signs up from there and comes back to the table.
    b = open_tab(PHONE)
    b.page.goto(link.input_value())
    b.page.locator("[data-testid=signin-to-join]").click()
    expect(b.page.locator("[data-testid=invite-note]")).to_be_visible()
    sign_up_as(b, server, guest, then=f"#/table/{table_id}", go=False)
    b.page.locator("[data-testid=waiting] button.primary").click()
    for tab in (a, b):
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)

    # The host resigns: told as a resignation everywhere, no rating line (casual).
    resign(a)
    for tab in (a, b):
        expect_resignation_told(tab, host)

    # Play again: offered by one, accepted by the other, and both are at a new table.
    a.page.locator("[data-testid=rematch]").click()
    expect(a.page.locator("[data-testid=rematch]")).to_have_text("Rematch offered")
    expect(b.page.locator("[data-testid=rematch]")).to_have_text("Accept the rematch")
    expect(b.page.locator("[data-testid=rematch-status]")).to_contain_text(guest)
    b.page.locator("[data-testid=rematch]").click()
    for tab in (a, b):
        tab.page.wait_for_url(re.compile(r"#/table/(?!" + table_id + r")[0-9a-f]+$"))
        expect(tab.page.locator("[data-testid=hand] .hand-tile")).to_have_count(7)
    assert a.page.url == b.page.url
    expect(a.page.locator(".table-subtitle")).to_contain_text("Fish to one")
    expect(a.page.locator(".table-subtitle")).to_contain_text("Casual")

    # The host's page says "Resigned", not "Goat".
    a.page.goto(f"{server.url}/#/player/{host}")
    outcome = a.page.locator("table.recent-games [data-testid=outcome]").first
    expect(outcome).to_have_text("Resigned", timeout=20_000)
    for tab in (a, b):
        tab.assert_clean()


# ---------------------------------------------------------------------------------------
# connection truth


def test_a_move_while_the_server_is_down_is_refused_and_a_vanished_table_says_so(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path, open_tab
) -> None:
    port = free_port()
    env = {
        "DOMINO_DATABASE_URL": pg_url, "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_down", "DOMINO_SWEEP_SECONDS": "0.1",
    }
    with run_server(env, log_dir=tmp_path, port=port) as server:
        a, b, table_id, names = seated_pair(open_tab, server, turn=120)
        # Presence: a closed tab shows offline, a return online, within 5 s.
        b_seat = a.page.locator(".seats .seat-card").first
        expect(b_seat).to_have_attribute("data-connected", "true")
        b.page.goto("about:blank")
        expect(b_seat).to_have_attribute("data-connected", "false", timeout=5000)
        b.page.goto(f"{server.url}/#/table/{table_id}")
        expect(b_seat).to_have_attribute("data-connected", "true", timeout=5000)
        on_turn = a if a.page.locator(".hand-tile.legal").count() else b
        expect(on_turn.page.locator(".hand-tile.legal").first).to_be_visible()
        seq = on_turn.page.locator(".table-page").get_attribute("data-seq")
    # The server is gone: a move is refused on the spot and visibly, not queued.
    expect(on_turn.page.locator("#conn")).to_be_visible(timeout=10_000)
    refused = on_turn.page.locator("[data-testid=prompt] .refused")
    on_turn.page.locator(".hand-tile.legal").first.click()
    expect(refused).to_contain_text("Not sent")
    expect(on_turn.page.locator("[data-testid=toast]").first).to_contain_text("offline")
    # The socket tries again by itself, and each failed try redraws the table (the next
    # try is made only once the last one's failure was handled): the refusal stays said
    # until the table is back.
    for _ in range(2):
        with on_turn.page.expect_websocket(timeout=15_000):
            pass
    expect(refused).to_contain_text("Not sent")
    with run_server(env, log_dir=tmp_path, port=port) as again:
        # Back: the socket reconnects and the table is exactly where it was.
        expect(on_turn.page.locator("#conn")).to_be_hidden(timeout=20_000)
        expect(on_turn.page.locator(".table-page")).to_have_attribute("data-seq", seq or "")
        expect(on_turn.page.locator(".hand-tile.legal").first).to_be_visible()
        # A table that does not exist says so and offers the lobby.
        on_turn.page.goto(f"{again.url}/#/table/0123456789abcdef")
        expect(on_turn.page.locator("[data-testid=waiting] h2")).to_have_text(
            "This table no longer exists"
        )
        on_turn.page.locator("[data-testid=to-lobby]").click()
        expect(on_turn.page.locator("[data-testid=table-list]")).to_be_attached()
    assert names


# ---------------------------------------------------------------------------------------
# the board, keyboard, contrast, dark mode, spectators, reload


def test_keyboard_contrast_dark_mode_spectators_and_a_reload_keeps_log_and_chat(
    server: Server, open_tab, browser
) -> None:
    a, b, table_id, _names = seated_pair(open_tab, server, pause=0)
    # 3:1 for the playable outline against the hand's background, light and dark.
    ratio = """() => {
      const lum = (c) => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(Number).map((v) => {
        v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const tile = document.querySelector('.hand-tile.legal');
      const bg = getComputedStyle(document.querySelector('.my-area')).backgroundColor;
      const [x, y] = [lum(getComputedStyle(tile).borderTopColor), lum(bg)];
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    }"""
    on_turn, other = (a, b) if a.page.locator(".hand-tile.legal").count() else (b, a)
    assert on_turn.page.evaluate(ratio) >= 3
    on_turn.page.emulate_media(color_scheme="dark")
    expect(on_turn.page.locator("html")).to_have_attribute("data-theme", "dark")
    assert on_turn.page.evaluate(ratio) >= 3
    on_turn.page.emulate_media(color_scheme="light")
    expect(on_turn.page.locator("html")).to_have_attribute("data-theme", "light")
    # The switch overrides the system and is remembered.
    on_turn.page.locator("[data-testid=theme]").click()  # auto -> light
    on_turn.page.locator("[data-testid=theme]").click()  # light -> dark
    on_turn.page.reload()
    expect(on_turn.page.locator("html")).to_have_attribute("data-theme", "dark")

    # A playable tile lifts under the pointer, but its button stays where it was: a button
    # that rose from under a pointer near its lower edge would lose the hover and fall
    # back under it, again and again (with reduced motion, every frame).
    # (Each box is measured in the page in one go: a redraw may replace the buttons, at
    # the same places, between two steps of the test.)
    box_of = """(t) => {
      const e = document.querySelector(`[data-testid=hand] .hand-tile[data-tile="${t}"]`);
      const r = e.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height];
    }"""
    lifted = on_turn.page.locator("[data-testid=hand] .hand-tile.legal").first
    expect(lifted).to_be_visible()
    tile = lifted.get_attribute("data-tile")
    x, y, width, height = on_turn.page.evaluate(box_of, tile)
    on_turn.page.mouse.move(x + width / 2, y + height - 1)
    on_turn.page.wait_for_function(
        """(t) => {
          const e = document.querySelector(`[data-testid=hand] .hand-tile[data-tile="${t}"]`);
          return Boolean(e) && e.matches(':hover')
            && getComputedStyle(e.querySelector('.tile')).transform === 'matrix(1, 0, 0, 1, 0, -3)';
        }""",
        arg=tile,
    )
    assert on_turn.page.evaluate(box_of, tile) == [x, y, width, height]
    on_turn.page.mouse.move(0, 0)

    # Keyboard: "1"-"9" pick a tile; after the move the focus stays in the hand.
    expect(on_turn.page.locator(".hand-tile.legal").first).to_be_visible()
    tiles = on_turn.page.locator("[data-testid=hand] .hand-tile")
    classes = tiles.evaluate_all("els => els.map((e) => e.className)")
    index = next(i for i, c in enumerate(classes) if "legal" in c.split())
    seq = int(on_turn.page.locator(".table-page").get_attribute("data-seq") or 0)
    on_turn.page.locator("[data-testid=hand]").click(position={"x": 1, "y": 1})
    on_turn.page.keyboard.press(str(index + 1))
    if on_turn.page.locator(".end-choice").count():
        on_turn.page.keyboard.press("Enter")
    on_turn.page.wait_for_function(
        "s => Number(document.querySelector('.table-page').dataset.seq) > s", arg=seq
    )
    assert on_turn.page.evaluate(
        "document.querySelector('[data-testid=hand]').contains(document.activeElement)"
    )
    # The last placement is marked and slides in; not under reduced motion.
    last = other.page.locator("[data-testid=board] .chain-tile.last")
    expect(last).to_have_count(1)
    # Tiles are sized to the felt: a desktop board's are no longer 26 px tall.
    # (Measured in the page in one go: a redraw between finding the tile and measuring it
    # would leave no box.)
    height = other.page.locator("[data-testid=board] .chain-tile svg").first.evaluate(
        "e => e.getBoundingClientRect().height"
    )
    assert height >= 36, height
    # (The test tabs ask for reduced motion, which spares the machine every slide.)
    other.page.emulate_media(reduced_motion="no-preference")
    assert last.evaluate("e => getComputedStyle(e).animationName") == "place"
    other.page.emulate_media(reduced_motion="reduce")
    assert last.evaluate("e => getComputedStyle(e).animationName") == "none"

    # Chat, then a reload: the log and the chat are still there.
    other.page.get_by_label("Chat message").fill("good game")
    other.page.get_by_role("button", name="Send").click()
    expect(on_turn.page.locator("[data-testid=chat] .chat-text")).to_have_text("good game")
    # The log grew a change at a time; drawn whole after the reload, it reads the same.
    log_before = on_turn.page.locator("[data-testid=log] li").all_inner_texts()
    assert len(log_before) >= 3
    on_turn.page.reload()
    expect(on_turn.page.locator("[data-testid=chat] .chat-text")).to_have_text("good game")
    expect(on_turn.page.locator("[data-testid=log] li")).to_have_text(log_before)

    # A spectator: counted, and no chat box for him.
    # The table is drawn again for him, and nothing in a's hand changed: its buttons are
    # the same ones, and the one that has the focus keeps it.
    a.page.locator("[data-testid=hand] .hand-tile").first.focus()
    a.page.evaluate("document.activeElement.kept = true")
    watcher = open_tab(DESKTOP)
    watcher.page.goto(f"{server.url}/#/table/{table_id}")
    expect(watcher.page.locator(".spectator-note")).to_be_visible()
    expect(watcher.page.locator(".chat-form")).to_be_hidden()
    expect(watcher.page.locator("[data-testid=chat-note]")).to_be_visible()
    expect(a.page.locator("[data-testid=spectators]")).to_have_text("1 watching")
    assert a.page.evaluate(
        "document.activeElement.kept === true"
        " && document.querySelector('[data-testid=hand]').contains(document.activeElement)")
    for tab in (a, b, watcher):
        tab.assert_clean()


# ---------------------------------------------------------------------------------------
# replay, rules, phone layouts


def test_replay_autoplays_to_the_result_rules_explain_fish_and_phones_fit(
    server: Server, open_tab
) -> None:
    a, b, _table_id, names = seated_pair(open_tab, server, pause=0, fish="one")
    play_until([a, b], lambda: a.page.locator("[data-testid=log] li").count() > 8, 60)
    resign(a)
    expect(a.page.locator("[data-testid=result]")).to_be_visible()
    replay = a.page.locator("[data-testid=result] a[href^='#/replay/']")
    wait_for_record(server, (replay.get_attribute("href") or "").split("#/replay/")[1])
    replay.click()
    result = a.page.locator("[data-testid=replay-result]")
    expect(a.page.locator("[data-testid=step-counter]")).to_contain_text("step 1 of")
    expect(result).to_be_hidden()  # the result is not told from the first step
    a.page.locator("[data-testid=speed]").click()
    a.page.locator("[data-testid=speed]").click()  # fastest
    a.page.locator("[data-testid=autoplay]").click()
    expect(result).to_be_visible(timeout=30_000)
    expect(result).to_contain_text(f"{names[0]} resigned")
    counter = a.page.locator("[data-testid=step-counter]").inner_text()
    total = re.search(r"of (\d+)", counter)
    assert total and f"step {total.group(1)} of" in counter

    # Rules: a page per variant; the fish options explained there and in the form.
    a.page.goto(f"{server.url}/#/rules/goat")
    expect(a.page.locator("[data-testid=fish-rules]")).to_contain_text("Fish to one")
    a.page.goto(f"{server.url}/#/rules/classic")
    expect(a.page.locator("h1")).to_have_text("Rules: Classic")
    a.page.goto(f"{server.url}/#/lobby")
    expect(a.page.locator("[data-testid=fish_rule-help]")).to_contain_text("blocked round")

    # Phones: the leaderboard and a player page fit 360 px without sideways scrolling.
    phone = open_tab(PHONE)
    for path in ("#/leaderboard/goat", f"#/player/{names[0]}", f"#/player/{names[1]}"):
        phone.page.goto(f"{server.url}/{path}")
        expect(phone.page.locator("h1")).to_be_visible()
        phone.page.wait_for_timeout(300)
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (path, width)
    for tab in (a, b, phone):
        tab.assert_clean()


# ---------------------------------------------------------------------------------------
# screenshots


SHOT_LOOKS = [("en", None), ("ru", None), ("fa", None), ("en", "dark")]


def shots(tab: Tab, what: str) -> None:
    """`what` at 1280 and 360 px in English, Russian, Persian and in dark mode."""
    page = tab.page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for lang, scheme in SHOT_LOOKS:
        page.emulate_media(color_scheme=scheme or "light")
        page.locator("[data-testid=lang]").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for width, size in ((1280, DESKTOP), (360, PHONE)):
            page.set_viewport_size(size)
            page.wait_for_timeout(150)
            look = scheme or lang
            page.screenshot(path=str(SCREENSHOTS / f"{what}-{look}-{width}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(color_scheme="light")
    page.locator("[data-testid=lang]").select_option("en")


def test_screenshots_of_lobby_table_summary_and_result_in_three_languages_and_dark(
    server: Server, open_tab
) -> None:
    a, b, table_id, _names = seated_pair(open_tab, server, pause=30, turn=120, fish="one")
    waiting = open_tab(DESKTOP)
    sign_up_as(waiting, server, name("vera"))
    create_table(waiting, seats=4)
    a.page.goto(f"{server.url}/#/lobby")
    expect(a.page.locator(".table-card")).not_to_have_count(0)
    shots(a, "lobby")
    a.page.goto(f"{server.url}/#/table/{table_id}")
    expect(a.page.locator("[data-testid=hand] .hand-tile")).not_to_have_count(0)
    play_until([a, b], lambda: a.page.locator("[data-testid=board] .chain-tile").count() >= 6, 60)
    shots(a, "table")
    play_until([a, b], lambda: summary_shown(a))
    # The summary stands for the round pause (30 s here); eight screenshots on a busy
    # machine may outlast it, so it is checked before they are taken.
    expect(a.page.locator("[data-testid=round-summary]")).to_be_visible()
    shots(a, "summary")
    resign(b)
    expect(a.page.locator("[data-testid=result]")).to_be_visible()
    a.page.locator("[data-testid=close-summary]").click()
    a.page.locator("[data-testid=result]").scroll_into_view_if_needed()
    shots(a, "result")
    for what in ("lobby", "table", "summary", "result"):
        for look in ("en", "ru", "fa", "dark"):
            for width in (1280, 360):
                assert (SCREENSHOTS / f"{what}-{look}-{width}.png").stat().st_size > 10_000
    for tab in (a, b, waiting):
        tab.assert_clean()


# ---------------------------------------------------------------------------------------
# score sheets of real games played over websockets, read by a watching browser


def play_first_round(server: Server, variant: str, seats: int, options: dict) -> str:
    """Real players (websockets) play random legal moves until the first round is over;
    the game goes on. Returns the table id."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        accounts = []
        for i in range(seats):
            r = http.post("/api/auth/register",
                          json={"username": name(f"w{i}"), "password": "password123"})
            assert r.status_code == 201, r.text
            accounts.append(r.json())
            http.cookies.clear()
        auth = {"Authorization": f"Bearer {accounts[0]['token']}"}
        table = http.post("/api/tables", headers=auth, json={
            "variant": variant, "seats": seats, "options": options, "turn_seconds": 120,
            "round_pause_seconds": 30}).json()
        for account in accounts[1:]:
            r = http.post(f"/api/tables/{table['id']}/join", json={},
                          headers={"Authorization": f"Bearer {account['token']}"})
            assert r.status_code == 200, r.text
    with ExitStack() as stack:
        sockets = [stack.enter_context(ws_connect(server.ws_url)) for _ in accounts]
        for ws, account in zip(sockets, accounts, strict=True):
            ws.send(json.dumps({"type": "hello", "token": account["token"]}))
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "the round did not end"
            states = [latest_state(ws, table["id"]) for ws in sockets]
            if states[0]["view"]["history"]:
                return str(table["id"])
            for ws, state in zip(sockets, states, strict=True):
                view = state["view"]
                if view["legal"]:
                    move = view["legal"][0]
                    ws.send(json.dumps({
                        "type": "play", "table_id": table["id"], "seq": state["seq"],
                        "tile": move["tile"], "end": move["end"],
                    }))


def latest_state(ws, table_id: str) -> dict:
    ws.send(json.dumps({"type": "table.subscribe", "table_id": table_id, "id": "s"}))
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message.get("id") == "s":
            return message


def test_score_sheets_credit_the_round_winner_and_give_teams_one_column(
    server: Server, open_tab
) -> None:
    classic = play_first_round(server, "classic", 2, {"target": 100})
    team = play_first_round(server, "goat", 4, {"teams": True})
    watcher = open_tab(DESKTOP)
    watcher.page.goto(f"{server.url}/#/table/{classic}")
    sheet = watcher.page.locator("[data-testid=score-sheet] table.score-sheet")
    expect(sheet).to_be_visible()
    entry = watcher.page.evaluate(
        """async (id) => new Promise((done) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          ws.onopen = () => ws.send(JSON.stringify({type: 'table.subscribe', table_id: id}));
          ws.onmessage = (m) => {
            // The table's state, not the presence or greeting that may come first.
            const msg = JSON.parse(m.data);
            if (msg.type === 'table.state') { done(msg.view.history[0]); ws.close(); }
          };
        })""",
        classic,
    )
    winner = max(range(2), key=lambda s: entry["credited"][s])
    cells = [sheet.locator(f"[data-testid=credited-{s}] .points").inner_text() for s in range(2)]
    # The round's winner is credited in his own column; the loser's pips stay beside.
    assert cells[winner] == f"+{entry['credited'][winner]}" and entry["credited"][winner] > 0
    assert cells[1 - winner] == "0"
    # Each column names its player (shown short where narrow, whole a tap away).
    full = "els => els.map(e => e.dataset.full)"
    heads = sheet.locator("thead th.side-name [data-testid=side-name]").evaluate_all(full)
    players = watcher.page.locator(".seat-card .name").evaluate_all(full)
    assert sorted(heads) == sorted(players)

    watcher.page.goto(f"{server.url}/#/table/{team}")
    sheet = watcher.page.locator("[data-testid=score-sheet] table.score-sheet")
    expect(sheet).to_be_visible()
    heads = sheet.locator("thead th.side-name [data-testid=side-name]").evaluate_all(full)
    assert len(heads) == 2 and heads[0].startswith("Team A:") and heads[1].startswith("Team B:")
    names = watcher.page.locator(".seat-card .name").evaluate_all(full)
    for head in heads:
        assert sum(n in head for n in names) == 2, head
    watcher.assert_clean()


def test_a_move_that_comes_before_the_whole_log_does_not_stand_for_it(
    server: Server, open_tab
) -> None:
    """A tab that arrives mid-game asks the server for the log from the start. When a move
    comes in before that answer, and the answer is the log up to that very move, the tab
    shows the whole game's log, not the one move it had."""
    a, b, table_id, _ = seated_pair(open_tab, server, turn=120)
    play_until([a, b], lambda: seq_of(a.page) >= 3 and seq_of(b.page) >= 3)
    watcher = open_tab(DESKTOP)
    held = []
    watcher.page.route("**/api/tables/*/log", lambda route: held.append(route))
    watcher.page.goto(f"{server.url}/#/table/{table_id}")
    watcher.page.wait_for_function("() => document.querySelector('.table-page')?.dataset.seq")
    while not held:
        watcher.page.wait_for_timeout(50)
    on_turn = a if a.page.locator(".hand-tile.legal").count() else b
    assert take_turn(on_turn.page)
    seq = seq_of(on_turn.page)
    wait_seq_after(watcher.page, seq - 1)
    held[0].continue_()
    # The game's first line heads the log, and the last move ends it.
    log = watcher.page.locator("[data-testid=log] li")
    expect(log.first).to_contain_text("Round 1")
    expect(log.last).to_have_text(on_turn.page.locator("[data-testid=log] li").last.inner_text())
    watcher.assert_clean()


def _mark_once_still(page: Page, selectors: list[str]) -> None:
    """Mark the first node of each selector once the page has stopped drawing them anew:
    a page settles a moment after its last change (its log, its width), and only a redraw
    after that is news."""
    for _ in range(20):
        for selector in selectors:
            page.locator(selector).first.evaluate("e => { e.kept = true; }")
        page.wait_for_timeout(300)
        if all(page.locator(s).first.evaluate("e => e.kept === true") for s in selectors):
            return
    raise AssertionError("the page never stopped drawing itself anew")


def test_the_board_and_the_buttons_stay_while_people_come_and_go(
    server: Server, open_tab
) -> None:
    """A socket coming to a table in play changes the seats and the watchers' count, so
    the rest of the page is left as it is. Drawn anew at every presence, an end button
    pressed on the old board and released on the new one was no click, and the move was
    never sent; so with the Resign button. And a page drawn again for a change elsewhere
    (Resign asks to confirm) leaves the board as it is."""
    a, b, table_id, _ = seated_pair(open_tab, server, turn=120)
    on_board = "[data-testid=board] .chain-tile"
    kept = [on_board, "[data-testid=resign]"]
    play_until([a, b], lambda: all(tab.page.locator(on_board).count() for tab in (a, b)))
    for tab in (a, b):
        _mark_once_still(tab.page, kept)
    with ws_connect(server.ws_url) as watcher:
        watcher.send(json.dumps({"type": "table.subscribe", "table_id": table_id, "id": 1}))
        for tab in (a, b):  # the presence that counts the new spectator, drawn
            expect(tab.page.get_by_test_id("spectators")).not_to_be_empty()
        a.page.wait_for_timeout(200)
        for tab in (a, b):
            for selector in kept:
                assert tab.page.locator(selector).first.evaluate("e => e.kept === true"), \
                    selector
    a.page.get_by_test_id("resign").click()
    expect(a.page.get_by_test_id("resign-yes")).to_be_visible()
    assert a.page.locator(on_board).first.evaluate("e => e.kept === true")
    a.page.get_by_role("button", name="Keep playing").click()
    for tab in (a, b):
        tab.assert_clean()


def test_a_waiting_table_keeps_its_join_button_while_people_come_and_go(
    server: Server, open_tab
) -> None:
    """A socket coming to a waiting table changes nothing its visitors' waiting box shows,
    so the box is left as it is. Rebuilt at every presence, a click pressed on its Join
    button and released on the new one was lost, and the table never filled."""
    suffix = secrets.token_hex(3)
    a, b = signed_up_tabs(open_tab, server, [f"host_{suffix}", f"guest_{suffix}"],
                          [DESKTOP, PHONE])
    a.page.locator("[data-testid=create-table]").get_by_role("button", name="Create table").click()
    a.page.wait_for_url(re.compile(r"#/table/"))
    table_id = a.page.url.split("#/table/")[1]
    presences: list[object] = []
    b.page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda frame: presences.append(frame) if "table.presence" in str(frame)
        else None))
    b.page.goto(f"{server.url}/#/table/{table_id}")
    join = b.page.get_by_role("button", name="Join this table")
    expect(join).to_be_visible()
    join.evaluate("e => { e.kept = true; }")
    seen = len(presences)
    with ws_connect(server.ws_url) as watcher:
        watcher.send(json.dumps({"type": "table.subscribe", "table_id": table_id, "id": 1}))
        deadline = time.monotonic() + 10
        while len(presences) == seen:
            assert time.monotonic() < deadline, "the new spectator was never announced"
            b.page.wait_for_timeout(50)
        b.page.wait_for_timeout(200)  # the page has drawn the news by now
        assert join.evaluate("e => e.kept === true")
    for tab in (a, b):
        tab.assert_clean()
