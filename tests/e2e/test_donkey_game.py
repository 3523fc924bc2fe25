"""Donkey (RULES §8) end to end: a whole game over websockets on two server processes,
closed doubles laid and opened with their extra move fields, and no frame showing a
closed double's face while it lies face down."""

from __future__ import annotations

import random
from typing import Any

from app.engine import new_game
from tests.e2e.game import _tiles_in, check_finished_game, play_game, seat_players
from tests.servers import Server


def closed_positions(record: dict[str, Any]) -> dict[tuple[int, int], set[str]]:
    """(round, tiles on the table) -> the faces lying closed at that position, by replaying
    the record's moves on the engine."""
    game = new_game(
        record["variant"], len(record["players"]), record["options"], bytes.fromhex(record["seed"])
    )
    positions: dict[tuple[int, int], set[str]] = {}
    for r, rnd in enumerate(record["rounds"]):
        for m, move in enumerate(rnd["moves"]):
            extra = {k: v for k, v in move.items() if k not in ("seat", "tile", "end")}
            game.play(move["seat"], move["tile"], move.get("end"), **extra)
            if game.round == r:
                positions[(r, m + 1)] = {game.ts.names[c.tid] for c in game.board.closed.values()}
    return positions


async def lay_closed_and_open(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A player who opens a closed double whenever he may and lays a double closed whenever
    he may: with random moves alone a whole game can pass without a double ever opened (the
    deal is the server's own), and this test is about those two moves."""
    legal: list[dict[str, Any]] = view["legal"]
    for wanted in ("open", "closed"):
        some = [m for m in legal if m.get(wanted)]
        if some:
            return rng.choice(some)
    return rng.choice(legal)


async def test_a_donkey_game_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    game = await play_game(
        list(server_pair), variant="donkey", seats=3, seed=99, choose=lay_closed_and_open
    )
    record = await check_finished_game(server_pair[1], game)
    result = game.finals[0]["view"]["result"]
    assert result["reason"] == "goat" and max(result["final"]) >= 101
    moves = [m for rnd in record["rounds"] for m in rnd["moves"]]
    assert any(m.get("closed") for m in moves) and any("open" in m for m in moves)
    # Face down means unseen: no frame of a seat or the spectator names a tile lying closed.
    faces = closed_positions(record)
    seen_closed = 0
    for player in [*game.players, game.spectator]:
        for frame in player.states(game.table_id):
            view = frame["view"]
            if view["status"] != "playing":
                continue
            key = (view["round"], len(view["chain"]))
            hidden = faces.get(key, set())
            if not hidden:
                continue
            seen_closed += 1
            assert sum(1 for c in view["chain"] if c.get("closed")) == len(hidden)
            assert not _tiles_in(frame) & hidden, (key, hidden, frame)
    assert seen_closed


async def test_extra_move_fields_over_the_socket(server: Server) -> None:
    """PROTOCOL §2a: a variant's extra fields travel in `play`; a bad one is an
    `illegal_move` that changes nothing (a lead is never laid closed, "closed" is a
    boolean), and fields no variant reads are ignored as before."""
    seated = await seat_players([server], seats=2, variant="donkey", rated=False)
    state = await seated.first_playing_state()
    turn = state["view"]["turn"]
    player = seated.players[turn]
    state = await player.expect(
        lambda m: m["type"] == "table.state" and m["view"]["status"] == "playing"
        and m["view"]["legal"]
    )
    lead = state["view"]["legal"][0]
    base = {"type": "play", "table_id": seated.table_id, "tile": lead["tile"],
            "seq": state["seq"]}
    for fields, reason in (({"closed": True}, "never laid closed"),
                           ({"closed": "yes"}, "true or false"),
                           ({"open": "left"}, "no closed double")):
        reply = await player.request({**base, **fields})
        assert reply["type"] == "error" and reply["code"] == "illegal_move", reply
        assert reason in reply["message"]
    reply = await player.request({**base, "closed": False, "flourish": 1})
    assert reply["type"] == "table.state" and reply["seq"] == state["seq"] + 1, reply
    played = next(e for e in reply["events"] if e["type"] == "play")
    assert played["tile"] == lead["tile"]
