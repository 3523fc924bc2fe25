"""Long fault runs: games on two server processes while a fault is injected, played by bots
that behave like the browser client; prints what the players paid for each fault.

Run: .venv/bin/python benchmarks/faults.py [--games 20] [--faults redis_restart,...]

Every fault gets its own private Redis (with AOF) and PostgreSQL cluster, two `domino serve`
processes and `--games` tables of four bots. A bot is one websocket, as a browser tab: it
plays a random legal move a moment after it is shown its turn; it re-reads the table only
on a seq gap (also one a `table.heartbeat` reveals), a `stale` or `not_known` error or a
reconnect; it tries again after `unavailable` (waiting `retry_ms`); and when its socket
closes it reconnects to whichever process is up and says hello again. The faults:

- `redis_restart`: Redis killed and started again (its AOF kept), twice, mid-game;
- `redis_away`: Redis down for 10 s mid-game;
- `redis_lost`: Redis loses everything (a flush) mid-game, and every player's socket drops
  at that moment: all of them come back and ask for their tables while the tables are
  not yet put back from their snapshots;
- `postgres_down`: PostgreSQL stopped for 15 s while games end, and every player's
  connection dropped 3 s into it (all reconnect and sign in again while it is away);
- `kill9`: one of the two processes killed with SIGKILL mid-game;
- `redis_frozen`: Redis stopped with SIGSTOP for 10 s mid-game (its connections stay open
  and silent), at tables of 5 s turns: the freeze is longer than a turn;
- `restore_race`: a Redis without persistence that loses everything three times, 6 s
  apart; the lost tables are put back by the processes serving them, both at once (their
  periodic look for lost tables is slowed down to leave it to them), so every table is a
  race between them;
- `director_kill`: a Swiss round of `--games` tables paired by the tournament's director,
  whose process is killed (SIGKILL) as it sends the first word of the pairing to the store:
  the round's tables are made (some started, some not), nobody is told;
- `seek_kill`: players are seated by seeks, four to a table, one table after another; the
  process making one of the matches is killed the moment the store has taken its seeks,
  before it has read that answer (nothing is made or told);
- `seek_deploy`: a rolling deploy while three of every table's four players wait with open
  seeks: one process is stopped with SIGTERM (its sockets closed with 1012), a new one
  started; then each table's last seek is opened.

The last three start with players who know no table: a bot learns it from the notice it
is sent (`tournament.pairing`, `seek.matched`, sent again on every hello until it goes
there) and then plays it. The kills of `director_kill` and `seek_kill` are put at the exact
point of the step by a gate between each process and Redis (tests/faults/gate.py, as the
fault tests do).

For each it prints the games played, the moves acknowledged to their movers, the
acknowledged moves missing from the stored records (lost) or found twice (doubled), the
games that never reached a stored result (lost), and the unfair timeouts: every timeout,
since a bot always moves as soon as it is shown its turn, and the `table.removed`
messages the bots were sent (a bot told so stops, as a browser showing "gone" would).
Untold players are those who never learned their table, or were shown it gone: told
`table.removed`, or `not_found` twice (the browser asks once more, a second later, before
it shows "gone"); every `not_found` a subscription was answered with is counted too.
For the last three faults it also prints the longest wait of a player for his table, from
the round's start or the seek that completed his table to his notice, and the seeks that
ended unmatched (`seek.ended`).
Games restored from a snapshot (`redis_lost`, `restore_race`) replay the round that was
being played, so there the moves acknowledged in it are counted apart ("rolled back"), as
the README says that fault costs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path

import asyncpg
import httpx
import redis.asyncio as aioredis

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.fault_players import (  # noqa: E402
    RUN_SECONDS,
    TURN_SECONDS,
    Bot,
    Servers,
    Tally,
    bearer,
    check,
    new_game,
    settle,
    sign_up,
    start_game,
    stored,
)
from tests.faults.games import process_id  # noqa: E402
from tests.faults.gate import PAIRING_TOLD, SEEKS_TAKEN, RedisGate  # noqa: E402
from tests.faults.stores import PrivatePostgres, PrivateRedis  # noqa: E402
from tests.servers import LOAD_LIMITS, Server, run_server  # noqa: E402

FAULTS = ("redis_restart", "redis_away", "redis_lost", "postgres_down", "kill9",
          "redis_frozen", "restore_race", "director_kill", "seek_kill", "seek_deploy")
# Faults that are run at tables of their own turn length.
FAULT_TURN_SECONDS = {"redis_frozen": 5}
# Faults after which the games go on from their snapshots.
RESTORED = ("redis_lost", "restore_race")
# Faults whose players are seated by the server, and learn their table from a notice.
GATHERED = ("director_kill", "seek_kill", "seek_deploy")
# Faults put at an exact point of a step by a gate between each process and Redis.
GATED = ("director_kill", "seek_kill")
PREFIX = "faults"
# A seek of the gathering faults (its turn may be set apart per table: a pool of its own).
SEEK = {"variant": "goat", "seats": 4, "rated": True, "reserve_seconds": 0}


async def inject(fault: str, redis: PrivateRedis, postgres: PrivatePostgres,
                 servers: Servers, tally: Tally) -> None:
    await asyncio.sleep(4)
    if fault == "redis_restart":
        for _ in range(2):
            redis.kill()
            redis.start()
            await asyncio.sleep(5)
    elif fault == "redis_away":
        redis.kill()
        await asyncio.sleep(10)
        redis.start()
    elif fault == "redis_lost":
        await asyncio.to_thread(redis.flush)
        # Every tab comes back at once and asks for its table before it is put back.
        await servers.drop_sockets()
    elif fault == "postgres_down":
        postgres.stop()
        await asyncio.sleep(3)
        # Every player's connection drops meanwhile: all of them sign in again while the
        # database is away.
        await servers.drop_sockets()
        await asyncio.sleep(12)
        postgres.start()
    elif fault == "kill9":
        os.kill(servers.all[0].process.pid, signal.SIGKILL)
    elif fault == "redis_frozen":
        redis.freeze()
        try:
            await asyncio.sleep(10)
        finally:
            redis.thaw()
    elif fault == "restore_race":
        for flush in range(3):
            if flush:
                await asyncio.sleep(6)
            await asyncio.to_thread(redis.flush)
    tally.notes.append(f"{fault} injected")


def killer(server: Server) -> Callable[[], None]:
    return lambda: os.kill(server.process.pid, signal.SIGKILL)


async def director_kill(http: httpx.AsyncClient, servers: Servers, bots: list[Bot],
                        redis: PrivateRedis, tally: Tally) -> None:
    """A Swiss round of every bot, four to a table; the director's process is killed as it
    sends the first word of the pairing to the store."""
    auth = bearer(bots[0].token)
    r = await http.post("/api/tournaments", headers=auth, json={
        "name": "Faults", "variant": "goat", "seats": 4, "format": "swiss", "rounds": 1,
        "turn_seconds": TURN_SECONDS, "reserve_seconds": 0, "round_pause_seconds": 0,
        "rated": True})
    r.raise_for_status()
    tournament_id = r.json()["id"]
    for bot in bots:
        (await http.post(f"/api/tournaments/{tournament_id}/join",
                         headers=bearer(bot.token))).raise_for_status()
    store = aioredis.from_url(redis.url)
    try:
        while (held := await store.get(f"{PREFIX}:lease:tournaments")) is None:
            await asyncio.sleep(0.1)
    finally:
        await store.aclose()
    director = next(s for s in servers.all if process_id(s) == held.decode())
    gate = servers.gates[servers.all.index(director)]
    gate.arm(PAIRING_TOLD, killer(director), reply=False)
    started = time.monotonic()
    for bot in bots:
        bot.asked_at = started
    other = next(s for s in servers.all if s is not director)
    async with httpx.AsyncClient(base_url=other.url, timeout=30) as survivor:
        (await survivor.post(f"/api/tournaments/{tournament_id}/start",
                             headers=auth)).raise_for_status()
    if await asyncio.to_thread(gate.sprung.wait, 60):
        tally.notes.append(f"director killed {time.monotonic() - started:.2f} s after start")


async def open_seek(server: Server, bot: Bot, turn_seconds: int,
                    table: list[Bot] | None = None) -> None:
    """The bot's seek, opened on `server` (its answer may be lost with the process).
    `table`: the players whose table this seek completes (their wait begins now)."""
    for waiting in table or [bot]:
        waiting.asked_at = time.monotonic()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            r = await http.post("/api/seeks", headers=bearer(bot.token),
                                json={**SEEK, "turn_seconds": turn_seconds})
            r.raise_for_status()
    except httpx.HTTPError as error:
        bot.tally.notes.append(f"a seek's answer lost: {error!r}")


async def seek_kill(http: httpx.AsyncClient, servers: Servers, bots: list[Bot],
                    redis: PrivateRedis, tally: Tally) -> None:
    """Seeks opened one after another, each table's four on one process (taking turns);
    the first process is killed in the middle of the match of a table halfway through."""
    tables = len(bots) // 4
    victim = servers.all[0]
    halfway = tables // 2 - (tables // 2) % 2  # a table whose seeks go to the victim
    for k in range(tables):
        server = servers.up(k)
        for s in range(4):
            if k == halfway and s == 3:
                servers.gates[0].arm(SEEKS_TAKEN, killer(victim), reply=True)
            await open_seek(server, bots[4 * k + s], TURN_SECONDS, bots[4 * k:4 * k + 4]
                            if s == 3 else None)
    if servers.gates[0].sprung.is_set():
        tally.notes.append(f"killed in the match of table {halfway + 1} of {tables}")


async def seek_deploy(servers: Servers, bots: list[Bot], tally: Tally,
                      deploy: Callable[[], Awaitable[Server]]) -> None:
    """Three of every table's four seeks open (a pool of its own: its turn), then a rolling
    deploy (one process stopped with SIGTERM, a new one started), then the last seeks."""
    tables = len(bots) // 4
    for k in range(tables):
        for s in range(3):
            await open_seek(servers.up(k), bots[4 * k + s], TURN_SECONDS + k)
    doomed = servers.all[0]
    servers.retire(doomed)
    doomed.process.send_signal(signal.SIGTERM)
    await deploy()
    await asyncio.sleep(5)  # a few sweeps of the seeks
    tally.notes.append("deployed")
    for k in range(tables):
        await open_seek(servers.up(k), bots[4 * k + 3], TURN_SECONDS + k,
                        bots[4 * k:4 * k + 4])


async def gathered(fault: str, http: httpx.AsyncClient, servers: Servers, games: int,
                   rng: random.Random, redis: PrivateRedis, tally: Tally,
                   deploy: Callable[[], Awaitable[Server]]
                   ) -> tuple[list[Bot], list[asyncio.Task[None]], Awaitable[None]]:
    """The bots of a gathering fault, their tabs open (hello said), and the fault's course."""
    tokens = [await sign_up(http) for _ in range(4 * games)]
    bots = [Bot(servers, i, token, None, None, tally, random.Random(rng.random()))
            for i, token in enumerate(tokens)]
    servers.deadline = time.monotonic() + RUN_SECONDS  # from the players signed up
    tabs = [asyncio.create_task(bot.run()) for bot in bots]
    while not all(bot.greeted for bot in bots):
        await asyncio.sleep(0.1)
    if fault == "director_kill":
        course = director_kill(http, servers, bots, redis, tally)
    elif fault == "seek_kill":
        course = seek_kill(http, servers, bots, redis, tally)
    else:
        course = seek_deploy(servers, bots, tally, deploy)
    return bots, tabs, course


async def run_fault(fault: str, games: int, seed: int) -> Tally:
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        redis = PrivateRedis(Path(tmp), persistent=fault != "restore_race")
        redis.start()
        stack.callback(redis.kill)
        postgres = PrivatePostgres()
        postgres.init()
        postgres.start()
        stack.callback(postgres.remove)
        admin = await asyncpg.connect(postgres.admin_dsn)
        await admin.execute('CREATE DATABASE "domino"')
        await admin.close()
        env = {
            "DOMINO_DATABASE_URL": postgres.url("domino"),
            "DOMINO_REDIS_URL": redis.url,
            "DOMINO_REDIS_PREFIX": PREFIX,
            "DOMINO_HEARTBEAT_SECONDS": "2",
            "DOMINO_RECOVER_SECONDS": "60" if fault == "restore_race" else "2",
            **LOAD_LIMITS,
        }
        gates = [stack.enter_context(RedisGate(redis.url))
                 for _ in range(2 if fault in GATED else 0)]
        processes = [stack.enter_context(run_server(
            {**env, "DOMINO_REDIS_URL": gates[i].url} if gates else env, log_dir=Path(tmp)))
            for i in range(2)]
        servers = Servers(processes, gates)

        async def deploy() -> Server:
            """A new process, as a rolling deploy starts one."""
            server = await asyncio.to_thread(
                stack.enter_context, run_server(env, log_dir=Path(tmp)))
            servers.all.append(server)
            return server

        rng = random.Random(seed)
        async with httpx.AsyncClient(base_url=processes[1].url, timeout=30) as http:
            if fault in GATHERED:
                bots, tabs, course = await gathered(fault, http, servers, games, rng, redis,
                                                    tally, deploy)
                playing = asyncio.gather(*tabs, settle(servers, bots))
                injector = asyncio.ensure_future(course)
            else:
                turn = FAULT_TURN_SECONDS.get(fault, TURN_SECONDS)
                tables = [await new_game(http, servers, tally, i, rng, turn)
                          for i in range(games)]
                bots = [bot for table in tables for bot in table]
                servers.deadline = time.monotonic() + RUN_SECONDS  # from the tables made
                playing = asyncio.gather(*(bot.run() for bot in bots), settle(servers, bots))
                for table in tables:
                    await start_game(http, table)
                injector = asyncio.ensure_future(inject(fault, redis, postgres, servers, tally))
            await injector
        await playing
        await tally_games(servers, bots, fault, tally)
    return tally


async def tally_games(servers: Servers, bots: list[Bot], fault: str, tally: Tally) -> None:
    """What each game and each player paid."""
    at: dict[str, list[Bot]] = {}
    for bot in bots:
        if bot.table_id is None or bot.removed:
            tally.untold += 1
        if bot.table_id is not None:
            at.setdefault(bot.table_id, []).append(bot)
        if bot.told_at is not None and bot.asked_at is not None:
            tally.longest_wait = max(tally.longest_wait, bot.told_at - bot.asked_at)
    for table_id, players in at.items():
        tally.games += 1
        final = next((b.final for b in players if b.final is not None), None)
        if final is None:
            tally.lost_games += 1
            tally.notes.append(f"table {table_id}: never finished"
                               f"{' (removed)' if any(b.removed for b in players) else ''}")
            continue
        record = await stored(servers, final["view"]["game_id"], 60)
        if record is None:
            tally.notes.append(f"final {final['view']['status']} "
                               f"{final['view'].get('result')} game {final['view']['game_id']}")
            for server in servers.all:
                tally.notes.append(server.output()[-3000:])
        check(players, final, record, tally, fault in RESTORED)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {os.getloadavg()[0]:.2f} load (1 min), {os.cpu_count()} cores")
    print("| fault | games | acknowledged moves | lost | doubled | rolled back | games lost "
          "| unfair timeouts | untold players | longest wait for a table | seeks ended "
          "| `unavailable` replies | reconnects | `table.removed` | `not_found` answers "
          "| `not_found` twice |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for fault in args.faults.split(","):
        started = time.monotonic()
        tally = asyncio.run(run_fault(fault, args.games, args.seed))
        wait = f"{tally.longest_wait:.1f} s" if fault in GATHERED else "—"
        print(f"| {fault} | {tally.games} | {tally.acked} | {tally.lost_moves} | "
              f"{tally.doubled} | {tally.rolled_back} | {tally.lost_games} | {tally.timeouts} "
              f"| {tally.untold} | {wait} | {tally.seeks_ended} | {tally.unavailable} "
              f"| {tally.reconnects} | {tally.removed} | {tally.not_found_answers} "
              f"| {tally.not_found} |", flush=True)
        print(f"  ({time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.2f}; "
              f"{'; '.join(tally.notes[:8])})", file=sys.stderr, flush=True)
        failed |= bool(tally.lost_moves or tally.doubled or tally.lost_games or tally.timeouts
                       or tally.removed or tally.untold or tally.seeks_ended)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
