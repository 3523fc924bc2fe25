"""A change's views are made once, by the process that made the change, and every other
process that serves the table sends them as they came: each seat's own view only ever to
that seat's sockets, the spectators' to spectators; a process whose counts differ from the
writer's makes its own. A move that comes to a process that did not make the table's last
change is applied by the one that did (it holds the table parsed), with the same refusals.

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

from app.db.session import Database
from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.services.durable.finish import Finisher
from app.services.fanout.feed import Feed, Snapshot
from app.services.play import moves
from app.services.play.relay import Relay
from app.services.tables import lobby
from app.services.tables.table import Person
from app.services.tables.transact import ServiceError, game_of, load


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
    relay: Relay


@pytest.fixture
async def processes(redis_url: str, redis_prefix: str,
                    pg_url: str) -> AsyncIterator[list[Process]]:
    prefix = f"{redis_prefix}_announce_{secrets.token_hex(3)}"
    made = []
    db = Database(pg_url)  # no game here ends: the finishers write nothing
    for n in range(2):
        store = LiveStore(connect(redis_url), prefix)
        hub = Hub(store)
        feed = Feed(store, hub, f"process-{n}")
        await feed.start()
        relay = Relay(store, hub, feed, Finisher(store, db))
        await relay.start()
        made.append(Process(store, feed, relay))
    yield made
    for process in made:
        await process.relay.stop()
        await process.feed.stop()
        await process.store.close()
    await db.engine.dispose()


async def settle(sockets: list[Socket], version: int) -> None:
    for _ in range(200):
        if all(s.last_sent >= version for s in sockets):
            return
        await asyncio.sleep(0.01)
    raise AssertionError([s.last_sent for s in sockets])


async def counted(processes: list[Process], table_id: str, connected: set[int],
                  spectators: int) -> None:
    """Who is connected, and how many watch, as every process hears it from the store
    (until then a process that knows better than the writer makes its own views)."""
    for _ in range(300):
        watches = [p.feed.watches[table_id] for p in processes]
        if all(w.connected == connected and w.spectators_now() == spectators
               for w in watches):
            return
        await asyncio.sleep(0.01)
    raise AssertionError([(w.connected, w.spectators_now()) for w in watches])


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
    await counted(processes, table_id, {0, 1, 2, 3}, 2)
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
        await moves.play(mover.store, people[turn].id, table_id, choice["tile"], choice["end"],
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
    await moves.play(mover.store, people[turn].id, table_id, choice["tile"], choice["end"],
                    known.version, known.table, known.take_game())
    await settle([mine, theirs], current.version + 1)
    assert theirs.views[-1]["spectators"] == mine.views[-1]["spectators"] + 1
    assert theirs.views[-1]["you"] == 1 and mine.views[-1]["you"] == 0


async def test_a_move_is_applied_by_the_process_that_holds_the_table(
    processes: list[Process],
) -> None:
    """Seat 1's socket is on the process that did not make the last change: its move goes
    to the one that did, which applies it on the table it holds; the relaying process
    parses nothing. A refused move is refused as it would be anywhere, and changes
    nothing; a holder that is gone is not waited for."""
    people = [Person(300 + n, f"r{n}") for n in range(2)]
    holder, relaying = processes
    made = await lobby.create_table(holder.store, people[0],
                                    lobby.Terms("goat", seats=2, options={}, rated=False))
    table_id = made["id"]
    sockets = [Socket(people[0].id), Socket(people[1].id)]
    await holder.feed.subscribe_table(sockets[0], table_id)
    await relaying.feed.subscribe_table(sockets[1], table_id)
    await lobby.join(holder.store, people[1], table_id, 1)
    await counted(processes, table_id, {0, 1}, 0)
    # Play until seat 1 is on turn at a version the holder made once both counts were known:
    # seat 0 on the holder, seat 1 through the relay.
    written_since = False
    while True:
        current = await load(holder.store, table_id)
        assert current is not None
        seq = current.version
        await settle(sockets, seq)
        game = game_of(current)
        assert game is not None and game.turn is not None
        if game.turn == 1 and written_since:
            break
        choice = game.legal_for(game.turn)[0]
        if game.turn == 0:
            known = holder.feed.latest(table_id)
            assert known is not None
            await moves.play(holder.store, people[0].id, table_id, choice["tile"],
                            choice["end"], seq, known.table, known.take_game())
        else:
            assert await relaying.relay.play(holder.store.writer_prefix, people[1].id,
                                             table_id, choice["tile"], choice["end"], seq,
                                             None, None) is not None
        written_since = True
    known = relaying.feed.latest(table_id)
    assert known is not None and known.version == seq
    assert known.holder == holder.store.writer_prefix and not known.table_parsed
    stored = await load(holder.store, table_id)
    assert stored is not None
    game = game_of(stored)
    assert game is not None and game.turn == 1
    # Refused there as here: a stale seq, a tile not in the hand, and the wrong player.
    for args, code in (((seq - 1, "6-6"), "stale"),
                       ((seq, "9-9"), "illegal_move")):
        with pytest.raises(ServiceError) as refused:
            await relaying.relay.play(holder.store.writer_prefix, people[1].id, table_id,
                                      args[1], None, args[0], None, None)
        assert refused.value.code == code
    with pytest.raises(ServiceError) as refused:
        await relaying.relay.play(holder.store.writer_prefix, people[0].id, table_id,
                                  "0-0", None, seq, None, None)
    assert refused.value.code == "not_your_turn"
    assert (await load(holder.store, table_id)).version == seq  # type: ignore[union-attr]
    # A move the holder applies is answered by its announcement alone: nothing more comes
    # on the relaying process's channel (each refusal above was a message of its own).
    listener = relaying.store.redis.pubsub()
    await listener.subscribe(relaying.relay.channel)
    await listener.get_message(timeout=1.0)  # the confirmation
    choice = game.legal_for(1)[0]
    done = await relaying.relay.play(holder.store.writer_prefix, people[1].id, table_id,
                                     choice["tile"], choice["end"], seq, None, None)
    assert done is not None and done.version == seq + 1
    assert await listener.get_message(timeout=0.5) is None
    await listener.aclose()
    # Its announcement came before the answer; the relaying process parsed nothing.
    shown = relaying.feed.latest(table_id)
    assert shown is not None and shown.version == seq + 1 and not shown.table_parsed
    held = holder.feed.latest(table_id)
    assert held is not None and held.version == seq + 1 and held.table_parsed
    await settle(sockets, seq + 1)
    assert sockets[1].views[-1]["you"] == 1 and sockets[0].views[-1]["you"] == 0
    # A holder that is gone: nobody listens on its channel, and the move is left to here.
    assert await relaying.relay.play("0123456789ab", people[1].id, table_id, "0-0", None,
                                     seq + 1, None, None) is None
