"""Plays the engine and the reference model (tests/engine/reference.py) in lockstep.

Every placement goes to both; after each one the whole observable state is compared: turn,
every hand (through each seat's own view), bazaar size, open ends, legal moves, events,
round ends, standings, history and result. Views are checked for leaks on the way.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from app.engine import game_from_dict, new_game
from tests.engine.reference import DOUBLE_SIX, RefGame, ts

TILE_STRING = re.compile(r'"(\d+-\d+)"')
ALL_TILES = {ts(t) for t in DOUBLE_SIX}


def tiles_in(obj: Any) -> set[str]:
    return set(TILE_STRING.findall(json.dumps(obj))) & ALL_TILES


@dataclass
class Played:
    """A finished (or stopped) lockstep game and what was seen on the way."""

    game: Any
    ref: RefGame
    moves: list[list[dict]] = field(default_factory=list)  # per round: {"seat","tile","end"}
    events: list[dict] = field(default_factory=list)
    ends_before: list[list[tuple[int, int] | None]] = field(default_factory=list)


def sorted_hand(tiles: list) -> list[str]:
    return sorted(ts(tuple(t)) if not isinstance(t, str) else t for t in tiles)


def check_views(game: Any, ref: RefGame) -> None:
    """PROTOCOL §2 view / DESIGN security: own hand only, no other hand, no bazaar tile, no
    seed before the end; counts, ends, turn and standings equal the reference."""
    rnd = ref.round
    on_table = {ts(t) for t in rnd.table}
    finished = ref.result is not None
    for seat in [*range(ref.n), None]:
        view = game.view(seat)
        text = json.dumps(view)
        assert view["you"] == seat
        assert view["turn"] == ref.turn
        assert view["status"] == ("finished" if finished else "playing")
        own = set() if seat is None else {ts(t) for t in rnd.hands[seat]}
        if seat is None:
            assert view["hand"] == []
        elif not finished:
            assert sorted(view["hand"]) == sorted(own), ("hand", seat)
        if not finished:
            hidden = ALL_TILES - on_table - own
            visible = dict(view)
            leaked = tiles_in(visible) & hidden
            assert not leaked, f"view of seat {seat} shows hidden tiles {sorted(leaked)}"
            assert view["seed"] is None
            assert ref.seed.hex() not in text
            assert view["bazaar"] == len(rnd.bazaar)
            assert [s["tiles"] for s in view["seats"]] == [len(h) for h in rnd.hands]
            if rnd.ends is None:
                assert not view["ends"]
            else:
                assert (view["ends"]["left"], view["ends"]["right"]) == rnd.ends
            assert tiles_in(view["chain"]) == on_table
        else:
            assert view["seed"] == ref.seed.hex()
        if seat is not None and seat == ref.turn:
            got = {(m["tile"], m["end"]) for m in view["legal"]}
            assert got == rnd.legal(), ("legal", seat)
        else:
            assert view["legal"] == []
        check_standings(view, ref)


def check_standings(view: dict, ref: RefGame) -> None:
    hist = [{k: h[k] for k in ("kind", "by", "points", "credited")} for h in ref.history]
    got = [
        {"kind": h["end"], "by": h["by"], "points": h["points"], "credited": h["credited"]}
        for h in view["history"]
    ]
    assert got == hist
    assert [h["round"] for h in view["history"]] == list(range(len(hist)))
    if ref.variant == "goat":
        assert [(s["account"], s["opened"], s["remembered"]) for s in view["seats"]] == [
            (s.account, s.opened, s.remembered) for s in ref.stds
        ]
        assert view["carry"] == ref.carry
    else:
        assert [s["account"] for s in view["seats"]] == ref.scores


def result_dict(ref: RefGame) -> dict | None:
    r = ref.result
    if r is None:
        return None
    return {
        "reason": r.reason,
        "losers": r.losers,
        "winners": r.winners,
        "final": r.final,
        "rating": r.rating,
    }


def check_result(game: Any, ref: RefGame) -> None:
    want = result_dict(ref)
    if want is None:
        assert game.result is None
        assert game.status == "playing"
        return
    assert game.status == "finished"
    assert game.turn is None
    got = {k: game.result[k] for k in want}
    assert got == want


def engine_legal(game: Any) -> set[tuple[str, str | None]]:
    return {(str(m.tile), m.end) for m in game.legal_moves()}


def play_one(played: Played, seat: int, tile: str, end: str | None) -> list[dict]:
    """One placement on both sides; the events are compared with what the reference did."""
    game, ref = played.game, played.ref
    rnd_index = len(ref.rounds) - 1
    rnd = ref.round
    lead = rnd.ends is None
    played.ends_before[-1].append(rnd.ends)
    resolved = end
    if not lead and end is None:
        (resolved,) = rnd.fits(_tile(tile))
    events = game.play(seat, tile, end)
    step = ref.play(seat, tile, end)
    played.events.extend(events)
    move = {"seat": seat, "tile": tile}
    if resolved is not None and not lead:
        move["end"] = resolved
    played.moves[-1].append(move)

    assert events[0]["type"] == "play"
    assert (events[0]["seat"], events[0]["tile"], events[0]["round"]) == (seat, tile, rnd_index)
    assert events[0]["end"] == (None if lead else resolved)
    for e in events:
        if e["type"] != "round_end":
            shown = tiles_in(e)
            assert shown <= {tile}, f"event {e} shows tiles"
        if e["type"] == "draw":
            assert set(e) <= {"type", "round", "seat", "count"}, e
    assert [(e["seat"], e["count"]) for e in events if e["type"] == "draw"] == step.draws
    ends = [e for e in events if e["type"] == "round_end"]
    if step.end is None:
        assert [e["seat"] for e in events if e["type"] == "knock"] == step.knocks
        assert not ends
    else:
        assert len(ends) == 1, events
        e = ends[0]
        h = ref.history[-1]
        assert e["round"] == rnd_index
        assert (e["end"]["kind"], e["end"]["by"]) == (step.end.kind, step.end.by)
        assert e["end"]["points"] == step.end.points
        assert e["end"]["credited"] == h["credited"]
        assert [sorted(x) for x in e["hands"]] == [sorted_hand(x) for x in step.end.hands]
        if ref.result is None:
            played.moves.append([])
            played.ends_before.append([])
    game_ends = [e for e in events if e["type"] == "game_end"]
    if ref.result is None:
        assert not game_ends
    else:
        assert len(game_ends) == 1
        assert {k: game_ends[0]["result"][k] for k in result_dict(ref)} == result_dict(ref)
    return events


def _tile(name: str) -> tuple[int, int]:
    a, b = name.split("-")
    return (int(a), int(b))


def start(variant: str, players: int, options: dict, seed: bytes) -> Played:
    game = new_game(variant, players, options, seed)
    ref = RefGame(variant, players, options, seed)
    return Played(game, ref, moves=[[]], ends_before=[[]])


def random_playout(
    played: Played,
    rng: random.Random,
    *,
    max_moves: int | None = None,
    roundtrip_at: int | None = None,
    check_every: int = 1,
) -> Played:
    """Random legal moves until the game ends (or max_moves placements)."""
    count = 0
    check_views(played.game, played.ref)
    while played.ref.result is None and (max_moves is None or count < max_moves):
        game, ref = played.game, played.ref
        legal = engine_legal(game)
        assert legal == ref.round.legal()
        assert game.turn == ref.turn
        assert {(m["tile"], m["end"]) for m in game.legal_for(game.turn)} == legal
        tile, end = rng.choice(sorted(legal, key=str))
        if end is not None and len(ref.round.fits(_tile(tile))) == 1 and rng.random() < 0.5:
            end = None  # PROTOCOL §2: `end` may be omitted when exactly one end fits
        play_one(played, ref.turn, tile, end)
        count += 1
        if count == roundtrip_at:
            data = game.to_dict()
            assert json.loads(json.dumps(data)) == data
            clone = game_from_dict(json.loads(json.dumps(data)))
            assert clone.to_dict() == data
            for seat in [*range(ref.n), None]:
                assert clone.view(seat) == game.view(seat)
            played.game = clone
        if count % check_every == 0 or played.ref.result is not None:
            check_views(played.game, played.ref)
        check_result(played.game, played.ref)
    return played


def ref_search(
    variant: str,
    players: int,
    options: dict,
    label: str,
    predicate: Any,
    limit: int = 5000,
) -> tuple[bytes, list[tuple[int, str, str | None]], Any]:
    """Random reference-only games until `predicate(ref, step, seat, tile)` is true right after
    a placement; returns the seed, the moves up to and including that placement, and the step.
    Deterministic: seeds and choices derive from `label`."""
    for i in range(limit):
        seed = seed_of(label, i)
        rng = random.Random(f"{label}-{i}")
        ref = RefGame(variant, players, options, seed)
        moves: list[tuple[int, str, str | None]] = []
        while ref.result is None:
            seat = ref.turn
            assert seat is not None
            tile, end = rng.choice(sorted(ref.round.legal(), key=str))
            before = ref.round
            step = ref.play(seat, tile, end)
            moves.append((seat, tile, end))
            if predicate(ref, before, step, seat, tile):
                return seed, moves, step
    raise AssertionError(f"no game found for {label}")


def replay_moves(variant: str, players: int, options: dict, seed: bytes, moves: list) -> Played:
    """Plays `moves` on the engine and the reference in lockstep, checking every step."""
    played = start(variant, players, options, seed)
    check_views(played.game, played.ref)
    for seat, tile, end in moves:
        assert played.game.turn == seat
        play_one(played, seat, tile, end)
        check_views(played.game, played.ref)
        check_result(played.game, played.ref)
    return played


def seed_of(label: str, i: int) -> bytes:
    """A reproducible seed for searches over deals ("the first seed whose deal has ...")."""
    return hashlib.sha256(f"{label}-{i}".encode()).digest()


def deal_search(label: str, deal: Any, predicate: Any, limit: int = 50000) -> bytes:
    """The first `seed_of(label, i)` whose round-0 deal, `deal(seed) -> (hands, bazaar)`,
    satisfies `predicate(hands, bazaar)`."""
    for i in range(limit):
        seed = seed_of(label, i)
        if predicate(*deal(seed)):
            return seed
    raise AssertionError(f"no seed for {label}")
