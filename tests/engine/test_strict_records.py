"""Strict records and commands (PROTOCOL's tiles, §3 and §5; RULES §12): a tile written
backwards is refused, not rewritten; a General record's finished round must give its
`ended_ms`; a fault in a round's own fields is named just past the round's last move."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from app.engine import IllegalMove, RecordError, new_game, replay_record, start_game
from app.engine.tiles import parse_tile
from tests.engine.family import choose, dealt, exported


def backwards(tile: str) -> str:
    a, b = tile.split("-")
    return f"{b}-{a}"


def rejected_at(record: dict[str, Any], r: int, m: int) -> str:
    with pytest.raises(RecordError) as error:
        replay_record(record)
    assert (error.value.round, error.value.move) == (r, m), str(error.value)
    return str(error.value)


def goat_record() -> dict[str, Any]:
    game = new_game("goat", 2, {}, bytes(range(32)))
    rng = random.Random(3)
    while game.round < 2:
        game.play(game.turn, rng.choice(list(game.legal_moves())))
    return exported(game)


def test_a_tile_written_backwards_is_refused_in_a_command() -> None:
    """PROTOCOL: "Tiles are strings "a-b" with a <= b ...; a tile written otherwise ("5-3")
    is refused, in a command and in a record." The move is refused and changes nothing; the
    same tile written "a-b" is then accepted."""
    game = new_game("goat", 2, {}, bytes(range(32)))
    seat = game.turn
    lead = next(m for m in game.legal_moves())
    game.play(seat, lead)
    seat = game.turn
    move = next(m for m in game.legal_moves() if not m.tile.is_double)
    before = game.to_dict()
    with pytest.raises(IllegalMove, match="backwards"):
        game.play(seat, backwards(str(move.tile)), move.end)
    assert game.to_dict() == before
    game.play(seat, str(move.tile), move.end)
    with pytest.raises(ValueError, match="backwards"):
        parse_tile("5-3")
    assert str(parse_tile("3-5")) == "3-5"


def test_a_tile_written_backwards_is_refused_in_a_record() -> None:
    """PROTOCOL: a tile written otherwise is refused "in a record": in a move, at that
    move; in a given deal, at move 0 of its round."""
    record = goat_record()
    r = 1
    m = next(i for i, mv in enumerate(record["rounds"][r]["moves"])
             if parse_tile(mv["tile"]).low != parse_tile(mv["tile"]).high)
    broken = copy.deepcopy(record)
    broken["rounds"][r]["moves"][m]["tile"] = backwards(broken["rounds"][r]["moves"][m]["tile"])
    assert "backwards" in rejected_at(broken, r, m)
    # A deal given in the record (no seed).
    game = dealt("sea_goat", [["0-0", "0-3", "3-3", "5-5", "2-6", "4-6", "1-2"],
                              ["0-1", "1-1", "2-4", "4-5", "2-3", "1-4", "1-6"]])
    given = exported(game)
    given["rounds"][0]["hands"][1][0] = "1-0"
    assert "backwards" in rejected_at(given, 0, 0)


def test_a_second_double_written_backwards_is_refused() -> None:
    """The same holds for a tile in a move's `also` (Sea Goat's two doubles): only a-b with
    a <= b names a tile, so "4-4" is fine and a non-double written backwards is not."""
    game = dealt("sea_goat", [["0-0", "0-3", "3-3", "4-4", "2-6", "5-6", "1-2"],
                              ["0-1", "1-1", "2-4", "4-5", "2-3", "1-4", "1-6"]])
    with pytest.raises(IllegalMove, match="backwards"):
        game.play(0, "0-0", also=[{"tile": "3-0", "end": "left"}])


def general_record(step_ms: int = 7 * 60_000) -> dict[str, Any]:
    """A whole General game played against a clock, as the server writes it."""

    class Clock:
        now = 1_700_000_000_000

        def __call__(self) -> int:
            self.now += step_ms
            return self.now

    game, _ = start_game("general", 4, {}, bytes(range(32)), clock=Clock())
    rng = random.Random(5)
    while game.status == "playing":
        game.play(game.turn, choose(game, rng))
    record = exported(game)
    assert len(record["rounds"]) >= 3 and record["result"]["reason"] == "time"
    return record


@pytest.mark.parametrize("r", [0, -1])
def test_a_general_record_whose_finished_round_has_no_ended_ms_is_refused(r: int) -> None:
    """RULES §12: "a finished round without it [its end time] ... is refused", and PROTOCOL
    §5: "a fault in a round's own fields, such as a missing `ended_ms`, names M = that
    round's number of moves, just past its last"."""
    record = general_record()
    r = r % len(record["rounds"])
    broken = copy.deepcopy(record)
    del broken["rounds"][r]["ended_ms"]
    reason = rejected_at(broken, r, len(record["rounds"][r]["moves"]))
    assert "ended_ms" in reason


def test_an_ended_ms_before_the_round_before_is_named_past_the_rounds_last_move() -> None:
    """PROTOCOL §5: the round's own fields are faulted at M = its number of moves: an
    `ended_ms` earlier than the round before's, or not a whole number."""
    record = general_record()
    for bad in (record["rounds"][0]["ended_ms"] - 1, "600000", True):
        broken = copy.deepcopy(record)
        broken["rounds"][1]["ended_ms"] = bad
        assert "ended_ms" in rejected_at(broken, 1, len(record["rounds"][1]["moves"]))


def test_a_bad_move_comes_before_the_rounds_own_fields() -> None:
    """A round with a faulty move and no `ended_ms`: the first fault is the move's."""
    record = general_record()
    broken = copy.deepcopy(record)
    del broken["rounds"][1]["ended_ms"]
    broken["rounds"][1]["moves"][2]["seat"] = (broken["rounds"][1]["moves"][2]["seat"] + 1) % 4
    rejected_at(broken, 1, 2)


def test_the_cli_names_the_missing_ended_ms_past_the_last_move(tmp_path) -> None:
    """PROTOCOL §5: `domino replay` exits 2 with `round R move M: <reason>`."""
    record = general_record()
    del record["rounds"][0]["ended_ms"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    moves = len(record["rounds"][0]["moves"])
    assert done.stderr.startswith(f"round 0 move {moves}: "), done.stderr
    assert "ended_ms" in done.stderr
