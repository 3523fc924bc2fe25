"""The per-move state keeps the current round only, and the record joins the rest back.

A game is played through the services the way the gateway plays it: each move on the
snapshot this process holds (no re-read), on the snapshot's game, taken, not parsed again.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import orjson

from app.engine import game_from_dict, replay_record
from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.services.fanout.feed import Feed
from app.services.play import moves
from app.services.tables import lobby
from app.services.tables.table import LogEntry, Person, Table
from app.services.tables.transact import ARCHIVED, build_view, events_since, full_game_dict, game_of


class Seat:
    def __init__(self, player_id: int) -> None:
        self.id = player_id
        self.name = f"p{player_id}"


class Socket:
    """Just enough of a socket for the feed: it keeps nothing."""

    conn_id = "test"
    player_id = None

    def offer_state(self, snapshot: Any) -> None:
        return None

    def offer(self, message: dict[str, Any]) -> None:
        return None


@asynccontextmanager
async def goat_table(redis_url: str, redis_prefix: str
                     ) -> AsyncIterator[tuple[LiveStore, Feed, list[Seat], str]]:
    """A goat table of four, its game begun, served by a feed with one socket on it."""
    store = LiveStore(connect(redis_url), f"{redis_prefix}_hot_{secrets.token_hex(3)}")
    feed = Feed(store, Hub(store), "p1")
    await feed.start()
    try:
        seats = [Seat(i + 1) for i in range(4)]
        table = await lobby.create_table(
            store, seats[0], lobby.Terms("goat", seats=4, turn_seconds=60, rated=False))
        table_id = table["id"]
        await feed.subscribe_table(Socket(), table_id)
        for seat in seats[1:]:
            await lobby.join(store, seat, table_id)
        yield store, feed, seats, table_id
    finally:
        await feed.stop()
        await store.close()


async def test_a_long_game_keeps_a_small_state_and_its_record_replays(
    redis_url: str, redis_prefix: str
) -> None:
    async with goat_table(redis_url, redis_prefix) as (store, feed, seats, table_id):
        rng = random.Random(11)
        sizes: dict[int, int] = {}
        while True:
            known = feed.latest(table_id)
            assert known is not None
            game = known.game
            assert game is not None
            if game.status != "playing":
                break
            move = rng.choice(game.legal_for(game.turn))
            change = await moves.play(store, seats[game.turn].id, table_id, move["tile"],
                                     move["end"], known.version, known.table,
                                     known.take_game())
            raw = await store.redis.hget(store.keys.table(table_id), "data")
            assert change.table.game is not None
            sizes.setdefault(change.table.game["round"], len(raw))
            # What is stored is the table as this process holds it, its event log too
            # (whose older entries were serialised by the moves that made them).
            assert orjson.loads(raw) == change.table.to_dict()
            assert Table.from_dict(orjson.loads(raw), change.version) == change.table
            assert change.table.log_json is not None
            latest = feed.latest(table_id)
            assert latest is not None and latest.table.log_json == change.table.log_json
        rounds = len(sizes)
        assert rounds >= 3, "a game of several rounds"
        final = await store.load(table_id)
        assert final is not None
        stored = Table.from_dict(final.state).game
        assert stored is not None
        assert all(rd.get(ARCHIVED) for rd in stored["rounds"][:-1])
        # From the second round on (when the event log is full) only the finished rounds'
        # short summaries are added: a finished round in full would add about a kilobyte.
        growth = (sizes[rounds - 1] - sizes[1]) / (rounds - 2)
        assert growth < 300, sizes
        # The record has every round in full, and replays to the same result.
        record = game_from_dict(await full_game_dict(store, table_id, stored)).record(
            [s.name for s in seats])
        assert len(record["rounds"]) == rounds
        assert all(rd["moves"] for rd in record["rounds"])
        assert replay_record(record)["result"] == record["result"]


def view(snapshot: Any, seat: int) -> Any:
    return orjson.loads(orjson.dumps(snapshot.view_for(seat)))


async def test_a_move_on_a_snapshots_game_leaves_that_snapshots_views_as_they_were(
    redis_url: str, redis_prefix: str
) -> None:
    """The gateway plays a move on the game of the snapshot it holds, without a copy: a
    view of that version built afterwards (a seat, a spectator subscribing meanwhile)
    still shows that version, not the position after the move."""
    async with goat_table(redis_url, redis_prefix) as (store, feed, seats, table_id):
        known = feed.latest(table_id)
        assert known is not None and known.game is not None
        turn = known.game.turn
        assert turn is not None
        # Every seat's view of this version, as a fresh parse of its state shows it.
        expected = {
            n: build_view(known.table, game_of(known.table), n, known.connected,
                          known.spectators)
            for n in range(4)
        }
        assert view(known, turn) == expected[turn]  # one built before
        move = known.game.legal_for(turn)[0]
        change = await moves.play(store, seats[turn].id, table_id, move["tile"], move["end"],
                                 known.version, known.table, known.take_game())
        assert change.version == known.version + 1
        for n in range(4):
            assert view(known, n) == expected[n]
        after = feed.latest(table_id)
        assert after is not None and after.version == change.version
        assert view(after, turn)["hand"] != expected[turn]["hand"]


def test_the_events_a_socket_missed_are_those_logged_after_its_last_version() -> None:
    log = tuple(LogEntry(v, [{"type": "play", "n": v}, {"type": "knock", "n": v}])
                for v in range(5, 21))
    table = Table("t", "goat", {}, 4, (None,) * 4, "waiting", 60, False, Person(1, "p1"), 0,
                  log=log)

    def numbers(version: int, last_sent: int) -> list[int]:
        return [event["n"] for event in events_since(table, version, last_sent)]

    assert numbers(20, 0) == []  # a (re)subscription: the state alone
    assert numbers(20, 19) == [20, 20]
    assert numbers(20, 17) == [18, 18, 19, 19, 20, 20]
    assert numbers(18, 16) == [17, 17, 18, 18]
    assert numbers(20, 3) == [n for n in range(5, 21) for _ in (1, 2)]  # older than the log
    assert numbers(20, 20) == []
