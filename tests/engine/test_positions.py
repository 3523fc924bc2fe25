"""Positions for replay viewers (`replay_positions`): the engine replays a record and shows
every position of it, every hand included, in order."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engine import RecordError, new_game, replay_events, replay_positions


def played(variant: str, players: int, seed: int, options: dict | None = None):
    game = new_game(variant, players, options or {}, seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    while game.status == "playing":
        move = rng.choice(list(game.legal_moves()))
        game.play(game.turn, move.tile, move.end)
    return game


@pytest.mark.parametrize(("variant", "players"), [("goat", 2), ("goat", 4), ("classic", 3)])
@pytest.mark.parametrize("seed", range(4))
def test_every_position_of_a_game_in_order(variant: str, players: int, seed: int) -> None:
    game = played(variant, players, seed)
    record = game.record([f"p{i}" for i in range(players)])
    positions = replay_positions(record)
    moves = [m for rd in record["rounds"] for m in rd["moves"]]
    # One position per deal and one per placement, in the record's order.
    assert len(positions) == len(record["rounds"]) + len(moves)
    assert [p["played"] for p in positions if p["move"] >= 0] == moves
    for pos in positions:
        table = [c["tile"] for c in pos["chain"]]
        # Tiles are conserved at every position: hands + table + bazaar = the set.
        counts = Counter(t for hand in pos["hands"] for t in hand) + Counter(table)
        assert sum(counts.values()) + pos["bazaar"] == 28
        assert all(c == 1 for c in counts.values())
        if pos["move"] == -1:
            assert pos["chain"] == [] and pos["events"][-1]["type"] == "round_start"
    # Each round's last position is its end, shown with the line of play still down.
    ends = [p for p in positions if any(e["type"] == "round_end" for e in p["events"])]
    assert len(ends) == len(record["rounds"])
    for pos, rd in zip(ends, record["rounds"], strict=True):
        end = next(e for e in pos["events"] if e["type"] == "round_end")
        assert end["end"] == rd["end"] and end["hands"] == pos["hands"]
        assert pos["chain"]
    assert positions[-1]["events"][-1] == {
        "type": "game_end", "round": game.round, "result": game.result
    }


def test_a_timeout_is_the_last_position() -> None:
    game = new_game("goat", 4, {}, bytes(32))
    for _ in range(5):
        move = next(game.legal_moves())
        game.play(game.turn, move.tile, move.end)
    game.timeout(2)
    positions = replay_positions(game.record(["a", "b", "c", "d"]))
    assert [e["type"] for e in positions[-1]["events"]] == ["timeout", "round_end", "game_end"]
    assert positions[-1]["played"] is None and positions[-1]["move"] == 5


def test_a_bad_record_is_refused_like_replay() -> None:
    record = played("goat", 2, 1).record(["a", "b"])
    record["rounds"][0]["moves"][1]["seat"] ^= 1
    with pytest.raises(RecordError, match="round 0 move 1"):
        replay_positions(record)


@pytest.mark.parametrize(("variant", "players"), [
    ("goat", 4), ("mexican_train", 3), ("fives", 2), ("sea_goat", 2), ("general", 4)])
def test_the_events_of_a_game_are_those_of_its_positions(variant: str, players: int) -> None:
    """`replay_events` (a game's log for late arrivals) gives exactly the events of the
    positions, in order, for a finished game and for one stopped in the middle."""
    game = played(variant, players, 3)
    record = game.record([f"p{i}" for i in range(players)])
    assert replay_events(record) == [ev for pos in replay_positions(record) for ev in pos["events"]]
    running = new_game(variant, players, {}, (3).to_bytes(32, "big"))
    rng = random.Random(3)
    for _ in range(25):
        move = rng.choice(list(running.legal_moves()))
        running.play(running.turn, move.tile, move.end)
    partial = running.record([f"p{i}" for i in range(players)])
    events = replay_events(partial)
    assert events == [ev for pos in replay_positions(partial) for ev in pos["events"]]
    assert sum(ev["type"] == "play" for ev in events) >= 20
