"""Server CPU per game for everything but its moves: the table, the joins, the sockets'
subscriptions, the end and the result.

Run: .venv/bin/python benchmarks/game_overhead.py [--games 300] [--tables 10] [--source DIR]

Starts `domino serve` as `server.py` does (a private database and key prefix) and has
`--tables` groups of four bot sockets go through games without moves, as fast as the
server lets them: the first creates a rated goat table over HTTP, all four subscribe, the
other three join over HTTP, and once the game has begun the first resigns, which ends it
(RULES 1.10) and has its result written. Prints the server's CPU milliseconds per game over
`--games` games, after as many to warm up. At saturation `server.py` starts a game every
130-odd moves, so this figure divided by that is the part of a move's CPU that is the
games' coming and going.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server import Bot, HttpLobby, Server, Stats, Table, cpu_seconds, private_server, sign_up


async def games(server: Server, count: int, tables: int) -> None:
    stats = Stats()
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        tokens = await sign_up(http, 4 * tables)
        lobby = HttpLobby(http, tokens)
        # Bots that never get round to moving: each game ends by resignation.
        bots = [Bot(i % 4, tokens[i], stats, 10**6, random.Random(i)) for i in range(4 * tables)]
        for bot in bots:
            await bot.connect(server.ws_url)
        readers = [asyncio.create_task(bot.run()) for bot in bots]
        done = 0

        async def cycle(t: int) -> None:
            nonlocal done
            four = bots[4 * t:4 * t + 4]
            while done < count:
                table = Table(await lobby.table_for(4 * t, []))
                for bot in four:
                    await bot.sit(table)
                for seat in range(1, 4):
                    await lobby.join(table.table_id, seat, 4 * t + seat)
                while not table.started:
                    await asyncio.sleep(0.005)
                await four[0].send({"type": "resign", "table_id": table.table_id})
                await table.done.wait()
                done += 1

        await asyncio.gather(*(cycle(t) for t in range(tables)))  # warming up
        done = 0
        cpu0, t0 = cpu_seconds(server.process.pid), time.perf_counter()
        await asyncio.gather(*(cycle(t) for t in range(tables)))
        cpu1, t1 = cpu_seconds(server.process.pid), time.perf_counter()
        print(f"{done} games: {1000 * (cpu1 - cpu0) / done:.2f} ms of server CPU per game, "
              f"{done / (t1 - t0):.0f} games/s")
        for task in readers:
            task.cancel()
        for bot in bots:
            await bot.ws.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--tables", type=int, default=10, help="games under way at once")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--source", default="", help="run the server from this checkout")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            private_server(args.redis, args.source, Path(tmp)) as server:
        asyncio.run(games(server, args.games, args.tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
