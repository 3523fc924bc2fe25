"""The engine's errors say a message key and its parameters (app/engine/errors.py).

Every `IllegalMove` and `OptionsError` made in app/engine names a key that has an English
template, with exactly the parameters that template asks for; every template is used.
The English (`str(error)`) is the sentence the engine has always said: checked against the
old wording for refused moves in positions of real games, for refused options, and for the
errors of a game's turn.
"""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path
from string import Formatter
from typing import Any

import pytest

from app.engine import IllegalMove, OptionsError, new_game, validate_options
from app.engine.errors import TEMPLATES, EngineError

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"
ERRORS = {"IllegalMove", "OptionsError"}


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in Formatter().parse(template) if field is not None}


def raise_sites() -> list[tuple[str, int, str, set[str]]]:
    """Every call of an error class in the engine: (file, line, key, keyword names)."""
    sites = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ERRORS):
                continue
            where = f"{path.relative_to(ENGINE)}:{node.lineno}"
            assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), (
                f"{where}: an error is made from one literal message key"
            )
            assert all(k.arg is not None for k in node.keywords), f"{where}: no **params"
            key = node.args[0].value
            assert isinstance(key, str), where
            sites.append((where, node.lineno, key, {str(k.arg) for k in node.keywords}))
    return sites


def test_every_key_raised_has_a_template_with_exactly_its_parameters() -> None:
    sites = raise_sites()
    assert len(sites) > 50  # the scan sees the engine's errors
    for where, _, key, params in sites:
        assert key in TEMPLATES, f"{where}: no template for {key!r}"
        assert placeholders(TEMPLATES[key]) == params, (
            f"{where}: {key!r} is given {sorted(params)}, its template asks for "
            f"{sorted(placeholders(TEMPLATES[key]))}"
        )
        TEMPLATES[key].format(**dict.fromkeys(params, "x"))  # no stray brace


def test_every_template_is_used_and_keys_are_snake_case() -> None:
    used = {key for _, _, key, _ in raise_sites()}
    assert set(TEMPLATES) == used
    for key in TEMPLATES:
        assert key.isidentifier() and key == key.lower(), key


def test_an_error_carries_its_key_and_parameters() -> None:
    error = IllegalMove("tile_not_in_hand", tile="3-4")
    assert (error.key, error.params, str(error)) == (
        "tile_not_in_hand", {"tile": "3-4"}, "3-4 is not in your hand"
    )
    assert isinstance(error, ValueError) and isinstance(error, EngineError)
    copied = pickle.loads(pickle.dumps(error))
    assert (type(copied), copied.key, copied.params, str(copied)) == (
        IllegalMove, error.key, error.params, str(error)
    )
    with pytest.raises(KeyError):
        IllegalMove("no_such_key")


def old_refusal(game: Any, seat: int, name: str, end: str | None) -> str | None:
    """The engine's own words for refusing tile `name` on `end` before errors had keys (the
    draw game's rules on a line or a spinner); None where the move is legal."""
    ts = game.ts
    tid = ts.ids[name]
    if not game.hands[seat] >> tid & 1:
        return f"{name} is not in your hand"
    ends = game.board.open
    if end is not None:
        number = ends.get(end)
        fits_end = number is not None and number in (ts.low[tid], ts.high[tid])
        if not fits_end and not game.board.knows(end):
            said = " or ".join(repr(e) for e in game.board.end_names)
            return f"unknown end {end!r}: say {said}"
    if game.board.empty:
        if game.required_lead is not None and tid != game.required_lead:
            return f"the first lead must be {ts.names[game.required_lead]}"
        return None
    fitting = game.board.fits(tid, ends)
    if not fitting:
        shown = " and ".join(str(n) for n in ends.values())
        where = "neither end" if len(ends) == 2 else "no open end"
        return f"{name} matches {where} ({shown})"
    if end is None:
        if len(fitting) > 1:
            said = " or ".join(repr(e) for e in fitting)
            fits_both = "both ends" if len(fitting) == 2 else "several ends"
            return f"{name} fits {fits_both}: say {said}"
        return None
    if end not in fitting:
        if end not in ends:
            return f"the {end} end is not open"
        return f"{name} does not match the {end} end ({ends[end]})"
    return None


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("goat", 4), ("fives", 3)])
def test_refused_placements_say_what_they_always_said(variant: str, players: int) -> None:
    rng = random.Random(variant)
    seen: set[str] = set()
    for g in range(6):
        game = new_game(variant, players, {}, rng.randbytes(32))
        while game.status == "playing" and game.turn is not None:
            seat = game.turn
            for name in game.ts.names:
                for end in (None, "left", "right", "up", "down", "middle"):
                    expected = old_refusal(game, seat, name, end)
                    if expected is None:
                        continue
                    with pytest.raises(IllegalMove) as caught:
                        game.copy().play(seat, name, end)
                    assert str(caught.value) == expected
                    seen.add(caught.value.key)
            game.play(seat, rng.choice(list(game.legal_moves())))
        assert g < 5 or len(seen) >= 6, seen


def test_the_turns_errors_say_what_they_always_said() -> None:
    game = new_game("classic", 2, {}, bytes(32))
    turn = game.turn
    assert turn is not None
    cases: list[tuple[Any, str]] = [
        (lambda: game.play(1 - turn, "0-0"), f"it is seat {turn}'s turn, not seat {1 - turn}'s"),
        (lambda: game.play(turn, "5-3"), "'5-3' is written backwards: say '3-5'"),
        (lambda: game.play(turn, "9-9"), "'9-9' is not a tile of the double-6 set"),
        (lambda: game.play(turn, 7), "7 is not a tile of the double-6 set"),
        (lambda: game.play(turn, "0-0", None, closed=True), "classic moves have no 'closed'"),
        (lambda: game.timeout(5), "there is no seat 5"),
        (lambda: game.timeout(0, "bored"), "unknown timeout reason 'bored'"),
    ]
    for make, expected in cases:
        with pytest.raises(IllegalMove) as caught:
            make()
        assert str(caught.value) == expected
    game.timeout(0, "resign")
    with pytest.raises(IllegalMove) as caught:
        game.play(0, "0-0")
    assert (str(caught.value), caught.value.key) == ("the game is over", "game_over")


@pytest.mark.parametrize(
    ("variant", "players", "options", "expected"),
    [
        ("chess", 2, {}, "unknown variant 'chess'; playable: goat, classic, fives, telephone, "
         "mexican_train, sea_goat, sport_goat, general, donkey"),
        ("classic", 9, {}, "classic is played by 2 to 4 players, not 9"),
        ("classic", "2", {}, "classic is played by 2 to 4 players, not '2'"),
        ("classic", 2, [], "options must be an object"),
        ("classic", 2, {"speed": 1}, "unknown option 'speed' for classic"),
        ("classic", 2, {"target": 7}, "option 'target' must be one of 100, 150, 200, not 7"),
        ("classic", 2, {"target": "100"},
         "option 'target' must be one of 100, 150, 200, not '100'"),
        ("sea_goat", 3, {}, "Sea Goat is played by 2 or 4 players, not 3"),
        ("sea_goat", 2, {"teams": True},
         "team Sea Goat is played by 4 players (partners sit opposite)"),
    ],
)
def test_refused_options_say_what_they_always_said(
    variant: str, players: Any, options: Any, expected: str
) -> None:
    with pytest.raises(OptionsError) as caught:
        validate_options(variant, players, options)
    assert str(caught.value) == expected


def refusal(game: Any, *args: Any, **fields: Any) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        game.play(*args, **fields)
    return caught.value


def test_the_variants_refusals_say_what_they_always_said() -> None:
    """Refusals of the variants' own moves, in real positions, in the old words."""
    undealt = new_game("classic", 2, {}, None)
    assert str(refusal(undealt, 0, "0-0")) == "no round is being played"
    fresh = new_game("classic", 2, {}, bytes(32))
    with pytest.raises(IllegalMove) as caught:
        fresh.end_as_block()
    assert str(caught.value) == "no round with a placement in it is being played"

    donkey = new_game("donkey", 4, {}, bytes(32))
    seat = donkey.turn
    lead = next(iter(donkey.legal_moves()))
    assert str(refusal(donkey, seat, str(lead.tile), None, closed=[1])) == (
        "'closed' must be a boolean, a number or a string"
    )
    assert str(refusal(donkey, seat, str(lead.tile), None, closed=1)) == (
        "'closed' must be true or false"
    )

    sea = new_game("sea_goat", 2, {}, bytes(32))
    seat = sea.turn
    lead = next(iter(sea.legal_moves()))
    other = next(t for t in sea.ts.names_of(sea.hands[seat]) if t != str(lead.tile))
    assert str(refusal(sea, seat, str(lead.tile), None, also=[{"tile": other, "end": "left"}])) \
        == "a lead is one tile: two doubles go one on each end later"

    train = new_game("mexican_train", 4, {}, bytes(32))
    seat = train.turn
    tile = train.ts.names_of(train.hands[seat])[0]
    assert str(refusal(train, seat, tile, "nowhere")) == (
        "unknown end 'nowhere': say 'mexican' or 'train:<seat>' (seats 0 to 3)"
    )
    # On a first turn only the own train is open (unless a double waits to be covered).
    other_train = f"train:{(seat + 1) % 4}"
    error = refusal(train, seat, tile, other_train)
    assert error.key in {"first_turn_own_train", "double_not_covered"}
    if error.key == "first_turn_own_train":
        assert str(error) == "on your first turn of a round you may play only on your own train"
