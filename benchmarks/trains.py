"""The cost of one move at an 8-player Mexican Train table next to a 4-player Goat table.

Run: .venv/bin/python benchmarks/trains.py [--games 3] [--profile]

One move on the server is: read the table's stored JSON and load its game
(`game_of`), apply the move, write the state back as JSON (orjson, as the live store does),
then, for the fan-out, load the stored state once more and build and serialise the
`table.state` of every seat and of one spectator (`build_view`). This script runs exactly
those service functions in one process, without Redis or sockets, over whole games of
random legal moves, the two variants' games interleaved (Mexican, Goat, Mexican, ...),
and prints per variant the median and 95th percentile time of one move and the median
and largest bytes of the stored state (finished rounds reduced to their summaries, as
`commit` stores it; the archive of finished rounds is written once per round, not per
move) and of the views sent for one move. The moves are chosen outside the timed part.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import new_game
from app.services.tables.table import Table as LiveTable
from app.services.tables.transact import build_view, game_of, split_rounds


@dataclass
class Table:
    variant: str
    players: int
    options: dict[str, Any]
    times: list[float] = field(default_factory=list)  # seconds per move
    state_bytes: list[int] = field(default_factory=list)
    view_bytes: list[int] = field(default_factory=list)  # every socket's frame, summed
    moves: int = 0

    @property
    def label(self) -> str:
        return f"{self.variant} x{self.players}"


def fresh_state(table: Table, seed: bytes) -> dict[str, Any]:
    game = new_game(table.variant, table.players, table.options, seed)
    return {
        "id": "bench",
        "variant": table.variant,
        "options": game.options,
        "players": table.players,
        "seats": [{"id": s + 1, "name": f"player{s}"} for s in range(table.players)],
        "status": "playing",
        "turn_seconds": 30,
        "rated": True,
        "created_by": {"id": 1, "name": "player0"},
        "game_id": "bench-game",
        "created_at": 0,
        "started_at": 0,
        "finished_at": None,
        "deadline": None,
        "game": split_rounds(game.to_dict())[0],
        "log": [],
    }


def _dumps(value: Any) -> str:
    """JSON text as the live store and the websocket gateway write it (orjson)."""
    return orjson.dumps(value).decode()


def one_move(stored: str, seat: int, tile: str, end: str | None, seq: int) -> tuple[str, int]:
    """The server's work for one move; returns the new stored JSON and the bytes sent."""
    state = orjson.loads(stored)
    game = game_of(LiveTable.from_dict(state))
    assert game is not None
    events = game.play(seat, tile, end)
    state["game"], _archive = split_rounds(game.to_dict())
    state["status"] = game.status
    state["log"] = [*state["log"], {"v": seq, "events": events}][-16:]
    stored = _dumps(state)
    # The fan-out: the stored state is read once and every socket gets its own view.
    table = LiveTable.from_dict(orjson.loads(stored))
    game = game_of(table)
    sent = 0
    connected = set(range(table.players))
    for you in [*range(table.players), None]:
        message = {
            "type": "table.state", "table_id": table.id, "seq": seq,
            "view": build_view(table, game, you, connected), "events": events,
        }
        sent += len(_dumps(message))
    return stored, sent


def play_game(table: Table, seed: bytes, rng: random.Random) -> None:
    stored = _dumps(fresh_state(table, seed))
    seq = 1
    while True:
        # untimed: choosing the move, as a client does
        game = game_of(LiveTable.from_dict(orjson.loads(stored)))
        assert game is not None
        if game.status != "playing":
            return
        move = rng.choice(list(game.legal_moves()))
        seq += 1
        start = time.perf_counter()
        stored, sent = one_move(stored, game.turn, str(move.tile), move.end, seq)
        table.times.append(time.perf_counter() - start)
        table.state_bytes.append(len(stored))
        table.view_bytes.append(sent)
        table.moves += 1


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games of each variant")
    parser.add_argument("--profile", action="store_true", help="cProfile one Mexican game")
    args = parser.parse_args()
    trains = Table("mexican_train", 8, {})
    goat = Table("goat", 4, {"fish_rule": "all"})
    for i in range(args.games):
        for table in (trains, goat):  # interleaved, so both see the same machine load
            seed = hashlib.sha256(f"trains-bench-{table.variant}-{i}".encode()).digest()
            play_game(table, seed, random.Random(i))
    print(f"{'table':<18}{'moves':>7}{'median ms':>11}{'p95 ms':>9}"
          f"{'state B med':>13}{'state B max':>13}{'views B med':>13}{'views B max':>13}")
    for table in (trains, goat):
        print(
            f"{table.label:<18}{table.moves:>7}"
            f"{statistics.median(table.times) * 1000:>11.3f}{p95(table.times) * 1000:>9.3f}"
            f"{statistics.median(table.state_bytes):>13.0f}{max(table.state_bytes):>13}"
            f"{statistics.median(table.view_bytes):>13.0f}{max(table.view_bytes):>13}"
        )
    ratio = statistics.median(trains.times) / statistics.median(goat.times)
    state_ratio = statistics.median(trains.state_bytes) / statistics.median(goat.state_bytes)
    view_ratio = statistics.median(trains.view_bytes) / statistics.median(goat.view_bytes)
    print(f"8-player Mexican Train / 4-player Goat: time x{ratio:.2f}, "
          f"state bytes x{state_ratio:.2f}, view bytes x{view_ratio:.2f}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        play_game(Table("mexican_train", 8, {}), hashlib.sha256(b"profile").digest(),
                  random.Random(0))
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)


if __name__ == "__main__":
    main()
