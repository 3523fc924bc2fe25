"""The courtyard table in the browser (PROTOCOL §2d): the create form offers it only for a
game of two teams; the lobby lists a courtyard with its queue and lets one queue from
there; the table's page shows the queue, the games played and Join/Leave the queue.
Looked at in Persian and in Russian at 360 px.

Playwright's sync API runs in plain (non-async) tests: no event loop is running there.
"""

from __future__ import annotations

import json
import re
import secrets

import httpx
from playwright.sync_api import expect

from tests.e2e.browser import DESKTOP, PHONE, SCREENSHOTS, shot, sign_up, wait_seq_after
from tests.servers import REPO, Server


def _courtyard(server: Server) -> tuple[str, list[dict[str, str]]]:
    """A courtyard of goat in teams, its four seated (its first game started); its id and
    the four's headers."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        tokens = []
        for _ in range(4):
            made = http.post("/api/auth/register", json={
                "username": f"cy{secrets.token_hex(4)}", "password": "password123"})
            assert made.status_code == 201, made.text
            tokens.append({"Authorization": f"Bearer {made.json()['token']}"})
            http.cookies.clear()
        table = http.post("/api/tables", headers=tokens[0], json={
            "variant": "goat", "seats": 4, "options": {"teams": True}, "rated": False,
            "turn_seconds": 300, "courtyard": True, "waiting_max": 4})
        assert table.status_code == 201, table.text
        table_id = str(table.json()["id"])
        for seat in (1, 2, 3):
            joined = http.post(f"/api/tables/{table_id}/join", headers=tokens[seat],
                               json={"seat": seat})
            assert joined.status_code == 200, joined.text
    return table_id, tokens


def test_the_courtyard_is_made_listed_and_queued_for_in_the_browser(
    server: Server, open_tab,
) -> None:
    table_id, seated = _courtyard(server)
    name = f"cq_{secrets.token_hex(3)}"
    tab = open_tab(PHONE)
    page = tab.page
    sign_up(tab, server, name)

    # The create form: a courtyard only where the game is one of two teams.
    form = page.locator("[data-testid=create-table]")
    courtyard = form.locator("[data-testid=courtyard]")
    form.locator("select[name=variant]").select_option("classic")
    expect(courtyard).to_be_hidden()
    form.locator("select[name=variant]").select_option("general")
    expect(courtyard).to_be_visible()
    form.locator("select[name=variant]").select_option("goat")
    form.locator("select[name=seats]").select_option("4")
    expect(courtyard).to_be_hidden()
    form.locator("input[name=teams]").check()
    expect(courtyard).to_be_visible()
    expect(form.locator("[data-testid=waiting-max] option")).to_have_text(
        ["6 people in all", "8 people in all"])

    # The lobby lists the courtyard with its queue; one queues from there.
    card = page.locator(f"[data-table-id='{table_id}']").first
    expect(card).to_contain_text("Courtyard")
    expect(card.locator("[data-testid=courtyard-line]")).to_contain_text("0 of 4 waiting")
    card.locator("[data-testid=lobby-queue-join]").click()
    page.wait_for_url(re.compile(f"#/table/{table_id}$"))

    # The table's page: the queue with him in it, the games played, and leaving it.
    box = page.locator("[data-testid=courtyard]")
    expect(box.locator("[data-testid=queue]")).to_have_text(f"1. {name}")
    expect(box.locator("[data-testid=courtyard-line]")).to_contain_text("Games: 1")
    shot(page, "courtyard-table-phone")
    box.locator("[data-testid=queue-leave]").click()
    expect(box.locator("[data-testid=queue-empty]")).to_be_visible()
    box.locator("[data-testid=queue-join]").click()
    expect(box.locator("[data-testid=queue]")).to_have_text(f"1. {name}")
    expect(box.locator("[data-testid=queue-leave]")).to_be_visible()

    # Persian (right to left) and Russian, at 360 px: the table's box and the lobby's card.
    for lang in ("fa", "ru"):
        page.locator("[data-testid=lang]").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(box.locator("[data-testid=queue-leave]")).not_to_have_text("Leave the queue")
        shot(page, f"courtyard-table-{lang}-360")
        page.goto(f"{server.url}/#/lobby")
        expect(page.locator(f"[data-table-id='{table_id}']").first).to_be_visible()
        shot(page, f"courtyard-lobby-{lang}-360")
        form.locator("select[name=variant]").select_option("general")
        expect(courtyard).to_be_visible()
        courtyard.check()
        form.screenshot(path=str(SCREENSHOTS / f"courtyard-create-{lang}-360.png"))
        page.goto(f"{server.url}/#/table/{table_id}")
    page.locator("[data-testid=lang]").select_option("en")
    page.set_viewport_size(DESKTOP)
    shot(page, "courtyard-table-1280")

    # Seat 1 leaves the table (his resignation): the one waiting takes his seat in the
    # next game, told between the games, which then starts with him seated.
    with httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.post(f"/api/tables/{table_id}/leave", headers=seated[1]).status_code == 200
    expect(box.locator("[data-testid=courtyard-next]")).to_contain_text(name)
    shot(page, "courtyard-between-games-1280")
    expect(page.locator("[data-testid=hand] .hand-tile")).to_have_count(7, timeout=20_000)
    expect(box.locator("[data-testid=courtyard-line]")).to_contain_text("Games: 2")
    expect(box.locator("[data-testid=queue-empty]")).to_be_visible()
    tab.assert_clean()


def test_a_courtyards_turn_is_told_away_from_its_table_and_shown_in_the_lobby(
    server: Server, open_tab,
) -> None:
    """PROTOCOL §2d `courtyard.seated`: at another table's page a toast tells it; the lobby
    shows it (sent again with the lobby) until he has gone to his table. In Persian, 360 px."""
    table_id, seated = _courtyard(server)
    fa = json.loads((REPO / "app/web/lang/fa.json").read_text(encoding="utf-8"))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        elsewhere = http.post("/api/tables", headers=seated[0], json={
            "variant": "classic", "seats": 2, "rated": False})
        assert elsewhere.status_code == 201, elsewhere.text
    tab = open_tab(PHONE)
    page = tab.page
    sign_up(tab, server, f"cs_{secrets.token_hex(3)}")
    page.locator("[data-testid=lang]").select_option("fa")
    page.goto(f"{server.url}/#/table/{table_id}")
    page.locator("[data-testid=courtyard] [data-testid=queue-join]").click()
    expect(page.locator("[data-testid=courtyard] [data-testid=queue-leave]")).to_be_visible()
    page.goto(f"{server.url}/#/table/{elsewhere.json()['id']}")
    expect(page.locator("[data-testid=courtyard]")).to_be_hidden()

    # Seat 1 leaves (his resignation): he comes in for the next game, told where he is.
    with httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.post(f"/api/tables/{table_id}/leave", headers=seated[1]).status_code == 200
    expect(page.locator("[data-testid=toast]")).to_contain_text(fa["courtyard.seated"])
    page.goto(f"{server.url}/#/lobby")
    ready = page.locator("[data-testid=table-ready]")
    expect(ready).to_contain_text(fa["courtyard.seated"])
    shot(page, "courtyard-seated-lobby-fa-360")
    ready.screenshot(path=str(SCREENSHOTS / "courtyard-seated-notice-fa-360.png"))
    page.locator("[data-testid=lang]").select_option("ru")
    ru = json.loads((REPO / "app/web/lang/ru.json").read_text(encoding="utf-8"))
    expect(ready).to_contain_text(ru["courtyard.seated"])
    # (the top of the page: the notice is redrawn as the lobby is sent again)
    page.screenshot(path=str(SCREENSHOTS / "courtyard-seated-notice-ru-360.png"),
                    clip={"x": 0, "y": 0, "width": 360, "height": 220})
    page.set_viewport_size(DESKTOP)
    shot(page, "courtyard-seated-lobby-ru-1280")
    ready.locator("a").click()
    page.wait_for_url(re.compile(f"#/table/{table_id}$"))
    wait_seq_after(page, 0)  # (the table as his subscription answers it)
    # at his table: the lobby has nothing more to tell him
    page.goto(f"{server.url}/#/lobby")
    expect(page.locator(f"[data-table-id='{table_id}']").first).to_be_visible()
    expect(ready).to_have_count(0)
    tab.assert_clean()
