"""Property tests over random seeded games (hypothesis): the engine against the reference model.

Each example plays a whole game with random legal moves drawn from game.legal_moves() and checks
after every placement: RULES §1.3-§1.9 (Goat) or §2 (Classic) via the reference model; tile
conservation (RULES §1.1: hands + bazaar + table = the set); views hide what they must
(PROTOCOL §2, DESIGN security); to_dict/game_from_dict round-trips mid-game; the record
replays to the same game (PROTOCOL §3).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import game_from_dict, replay_record
from tests.engine.driver import (
    ALL_TILES,
    Played,
    engine_legal,
    random_playout,
    start,
    tiles_in,
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.binary(min_size=32, max_size=32)
players = st.sampled_from([2, 3, 4])
goat_options = st.sampled_from([{"fish_rule": "all"}, {"fish_rule": "one"}])
classic_options = st.sampled_from([{}, {"target": 150}, {"target": 200}])


def check_conservation(played: Played) -> None:
    """RULES §1.1: hands + bazaar + table are exactly the set, never a duplicate."""
    game = played.game
    hands = [game.view(s)["hand"] for s in range(played.ref.n)]
    flat = [t for h in hands for t in h]
    assert len(flat) == len(set(flat))
    chain = game.view(None)["chain"]
    chain_tiles = [c["tile"] for c in chain]
    assert len(chain_tiles) == len(set(chain_tiles))
    assert not set(chain_tiles) & set(flat)
    assert len(flat) + len(chain_tiles) + game.view(None)["bazaar"] == 28
    # The full state holds the same tiles once each as well.
    state = game.to_dict()
    assert tiles_in(state) <= ALL_TILES


def check_record(played: Played, names: list[str]) -> dict:
    """PROTOCOL §3: the record lists every placement; replay reproduces the game exactly."""
    rec = played.game.record(names)
    assert json.loads(json.dumps(rec)) == rec
    assert rec["format"] == "domino-record/1"
    assert rec["players"] == names
    assert rec["seed"] == played.ref.seed.hex()
    got_moves = [[(m["seat"], m["tile"]) for m in r["moves"]] for r in rec["rounds"]]
    want_moves = [[(m["seat"], m["tile"]) for m in r] for r in played.moves]
    assert got_moves == want_moves
    for r in rec["rounds"]:
        for m in r["moves"][1:]:
            assert m.get("end") in ("left", "right", None)
    hist = played.ref.history
    for i, h in enumerate(hist):
        out = rec["rounds"][i]
        assert out["end"]["kind"] == h["kind"] and out["end"]["by"] == h["by"]
        assert out["end"]["points"] == h["points"]
        assert out["end"]["credited"] == h["credited"]
        assert out["scores"] == h["scores"]
        if played.ref.variant == "goat":
            assert out["remembered"] == h["remembered"]
            assert out["carry"] == h["carry"]
    if len(rec["rounds"]) > len(hist):
        assert "end" not in rec["rounds"][-1]
    replayed = replay_record(json.loads(json.dumps(rec)))
    assert replayed["result"] == rec["result"]
    assert [r.get("end") for r in replayed["rounds"]] == [r.get("end") for r in rec["rounds"]]
    assert [r.get("scores") for r in replayed["rounds"]] == [r.get("scores") for r in rec["rounds"]]
    # The input needs only the moves: strip every output field and replay again.
    bare = {k: rec[k] for k in ("format", "variant", "options", "players", "seed", "timeout")}
    bare["rounds"] = [{"moves": r["moves"]} for r in rec["rounds"]]
    again = replay_record(bare)
    assert again["result"] == rec["result"]
    assert [r.get("end") for r in again["rounds"]] == [r.get("end") for r in rec["rounds"]]
    return rec


@SETTINGS
@given(
    seed=seeds,
    n=players,
    options=goat_options,
    rng_seed=st.integers(0, 2**32),
    roundtrip_at=st.integers(1, 120),
)
def test_random_goat_games_follow_the_rules(
    seed: bytes, n: int, options: dict, rng_seed: int, roundtrip_at: int
) -> None:
    """RULES §1 (whole games): every placement, draw, knock, round end, credit, carry and the
    goat result equal the reference model; views leak nothing; records replay exactly."""
    played = start("goat", n, options, seed)
    random_playout(played, random.Random(rng_seed), roundtrip_at=roundtrip_at)
    check_conservation(played)
    rec = check_record(played, [f"p{i}" for i in range(n)])
    assert rec["result"]["reason"] == "goat"


@SETTINGS
@given(
    seed=seeds,
    n=players,
    options=classic_options,
    rng_seed=st.integers(0, 2**32),
    roundtrip_at=st.integers(1, 60),
)
def test_random_classic_games_follow_the_rules(
    seed: bytes, n: int, options: dict, rng_seed: int, roundtrip_at: int
) -> None:
    """RULES §2 (whole games): lead, draws, blocks, scoring and the target equal the reference
    model; views leak nothing; records replay exactly."""
    played = start("classic", n, options, seed)
    random_playout(played, random.Random(rng_seed), roundtrip_at=roundtrip_at)
    check_conservation(played)
    rec = check_record(played, [f"p{i}" for i in range(n)])
    assert rec["result"]["reason"] == "target"
    assert max(rec["result"]["final"]) >= options.get("target", 100)


@SETTINGS
@given(
    seed=seeds,
    n=players,
    variant=st.sampled_from(["goat", "classic"]),
    rng_seed=st.integers(0, 2**32),
    stop=st.integers(0, 150),
    fish_rule=st.sampled_from(["all", "one"]),
)
def test_mid_game_state_views_and_exports(
    seed: bytes, n: int, variant: str, rng_seed: int, stop: int, fish_rule: str
) -> None:
    """Mid-game: tiles are conserved (RULES §1.1), to_dict round-trips exactly, an export of a
    running game replays with result null (PROTOCOL §3), and every move the engine offers is
    accepted by replay."""
    options = {"fish_rule": fish_rule} if variant == "goat" else {}
    played = start(variant, n, options, seed)
    random_playout(played, random.Random(rng_seed), max_moves=stop)
    check_conservation(played)
    game = played.game
    data = game.to_dict()
    clone = game_from_dict(json.loads(json.dumps(data)))
    assert clone.to_dict() == data
    assert [clone.view(s) for s in [*range(n), None]] == [game.view(s) for s in [*range(n), None]]
    rec = check_record(played, ["a", "b", "c", "d"][:n])
    if played.ref.result is not None:
        return
    assert rec["result"] is None
    offered = sorted(engine_legal(game), key=str)
    for tile, end in offered[:6]:
        extended = json.loads(json.dumps(rec))
        move = {"seat": game.turn, "tile": tile}
        if end is not None:
            move["end"] = end
        extended["rounds"][-1].pop("end", None)
        extended["rounds"][-1]["moves"].append(move)
        replay_record(extended)
    # The clone carries on exactly like the original.
    if offered:
        tile, end = offered[0]
        assert clone.play(game.turn, tile, end) == game.play(game.turn, tile, end)
        assert clone.to_dict() == game.to_dict()


@SETTINGS
@given(
    seed=seeds,
    n=players,
    variant=st.sampled_from(["goat", "classic"]),
    rng_seed=st.integers(0, 2**32),
    stop=st.integers(0, 200),
    who=st.integers(0, 3),
)
def test_timeout_at_any_point(
    seed: bytes, n: int, variant: str, rng_seed: int, stop: int, who: int
) -> None:
    """RULES §1.10/§1.9: a timeout (or resignation, any seat) ends the game at once; the
    timed-out player gains 0, the others max(1, round_half_up((T - S) / 10)); the record
    carries `timeout` and replays to the same result (PROTOCOL §3)."""
    played = start(variant, n, {}, seed)
    random_playout(played, random.Random(rng_seed), max_moves=stop, check_every=25)
    if played.ref.result is not None:
        return
    seat = who % n
    events = played.game.timeout(seat)
    played.ref.timeout(seat)
    assert [e["type"] for e in events if e["type"] in ("timeout", "game_end")] == [
        "timeout",
        "game_end",
    ]
    r = played.ref.result
    assert r is not None
    want = {
        "reason": "timeout",
        "losers": [seat],
        "winners": r.winners,
        "final": r.final,
        "rating": r.rating,
    }
    assert {k: played.game.result[k] for k in want} == want
    rec = played.game.record([f"p{i}" for i in range(n)])
    assert rec["timeout"] == {
        "round": len(played.ref.rounds) - 1, "seat": seat, "reason": "timeout"
    }
    assert rec["rounds"][-1]["end"]["kind"] == "timeout"
    assert rec["rounds"][-1]["end"]["by"] == seat
    assert rec["rounds"][-1]["end"]["credited"] == [0] * n
    replayed = replay_record(json.loads(json.dumps(rec)))
    assert replayed["result"] == rec["result"]
    view = played.game.view(None)
    assert view["seed"] == seed.hex() and view["status"] == "finished"
