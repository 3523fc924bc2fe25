"""Shared helpers for the tests of Goat's family (Sea Goat, Sport Goat, General): games
played by a seeded random policy that likes to keep 0-0 and 6-6 for the last tile (so the
special going-outs of RULES §7, §11 and §12 happen often) and likes two doubles in one turn.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from app.engine import Game, Move, new_game, replay_record
from app.engine.tiles import full_set, parse_tile

SET = [str(t) for t in full_set(6)]
SPECIAL = {"0-0", "6-6"}


def choose(game: Game, rng: random.Random) -> Move:
    """A legal move: two doubles when offered, else anything but 0-0/6-6 when possible."""
    moves = list(game.legal_moves())
    doubled = [m for m in moves if m.also]
    if doubled and rng.random() < 0.8:
        return rng.choice(doubled)
    plain = [m for m in moves if str(m.tile) not in SPECIAL and not m.also]
    return rng.choice(plain or moves)


def play_game(
    variant: str, players: int, options: dict[str, Any], seed: int, **kw: Any
) -> tuple[Game, list[dict[str, Any]]]:
    """A whole game from a seed, with every event it produced."""
    game = new_game(variant, players, options, seed.to_bytes(32, "big"))
    for name, value in kw.items():
        setattr(game, name, value)
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    while game.status == "playing":
        assert game.turn is not None
        events += game.play(game.turn, choose(game, rng))
    return game, events


def round_ends(events: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    return (e for e in events if e["type"] == "round_end")


def last_play(events: list[dict[str, Any]], before: dict[str, Any]) -> dict[str, Any]:
    """The play event that ended the round of `before` (a round_end event)."""
    i = events.index(before)
    return next(e for e in reversed(events[:i]) if e["type"] == "play")


def tiles(names: list[str]) -> list[Any]:
    return [parse_tile(n) for n in names]


def pips(hand: list[str]) -> int:
    return sum(t.low + t.high for t in tiles(hand))


def exported(game: Game) -> dict[str, Any]:
    """The game's record as it travels (JSON), checked to replay to itself."""
    record = json.loads(json.dumps(game.record([f"p{i}" for i in range(game.players)])))
    assert replay_record(record) == record
    return record


def dealt(variant: str, hands: list[list[str]], options: dict[str, Any] | None = None) -> Game:
    """A game whose first round is dealt as given; the rest of the set is the bazaar in
    canonical order."""
    game = new_game(variant, len(hands), options or {}, None)
    used = {t for h in hands for t in h}
    game.deal(hands, [t for t in SET if t not in used])
    return game
