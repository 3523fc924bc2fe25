"""Lighthouse 12 (Node's `lighthouse@12`, through npx) with Debian's Chromium, mobile
emulation, against a server on `make run`'s embedded defaults (SQLite, no Redis): the
performance score, largest contentful paint, cumulative layout shift and total blocking
time of the lobby (with a running table in it), a rules page, a leaderboard and a table
mid-game (as a spectator sees it), each the median of --runs runs; and what the largest
paint was (its element) and its phases (time to first byte, render delay).

    python benchmarks/lighthouse.py [--runs 3] [--chromium /usr/bin/chromium]
    python benchmarks/lighthouse.py --source /tmp/before --compare .   # A B A B ...

--source/--compare serve the trees given (each with its app/, migrations/ and, for a
bundle, app/web/dist/ made by `make web`) with this checkout's Python environment, and
run them interleaved, page by page, so a busy machine weighs on both alike.

Targets: performance >= 95, LCP <= 2.0 s, CLS <= 0.05.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse battery"
# The table first: its game is measured on the person's turn (300 s and the reserve); a
# casual seat that times out is taken by a computer player, and a game moving on its own
# would be measured for its moves, not for its page.
PAGES = ("table", "lobby", "rules", "leaderboard")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(folder: Path, source: Path | None = None) -> Iterator[str]:
    """`domino serve` on the embedded defaults; from `source` when given (its code first
    on the path, run by this checkout's Python)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    env.update({"DOMINO_PORT": str(port), "DOMINO_HOST": "127.0.0.1", "DOMINO_REDIS_URL": "",
                "DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'domino.db'}"})
    python = REPO / ".venv" / "bin" / "python"
    if not python.exists():
        python = REPO / ".venv-run" / "bin" / "python"
    if source is not None:
        env["PYTHONPATH"] = str(source.resolve())
    process = subprocess.Popen([str(python), "-c", "from app.cli import main; main()", "serve"],
                               env=env, cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not become ready")
            time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def table_mid_game(url: str) -> str:
    """A casual Goat table of a player and a computer, its game begun; its id."""
    name = f"bench_{secrets.token_hex(3)}"
    with httpx.Client(base_url=url, timeout=30) as http:
        r = http.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        r.raise_for_status()
        http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        r = http.post("/api/tables", json={"variant": "goat", "seats": 2, "turn_seconds": 300,
                                           "rated": False})
        r.raise_for_status()
        table_id = str(r.json()["id"])
        http.post(f"/api/tables/{table_id}/bots", json={"strength": "random"}).raise_for_status()
    return table_id


def addresses(url: str) -> dict[str, str]:
    return {"lobby": f"{url}/#/lobby", "rules": f"{url}/#/rules/goat",
            "leaderboard": f"{url}/#/leaderboard/goat",
            "table": f"{url}/#/table/{table_mid_game(url)}"}


def lighthouse(url: str, chromium: str, keep: Path | None = None) -> dict[str, float | str]:
    out = subprocess.run(
        ["npx", "--yes", "lighthouse@12", url, "--only-categories=performance",
         "--output=json", "--output-path=stdout", "--quiet",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
        env={**os.environ, "CHROME_PATH": chromium}, capture_output=True, check=True, timeout=300,
    ).stdout
    if keep is not None:
        keep.write_bytes(out)
    report = json.loads(out)
    audits = report["audits"]
    element, phases = audits["largest-contentful-paint-element"]["details"]["items"]
    timing = {p["phase"]: p["timing"] for p in phases["items"]}
    return {
        "score": round(report["categories"]["performance"]["score"] * 100),
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "fcp_s": audits["first-contentful-paint"]["numericValue"] / 1000,
        "ttfb_ms": timing.get("TTFB", 0.0),
        "delay_ms": timing.get("Render Delay", 0.0),
        "element": str(element["items"][0]["node"].get("selector", "?")),
    }


def report(label: str, page: str, runs: list[dict[str, float | str]]) -> None:
    med = {k: statistics.median(float(r[k]) for r in runs) for k in runs[0] if k != "element"}
    print(f"{label:<8} {page:<12} {med['score']:>5.0f} {med['lcp_s']:>6.2f} {med['cls']:>6.3f} "
          f"{med['tbt_ms']:>7.0f} {med['fcp_s']:>6.2f} {med['ttfb_ms']:>6.0f} "
          f"{med['delay_ms']:>6.0f}   scores {[r['score'] for r in runs]} "
          f"LCP {[round(float(r['lcp_s']), 2) for r in runs]} ({runs[-1]['element']})",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--source", type=Path, help="serve this tree (A)")
    parser.add_argument("--compare", type=Path, help="and this one (B), interleaved")
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--keep", type=Path, help="keep each report here")
    args = parser.parse_args()
    trees: list[Path | None] = [args.source]
    if args.compare is not None:
        trees.append(args.compare)
    labels = ["A", "B"] if len(trees) == 2 else ["-"]
    pages = args.pages.split(",")
    with tempfile.TemporaryDirectory() as folder, running(Path(folder), trees[0]) as first, \
                _maybe(Path(folder), trees[1:]) as second:
        urls = [addresses(first)] + ([addresses(second)] if second else [])
        print(f"load: {os.getloadavg()[0]:.2f} (1 min), runs: {args.runs}", flush=True)
        for label, tree in zip(labels, trees, strict=True):
            print(f"{label}: {tree or REPO}")
        print(f"{'':<8} {'page':<12} {'score':>5} {'LCP s':>6} {'CLS':>6} {'TBT ms':>7} "
              f"{'FCP s':>6} {'TTFB':>6} {'delay':>6}")
        for page in pages:
            runs: list[list[dict[str, float | str]]] = [[] for _ in urls]
            for i in range(args.runs):
                for n, found in enumerate(urls):
                    keep = (args.keep / f"{labels[n]}-{page}-{i}.json") if args.keep else None
                    runs[n].append(lighthouse(found[page], args.chromium, keep))
            for n in range(len(urls)):
                report(labels[n], page, runs[n])
        print(f"load after: {os.getloadavg()[0]:.2f} (1 min)")


@contextmanager
def _maybe(folder: Path, trees: list[Path | None]) -> Iterator[str | None]:
    if not trees:
        yield None
        return
    (folder / "b").mkdir()
    with running(folder / "b", trees[0]) as url:
        yield url


if __name__ == "__main__":
    main()
