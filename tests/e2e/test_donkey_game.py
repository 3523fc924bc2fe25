"""Donkey (RULES §8) end to end: a whole game over websockets on two server processes,
closed doubles laid and opened with their extra move fields, and no frame showing a
closed double's face while it lies face down."""

from __future__ import annotations

from typing import Any

from app.engine import new_game
from tests.e2e.game import _tiles_in, check_finished_game, play_game
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


async def test_a_donkey_game_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    game = await play_game(list(server_pair), variant="donkey", seats=3, seed=99)
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
