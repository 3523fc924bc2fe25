"""PROTOCOL §3 game records and §5 `domino replay`: mutated records are rejected at the right
round and move; records with explicit hands; the CLI's exit codes and messages."""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import RecordError, replay_record
from tests.engine.driver import random_playout, start
from tests.engine.reference import (
    DOUBLE_SIX,
    RefGame,
    classic_hand_size,
    deal_attempt,
    goat_deal,
    tp,
    ts,
)

ROOT = Path(__file__).resolve().parents[2]
GAMES = [
    ("goat", 2, {"fish_rule": "one"}),
    ("goat", 3, {}),
    ("goat", 4, {"fish_rule": "one"}),
    ("classic", 2, {}),
    ("classic", 4, {}),
]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def finished_record(index: int) -> str:
    variant, n, options = GAMES[index]
    import hashlib

    played = start(variant, n, options, hashlib.sha256(f"records-{index}".encode()).digest())
    random_playout(played, random.Random(index), check_every=50)
    return json.dumps(played.game.record([f"p{i}" for i in range(n)]))


def record(index: int) -> dict:
    return json.loads(finished_record(index))


def ref_before(rec: dict, r: int, m: int) -> RefGame:
    """The reference model right before move m of round r of a seeded record."""
    n = len(rec["players"])
    ref = RefGame(rec["variant"], n, rec["options"], bytes.fromhex(rec["seed"]))
    for ri, rnd in enumerate(rec["rounds"]):
        for mi, mv in enumerate(rnd["moves"]):
            if (ri, mi) == (r, m):
                return ref
            ref.play(mv["seat"], mv["tile"], mv.get("end"))
    raise AssertionError("position not in record")


def positions(rec: dict) -> list[tuple[int, int]]:
    return [(r, m) for r, rnd in enumerate(rec["rounds"]) for m in range(len(rnd["moves"]))]


def assert_rejected_at(rec: dict, r: int, m: int) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay_record(rec)
    err = info.value
    assert (err.round, err.move) == (r, m), str(err)
    assert str(err).startswith(f"round {r} move {m}: ")
    assert len(str(err)) > len(f"round {r} move {m}: ")
    return err


def strip_outputs(rec: dict) -> dict:
    out = {k: rec[k] for k in ("format", "variant", "options", "players", "seed", "timeout")}
    out["rounds"] = [{"moves": r["moves"]} for r in rec["rounds"]]
    return out


# --- mutated records --------------------------------------------------------------------------


@SETTINGS
@given(game=st.integers(0, len(GAMES) - 1), pick=st.integers(0, 10**6), data=st.data())
def test_wrong_seat_is_rejected_at_that_move(game: int, pick: int, data) -> None:
    """PROTOCOL §3/§5: a move by a seat that is not on turn (RULES §1.3) is rejected as
    "round R move M: <reason>"."""
    rec = strip_outputs(record(game))
    r, m = positions(rec)[pick % len(positions(rec))]
    n = len(rec["players"])
    mv = rec["rounds"][r]["moves"][m]
    mv["seat"] = (mv["seat"] + data.draw(st.integers(1, n - 1))) % n
    assert_rejected_at(rec, r, m)


@SETTINGS
@given(game=st.integers(0, len(GAMES) - 1), pick=st.integers(0, 10**6), data=st.data())
def test_tile_not_in_hand_is_rejected_at_that_move(game: int, pick: int, data) -> None:
    """PROTOCOL §3/§5: a tile the mover does not hold (another hand's, the bazaar's, the
    table's, or no tile of the set) is rejected at that move."""
    rec = strip_outputs(record(game))
    r, m = positions(rec)[pick % len(positions(rec))]
    ref = ref_before(rec, r, m)
    mv = rec["rounds"][r]["moves"][m]
    own = ref.round.hands[mv["seat"]]
    foreign = [ts(t) for t in DOUBLE_SIX if t not in own] + ["7-7", "6-9", "banana"]
    mv["tile"] = data.draw(st.sampled_from(foreign))
    assert_rejected_at(rec, r, m)


def test_tile_not_matching_the_end_is_rejected() -> None:
    """PROTOCOL §3: a tile played on an end must match it (RULES §1.3); naming the other end,
    or an end that does not exist, is rejected at that move."""
    checked = 0
    for game in range(len(GAMES)):
        rec = strip_outputs(record(game))
        rng = random.Random(game)
        candidates = [p for p in positions(rec) if p[1] > 0]
        for r, m in rng.sample(candidates, 12):
            ref = ref_before(rec, r, m)
            mv = rec["rounds"][r]["moves"][m]
            fits = ref.round.fits(tp(mv["tile"]))
            bad = json.loads(json.dumps(rec))
            if len(fits) == 1:
                bad["rounds"][r]["moves"][m]["end"] = "left" if fits == ["right"] else "right"
                assert_rejected_at(bad, r, m)
                checked += 1
            bad = json.loads(json.dumps(rec))
            bad["rounds"][r]["moves"][m]["end"] = "up"
            assert_rejected_at(bad, r, m)
    assert checked > 5


def test_missing_end_when_both_fit_is_rejected() -> None:
    """PROTOCOL §3: `end` is required whenever the tile fits more than one open end."""
    checked = 0
    for game in range(len(GAMES)):
        rec = strip_outputs(record(game))
        for r, m in positions(rec):
            if m == 0:
                continue
            mv = rec["rounds"][r]["moves"][m]
            if "end" not in mv:
                continue
            ref = ref_before(rec, r, m)
            if len(ref.round.fits(tp(mv["tile"]))) == 2:
                bad = json.loads(json.dumps(rec))
                del bad["rounds"][r]["moves"][m]["end"]
                assert_rejected_at(bad, r, m)
                checked += 1
                break
    assert checked >= 2


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_first_lead_other_than_the_required_tile_is_rejected(game: int) -> None:
    """RULES §1.2 (Goat: 1-1, 2-2, ...; §2 Classic: 6-6, ...): the first lead must be the
    required tile; any other tile of the leader's hand is rejected at round 0 move 0."""
    rec = strip_outputs(record(game))
    ref = ref_before(rec, 0, 0)
    lead = rec["rounds"][0]["moves"][0]
    for t in ref.round.hands[lead["seat"]]:
        if ts(t) != lead["tile"]:
            bad = json.loads(json.dumps(rec))
            bad["rounds"][0]["moves"][0]["tile"] = ts(t)
            assert_rejected_at(bad, 0, 0)


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_moves_after_the_game_ended_are_rejected(game: int) -> None:
    """PROTOCOL §5: the first illegal or inconsistent move is reported; nothing may follow
    the end of the game (RULES §1.8 / §2 target)."""
    rec = strip_outputs(record(game))
    last = len(rec["rounds"]) - 1
    bad = json.loads(json.dumps(rec))
    bad["rounds"][last]["moves"].append({"seat": 0, "tile": "0-0"})
    assert_rejected_at(bad, last, len(rec["rounds"][last]["moves"]))
    bad = json.loads(json.dumps(rec))
    bad["rounds"].append({"moves": [{"seat": 0, "tile": "0-0"}]})
    assert_rejected_at(bad, last + 1, 0)


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_explicit_hands_replay_like_the_seed(game: int) -> None:
    """PROTOCOL §3: with "seed": null the hands and bazaar of every round are given explicitly
    and the record replays to the same result; with a seed, given hands must match it."""
    rec = record(game)
    variant, n, _ = GAMES[game]
    seed = bytes.fromhex(rec["seed"])
    explicit = strip_outputs(rec)
    explicit["seed"] = None
    for r, rnd in enumerate(explicit["rounds"]):
        if variant == "goat":
            hands, bazaar, _k = goat_deal(seed, r, n)
        else:
            hands, bazaar = deal_attempt(seed, r, 0, n, classic_hand_size(n))
        rnd["hands"] = [[ts(t) for t in h] for h in hands]
        rnd["bazaar"] = [ts(t) for t in bazaar]
    out = replay_record(json.loads(json.dumps(explicit)))
    assert out["result"] == rec["result"]
    assert [r["end"] for r in out["rounds"]] == [r["end"] for r in rec["rounds"]]
    # The same hands next to the seed that produced them are consistent.
    with_seed = json.loads(json.dumps(explicit))
    with_seed["seed"] = rec["seed"]
    assert replay_record(with_seed)["result"] == rec["result"]
    # A seed that does not reproduce the given hands is rejected at that round's move 0.
    wrong = json.loads(json.dumps(explicit))
    wrong["seed"] = "ab" * 32
    with pytest.raises(RecordError) as info:
        replay_record(wrong)
    assert info.value.move == 0 and info.value.round == 0
    # Bazaar order matters: draws take from its front (RULES §10).
    swapped = json.loads(json.dumps(explicit))
    swapped["seed"] = rec["seed"]
    bz = swapped["rounds"][0]["bazaar"]
    if len(bz) >= 2:
        bz[0], bz[-1] = bz[-1], bz[0]
        assert_rejected_at(swapped, 0, 0)


def test_explicit_hands_must_be_the_set() -> None:
    """RULES §1.1 / §10: the hands and bazaar are the 28 tiles once each."""
    rec = strip_outputs(record(1))
    seed = bytes.fromhex(rec["seed"])
    hands, bazaar, _ = goat_deal(seed, 0, 3)
    base = {**rec, "seed": None, "rounds": [rec["rounds"][0]]}
    base["rounds"][0] = {
        "hands": [[ts(t) for t in h] for h in hands],
        "bazaar": [ts(t) for t in bazaar],
        "moves": rec["rounds"][0]["moves"][:1],
    }
    assert replay_record(json.loads(json.dumps(base)))["result"] is None
    dup = json.loads(json.dumps(base))
    dup["rounds"][0]["bazaar"][0] = dup["rounds"][0]["hands"][0][0]
    assert_rejected_at(dup, 0, 0)
    short = json.loads(json.dumps(base))
    short["rounds"][0]["bazaar"].pop()
    assert_rejected_at(short, 0, 0)
    seven = json.loads(json.dumps(base))
    seven["rounds"][0]["hands"][1].append(seven["rounds"][0]["bazaar"].pop())
    assert_rejected_at(seven, 0, 0)


def test_hands_that_should_have_been_redealt_are_rejected() -> None:
    """RULES §1.1: a hand with 5+ doubles or 6+ tiles sharing a number is redealt; a record
    giving such hands is rejected at round 0 move 0."""
    import hashlib

    for i in range(3000):
        seed = hashlib.sha256(f"rec-redeal-{i}".encode()).digest()
        if goat_deal(seed, 0, 4)[2] > 0:
            break
    hands, bazaar = deal_attempt(seed, 0, 0, 4, 7)
    ref_seat = next(s for s, h in enumerate(hands) if (1, 1) in h)
    rec = {
        "format": "domino-record/1",
        "variant": "goat",
        "options": {},
        "players": ["a", "b", "c", "d"],
        "seed": None,
        "rounds": [
            {
                "hands": [[ts(t) for t in h] for h in hands],
                "bazaar": [ts(t) for t in bazaar],
                "moves": [{"seat": ref_seat, "tile": "1-1"}],
            }
        ],
        "timeout": None,
    }
    assert_rejected_at(rec, 0, 0)


@pytest.mark.parametrize(
    "broken",
    [
        [],
        "text",
        {},
        {"format": "domino-record/2"},
        {
            "format": "domino-record/1",
            "variant": "goat",
            "options": {},
            "players": ["a"],
            "seed": "00" * 32,
            "rounds": [],
            "timeout": None,
        },
        {
            "format": "domino-record/1",
            "variant": "chess",
            "options": {},
            "players": ["a", "b"],
            "seed": "00" * 32,
            "rounds": [],
            "timeout": None,
        },
        {
            "format": "domino-record/1",
            "variant": "goat",
            "options": {"fish_rule": "some"},
            "players": ["a", "b"],
            "seed": "00" * 32,
            "rounds": [],
            "timeout": None,
        },
        {
            "format": "domino-record/1",
            "variant": "goat",
            "options": {},
            "players": ["a", "b"],
            "seed": "not hex",
            "rounds": [],
            "timeout": None,
        },
        {
            "format": "domino-record/1",
            "variant": "goat",
            "options": {},
            "players": ["a", "b"],
            "seed": "00" * 32,
            "rounds": [{"moves": [{"seat": "x", "tile": 5}]}],
            "timeout": None,
        },
        {
            "format": "domino-record/1",
            "variant": "goat",
            "options": {},
            "players": ["a", "b"],
            "seed": "00" * 32,
            "rounds": "many",
            "timeout": None,
        },
    ],
)
def test_malformed_records_are_record_errors(broken: object) -> None:
    """PROTOCOL §5: a malformed record is an error message "round R move M: <reason>", never a
    crash (RecordError, not KeyError/TypeError)."""
    with pytest.raises(RecordError) as info:
        replay_record(broken)  # type: ignore[arg-type]
    assert str(info.value).startswith(f"round {info.value.round} move {info.value.move}: ")


# --- the CLI ---------------------------------------------------------------------------------


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_replay_file_and_stdin(tmp_path: Path) -> None:
    """PROTOCOL §5: `domino replay FILE` (`-` for stdin) prints the completed record as JSON
    on stdout and exits 0."""
    rec = record(2)
    bare = strip_outputs(rec)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bare))
    done = run_cli(str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["result"] == rec["result"]
    assert [r["end"] for r in out["rounds"]] == [r["end"] for r in rec["rounds"]]
    piped = run_cli("-", stdin=json.dumps(bare))
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout) == out


def test_cli_rejects_bad_records_with_exit_2(tmp_path: Path) -> None:
    """PROTOCOL §5: on the first illegal or inconsistent move `domino replay` exits 2 and
    prints `round R move M: <reason>` on stderr."""
    rec = strip_outputs(record(0))
    r, m = positions(rec)[len(positions(rec)) // 2]
    bad = json.loads(json.dumps(rec))
    n = len(rec["players"])
    bad["rounds"][r]["moves"][m]["seat"] = (bad["rounds"][r]["moves"][m]["seat"] + 1) % n
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    done = run_cli(str(path))
    assert done.returncode == 2
    assert f"round {r} move {m}: " in done.stderr
    assert done.stdout.strip() == ""
    piped = run_cli("-", stdin=json.dumps(bad))
    assert piped.returncode == 2 and f"round {r} move {m}: " in piped.stderr
    for text in ("{not json", "", "[1, 2]"):
        broken = run_cli("-", stdin=text)
        assert broken.returncode == 2, text
        assert broken.stderr.strip(), text
        assert "Traceback" not in broken.stderr
