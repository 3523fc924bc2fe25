"""The browser client is signed in by its HttpOnly cookie alone: no token where a script
could read it, the socket recognised by the cookie its handshake carries (with the
page's own Origin), and a sign-out here or elsewhere signs the tab out."""

from __future__ import annotations

import re
import secrets

import httpx
from playwright.sync_api import expect

from tests.e2e.browser import browser, open_tab, sign_up  # noqa: F401  (fixtures)
from tests.servers import Server

PASSWORD = "correct horse battery"
JWT = re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]+")

HELLO = """() => new Promise((resolve, reject) => {
  const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/ws');
  ws.onopen = () => ws.send(JSON.stringify({type: 'hello', id: 'h'}));
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === 'welcome') { ws.close(); resolve(m.player.name); }
  };
  ws.onclose = (ev) => resolve('closed ' + ev.code);
  setTimeout(() => resolve('no welcome'), 5000);
})"""


def _session_cookie(tab) -> dict:  # type: ignore[no-untyped-def]
    cookies = [c for c in tab.context.cookies() if c["name"] == "domino_session"]
    assert len(cookies) == 1
    return dict(cookies[0])


def test_the_tab_keeps_no_token_and_signs_out_here_and_from_elsewhere(
    server: Server, open_tab  # noqa: F811
) -> None:
    tab = open_tab()
    page = tab.page
    name = f"b{secrets.token_hex(4)}"
    sign_up(tab, server, name)

    readable = page.evaluate(
        "() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage),"
        " document.cookie])")
    assert not JWT.search(readable), readable
    assert "domino_session" not in readable
    cookie = _session_cookie(tab)
    assert cookie["httpOnly"] is True
    # A socket of this page is the player's by the cookie alone.
    assert page.evaluate(HELLO) == name

    # Signing out in the tab revokes the session, not only the cookie.
    page.locator("#user-area button").click()
    expect(page.locator("[data-testid=me]")).to_have_count(0)
    me = httpx.get(f"{server.url}/api/me", cookies={"domino_session": cookie["value"]})
    assert me.status_code == 401

    # Signed in again, then signed out everywhere from another device: the tab follows.
    page.goto(f"{server.url}/#/signin")
    form = page.locator("[data-testid=signin]")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("[data-testid=me]")).to_have_text(name)
    assert page.evaluate(HELLO) == name
    elsewhere = httpx.post(f"{server.url}/api/auth/login",
                           json={"username": name, "password": PASSWORD}).json()["token"]
    out = httpx.post(f"{server.url}/api/auth/logout-all",
                     headers={"Authorization": f"Bearer {elsewhere}"})
    assert out.status_code == 200
    expect(page.locator("[data-testid=me]")).to_have_count(0)
    expect(page.locator("#user-area a[href='#/signin']")).to_be_visible()
    assert page.evaluate(HELLO) == "no welcome"
