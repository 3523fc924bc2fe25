"""Lighthouse 12 (Node's `lighthouse@12`, through npx) with Debian's Chromium, mobile
emulation, against a server on `make run`'s embedded defaults (SQLite, no Redis): the
performance score, largest contentful paint, cumulative layout shift and total blocking
time of the lobby (with a running table in it), a rules page, a leaderboard and a table
mid-game (as a spectator sees it), each the median of --runs runs.

    python benchmarks/lighthouse.py [--runs 3] [--chromium /usr/bin/chromium]

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
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    env.update({"DOMINO_PORT": str(port), "DOMINO_HOST": "127.0.0.1", "DOMINO_REDIS_URL": "",
                "DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'domino.db'}"})
    domino = REPO / ".venv" / "bin" / "domino"
    if not domino.exists():
        domino = REPO / ".venv-run" / "bin" / "domino"
    process = subprocess.Popen([str(domino), "serve"], env=env, cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    process.kill()
    raise SystemExit("the server did not become ready")


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


def lighthouse(url: str, chromium: str, keep: Path | None = None) -> dict[str, float]:
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
    return {
        "score": round(report["categories"]["performance"]["score"] * 100),
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "fcp_s": audits["first-contentful-paint"]["numericValue"] / 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder))
        try:
            table_id = table_mid_game(url)
            pages = {"lobby": "#/lobby", "rules": "#/rules/goat",
                     "leaderboard": "#/leaderboard/goat", "table": f"#/table/{table_id}"}
            print(f"load: {os.getloadavg()[0]:.2f} (1 min), runs: {args.runs}", flush=True)
            print(f"{'page':<12} {'score':>5} {'LCP s':>6} {'CLS':>6} {'TBT ms':>7} {'FCP s':>6}")
            for page, address in pages.items():
                runs = [lighthouse(f"{url}/{address}", args.chromium) for _ in range(args.runs)]
                med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(f"{page:<12} {med['score']:>5.0f} {med['lcp_s']:>6.2f} {med['cls']:>6.3f} "
                      f"{med['tbt_ms']:>7.0f} {med['fcp_s']:>6.2f}   "
                      f"(scores {[r['score'] for r in runs]})", flush=True)
        finally:
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
