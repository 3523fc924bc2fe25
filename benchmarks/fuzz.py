"""The long fuzz runs of tests/security: hostile websocket frames and schema-made HTTP
requests against a real server process, with their figures.

Run: .venv/bin/python benchmarks/fuzz.py [--frames 10000] [--requests 3000] [--batch 2000]

Starts `domino serve` on a private PostgreSQL database and a private Redis key prefix
(needs both on loopback: `make services`). Frames go in batches, each at a fresh running
table (so no turn clock runs out under them): every frame must get the error PROTOCOL §2
gives it, in its order of precedence, no socket may be dropped and the table must read the
same after the batch as before it. Requests are schemathesis cases, valid and invalid by
the server's own OpenAPI schema; none may get a 5xx. Exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.security.fuzzing import (  # noqa: E402
    FUZZ_SERVER_ENV,
    fuzz_http,
    fuzz_ws,
    register,
)
from tests.servers import (  # noqa: E402
    LOAD_LIMITS,
    clear_redis_prefix,
    database_url,
    pg_admin,
    run_server,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=3_000)
    parser.add_argument("--batch", type=int, default=2_000, help="frames per fresh table")
    parser.add_argument("--redis", default=os.environ.get("DOMINO_TEST_REDIS",
                                                          "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()
    name = f"domino_fuzz_{secrets.token_hex(4)}"
    prefix = f"domino_fuzz_{secrets.token_hex(4)}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    failed = False
    try:
        env = {"DOMINO_DATABASE_URL": database_url(name), "DOMINO_REDIS_URL": args.redis,
               "DOMINO_REDIS_PREFIX": prefix, **LOAD_LIMITS, **FUZZ_SERVER_ENV}
        with tempfile.TemporaryDirectory() as tmp, run_server(env, log_dir=Path(tmp)) as server:
            started = time.monotonic()
            frames = closed = changes = 0
            codes: Counter[str] = Counter()
            wrong: list[str] = []
            batch = 0
            while frames < args.frames:
                count = min(args.batch, args.frames - frames)
                figures = fuzz_ws(server.url, server.ws_url, count, f"{batch}")
                frames += figures.frames
                closed += figures.closed
                changes += figures.state_changes
                codes += figures.codes
                wrong += figures.wrong
                batch += 1
            took = time.monotonic() - started
            print(f"websocket: {frames} frames at {batch} tables in {took:.0f} s; "
                  f"wrong replies {len(wrong)}, sockets dropped {closed}, "
                  f"state changes {changes}")
            print("  codes: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
            for line in wrong[:10]:
                print("  WRONG " + line[:400])
            started = time.monotonic()
            http = fuzz_http(server.url, register(server.url, "fuzz_http"), args.requests)
            took = time.monotonic() - started
            fives = sum(n for status, n in http.statuses.items() if status >= 500)
            print(f"http: {http.requests} requests in {took:.0f} s; 5xx {fives}")
            print("  statuses: " + ", ".join(
                f"{s} {n}" for s, n in sorted(http.statuses.items())))
            for line in http.server_errors[:10]:
                print("  5xx " + line[:400])
            alive = server.process.poll() is None
            print(f"server still running: {'yes' if alive else 'NO'}")
            failed = bool(wrong or closed or changes or fives or not alive)
    finally:
        clear_redis_prefix(args.redis, prefix)
        asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
