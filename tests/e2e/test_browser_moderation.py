"""Reports and moderation in the browser (PROTOCOL §2h): a player reports another from his
page; a moderator (made by the operator's command) finds the report on the moderators'
page, which only he has a link to, opens the player's file and warns him; the audit log
shows it. The page on a phone in fa and ru."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import httpx
from playwright.sync_api import expect

from tests.e2e.browser import DESKTOP, PHONE, shot, sign_up
from tests.servers import REPO, Server


def test_a_report_from_a_players_page_handled_on_the_moderators_page(
    server: Server, open_tab, pg_url: str,
) -> None:
    tag = str(secrets.randbelow(10**6))
    reporter, moderator, offender = f"Олег{tag}", f"ناظر{tag}", f"rude{tag}"
    with httpx.Client(base_url=server.url) as http:
        made = http.post("/api/auth/register",
                         json={"username": offender, "password": "password123"})
        assert made.status_code == 201
    a, b = open_tab(DESKTOP), open_tab(PHONE)
    sign_up(a, server, reporter)
    sign_up(b, server, moderator)
    a.page.goto(f"{server.url}/#/player/{offender}")
    a.page.locator("[data-testid=report]").click()
    a.page.locator("[data-testid=report-reason]").select_option("name")
    a.page.locator("[data-testid=report-text]").fill("this name insults everyone")
    a.page.locator("[data-testid=report-send]").click()
    expect(a.page.locator("[data-testid=toast]").last).to_contain_text("Report sent")
    expect(a.page.locator("[data-testid=nav-moderation]")).to_be_hidden()

    env = {**os.environ, "DOMINO_DATABASE_URL": pg_url}
    done = subprocess.run([sys.executable, "-m", "app.cli", "moderator", moderator],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    b.page.reload()
    b.page.locator("#menu-button").click()  # a phone folds the header's links
    b.page.locator("[data-testid=nav-moderation]").click()
    report = b.page.locator("[data-testid=mod-report]", has_text=offender)
    expect(report).to_contain_text("this name insults everyone")
    report.get_by_role("button", name=offender).click()
    expect(b.page.locator("[data-testid=mod-standing]")).to_be_visible()
    b.page.locator("[data-testid=mod-action]").select_option("warn")
    b.page.locator("[data-testid=mod-reason]").fill("choose a kinder name")
    b.page.locator("[data-testid=mod-apply]").click()
    expect(b.page.locator("[data-testid=mod-log] [data-testid=mod-entry]").first) \
        .to_contain_text("choose a kinder name")
    for code in ("fa", "ru"):
        b.page.locator("[data-testid=lang]").select_option(code)
        expect(b.page.locator("html")).to_have_attribute("lang", code)
        b.page.locator("[data-testid=mod-look]").fill(offender)
        b.page.locator("[data-testid=mod-look]").press("Enter")
        expect(b.page.locator("[data-testid=mod-standing]")).to_be_visible()
        shot(b.page, f"moderation-phone-{code}")
    b.page.set_viewport_size(DESKTOP)
    shot(b.page, "moderation-desktop-ru")
    a.page.set_viewport_size(PHONE)
    a.page.locator("[data-testid=lang]").select_option("fa")
    a.page.goto(f"{server.url}/#/player/{offender}")
    a.page.locator("[data-testid=report]").click()
    expect(a.page.locator("[data-testid=report-send]")).to_be_visible()
    shot(a.page, "moderation-report-form-phone-fa")
    a.assert_clean()
    b.assert_clean()
