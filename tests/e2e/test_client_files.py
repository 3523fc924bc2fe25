"""The browser client's files as a real server sends them: the page loads the client as
one content-hashed module (the bundle `make web` makes) while it matches the modules, and
the modules themselves, each preloaded, when it does not; an import map names the
catalogues, let run by the Content-Security-Policy by its hash (and nothing else inline);
a hashed address is cached for a year and compressed, the page and unhashed addresses are
checked again (ETag, 304); a Persian page loads only the Persian catalogue; a file nobody
listed (any module under app/web) is served.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from app.api.webfiles import BUNDLE, WebFiles, sources_digest
from tests.e2e.browser import PHONE, SCREENSHOTS
from tests.servers import REPO, Server, run_server

WEB = REPO / "app" / "web"
IMPORTMAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)
MODULE = re.compile(r'<script type="module" src="([^"]+)"></script>')


def make_web() -> None:
    """The bundle as `make test` and `make run` leave it (a no-op when it is up to date)."""
    subprocess.run(["make", "-s", "web"], cwd=REPO, check=True, timeout=300)


@pytest.fixture(scope="module")
def bundled_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    make_web()
    log_dir = tmp_path_factory.mktemp("bundled")
    env = {"DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{log_dir / 'domino.db'}",
           "DOMINO_REDIS_URL": ""}
    with run_server(env, log_dir=log_dir) as running:
        yield running


def page_and_map(http: httpx.Client) -> tuple[httpx.Response, dict[str, str]]:
    page = http.get("/")
    assert page.status_code == 200
    found = IMPORTMAP.search(page.text)
    assert found, page.text[:500]
    return page, json.loads(found.group(1))["imports"]


def test_the_page_loads_one_hashed_bundle_let_run_by_the_policy(bundled_server: Server) -> None:
    with httpx.Client(base_url=bundled_server.url, timeout=30) as http:
        page, imports = page_and_map(http)
        bundle = (WEB / BUNDLE).read_bytes()
        assert MODULE.findall(page.text) == \
            [f"/{BUNDLE}?v={hashlib.sha256(bundle).hexdigest()[:12]}"]
        assert "modulepreload" not in page.text
        # The map names the catalogues alone (the bundle holds every module).
        assert sorted(imports) == sorted(f"/lang/{p.name}" for p in (WEB / "lang").glob("*.json"))
        # The map's hash, and no other inline script, is what the policy lets run.
        script = IMPORTMAP.search(page.text).group(1)  # type: ignore[union-attr]
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        policy = page.headers["content-security-policy"]
        assert re.search(r"script-src 'self' 'sha256-[^']+'(;|$)", policy), policy
        assert f"'sha256-{digest}'" in policy
        # The map and the module run; the rest are data blocks: the reader's catalogue
        # and the variants, as GET /api/variants says them.
        assert re.findall(r'<script type="([^"]+)"', page.text) == \
            ["importmap", "application/json", "module", "application/json"]
        variants = re.search(r'<script type="application/json" id="variants">(.*?)</script>',
                             page.text)
        assert variants and json.loads(variants.group(1)) == http.get("/api/variants").json()
        assert '<meta name="description" content="' in page.text
        # One request brings the client: a tenth of the modules' bytes, in brotli.
        sent = http.get(MODULE.findall(page.text)[0], headers={"Accept-Encoding": "br"})
        assert sent.headers["content-encoding"] == "br" and sent.content == bundle
        modules = sum(len(p.read_bytes()) for p in (WEB / "js").rglob("*.js"))
        assert sent.num_bytes_downloaded < modules / 5


def test_a_bundle_older_than_the_modules_is_passed_over(tmp_path: Path) -> None:
    """An edited module is never hidden behind an old bundle: the page loads the modules
    one by one, each hashed, mapped and preloaded, until `make web` makes it anew."""
    make_web()
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    assert WebFiles(web).bundled
    with (web / "js" / "dom.js").open("a") as module:
        module.write("// edited\n")
    files = WebFiles(web)
    assert not files.bundled
    page = files.pages["en"].body.decode()
    found = IMPORTMAP.search(page)
    assert found
    imports = json.loads(found.group(1))["imports"]
    modules = sorted(p.relative_to(web).as_posix() for p in web.rglob("*.js")
                     if p.parent != web and not p.relative_to(web).as_posix().startswith("dist/"))
    assert modules and all(f"/{m}" in imports for m in modules), set(modules) - set(imports)
    for m in modules:
        assert f'<link rel="modulepreload" href="{imports["/" + m]}">' in page, m
    body = (web / "js" / "dom.js").read_bytes()
    assert imports["/js/dom.js"] == f"/js/dom.js?v={hashlib.sha256(body).hexdigest()[:12]}"
    assert MODULE.findall(page) == [imports["/js/main.js"]]
    # `make web` writes the digest the server computes.
    assert (WEB / "dist" / "sources").read_text().strip() == sources_digest(WEB)


def test_a_hashed_address_is_cached_for_a_year_and_sent_compressed(bundled_server: Server) -> None:
    with httpx.Client(base_url=bundled_server.url, timeout=30) as http:
        page, imports = page_and_map(http)
        assert page.headers["cache-control"] == "no-cache"
        address = MODULE.findall(page.text)[0]
        hashed = http.get(address, headers={"Accept-Encoding": "gzip"})
        assert hashed.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert hashed.headers["content-encoding"] == "gzip"
        assert hashed.headers["content-type"].startswith("text/javascript")
        assert hashed.content == (WEB / BUNDLE).read_bytes()  # httpx unpacks it
        raw = httpx.get(f"{bundled_server.url}{imports['/lang/fa.json']}", timeout=30,
                        headers={"Accept-Encoding": "gzip"})
        assert int(raw.headers["content-length"]) < len((WEB / "lang" / "fa.json").read_bytes()) / 3
        # Unhashed, or with a stale hash: the same file, checked again every time.
        for plain_address in ("/js/main.js", "/js/main.js?v=000000000000", f"/{BUNDLE}"):
            plain = http.get(plain_address)
            assert plain.headers["cache-control"] == "no-cache"
            again = http.get(plain_address, headers={"If-None-Match": plain.headers["etag"]})
            assert again.status_code == 304 and again.content == b""
        assert http.get("/js/nope.js").status_code == 404
        assert http.get("/../pyproject.toml").status_code == 404
        assert http.post("/").status_code == 405
        assert http.head(address).status_code == 200


def test_a_persian_page_loads_the_persian_catalogue_alone(bundled_server: Server, open_tab) -> None:  # type: ignore[no-untyped-def]
    tab = open_tab(PHONE)
    page = tab.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.context.add_init_script(
        "if (!localStorage.getItem('domino.lang')) localStorage.setItem('domino.lang', 'fa');")
    page.goto(f"{bundled_server.url}/#/lobby")
    expect(page.locator("h1")).to_have_text("سالن")
    catalogues = sorted({re.sub(r"\?.*", "", u.rsplit("/", 1)[1]) for u in asked if "/lang/" in u})
    assert catalogues == ["fa.json"], asked
    # Chosen here, said to the server: the next page comes drawn in Persian, right to
    # left, with its catalogue and the variants in it, and asks for neither.
    asked.clear()
    answer = page.reload()
    expect(page.locator("h1")).to_have_text("سالن")
    assert answer is not None
    drawn = answer.text()
    assert '<html lang="fa" dir="rtl">' in drawn and 'data-i18n="nav.lobby">سالن</a>' in drawn
    assert not [u for u in asked if "/lang/" in u or "/api/variants" in u], asked
    # Choosing another language loads that one then, and the server draws it next.
    page.locator("[data-testid=lang]").select_option("ru")
    expect(page.locator("h1")).to_have_text("Лобби")
    answer = page.reload()
    assert answer is not None and '<html lang="ru" dir="ltr">' in answer.text()
    expect(page.locator("h1")).to_have_text("Лобби")
    tab.assert_clean()


def test_the_page_is_drawn_in_the_readers_language(bundled_server: Server) -> None:
    """His choice (the cookie the client keeps) first, then his browser's languages in
    their order, then English; the page says it varies by both."""
    def page(headers: dict[str, str]) -> httpx.Response:
        return httpx.get(f"{bundled_server.url}/", headers=headers, timeout=30)

    for headers, lang in (({}, "en"), ({"Accept-Language": "de-DE,th;q=0.9,ru;q=0.8"}, "th"),
                          ({"Accept-Language": "fa-IR", "Cookie": "domino.lang=lo"}, "lo"),
                          ({"Accept-Language": "fa-IR", "Cookie": "domino.lang=xx"}, "fa")):
        answer = page(headers)
        direction = "rtl" if lang == "fa" else "ltr"
        assert f'<html lang="{lang}" dir="{direction}">' in answer.text, headers
        block = re.search(r'<script type="application/json" id="words" data-lang="(\w+)">(.*?)'
                          r"</script>", answer.text, re.S)
        assert block and block.group(1) == lang
        assert json.loads(block.group(2)) == json.loads((WEB / "lang" / f"{lang}.json").read_text())
        assert answer.headers["vary"] == "Accept-Encoding, Accept-Language, Cookie"
    persian = page({"Accept-Language": "fa"})
    assert persian.headers["etag"] != page({}).headers["etag"]
    again = page({"Accept-Language": "fa", "If-None-Match": persian.headers["etag"]})
    assert again.status_code == 304


# The page's layout shift so far (what Lighthouse adds up as CLS), from its first paint.
SHIFTS = """window.__shifted = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifted += e.value;
}).observe({ type: "layout-shift", buffered: true });"""


def test_nothing_moves_as_the_lobby_and_a_table_fill_in_on_a_phone(
    bundled_server: Server, open_tab  # type: ignore[no-untyped-def]
) -> None:
    """The lobby with a running table in its list, and that table mid-game as a spectator
    sees it: each drawn once what it shows is in, so nothing already on the screen moves
    (the lobby's side panel under a filling list, the table's parts under its first state,
    the chat under the log)."""
    with httpx.Client(base_url=bundled_server.url, timeout=30) as http:
        token = http.post("/api/auth/register", json={
            "username": f"still_{secrets.token_hex(3)}", "password": "correct horse battery",
        }).json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        table_id = http.post("/api/tables", json={
            "variant": "goat", "seats": 2, "turn_seconds": 300, "rated": False}).json()["id"]
        http.post(f"/api/tables/{table_id}/bots", json={"strength": "random"}).raise_for_status()
    for address, filled in (("#/lobby", f"[data-table-id='{table_id}']"),
                            (f"#/table/{table_id}", "[data-testid=log] li")):
        tab = open_tab(PHONE)  # a page of its own, from its first paint
        page = tab.page
        page.context.add_init_script(SHIFTS)
        page.goto(f"{bundled_server.url}/{address}")
        expect(page.locator(filled).first).to_be_visible()
        page.wait_for_timeout(1500)
        shifted = page.evaluate("window.__shifted")
        assert shifted < 0.02, (address, shifted)
        tab.assert_clean()


def test_the_service_worker_shows_the_offline_page_with_the_server_stopped(
    browser: Browser, tmp_path: Path
) -> None:
    """Installable: a manifest with icons; with the server gone, the service worker
    serves the offline page in the reader's language, and it never kept an API answer."""
    make_web()
    env = {"DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'domino.db'}",
           "DOMINO_REDIS_URL": ""}
    context = browser.new_context(viewport=PHONE)
    context.add_init_script("localStorage.setItem('domino.lang', 'fa');")
    page = context.new_page()
    try:
        with run_server(env, log_dir=tmp_path) as server:
            manifest = httpx.get(f"{server.url}/manifest.webmanifest", timeout=30).json()
            sizes = {i["sizes"] for i in manifest["icons"]}
            assert {"192x192", "512x512"} <= sizes and manifest["display"] == "standalone"
            for icon in manifest["icons"]:
                assert httpx.get(f"{server.url}{icon['src']}", timeout=30).status_code == 200
            page.goto(f"{server.url}/#/lobby")
            expect(page.locator("h1")).to_have_text("سالن")
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.reload()  # now under the worker's control, which keeps the hashed files
            expect(page.locator("h1")).to_have_text("سالن")
            page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.reload()  # the whole page again, from a server that is gone
        offline = page.locator("[data-testid=offline]")
        expect(offline).to_be_visible()
        expect(offline.locator("h1")).to_have_text("اتصال برقرار نیست")
        page.screenshot(path=str(SCREENSHOTS / "offline-fa-360.png"), full_page=True)
        kept = page.evaluate("""async () => {
            const out = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const r of await cache.keys()) out.push(new URL(r.url).pathname);
            }
            return out;
        }""")
        client = re.compile(r"^/(js|dist|css|lang|icons)/|^/offline[.]")
        assert kept and all(client.match(p) for p in kept), kept
        assert "/lang/fa.json" in kept and f"/{BUNDLE}" in kept
    finally:
        context.close()
