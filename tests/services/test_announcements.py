"""A change's views are made once, by the process that made the change, and every other
process that serves the table sends them as they came: each seat's own view only ever to
that seat's sockets, the spectators' to spectators; a process whose counts differ from the
writer's makes its own.

Two feeds on two stores of one Redis prefix are two processes here (each its own writer id
and subscription); the sockets are the feeds' subscribers, as the gateway's are.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.services import lobby, play
from app.services.feed import Feed, Snapshot
from app.services.table import Person
from app.services.tables import game_of, load


@dataclass(eq=False)
class Socket:
    """A subscriber that keeps what it was sent, as the gateway would send it."""

    player_id: int | None
    conn_id: str = field(default_factory=lambda: secrets.token_hex(4))
    last_sent: int = 0
    views: list[dict[str, Any]] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)

    def offer_state(self, snapshot: Snapshot) -> None:
        if snapshot.version <= self.last_sent:
            return
        message = orjson.loads(orjson.dumps(snapshot.message(self.player_id, self.last_sent)))
        self.last_sent = snapshot.version
        self.views.append(message["view"])
        self.snapshots.append(snapshot)

    def offer(self, message: dict[str, Any]) -> None:
        return None


@dataclass
class Process:
    store: LiveStore
    feed: Feed


@pytest.fixture
async def processes(redis_url: str, redis_prefix: str) -> AsyncIterator[list[Process]]:
    prefix = f"{redis_prefix}_announce_{secrets.token_hex(3)}"
    made = []
    for n in range(2):
        store = LiveStore(connect(redis_url), prefix)
        feed = Feed(store, Hub(store), f"process-{n}")
        await feed.start()
        made.append(Process(store, feed))
    yield made
    for process in made:
        await process.feed.stop()
        await process.store.close()


async def settle(sockets: list[Socket], version: int) -> None:
    for _ in range(200):
        if all(s.last_sent >= version for s in sockets):
            return
        await asyncio.sleep(0.01)
    raise AssertionError([s.last_sent for s in sockets])


async def test_each_seat_gets_its_own_view_made_by_the_writer_on_every_process(
    processes: list[Process],
) -> None:
    """Seats 0 and 2 on one process, 1 and 3 on the other, a spectator on each; the seats
    move in turn, so every change is made by one process and sent by both. Every view a
    socket gets is its seat's, with its seat's hand as stored at that version; the process
    that did not make a change sends the writer's bytes without parsing the table."""
    people = [Person(100 + n, f"p{n}") for n in range(4)]
    store = processes[0].store
    made = await lobby.create_table(store, people[0],
                                    lobby.Terms("goat", seats=4, options={}, rated=False))
    table_id = made["id"]
    seats = [Socket(p.id) for p in people]
    spectators = [Socket(None), Socket(None)]
    for seat, socket in enumerate(seats):
        await processes[seat % 2].feed.subscribe_table(socket, table_id)
    for n, socket in enumerate(spectators):
        await processes[n].feed.subscribe_table(socket, table_id)
    for seat in range(1, 4):
        await lobby.join(processes[seat % 2].store, people[seat], table_id, seat)
    # Who is connected, and how many watch, as both processes hear it from the store (until
    # then a process that knows better than the writer makes its own views: the next test).
    for _ in range(300):
        watches = [p.feed.watches[table_id] for p in processes]
        if all(w.connected == {0, 1, 2, 3} and w.spectators_now() == 2 for w in watches):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError([(w.connected, w.spectators_now()) for w in watches])
    rng = random.Random(11)
    hands: dict[int, list[list[str]]] = {}
    received = 0
    for _ in range(40):
        current = await load(store, table_id)
        assert current is not None
        game = game_of(current)
        assert game is not None
        hands[current.version] = [game.own_view(s)["hand"] for s in range(4)]
        await settle([*seats, *spectators], current.version)
        if game.status != "playing":
            break
        turn = game.turn
        assert turn is not None
        mover = processes[turn % 2]
        known = mover.feed.latest(table_id)
        assert known is not None and known.version == current.version
        choice = rng.choice(game.legal_for(turn))
        await play.play(mover.store, people[turn].id, table_id, choice["tile"], choice["end"],
                        known.version, known.table, known.take_game())
        # The other process: it sent what the writer made, and parsed nothing to do so.
        other = processes[(turn + 1) % 2].feed
        version = known.version + 1
        await settle([seats[(turn + 1) % 4], spectators[(turn + 1) % 2]], version)
        shown = other.latest(table_id)
        assert shown is not None and shown.version == version
        assert not shown.table_parsed
        # Read when a move needs it, its log entries come as the writer serialised them.
        assert shown.table.log_json is not None
        stored = await processes[(turn + 1) % 2].store.load(table_id)
        assert stored is not None and orjson.loads(shown.table.to_json()) == stored.state
        received += 1
    assert received >= 20
    for seat, socket in enumerate(seats):
        playing = [v for v in socket.views if v["status"] == "playing"]
        assert playing
        for view in playing:
            assert view["you"] == seat
    for socket in [*seats, *spectators]:
        for view, snapshot in zip(socket.views, socket.snapshots, strict=True):
            if snapshot.version in hands and view["status"] == "playing":
                you = view["you"]
                assert view["hand"] == ([] if you is None else hands[snapshot.version][you])


async def test_a_process_whose_counts_differ_makes_its_own_views(
    processes: list[Process],
) -> None:
    """The writer's views say who is connected as the writer knew it; a process that knows
    otherwise (a spectator of its own the writer has not heard of yet) makes the views
    again, from the table, rather than send counts that are not its own."""
    people = [Person(200 + n, f"q{n}") for n in range(2)]
    writer, other = processes
    made = await lobby.create_table(writer.store, people[0],
                                    lobby.Terms("goat", seats=2, options={}, rated=False))
    table_id = made["id"]
    mine, theirs = Socket(people[0].id), Socket(people[1].id)
    await writer.feed.subscribe_table(mine, table_id)
    await other.feed.subscribe_table(theirs, table_id)
    await lobby.join(other.store, people[1], table_id, 1)
    current = await load(writer.store, table_id)
    assert current is not None
    await settle([mine, theirs], current.version)
    # A spectator arrives at the other process; its count has not reached the writer.
    watch = other.feed.watches[table_id]
    watch.watchers_now += 1
    game = game_of(current)
    assert game is not None and game.turn is not None
    turn = game.turn
    choice = game.legal_for(turn)[0]
    known = writer.feed.latest(table_id) if turn == 0 else other.feed.latest(table_id)
    assert known is not None
    mover = writer if turn == 0 else other
    await play.play(mover.store, people[turn].id, table_id, choice["tile"], choice["end"],
                    known.version, known.table, known.take_game())
    await settle([mine, theirs], current.version + 1)
    assert theirs.views[-1]["spectators"] == mine.views[-1]["spectators"] + 1
    assert theirs.views[-1]["you"] == 1 and mine.views[-1]["you"] == 0
