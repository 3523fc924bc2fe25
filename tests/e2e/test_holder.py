"""Where a move is applied when a table's sockets are on two processes (app.services.play.relay).

A process that has every seated player's socket applies the table's moves itself, even when
the table was made, joined and started through the other process: behind a proxy that
routes a table's sockets to one process (deploy/nginx), a move's work is done once, there.
With the seats split between the processes, a move arriving at the process that did not
make the table's last change is relayed to the one that did; every socket still sees every
version in order."""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.e2e.client import Player, autoplay, create_table, join, register
from tests.e2e.game import seat_players
from tests.e2e.test_protocol import move_of
from tests.servers import Server, scrape


def relayed(server: Server) -> float:
    return scrape(server)["domino_moves_relayed_total"]


async def play_a_game(made_on: Server, seat_servers: list[Server], seed: int) -> None:
    """A table made, joined and started through `made_on`'s HTTP; seat i's socket on
    `seat_servers[i]`; random moves to the end."""
    async with httpx.AsyncClient(base_url=made_on.url, timeout=30) as http:
        accounts = [await register(http) for _ in seat_servers]
        table_id = (await create_table(http, accounts[0], rated=False))["id"]
        players = [await Player(s.ws_url, a).connect() for s, a in zip(seat_servers, accounts,
                                                                          strict=True)]
        for p in players:
            assert (await p.request({"type": "table.subscribe", "table_id": table_id}))[
                "type"] == "table.state"
        for i in range(1, len(accounts)):
            assert await join(http, table_id, accounts[i], seat=i) == i
    rng = random.Random(seed)
    finals = await asyncio.gather(*(autoplay(p, table_id, random.Random(rng.random()))
                                    for p in players))
    assert all(f["errors"] == [] and f["view"]["status"] == "finished" for f in finals)
    # Every socket saw every version, in order (PROTOCOL: seq goes up by exactly 1), the
    # mover's too: the reply to a relayed move is its own version, not a later one.
    for p in players:
        seqs = [m["seq"] for m in p.states(table_id)]
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), seqs
        await p.close()


async def test_the_process_with_every_seat_applies_the_moves(
    server_pair: tuple[Server, Server],
) -> None:
    one, two = server_pair
    before = [relayed(one), relayed(two)]
    await play_a_game(one, [two] * 4, seed=1)
    assert [relayed(one), relayed(two)] == before  # `two` took the table over, nothing relayed
    # Seats split: one of the processes relays the moves of its seats to the other.
    await asyncio.gather(*(play_a_game(one, [one, two, one, two], seed=2 + n)
                           for n in range(3)))
    after = [relayed(one), relayed(two)]
    assert sum(after) - sum(before) > 10, (before, after)


async def test_a_relayed_refusal_is_said_in_the_movers_language(
    server_pair: tuple[Server, Server],
) -> None:
    """The holder refuses a relayed move with its words' key and parameters, so the mover's
    process says them in his language (PROTOCOL §2a), not in its code's general words."""
    one, two = server_pair
    seated = await seat_players([one, two], seats=2, rated=False)  # seat 1 joined on `two`
    subscribe = {"type": "table.subscribe", "table_id": seated.table_id}
    state = await seated.players[1].request(subscribe)
    if state["view"]["turn"] == 1:  # made on `two`, so `two` stays the holder
        assert (await seated.players[1].request(move_of(state)))["type"] == "table.state"
    me = seated.players[0]  # on `one`: its moves go to `two`
    await me.request({"type": "hello", "token": seated.accounts[0].token, "lang": "ru"})
    mine = await me.request(subscribe)
    assert mine["view"]["turn"] == 0
    hand = set(mine["view"]["hand"])
    on_board = {t["tile"] for t in mine["view"].get("chain", [])}
    foreign = next(f"{a}-{b}" for a in range(7) for b in range(a, 7)
                   if f"{a}-{b}" not in hand | on_board)
    before = relayed(one)
    refused = await me.request({**move_of(mine), "tile": foreign})
    assert refused["code"] == "illegal_move", refused
    assert refused["message"] == f"костяшки {foreign} нет у вас в руке"  # noqa: RUF001
    await me.request({"type": "hello", "lang": "en"})
    refused = await me.request({**move_of(mine), "tile": foreign})
    assert refused["message"] == f"{foreign} is not in your hand"
    # The refusals changed nothing; the move then goes through the holder as always.
    assert (await me.request(move_of(mine)))["seq"] == mine["seq"] + 1
    assert relayed(one) == before + 1
    for p in [*seated.players, seated.spectator]:
        await p.close()
