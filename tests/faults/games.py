"""What every fault test does around its fault: servers set up for it, and games played on
to their end with nobody paying for the fault."""

from __future__ import annotations

import asyncio
import random
import re
import secrets

from tests.e2e.client import Message, Player, autoplay
from tests.servers import Server


def fault_env(pg_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """Settings of a server under faults: a fresh Redis prefix, quick sweeps and heartbeats."""
    return {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"faults_{secrets.token_hex(3)}",
        "DOMINO_SWEEP_SECONDS": "0.1",
        "DOMINO_HEARTBEAT_SECONDS": "1",
        **extra,
    }


def process_id(server: Server) -> str:
    """The id the server's process goes by in the store (its leases, its listeners)."""
    found = re.search(r"ready \(process (\w+)\)", server.output())
    assert found, server.output()[-2000:]
    return found.group(1)


async def played_fairly_to_the_end(
    tables: list[tuple[str, list[Player]]], rng: random.Random, timeout: float
) -> list[Message]:
    """Random legal moves by every player of every (table id, players) until each game
    ends; every move taken, every game finished, none by a timeout. The final states."""
    finals = await asyncio.gather(*(
        autoplay(p, table_id, random.Random(rng.random()), timeout=timeout)
        for table_id, players in tables for p in players))
    for final in finals:
        assert final["errors"] == [], final["errors"]
        assert final["view"]["status"] == "finished"
        assert final["view"]["result"]["reason"] != "timeout"
    return list(finals)
