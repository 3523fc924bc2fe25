"""The browser's cost of a table: main-thread time per change, as a player's tab draws it.

Run: .venv/bin/python benchmarks/client.py [--seconds 30] [--viewport phone] [--profile]

Starts `domino serve` on a private PostgreSQL database and Redis prefix (as server.py does),
with computer players that move at once; signs a player up, seats him at a four-seat goat
table with three computer players, and opens the table in Chromium (the tests' binary and
flags), at a phone's 360 px or a desktop's 1280 px. A script in the page plays his turns
(the first playable tile, the last end offered), as a hurried person would. Over the next
`--seconds` it reads Chromium's own counters of the page's main
thread (CDP `Performance.getMetrics`: all tasks, script, style, layout) and prints them per
version. With `--profile`, also the page's JavaScript functions with the most time of
their own (CDP `Profiler`), which is where to look first.

The figures are the renderer's CPU on this machine; a phone's is several times slower.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from server import private_server  # noqa: E402

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE  # noqa: E402

PASSWORD = "a long enough password"
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
# Plays the tab's turns: the first playable tile, then the last end offered if asked;
# looked for when the page changes (not by polling, which would cost the page a query
# every few milliseconds whether anything happened or not).
AUTOPLAY = """() => {
  let due = false;
  const act = () => {
    due = false;
    const choice = document.querySelectorAll('[data-testid=board] .end-choice');
    if (choice.length) { choice[choice.length - 1].click(); return; }
    const tile = document.querySelector('[data-testid=hand] .hand-tile.legal:not([disabled])');
    if (tile) tile.click();
  };
  new MutationObserver(() => { if (!due) { due = true; setTimeout(act, 0); } })
    .observe(document.querySelector('.table-page'),
             { childList: true, subtree: true, attributes: true });
  act();
}"""


def seq_of(page: Page) -> int:
    return int(page.locator(".table-page").get_attribute("data-seq") or "-1")


def table_with_bots(url: str, headers: dict[str, str]) -> str:
    with httpx.Client(base_url=url, timeout=30, headers=headers) as http:
        r = http.post("/api/tables", json={"variant": "goat", "seats": 4, "turn_seconds": 300,
                                           "rated": False})
        r.raise_for_status()
        table_id = str(r.json()["id"])
        for _ in range(3):
            http.post(f"/api/tables/{table_id}/bots", json={"strength": "random"}
                      ).raise_for_status()
    return table_id


def metrics(cdp: Any) -> dict[str, float]:
    got = cdp.send("Performance.getMetrics")["metrics"]
    return {m["name"]: float(m["value"]) for m in got if m["name"] in METRICS}


def self_times(profile: dict[str, Any]) -> Counter[str]:
    """Milliseconds of each function's own time in a CDP CPU profile."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    spent: Counter[str] = Counter()
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[node_id]["callFrame"]
        where = frame["url"].rsplit("/", 1)[-1]
        name = frame["functionName"] or "(anonymous)"
        spent[f"{name} {where}:{frame['lineNumber'] + 1}" if where else name] += delta / 1000
    return spent


def measure(url: str, viewport: dict[str, int], seconds: float, profile: bool) -> None:
    name = f"bench_{secrets.token_hex(3)}"
    r = httpx.post(f"{url}/api/auth/register", json={"username": name, "password": PASSWORD},
                   timeout=30)
    r.raise_for_status()
    table_id = table_with_bots(url, {"Authorization": f"Bearer {r.json()['token']}"})
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{url}/#/signin")
        form = page.locator("form").filter(has=page.locator("input[name=password]")).first
        form.locator("input[name=username]").fill(name)
        form.locator("input[name=password]").fill(PASSWORD)
        form.locator("button[type=submit]").click()
        page.locator("[data-testid=me]").wait_for(state="attached")
        page.goto(f"{url}/#/table/{table_id}")
        page.locator("[data-testid=hand] .hand-tile").first.wait_for()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        if profile:
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            cdp.send("Profiler.start")
        page.evaluate(AUTOPLAY)
        start_seq, before, started = seq_of(page), metrics(cdp), time.monotonic()
        # Nothing else touches the page meanwhile: its main thread does the table's work.
        page.wait_for_timeout(seconds * 1000)
        seen, after = seq_of(page) - start_seq, metrics(cdp)
        took = time.monotonic() - started
        cpu = cdp.send("Profiler.stop")["profile"] if profile else None
        browser.close()
    label = f"{viewport['width']} px"
    print(f"{label}: {seen} versions in {took:.1f} s")
    per = {k: (after[k] - before[k]) * 1000 / max(seen, 1) for k in METRICS}
    print(f"  main thread per version: all tasks {per['TaskDuration']:.1f} ms, script "
          f"{per['ScriptDuration']:.1f} ms, style {per['RecalcStyleDuration']:.1f} ms, "
          f"layout {per['LayoutDuration']:.1f} ms")
    if cpu is not None:
        spent = self_times(cpu)
        total = sum(spent.values())
        print(f"  JavaScript profile, {total:.0f} ms sampled; most self time:")
        for where, ms in spent.most_common(25):
            print(f"    {ms:8.1f} ms {100 * ms / total:5.1f} %  {where}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30,
                        help="how long to measure (a goat game lasts longer)")
    parser.add_argument("--viewport", choices=["phone", "desktop", "both"], default="both")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--source", default="", help="run the server from this checkout")
    args = parser.parse_args()
    # The computer players move at once: the page, not their pace, sets the rate.
    os.environ.setdefault("DOMINO_BOT_PACE_SECONDS", "0.05")
    os.environ.setdefault("DOMINO_BOT_THINK_SECONDS", "0")
    views = {"phone": [PHONE], "desktop": [DESKTOP], "both": [PHONE, DESKTOP]}[args.viewport]
    with private_server(args.redis, args.source, Path(tempfile.mkdtemp())) as servers:
        for viewport in views:
            measure(servers[0].url, viewport, args.seconds, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
