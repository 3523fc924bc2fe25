"""The table as a new player meets it, in headless Chromium against a real server with
computer players: on a 360x740 touch phone the whole hand and the board are on screen when
the turn starts, with no keyboard hints; every variant of GET /api/variants has its own
rules page; a Persian Mexican Train table shows no English and lays its trains right to
left; a resignation is told as one in the round summary; computer players carry the
picker's words in the page's language and show as present; Donkey's loser is the donkey.
Screenshots of every variant's table mid-game and of its result, at 1280 and 360 px, in
English, Russian, Persian and dark mode, land in artifacts/screenshots/.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.bots.test_tables import bot_env
from tests.e2e.browser import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Tab,
    shot,
    take_turn,
    wait_for_record,
)
from tests.servers import Server, run_server

PASSWORD = "correct horse battery"
TURN_WAIT_MS = 60_000
GAME_SECONDS = 240  # a game between computer players, on a busy machine


@pytest.fixture(scope="module")
def bot_server(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    log_dir: Path = tmp_path_factory.mktemp("phone")
    with run_server(bot_env(pg_url, redis_url, f"{redis_prefix}_phone"), log_dir=log_dir) as s:
        yield s


@pytest.fixture
def tabs(browser: Browser) -> Iterator[Any]:
    """Opens a tab in a viewport and a language; touch on small screens."""
    opened: list[Tab] = []

    def make(viewport: dict[str, int] = DESKTOP, lang: str = "en") -> Tab:
        phone = viewport["width"] < 500
        context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone,
                                      reduced_motion="reduce")
        # The colour scheme stays "as the system" (emulate_media chooses it).
        context.add_init_script(f"localStorage.setItem('domino.lang', '{lang}');")
        page = context.new_page()
        page.set_default_timeout(20_000)
        tab = Tab(context, page)
        page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: tab.errors.append(f"pageerror: {exc}"))
        opened.append(tab)
        return tab

    yield make
    for tab in opened:
        tab.context.close()


def register(server: Server, prefix: str) -> tuple[str, dict[str, str]]:
    name = f"{prefix}_{secrets.token_hex(3)}"
    r = httpx.post(f"{server.url}/api/auth/register",
                   json={"username": name, "password": PASSWORD}, timeout=30)
    assert r.status_code == 201, r.text
    return name, {"Authorization": f"Bearer {r.json()['token']}"}


def table_with_bots(server: Server, owner: dict[str, str], variant: str, seats: int, *,
                    strength: str = "random", **table: Any) -> str:
    """A table of `variant` whose other seats are computer players: its game has begun."""
    with httpx.Client(base_url=server.url, timeout=30, headers=owner) as http:
        r = http.post("/api/tables", json={"variant": variant, "seats": seats,
                                           "turn_seconds": 300, "rated": False, **table})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        for _ in range(seats - 1):
            r = http.post(f"/api/tables/{table_id}/bots", json={"strength": strength})
            assert r.status_code == 200, r.text
    return str(table_id)


def sign_in(tab: Tab, server: Server, name: str) -> None:
    page = tab.page
    page.goto(f"{server.url}/#/signin")
    form = page.locator("form").filter(has=page.locator("input[name=password]")).first
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("[data-testid=me]")).to_have_text(name)


def wait_for_my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=hand] .hand-tile.legal').length > 0",
        timeout=TURN_WAIT_MS,
    )


# The boxes of the hand's tiles and of the board, and the viewport, measured in one go.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  return {
    tiles: [...document.querySelectorAll('[data-testid=hand] .hand-tile')].map(box),
    board: box(document.querySelector('[data-testid=board]')),
    ends: [...document.querySelectorAll(
      '[data-testid=board] .chain-tile, [data-testid=board] .train-end')].map(box),
    scrollY: window.scrollY, width: innerWidth, height: innerHeight,
  };
}"""


@pytest.mark.parametrize(("variant", "seats"), [("goat", 2), ("fives", 2), ("mexican_train", 2)])
def test_the_whole_hand_is_on_screen_when_the_turn_starts_on_a_phone(
    bot_server: Server, tabs: Any, variant: str, seats: int
) -> None:
    name, token = register(bot_server, "thumb")
    table_id = table_with_bots(bot_server, token, variant, seats)
    tab = tabs(PHONE)
    sign_in(tab, bot_server, name)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    wait_for_my_turn(page)
    page.wait_for_timeout(300)  # the board is drawn for its width
    at = page.evaluate(BOXES)
    page.screenshot(path=str(SCREENSHOTS / f"phone-turn-{variant}-360.png"))  # the screen only
    assert at["scrollY"] == 0
    assert at["tiles"], at
    outside = [b for b in at["tiles"] if b["top"] < 0 or b["bottom"] > at["height"]
               or b["left"] < 0 or b["right"] > at["width"]]
    assert outside == [], (outside, at["height"])
    # The board and what is on it: on screen as well, above the hand.
    assert at["board"]["top"] >= 0
    assert at["board"]["bottom"] <= min(b["top"] for b in at["tiles"])
    assert all(b["bottom"] <= at["height"] for b in at["ends"]), at["ends"]
    # A touch screen gets no keyboard hints.
    expect(page.locator(".keys-hint")).to_be_hidden()
    tab.assert_clean()


def test_every_variant_has_its_own_rules_page(bot_server: Server, tabs: Any) -> None:
    variants = httpx.get(f"{bot_server.url}/api/variants", timeout=30).json()
    tab = tabs(DESKTOP)
    page = tab.page
    page.goto(f"{bot_server.url}/#/rules/goat")
    goat_text = page.locator("[data-testid=rules] .rules-list").inner_text()
    nav = page.locator("[data-testid=rules] nav a")
    expect(nav).to_have_count(len(variants))
    for info in variants:
        page.goto(f"{bot_server.url}/#/rules/{info['name']}")
        expect(page.locator("[data-testid=rules] h1")).to_have_text(f"Rules: {info['title']}")
        items = page.locator("[data-testid=rules] .rules-list li")
        assert items.count() >= 3, info["name"]
        if info["name"] != "goat":
            assert items.first.inner_text() not in goat_text, info["name"]
    # In Persian too: the title is the variant's and no paragraph is English.
    fa = tabs(DESKTOP, lang="fa")
    fa.page.goto(f"{bot_server.url}/#/rules/telephone")
    expect(fa.page.locator("[data-testid=rules] h1")).not_to_contain_text("Telephone")
    paragraphs = fa.page.locator("[data-testid=rules] .rules-list").inner_text()
    assert not re.search(r"[A-Za-z]{3,}", paragraphs), paragraphs
    tab.assert_clean()
    fa.assert_clean()


def test_the_table_links_to_its_rules_and_shows_its_target(bot_server: Server, tabs: Any) -> None:
    name, token = register(bot_server, "tele")
    table_id = table_with_bots(bot_server, token, "telephone", 2)
    tab = tabs(DESKTOP)
    sign_in(tab, bot_server, name)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    expect(page.locator(".table-subtitle")).to_contain_text("To 72")
    page.locator("[data-testid=rules-link]").click()
    expect(page.locator("[data-testid=rules] h1")).to_have_text("Rules: Telephone")
    tab.assert_clean()


LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def test_a_persian_mexican_train_table_has_no_english(bot_server: Server, tabs: Any) -> None:
    name, token = register(bot_server, "qatar")
    table_id = table_with_bots(bot_server, token, "mexican_train", 3, strength="heuristic")
    tab = tabs(DESKTOP, lang="fa")
    sign_in(tab, bot_server, name)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    wait_for_my_turn(page)
    words = page.evaluate("""() => {
      const main = document.querySelector('.table-main');
      const attrs = [...main.querySelectorAll('[title], [aria-label]')]
        .flatMap((el) => [el.getAttribute('title') || '', el.getAttribute('aria-label') || '']);
      const head = document.querySelector('.table-head').innerText;
      return [main.innerText, head, ...attrs].join('\\n');
    }""")
    # The player's own name is his; "Esc" is what the key itself says.
    english = sorted({w for w in LATIN_WORD.findall(words.replace(name, "")) if w != "Esc"})
    assert english == [], english
    # The trains run right to left: a row's tiles start at its right, beside its name.
    row = page.locator("[data-testid=trains] .train-row").first
    label = row.locator(".train-label").bounding_box()
    tiles = row.locator(".train-tiles").bounding_box()
    assert label is not None and tiles is not None
    assert label["x"] > tiles["x"], (label, tiles)
    shot(page, "mexican-train-fa-1280")
    tab.assert_clean()


def test_a_resignation_is_told_as_one_in_the_round_summary(bot_server: Server, tabs: Any) -> None:
    """The player resigns in an English tab; his Russian and Persian tabs and the English
    one tell the round's end as a resignation, never as a timeout."""
    name, token = register(bot_server, "quits")
    table_id = table_with_bots(bot_server, token, "goat", 2)
    told = {"en": (f"{name} resigned", "ran out of time"),
            "ru": (f"{name} сдался", "кончилось время"),
            "fa": (f"{name} کناره گرفت", "وقت")}
    opened = {}
    for lang in told:
        tab = opened[lang] = tabs(DESKTOP, lang=lang)
        sign_in(tab, bot_server, name)
        tab.page.goto(f"{bot_server.url}/#/table/{table_id}")
        expect(tab.page.locator("[data-testid=hand] .hand-tile").first).to_be_visible()
    page = opened["en"].page
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    for lang, (words, wrong) in told.items():
        summary = opened[lang].page.locator("[data-testid=round-summary]")
        expect(summary.locator(".summary-why")).to_have_text(words)
        expect(summary.locator(".summary-why")).not_to_contain_text(wrong)
        opened[lang].assert_clean()
    # A reload (the summary then comes from the history, not from the event) says the same.
    page.reload()
    expect(page.locator("[data-testid=result-headline]")).to_have_text(f"{name} resigned")
    expect(page.locator("[data-testid=score-sheet]")).to_contain_text("resigned")
    expect(page.locator("[data-testid=score-sheet]")).not_to_contain_text("timeout")

    # The replay's controls are drawn icons; on a Persian page the row and its arrows turn
    # together: "first position" at the right, pointing right.
    replay = page.locator("[data-testid=result] a[href^='#/replay/']")
    wait_for_record(bot_server, (replay.get_attribute("href") or "").split("#/replay/")[1])
    fa = opened["fa"].page
    fa.goto(f"{bot_server.url}/{replay.get_attribute('href')}")
    autoplay = fa.locator("[data-testid=autoplay]")
    expect(autoplay.locator("svg")).to_have_count(1)
    assert autoplay.inner_text().strip() == ""  # no font glyph that may be missing
    first = fa.locator("[data-testid=first]").bounding_box()
    last = fa.locator("[data-testid=last]").bounding_box()
    assert first is not None and last is not None and first["x"] > last["x"]
    mirrored = fa.locator("[data-testid=first] svg").evaluate("e => getComputedStyle(e).transform")
    assert mirrored.startswith("matrix(-1"), mirrored
    opened["fa"].assert_clean()


def test_computer_players_carry_the_pickers_words_and_show_as_present(
    bot_server: Server, tabs: Any
) -> None:
    name, token = register(bot_server, "comp")
    table_id = table_with_bots(bot_server, token, "goat", 3, strength="heuristic")
    player = tabs(PHONE, lang="ru")
    sign_in(player, bot_server, name)
    player.page.goto(f"{bot_server.url}/#/table/{table_id}")
    watcher = tabs(DESKTOP, lang="fa")
    watcher.page.goto(f"{bot_server.url}/#/table/{table_id}")
    for tab, words in ((player, "Компьютер 2 (Надёжный)"), (watcher, "رایانه ۲ (پایدار)")):
        seat = tab.page.locator("[data-testid=seat-1]")
        # The picker's words name the seat (shown whole on a wide screen, a tap away on a phone).
        expect(seat.locator(".name")).to_have_attribute("data-full", words)
        expect(seat.locator(".name .name-long")).to_have_text(words)
        expect(seat).to_have_attribute("data-connected", "true")
        expect(tab.page.locator("[data-testid=seat-2]")).to_have_attribute("data-connected", "true")
        expect(tab.page.locator(".table-main")).not_to_contain_text("heuristic")
        # Presence changes (the watcher's arrival) leave the computers present.
        tab.page.wait_for_timeout(500)
        expect(seat).to_have_attribute("data-connected", "true")
        tab.assert_clean()


def played_lines(page: Page) -> list[str]:
    return [line for line in page.locator("[data-testid=log] li").all_inner_texts()
            if " played " in line or " drew " in line]


def test_a_spectator_arriving_mid_game_reads_the_whole_log(bot_server: Server, tabs: Any) -> None:
    name, token = register(bot_server, "logs")
    with httpx.Client(base_url=bot_server.url, timeout=30, headers=token) as http:
        r = http.post("/api/tables", json={"variant": "goat", "seats": 2, "turn_seconds": 300,
                                           "rated": False, "round_pause_seconds": 0})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        player = tabs(DESKTOP)
        sign_in(player, bot_server, name)
        player.page.goto(f"{bot_server.url}/#/table/{table_id}")
        expect(player.page.locator("[data-testid=waiting]")).to_be_visible()
        r = http.post(f"/api/tables/{table_id}/bots", json={"strength": "random"})
        assert r.status_code == 200, r.text
    page = player.page
    deadline = time.monotonic() + GAME_SECONDS
    while len(played_lines(page)) < 6:  # the player saw these as they happened
        assert time.monotonic() < deadline, "too few moves"
        wait_for_my_turn(page)
        page.locator("[data-testid=hand] .hand-tile.legal").first.click()
        choice = page.locator("[data-testid=board] .end-choice")
        if choice.count():
            choice.last.click()
        page.wait_for_timeout(200)

    # The log as the server gives it: the events every socket was sent, no hand before
    # a round's end shows it.
    log = httpx.get(f"{bot_server.url}/api/tables/{table_id}/log", timeout=30).json()
    assert log["events"][0]["type"] == "round_start" and log["events"][0]["round"] == 0
    assert all("hands" not in ev and "bazaar_tiles" not in ev for ev in log["events"]
               if ev["type"] != "round_end")
    assert httpx.get(f"{bot_server.url}/api/tables/nosuch/log", timeout=30).status_code == 404

    watcher = tabs(PHONE, lang="en")
    watcher.page.goto(f"{bot_server.url}/#/table/{table_id}")
    lead = next(line for line in page.locator("[data-testid=log] li").all_inner_texts()
                if line.startswith("Round 1: "))
    expect(watcher.page.locator("[data-testid=log] li").first).to_have_text(lead)
    mine = played_lines(page)
    seen = played_lines(watcher.page)
    assert seen[: len(mine)] == mine[: len(seen)] and len(seen) >= 6, (seen, mine)
    # The log's first line is not under its heading.
    first = watcher.page.locator("[data-testid=log] li").first
    first.scroll_into_view_if_needed()
    heading = watcher.page.locator(".table-side h2").nth(1).bounding_box()
    box = first.bounding_box()
    assert heading is not None and box is not None
    player.assert_clean()
    watcher.assert_clean()


LOOKS = [("en", "light"), ("ru", "light"), ("fa", "light"), ("en", "dark")]


def shots_of(page: Page, what: str) -> None:
    """`what` at 1280 and 360 px in English, Russian, Persian and in dark mode."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for lang, scheme in LOOKS:
        page.emulate_media(color_scheme=scheme)
        page.locator("[data-testid=lang]").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        look = lang if scheme == "light" else scheme
        for width, size in ((1280, DESKTOP), (360, PHONE)):
            page.set_viewport_size(size)
            page.wait_for_timeout(200)
            page.screenshot(path=str(SCREENSHOTS / f"{what}-{look}-{width}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(color_scheme="light")
    page.locator("[data-testid=lang]").select_option("en")


SEATS = {"sport_goat": 4, "general": 4}
SHOT_VARIANTS = ["goat", "classic", "fives", "mexican_train", "telephone", "sea_goat", "donkey",
                 "sport_goat", "general"]


@pytest.mark.parametrize("variant", SHOT_VARIANTS)
def test_screenshots_of_every_variant_mid_game_and_its_result(
    bot_server: Server, tabs: Any, variant: str
) -> None:
    names = {v["name"] for v in httpx.get(f"{bot_server.url}/api/variants", timeout=30).json()}
    assert set(SHOT_VARIANTS) == names  # every variant the server plays
    name, token = register(bot_server, "shot")
    table_id = table_with_bots(bot_server, token, variant, SEATS.get(variant, 2),
                               strength="heuristic", round_pause_seconds=0)
    tab = tabs(DESKTOP)
    sign_in(tab, bot_server, name)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    for _ in range(4):  # a few tiles down
        wait_for_my_turn(page)
        seq = page.locator(".table-page").get_attribute("data-seq")
        page.locator("[data-testid=hand] .hand-tile.legal").first.click()
        choice = page.locator("[data-testid=board] .end-choice")
        if choice.count():
            choice.last.click()
        page.wait_for_function(
            "s => document.querySelector('.table-page').dataset.seq !== s", arg=seq)
    # The header tells the game's length, defaults included (Telephone's 72, Mexican
    # Train's 13 rounds, General's minutes), and General's time left runs in the status.
    length = {"classic": "To 100", "fives": "To 100", "telephone": "To 72", "sea_goat": "To 125",
              "mexican_train": "13 rounds", "sport_goat": "8 rounds", "general": "30 minutes"}
    if variant in length:
        expect(page.locator(".table-subtitle")).to_contain_text(length[variant])
    if variant == "general":
        expect(page.locator(".round-info")).to_contain_text(re.compile(r"\d+:\d\d left"))
    shots_of(page, f"{variant}-table")
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    page.locator("[data-testid=close-summary]").click()
    expect(page.locator("[data-testid=result]")).to_be_visible()
    shots_of(page, f"{variant}-result")
    tab.assert_clean()


def test_sign_up_shows_its_name_rule_and_says_which_name_is_taken(
    bot_server: Server, tabs: Any
) -> None:
    name, _token = register(bot_server, "taken")
    tab = tabs(DESKTOP, lang="ru")
    page = tab.page
    page.goto(f"{bot_server.url}/#/signin")
    form = page.locator("[data-testid=signup]")
    expect(form.locator("[data-testid=username-rule]")).to_have_text(
        "От 3 до 20 букв одного алфавита (латиница, кириллица, тайский, арабский или лаосский), "
        "цифр или _")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(form.locator(".form-error")).to_have_text(f"Имя {name} занято: выберите другое.")
    # A leaderboard nobody is on yet (this server's tables are all casual) says so.
    page.goto(f"{bot_server.url}/#/leaderboard/telephone")
    expect(page.locator("[data-testid=leaderboard-empty]")).to_have_text("Ещё никто не играл.")
    # Mexican Train's scoring option in the Russian create form is Russian.
    sign_in(tab, bot_server, name)
    page.goto(f"{bot_server.url}/#/lobby")
    create = page.locator("[data-testid=create-table]")
    create.locator("select[name=variant]").select_option("mexican_train")
    expect(create).to_contain_text("Штрафные очки")
    expect(create).not_to_contain_text("Penalty")
    expect(create).not_to_contain_text("Scoring")


def test_the_result_card_says_what_rating_points_are(bot_server: Server, tabs: Any) -> None:
    """A rated game cut short by a resignation: the card says rating points never go down
    and why the others gained; the resigner's 0 is not shown as a winner's gain. (Each
    player moves first: a game resigned before every seat has moved is aborted and pays
    nothing, PROTOCOL §2g.)"""
    (quitter, token), (stayer, other) = register(bot_server, "rq"), register(bot_server, "rs")
    with httpx.Client(base_url=bot_server.url, timeout=30) as http:
        r = http.post("/api/tables", headers=token, json={
            "variant": "goat", "seats": 2, "turn_seconds": 300, "rated": True})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        r = http.post(f"/api/tables/{table_id}/join", headers=other, json={})
        assert r.status_code == 200, r.text
    tab = tabs(DESKTOP)
    sign_in(tab, bot_server, quitter)
    page = tab.page
    page.goto(f"{bot_server.url}/#/table/{table_id}")
    second = tabs(DESKTOP)
    sign_in(second, bot_server, stayer)
    second.page.goto(f"{bot_server.url}/#/table/{table_id}")
    moved = [False, False]
    for _ in range(60):
        for i, p in enumerate((page, second.page)):
            moved[i] = take_turn(p) or moved[i]
        if all(moved):
            break
        page.wait_for_timeout(200)
    assert all(moved), moved
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign-yes]").click()
    page.locator("[data-testid=close-summary]").click()
    result = page.locator("[data-testid=result]")
    expect(result.locator("[data-testid=rating-note]")).to_contain_text("never goes down")
    expect(result).to_contain_text("whoever resigned or ran out of time gains nothing")
    mine = result.locator("[data-testid=gain-0]")
    theirs = result.locator("[data-testid=gain-1]")
    expect(theirs).to_have_text(re.compile(r"^\+\d+$"))
    colours = [x.evaluate("e => getComputedStyle(e).color") for x in (mine, theirs)]
    assert colours[0] != colours[1], colours
    tab.assert_clean()
