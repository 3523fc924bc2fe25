"""Every event a game makes is one of the typed events of app/engine/events.py: its `type`
names one member of `Event`, it has every field that member requires and none it does not
name, and each field holds a value of the declared kind. Whole games of every variant are
played (by the typed moves and by the fields a client sends), and timed out or resigned.

A new variant is covered by adding it to `VARIANTS`; a new event by adding it to `Event`.
"""

from __future__ import annotations

import random
import types
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest

from app.engine import VARIANTS, OptionsError, start_game, validate_options
from app.engine.events import Event

MEMBERS = {get_args(get_type_hints(cls)["type"])[0]: cls for cls in get_args(Event)}


def fits(value: Any, hint: Any) -> bool:
    """Whether a JSON-like value is of the kind a type hint declares."""
    origin = get_origin(hint)
    if origin is NotRequired:
        return fits(value, get_args(hint)[0])
    if origin in (Union, types.UnionType):
        return any(fits(value, h) for h in get_args(hint))
    if origin is Literal:
        return value in get_args(hint)
    if origin is list:
        (item,) = get_args(hint)
        return isinstance(value, list) and all(fits(v, item) for v in value)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type) and hasattr(hint, "__required_keys__"):  # a TypedDict
        return isinstance(value, dict) and not typed_dict_faults(value, hint)
    return isinstance(value, hint)


def typed_dict_faults(value: dict[str, Any], cls: Any) -> list[str]:
    hints = get_type_hints(cls)
    faults = [f"missing {k!r}" for k in cls.__required_keys__ if k not in value]
    faults += [f"unknown {k!r}" for k in value if k not in hints]
    faults += [
        f"{k!r} = {v!r} is not {hints[k]}" for k, v in value.items()
        if k in hints and not fits(v, hints[k])
    ]
    return faults


def check(event: Any) -> str:
    assert isinstance(event, dict), event
    cls = MEMBERS.get(event.get("type"))
    assert cls is not None, f"an event of no declared type: {event}"
    faults = typed_dict_faults(event, cls)
    assert not faults, f"{event}: {faults}"
    return str(event["type"])


def play_games(variant: str, rng: random.Random, games: int) -> set[str]:
    """Random whole games of `variant` (random players and options); the types seen."""
    cls = VARIANTS[variant]
    seen: set[str] = set()
    for g in range(games):
        while True:  # a playable combination of players and options
            players = rng.randint(cls.min_players, cls.max_players)
            options = {name: rng.choice(opt.allowed) for name, opt in cls.options_spec.items()}
            try:
                options = validate_options(variant, players, options)
                break
            except OptionsError:
                continue
        game, events = start_game(variant, players, options, rng.randbytes(32), lambda: 0)
        seen |= {check(e) for e in events}
        ending = rng.random()
        moves = 0
        while game.status == "playing":
            if ending < 0.3 and moves == 40 + g:
                seat = rng.randrange(players)
                events = game.timeout(seat, rng.choice(["timeout", "resign"]))
            else:
                assert game.turn is not None
                move = rng.choice(list(game.legal_moves()))
                if rng.random() < 0.5:
                    events = game.play(game.turn, move)
                else:  # as a client sends it
                    fields = dict(move.to_dict())
                    tile, end = fields.pop("tile"), fields.pop("end")
                    events = game.play(game.turn, tile, end, **fields)
            seen |= {check(e) for e in events}
            moves += 1
    return seen


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_event_of_every_variant_is_a_declared_event(variant: str) -> None:
    seen = play_games(variant, random.Random(variant), 12)
    assert {"start", "round_start", "play", "round_end", "game_end"} <= seen


def test_every_declared_event_is_made() -> None:
    """Each member of `Event` is made by some game (the types are not a wish list)."""
    rng = random.Random(7)
    seen: set[str] = set()
    for variant in sorted(VARIANTS):
        seen |= play_games(variant, rng, 12)
    assert seen == set(MEMBERS)


def test_the_checks_refuse_what_is_not_declared() -> None:
    """The checker itself fails on a missing field, an extra one and a wrong kind."""
    good = {"type": "draw", "round": 0, "seat": 1, "count": 2}
    assert check(good) == "draw"
    for bad in (
        {"type": "draw", "round": 0, "seat": 1},
        {**good, "tile": "1-2"},
        {**good, "count": "2"},
        {**good, "type": "drew"},
    ):
        with pytest.raises(AssertionError):
            check(bad)
