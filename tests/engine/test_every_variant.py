"""Properties every variant keeps, run over every variant in the registry (hypothesis):
tile conservation, views that hide what they must, every offered move accepted, exports that
replay exactly, timeouts, mutated records rejected at the right round and move, and cheap
copies.

A new variant is covered by adding it to `VARIANTS`; nothing here names one.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.engine import (
    VARIANTS,
    OptionsError,
    RecordError,
    game_from_dict,
    new_game,
    replay_record,
    start_game,
    validate_options,
)
from app.engine.tiles import full_set

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TILE = re.compile(r'"(\d+-\d+)"')


def tiles_in(obj: Any) -> set[str]:
    return set(TILE.findall(json.dumps(obj)))


@st.composite
def setups(draw: st.DrawFn, variant: str) -> tuple[int, dict[str, Any]]:
    cls = VARIANTS[variant]
    players = draw(st.integers(cls.min_players, cls.max_players))
    options = {
        name: draw(st.sampled_from(opt.allowed)) for name, opt in cls.options_spec.items()
    }
    try:
        validate_options(variant, players, options)
    except OptionsError:
        assume(False)
    return players, options


def check_position(game: Any) -> None:
    """Conservation (hands + bazaar + table = the set, once each) and views that show a seat
    its own hand and the table, never another hand, the bazaar or the seed before the end."""
    full = {str(t) for t in full_set(game.max_pip)}
    spectator = game.view(None)
    # A tile laid face down (Donkey's closed double) is on the table with no face shown.
    table = [e["tile"] for e in spectator["chain"] if not e.get("closed")]
    face_down = [e for e in spectator["chain"] if e.get("closed")]
    assert all(e["tile"] is None for e in face_down)
    hands = [game.view(s)["hand"] for s in range(game.players)]
    held = [t for h in hands for t in h]
    assert len(table) == len(set(table)) and len(held) == len(set(held))
    assert not set(table) & set(held)
    assert len(table) + len(face_down) + len(held) + spectator["bazaar"] == len(full)
    assert [s["tiles"] for s in spectator["seats"]] == [len(h) for h in hands]
    if game.status == "finished":
        assert spectator["seed"] == game.seed.hex()
        return
    for seat in [*range(game.players), None]:
        view = game.view(seat)
        own = set() if seat is None else set(hands[seat])
        leaked = tiles_in(view) - own - set(table)
        assert not leaked, f"the view of seat {seat} shows {sorted(leaked)}"
        assert view["seed"] is None and game.seed.hex() not in json.dumps(view)
        if seat != game.turn:
            assert view["legal"] == []


def check_events(events: list[dict], move: Any) -> None:
    """No event of a running round shows a tile but the ones just played (a move may place
    two, e.g. Sea Goat's two doubles), and those only face up; a tile turned face up
    (Donkey's opened double) is shown by its `open` event."""
    fields = move.to_dict()
    shown = set() if fields.get("closed") else {str(move.tile)}
    shown |= {str(p.tile) for p in move.also}
    for e in events:
        if e["type"] in ("round_end", "game_end"):
            continue
        if e["type"] == "open" and "open" in fields:
            assert tiles_in(e) == {e["tile"]}, e
            continue
        assert tiles_in(e) <= shown, e


class Ticking:
    """A server clock that moves on 7 minutes each time it is read (a game played against
    the clock, General's, then ends within a few rounds)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        self.now += 7 * 60_000
        return self.now


def play_random(variant: str, players: int, options: dict, seed: bytes, rng: random.Random,
                stop: int | None = None) -> Any:
    game = start_game(variant, players, options, seed, clock=Ticking())[0]
    count = 0
    check_position(game)
    while game.status == "playing" and (stop is None or count < stop):
        offered = list(game.legal_moves())
        assert offered, "the player on turn always has a move"
        assert [m.to_dict() for m in offered] == game.view(game.turn)["legal"]
        # Every offered move is accepted (on a copy, so the game itself goes on).
        for move in rng.sample(offered, min(3, len(offered))):
            sent = move.to_dict()  # as a client sends it back, extra fields and all
            game.copy().play(game.turn, sent.pop("tile"), sent.pop("end"), **sent)
        move = rng.choice(offered)
        events = game.play(game.turn, move)
        check_events(events, move)
        count += 1
        if count % 7 == 0:
            check_position(game)
    check_position(game)
    return game


def bare(record: dict) -> dict:
    """The record with every output field removed (what a client would write: the moves,
    and the round end times of a game played against the clock)."""
    out = {k: record[k] for k in ("format", "variant", "options", "players", "seed", "timeout")}
    out["rounds"] = [
        {k: rd[k] for k in ("moves", "ended_ms") if k in rd} for rd in record["rounds"]
    ]
    return out


@pytest.mark.parametrize("variant", list(VARIANTS))
@SETTINGS
@given(data=st.data(), seed=st.binary(min_size=32, max_size=32), rng_seed=st.integers(0, 2**32))
def test_whole_games_conserve_hide_and_replay(variant: str, data, seed: bytes, rng_seed: int):
    players, options = data.draw(setups(variant))
    game = play_random(variant, players, options, seed, random.Random(rng_seed))
    assert game.result is not None and game.result["reason"] != "timeout"
    names = [f"p{i}" for i in range(players)]
    record = json.loads(json.dumps(game.record(names)))
    assert replay_record(record) == record
    assert replay_record(bare(record)) == record


@pytest.mark.parametrize("variant", list(VARIANTS))
@SETTINGS
@given(
    data=st.data(),
    seed=st.binary(min_size=32, max_size=32),
    rng_seed=st.integers(0, 2**32),
    stop=st.integers(0, 80),
)
def test_running_games_export_copy_and_reject_mutations(
    variant: str, data, seed: bytes, rng_seed: int, stop: int
):
    players, options = data.draw(setups(variant))
    rng = random.Random(rng_seed)
    game = play_random(variant, players, options, seed, rng, stop=stop)
    assume(game.status == "playing")
    # State and copies: to_dict round-trips; a clone and a copy carry on like the original.
    state = json.loads(json.dumps(game.to_dict()))
    now = 1_800_000_000_000  # the clone and the copy read one server clock, stopped
    clone = game_from_dict(state, clock=lambda: now)
    assert clone.to_dict() == game.to_dict()
    assert [clone.view(s) for s in [*range(players), None]] == [
        game.view(s) for s in [*range(players), None]
    ]
    copy = game.copy()
    copy.clock = lambda: now
    move = next(game.legal_moves())
    assert clone.play(game.turn, move) == copy.play(game.turn, move)
    assert clone.to_dict() == copy.to_dict()
    assert game.to_dict() == state  # neither touched the original
    # An export of the running game replays with no result; its unfinished round no end.
    names = [f"p{i}" for i in range(players)]
    record = json.loads(json.dumps(game.record(names)))
    replayed = replay_record(record)
    assert replayed == record and replayed["result"] is None
    assert "end" not in replayed["rounds"][-1]
    # A timeout (or resignation) of any seat ends the game at once (RULES 1.10) and the
    # record with its `timeout` replays to the same result.
    seat = rng.randrange(players)
    stopped = game.copy()
    stopped.timeout(seat)
    assert stopped.result["reason"] == "timeout" and stopped.result["losers"] == [seat]
    assert stopped.result["rating"][seat] == 0
    timed_out = json.loads(json.dumps(stopped.record(names)))
    assert replay_record(timed_out) == timed_out
    assert game.status == "playing"
    # Mutations: a tile the mover does not hold, or the wrong seat, is refused right there.
    moves = [(r, m) for r, rd in enumerate(record["rounds"]) for m in range(len(rd["moves"]))]
    assume(moves)
    r, m = rng.choice(moves)
    original = record["rounds"][r]["moves"][m]
    before = replay_positions_hands(record, r)
    held = set(before[original["seat"]])
    foreign = sorted(t for h in before for t in h if t not in held)
    mutations = [{**original, "seat": (original["seat"] + 1) % players}]
    if foreign:
        mutations.append({**original, "tile": rng.choice(foreign)})
    for mutated in mutations:
        broken = json.loads(json.dumps(record))
        broken["rounds"][r]["moves"][m] = mutated
        with pytest.raises(RecordError) as error:
            replay_record(broken)
        assert (error.value.round, error.value.move) == (r, m), str(error.value)


def replay_positions_hands(record: dict, r: int) -> list[list[str]]:
    """The hands dealt in round r (from the seed, via a replay of the rounds before)."""
    game = new_game(record["variant"], len(record["players"]), record["options"],
                    bytes.fromhex(record["seed"]))
    for rd in record["rounds"][:r]:
        for mv in rd["moves"]:
            extra = {k: v for k, v in mv.items() if k not in ("seat", "tile", "end")}
            game.play(mv["seat"], mv["tile"], mv.get("end"), **extra)
    return game.rounds[r]["hands"]


@pytest.mark.parametrize("variant", list(VARIANTS))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.binary(min_size=32, max_size=32), rng_seed=st.integers(0, 2**32))
def test_a_game_played_on_copies_shows_the_score_sheet_a_fresh_load_shows(
    variant: str, data, seed: bytes, rng_seed: int
):
    """The server plays each move on a copy of the last position and shows its view: what
    a copy keeps from the positions before it (the score sheet's finished rounds) must be
    what a game loaded afresh from the same state shows, and the sheet has one line per
    round that has ended."""
    players, options = data.draw(setups(variant))
    rng = random.Random(rng_seed)
    game = start_game(variant, players, options, seed, clock=Ticking())[0]
    moves = 0
    while game.status == "playing" and moves < 400:
        game = game.copy()
        game.play(game.turn, rng.choice(list(game.legal_moves())))
        moves += 1
        fresh = game_from_dict(json.loads(json.dumps(game.to_dict())), clock=game.clock)
        assert game.public_view() == fresh.public_view()
        sheet = game.public_view()["history"]
        ended = [(r, rd) for r, rd in enumerate(game.rounds) if "end" in rd]
        assert [(e["round"], e["end"], e["points"]) for e in sheet] == [
            (r, rd["end"]["kind"], rd["end"]["points"]) for r, rd in ended]
        assert all(e[k] == rd[k] for e, (_r, rd) in zip(sheet, ended, strict=True)
                   for k in game.history_keys if k in rd)
