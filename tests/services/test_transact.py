"""`transact` on the real Redis: it retries a command that lost its compare-and-set to a
concurrent writer (other stores, each with its own connection, as other processes have),
so no change is lost or made twice and the versions have no gaps."""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import orjson
import pytest

from app.live.store import LiveStore, connect
from app.services.gathering.seating import seat_and_start
from app.services.tables import lobby
from app.services.tables.lobby import Deal, seating
from app.services.tables.table import REMOVE, Person, Remove, Step, Table
from app.services.tables.transact import ServiceError, load, transact


@pytest.fixture
async def stores(redis_url: str, redis_prefix: str) -> AsyncIterator[list[LiveStore]]:
    """Four stores on one Redis key space, each with its own client: four processes."""
    prefix = f"{redis_prefix}_tx_{secrets.token_hex(3)}"
    made = [LiveStore(connect(redis_url), prefix) for _ in range(4)]
    yield made
    for store in made:
        await store.close()


def counted(command: Callable[[Table], Step | None], calls: list[int]
            ) -> Callable[[Table], Step | None]:
    def apply(table: Table) -> Step | None:
        calls.append(table.version)
        return command(table)

    return apply


def note(n: int) -> Callable[[Table], Step]:
    """A change that only logs an event of its own."""
    return lambda table: Step(table, [{"type": "note", "n": n}])


async def a_table(store: LiveStore, seats: int = 4) -> str:
    made = await lobby.create_table(store, Person(1, "p1"), lobby.Terms("goat", seats=seats))
    return str(made["id"])


async def test_concurrent_writers_all_get_their_change_once_at_versions_without_gaps(
    stores: list[LiveStore],
) -> None:
    table_id = await a_table(stores[0])
    calls: list[int] = []
    changes = await asyncio.gather(*(
        transact(stores[n % 4], table_id, counted(note(n), calls)) for n in range(12)
    ))
    assert sorted(c.version for c in changes if c is not None) == list(range(2, 14))
    assert len(calls) > 12, "the writers met: some commands were applied again"
    table = await load(stores[0], table_id)
    assert table is not None and table.version == 13
    logged = sorted(e["n"] for entry in table.log for e in entry.events)
    assert logged == list(range(12))  # each change once
    assert [entry.v for entry in table.log] == list(range(2, 14))


async def test_concurrent_joins_fill_distinct_seats_and_the_last_starts_the_game(
    stores: list[LiveStore],
) -> None:
    table_id = await a_table(stores[0])
    people = [Person(n, f"p{n}") for n in (2, 3, 4)]
    seated = await asyncio.gather(*(
        lobby.join(stores[n + 1], who, table_id) for n, who in enumerate(people)))
    assert sorted(seat for seat, _ in seated) == [1, 2, 3]
    table = await load(stores[0], table_id)
    assert table is not None and table.status == "playing" and table.version == 4
    assert table.seats[0] == Person(1, "p1")
    assert {table.seats[seat] for seat, _ in seated} == set(people)
    assert {seat: table.seats[seat] for seat, _ in seated} == {
        seat: who for (seat, _), who in zip(seated, people, strict=True)}


async def test_a_command_tried_on_a_held_table_that_is_behind_is_applied_again_on_a_fresh_read(
    stores: list[LiveStore],
) -> None:
    table_id = await a_table(stores[0])
    held = await load(stores[0], table_id)
    assert held is not None
    await transact(stores[1], table_id, note(0))  # another process writes first
    calls: list[int] = []
    change = await transact(stores[0], table_id, counted(note(1), calls), known=held)
    assert change is not None and change.version == 3
    assert calls == [1, 2]
    # A move is chosen at one version: it is not applied again, it is stale.
    calls.clear()
    with pytest.raises(ServiceError) as refused:
        await transact(stores[0], table_id, counted(note(2), calls), known=held, retry=False)
    assert refused.value.code == "stale" and calls == [1]
    table = await load(stores[0], table_id)
    assert table is not None and table.version == 3


async def test_a_refusal_on_a_held_table_is_checked_against_a_fresh_read(
    stores: list[LiveStore],
) -> None:
    table_id = await a_table(stores[0])
    held = await load(stores[0], table_id)
    assert held is not None
    # The held table says seat 1 is taken (as an older copy might): the store says it is free.
    taken = held.with_seat(1, Person(9, "p9"))
    deal = Deal.fresh()
    change = await transact(stores[0], table_id,
                            seating(lambda seat: Person(2, "p2"), 1, deal), known=taken)
    assert change is not None and change.table.seats[1] == Person(2, "p2")


async def test_a_command_that_changes_nothing_writes_nothing(stores: list[LiveStore]) -> None:
    table_id = await a_table(stores[0])
    change = await transact(stores[0], table_id, lambda table: None)
    assert change is not None and not change.written and change.version == 1
    table = await load(stores[1], table_id)
    assert table is not None and table.version == 1


async def test_a_removal_is_made_once_and_only_at_the_version_read(
    stores: list[LiveStore],
) -> None:
    table_id = await a_table(stores[0])
    calls: list[int] = []

    def remove_at_two(table: Table) -> Step | Remove:
        calls.append(table.version)
        return REMOVE if table.version == 2 else Step(table, [{"type": "note"}])

    held = await load(stores[0], table_id)
    assert held is not None
    await transact(stores[1], table_id, note(0))
    assert await transact(stores[0], table_id, remove_at_two,
                          known=replace(held)) is None
    assert calls == [1, 2]  # not at the version held: the write lost; removed at the next
    assert await load(stores[2], table_id) is None
    with pytest.raises(ServiceError) as refused:
        await transact(stores[0], table_id, note(1))
    assert refused.value.code == "not_found"


async def test_a_private_table_is_never_told_to_the_lobby_made_joined_started_or_removed(
    stores: list[LiveStore],
) -> None:
    store = stores[0]
    heard = store.redis.pubsub()
    await heard.subscribe(store.keys.lobby_channel)
    confirmed = await heard.get_message(timeout=5)
    assert confirmed is not None and confirmed["type"] == "subscribe"
    terms = lobby.Terms("goat", seats=2, rated=False, private=True)
    made = await lobby.create_table(store, Person(1, "p1"), terms)
    emptied = await lobby.create_table(store, Person(2, "p2"), terms)
    seated = await seat_and_start(store, [Person(3, "p3"), Person(4, "p4")], terms)
    hidden = {made["id"], emptied["id"], seated}
    await lobby.join(stores[1], Person(5, "p5"), made["id"])
    assert await lobby.leave(stores[2], Person(2, "p2"), emptied["id"]) is None
    assert await load(store, emptied["id"]) is None
    for table_id in (made["id"], seated):
        table = await load(stores[3], table_id)
        assert table is not None and table.status == "playing" and table.private
    joins = (await loaded_log(stores[3], seated))[:2]
    assert [(e["type"], e["player"]) for e in joins] == [("join", "p3"), ("join", "p4")]
    assert hidden.isdisjoint(Table.from_dict(t.state).id for t in await store.listed())
    assert hidden.isdisjoint(t["id"] for t in await lobby.list_tables(store))
    # A public table, made last, is told: everything before it was heard by then.
    shown = await lobby.create_table(store, Person(6, "p6"), replace(terms, private=False))
    told = []
    while shown["id"] not in told:
        message = await heard.get_message(timeout=5)
        assert message is not None, told
        told.append(orjson.loads(message["data"])["table_id"])
    assert hidden.isdisjoint(told)
    await heard.aclose()


async def loaded_log(store: LiveStore, table_id: str) -> list[dict[str, object]]:
    """Every event still in the table's log, oldest first."""
    table = await load(store, table_id)
    assert table is not None
    return [event for entry in table.log for event in entry.events]


# Another process: at each line it reads, one change of the table; it prints the version.
WRITER = """
import asyncio, sys
from app.live.store import LiveStore, connect
from app.services.tables.table import Step
from app.services.tables.transact import transact

async def main(url, prefix, table_id):
    store = LiveStore(connect(url), prefix)
    await store.load(table_id)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while (await loop.run_in_executor(None, sys.stdin.readline)).strip() == "go":
        change = await transact(store, table_id, lambda table: Step(table, [{"type": "note"}]))
        print(change.version, flush=True)
    await store.close()

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
"""


async def test_a_writer_in_another_process_and_this_one_both_get_every_change_in(
    stores: list[LiveStore], redis_url: str,
) -> None:
    """Both processes are told to change the table at the same moment, thirty times over:
    they meet, the loser of each compare-and-set reads again and writes after the winner."""
    table_id = await a_table(stores[0])
    rounds = 30
    other = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITER, redis_url, stores[0].keys.prefix, table_id,
        cwd=Path(__file__).resolve().parents[2], stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE)
    assert other.stdin is not None and other.stdout is not None
    try:
        assert (await other.stdout.readline()).strip() == b"ready"
        calls: list[int] = []
        mine, theirs = [], []
        for n in range(rounds):
            other.stdin.write(b"go\n")
            await other.stdin.drain()
            change = await transact(stores[0], table_id, counted(note(n), calls))
            assert change is not None
            mine.append(change.version)
            theirs.append(int(await other.stdout.readline()))
        other.stdin.write(b"stop\n")
        await other.stdin.drain()
        assert await other.wait() == 0
    finally:
        if other.returncode is None:
            other.kill()
            await other.wait()
    # Every change of both processes was made once, each at a version of its own.
    assert sorted(mine + theirs) == list(range(2, 2 + 2 * rounds))
    table = await load(stores[0], table_id)
    assert table is not None and table.version == 1 + 2 * rounds


async def test_nothing_to_do_on_a_held_table_is_checked_against_a_fresh_read(
    stores: list[LiveStore],
) -> None:
    table_id = await a_table(stores[0])
    held = await load(stores[0], table_id)
    assert held is not None
    await transact(stores[1], table_id, note(0))
    calls: list[int] = []

    def only_after_the_note(table: Table) -> Step | None:
        calls.append(table.version)
        return None if table.version == 1 else Step(table, [{"type": "seen"}])

    change = await transact(stores[0], table_id, only_after_the_note, known=held)
    assert change is not None and change.written and change.version == 3
    assert calls == [1, 2]
