"""Records that once replayed wrongly: each is refused at its first fault, by name, or
completed with nothing the record did not have (PROTOCOL §3, §5)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys

import pytest

from app.engine import RecordError, new_game, replay_record
from app.engine.tiles import value_order
from app.engine.variants import VARIANTS
from tests.engine.driver import random_playout, start

SEED = hashlib.sha256(b"record-faults").digest()


def _finished(variant: str = "goat", players: int = 2, options: dict | None = None) -> dict:
    played = start(variant, players, options or {"fish_rule": "one"}, SEED)
    random_playout(played, random.Random(7), check_every=50)
    rec = played.game.record([f"p{i}" for i in range(players)])
    assert len(rec["rounds"]) >= 3, "the test needs a game of several rounds"
    return {k: rec[k] for k in ("format", "variant", "options", "players", "seed", "timeout")} \
        | {"rounds": [{"moves": rd["moves"]} for rd in rec["rounds"]]}


def _rejected_at(rec: dict, r: int, m: int) -> str:
    with pytest.raises(RecordError) as info:
        replay_record(rec)
    assert (info.value.round, info.value.move) == (r, m), str(info.value)
    return str(info.value)


def test_an_unfinished_round_followed_by_more_rounds_is_refused_naming_it() -> None:
    rec = _finished()
    cut = copy.deepcopy(rec)
    # Round 1 loses its last two moves; rounds 2... follow as they were.
    kept = len(cut["rounds"][1]["moves"]) - 2
    cut["rounds"][1]["moves"] = cut["rounds"][1]["moves"][:kept]
    reason = _rejected_at(cut, 1, kept)
    assert "not over" in reason and "round 2" in reason
    # The same, when the following round has no moves at all (it was silently dropped).
    short = copy.deepcopy(cut)
    short["rounds"] = [*short["rounds"][:2], {"moves": []}]
    _rejected_at(short, 1, kept)


def test_an_unfinished_last_round_is_still_a_valid_record() -> None:
    rec = _finished()
    running = copy.deepcopy(rec)
    running["rounds"] = running["rounds"][:2]
    running["rounds"][1]["moves"] = running["rounds"][1]["moves"][:3]
    done = replay_record(running)
    assert done["result"] is None and len(done["rounds"]) == 2
    assert "end" not in done["rounds"][1]


@pytest.mark.parametrize("where", ["move", "timeout"])
def test_a_boolean_seat_is_refused(where: str) -> None:
    rec = _finished()
    bad = copy.deepcopy(rec)
    if where == "move":
        first = bad["rounds"][0]["moves"][0]
        assert first["seat"] in (0, 1)
        first["seat"] = bool(first["seat"])
        _rejected_at(bad, 0, 0)
    else:
        bad["timeout"] = {"round": 0, "seat": True}
        _rejected_at(bad, 0, 0)


def test_a_seeded_record_stopped_between_rounds_gains_no_round() -> None:
    rec = _finished()
    stopped = copy.deepcopy(rec)
    stopped["rounds"] = stopped["rounds"][:2]  # round 1 is over: the next is dealt at once
    done = replay_record(stopped)
    assert done["result"] is None
    assert len(done["rounds"]) == 2 and all("end" in rd for rd in done["rounds"])


def test_the_cli_names_the_unfinished_round(tmp_path) -> None:
    rec = _finished()
    rec["rounds"][0]["moves"] = rec["rounds"][0]["moves"][:2]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec))
    done = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("round 0 move 2: "), done.stderr


# --- two rules pinned ------------------------------------------------------------------


def test_tile_value_ties_are_broken_by_the_higher_half() -> None:
    """RULES 1.2: 5-6, 4-6, 3-6, 4-5, 2-6, 3-5, 1-6, 2-5, 3-4, 0-6, 1-5, 2-4, ..."""
    expected = ["5-6", "4-6", "3-6", "4-5", "2-6", "3-5", "1-6", "2-5", "3-4", "0-6", "1-5",
                "2-4"]
    assert [str(t) for t in value_order(6)[:12]] == expected
    for name in ("goat", "classic"):
        game = VARIANTS[name]
        order = game.first_lead_order() if name == "goat" else game.lead_order()
        names = [game.ts.names[i] for i in order]
        assert names[7:19] == expected, name


@pytest.mark.parametrize("target", [100, 150, 200])
def test_classic_ends_when_a_player_reaches_exactly_the_target(target: int) -> None:
    """RULES §2: the first player to reach the target wins; reaching it exactly is enough."""
    game = new_game("classic", 3, {"target": target}, SEED)
    game.totals = [target - 1, 40, 0]
    assert game.game_over() is None
    game.totals = [target, 40, 0]
    result = game.game_over()
    assert result is not None and result["reason"] == "target"
    assert result["winners"] == [0] and result["final"] == [target, 40, 0]
