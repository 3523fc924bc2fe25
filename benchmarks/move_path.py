"""CPU per move of the server's own move path, in one process, without sockets or bots.

Run: .venv/bin/python benchmarks/move_path.py [--tables 250] [--moves 5000] [--repeats 5]
     [--source DIR] [--profile]

Plays goat games at `--tables` tables on a real Redis (a private key prefix), the way the
gateway plays a move: the move is tried on the snapshot this process holds (`play.play`
with the snapshot's game), written by the compare-and-set, and the new version is offered
to the table's four subscribers, each of which turns its `table.state` message into the
JSON a socket would be sent. The tables take turns (one move each, round robin), so every
move finds its table's objects as cold in the caches as 250 busy tables leave them. A game
that ends is followed by a new table of the same four.

Only the server's part of a move is timed (CPU time of the process, from the move's
arrival to its four messages serialised): choosing the move, which the bots do, is not.
Each repeat prints the CPU microseconds per move; the median is printed last. What it
leaves out, `server.py` measures: the sockets (frames, system calls, the outbox of a
socket that makes a send wait), uvicorn, the HTTP of new tables, and the bots sharing the
machine. `--source DIR` runs the code of another checkout (run the two in turns, A B A B);
`--profile` prints where the timed part spends its time (cProfile, which slows it several
times over).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import pstats
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--moves", type=int, default=5000, help="moves per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--source", default="", help="run the code of this checkout")
    parser.add_argument("--processes", type=int, default=1,
                        help="simulated processes (a store and feed each, in this one): "
                             "seat s's socket on process s %% N, each move made on its "
                             "seat's process and timed until every process has it")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="tottime", help="the profile's order (cumulative, ...)")
    parser.add_argument("--profile-out", default="", help="also write the profile to this file")
    return parser.parse_args()


ARGS = _arguments()
sys.path.insert(0, str(Path(ARGS.source).resolve() if ARGS.source else HERE.parent))
sys.path.insert(1, str(HERE.parent))  # tests.servers, from this checkout

import orjson  # noqa: E402

from app.collector import settle_heap  # noqa: E402
from app.config import Settings  # noqa: E402
from app.live.hub import Hub  # noqa: E402
from app.live.store import LiveStore, connect  # noqa: E402
from app.services.fanout.feed import Feed  # noqa: E402
from app.services.play import moves as play  # noqa: E402
from app.services.tables import lobby  # noqa: E402
from tests.servers import clear_redis_prefix  # noqa: E402

_ids = itertools.count(1)


class Seat:
    def __init__(self) -> None:
        self.id = next(_ids)
        self.name = f"p{self.id}"


class Socket:
    """A subscriber that makes what the gateway's writer sends, and keeps only its size."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        self.conn_id = f"bench:{player_id}"
        self.last_sent: dict[str, int] = {}
        self.sent = 0

    def offer_state(self, snapshot: Any) -> None:
        last = self.last_sent.get(snapshot.table_id, 0)
        if snapshot.version <= last:
            return
        self.last_sent[snapshot.table_id] = snapshot.version
        self.sent += len(orjson.dumps(snapshot.message(self.player_id, last)))

    def offer(self, message: dict[str, Any]) -> None:
        self.sent += len(orjson.dumps(message))


class Table:
    def __init__(self) -> None:
        self.seats = [Seat() for _ in range(4)]
        self.sockets = [Socket(seat.id) for seat in self.seats]
        self.table_id = ""

    async def open(self, store: LiveStore, feeds: list[Feed]) -> None:
        terms = getattr(lobby, "Terms", None)
        if terms is not None:
            table = await lobby.create_table(
                store, self.seats[0], terms("goat", seats=4, turn_seconds=3600, rated=False))
        else:  # older code: the terms as keywords
            table = await lobby.create_table(store, self.seats[0], variant="goat", seats=4,
                                             options={}, turn_seconds=3600, rated=False)
        self.table_id = table["id"]
        for seat, socket in enumerate(self.sockets):
            await feeds[seat % len(feeds)].subscribe_table(socket, self.table_id)
        for seat in self.seats[1:]:
            await lobby.join(store, seat, self.table_id)


def taken(snapshot: Any) -> Any:
    """The snapshot's game as the gateway hands it to a move (older code: not taken)."""
    take = getattr(snapshot, "take_game", None)
    return take() if take is not None else snapshot.game


async def run() -> int:
    prefix = f"bench_{secrets.token_hex(4)}"
    # One store and feed per simulated process, all on the same key prefix.
    stores = [LiveStore(connect(ARGS.redis), prefix) for _ in range(ARGS.processes)]
    feeds = [Feed(s, Hub(s), f"bench{n}") for n, s in enumerate(stores)]
    for feed in feeds:
        await feed.start()
    store = stores[0]
    rng = random.Random(7)
    profile = cProfile.Profile() if ARGS.profile else None
    try:
        tables = [Table() for _ in range(ARGS.tables)]
        for table in tables:
            await table.open(store, feeds)
        settle_heap(Settings().gc_threshold)  # as the server does once it is ready
        results = []
        for repeat in range(ARGS.repeats + 1):  # the first warms up
            cpu = 0.0
            moves = 0
            while moves < ARGS.moves:
                for table in tables:
                    # The seat on turn plays through the process its socket is on.
                    known = feeds[0].latest(table.table_id)
                    assert known is not None and known.game is not None
                    game = known.game
                    if game.status != "playing":
                        await table.open(store, feeds)
                        continue
                    turn = game.turn
                    assert turn is not None
                    mover_store = stores[turn % len(feeds)]
                    mover_feed = feeds[turn % len(feeds)]
                    known = mover_feed.latest(table.table_id)
                    assert known is not None
                    choice = rng.choice(game.legal_for(turn))
                    seat = table.seats[turn]
                    if profile is not None and repeat:
                        profile.enable()
                    started = time.process_time()
                    held = getattr(known, "table", None)
                    change = await play.play(
                        mover_store, seat.id, table.table_id, choice["tile"], choice["end"],
                        known.version, known.versioned if held is None else held, taken(known))
                    if held is not None:
                        mover_feed.deliver(change.table, change.game)
                    else:  # older code: the state's parts one by one
                        mover_feed.deliver(table.table_id, change.version, change.state,
                                           change.game)
                    # Every other process has it too (from its announcement) before the
                    # next move is timed: its CPU is the move's.
                    while any((f.latest(table.table_id) or known).version < change.version
                              for f in feeds):
                        await asyncio.sleep(0)
                    cpu += time.process_time() - started
                    if profile is not None:
                        profile.disable()
                    moves += 1
            if repeat:
                results.append(1e6 * cpu / moves)
                print(f"repeat {repeat}: {results[-1]:.1f} µs CPU per move ({moves} moves)",
                      flush=True)
        print(f"median: {statistics.median(results):.1f} µs CPU per move, "
              f"{ARGS.tables} tables")
        if profile is not None:
            if ARGS.profile_out:
                profile.dump_stats(ARGS.profile_out)
            pstats.Stats(profile).sort_stats(ARGS.sort).print_stats(40)
    finally:
        for feed, each in zip(feeds, stores, strict=True):
            await feed.stop()
            await each.close()
        clear_redis_prefix(ARGS.redis, prefix)
    return 0


if __name__ == "__main__":
    import uvloop  # the server's event loop (uvicorn takes it when it is installed)

    sys.exit(uvloop.run(run()))
