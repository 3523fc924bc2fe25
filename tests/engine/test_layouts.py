"""Layouts (app/engine/layouts/): open ends, placing, the count of RULES §4 and §6, views,
serialisation and copies, tile by tile."""

from __future__ import annotations

import json

import pytest

from app.engine import Line, Spinner, Trains
from app.engine.tiles import tile_set

TS = tile_set(6)


def put(layout, *moves: tuple[str, str | None]):
    for name, end in moves:
        layout.place(TS.ids[name], end)
    return layout


def reloaded(layout):
    clone = type(layout)(TS, **_params(layout))
    clone.load(json.loads(json.dumps(layout.to_dict())))
    return clone


def _params(layout) -> dict:
    if isinstance(layout, Spinner):
        return {"count_rule": layout.count_rule}
    if isinstance(layout, Trains):
        return {"players": layout.players}
    return {}


def test_a_line_turns_each_end_into_the_other_number() -> None:
    """PROTOCOL §3: the lead a-b shows a on the left and b on the right; a tile played on an
    end turns that end into the tile's other number."""
    line = put(Line(TS), ("2-5", None))
    assert line.open == {"left": 2, "right": 5}
    put(line, ("5-6", "right"), ("1-2", "left"), ("6-6", "right"))
    assert line.open == {"left": 1, "right": 6}
    assert line.view() == [
        {"tile": "1-2", "left": 1, "right": 2},
        {"tile": "2-5", "left": 2, "right": 5},
        {"tile": "5-6", "left": 5, "right": 6},
        {"tile": "6-6", "left": 6, "right": 6},
    ]
    assert line.fits(TS.ids["1-6"]) == ["left", "right"]
    assert line.fits(TS.ids["0-3"]) == []
    assert sorted(TS.names[t] for t in line.tiles()) == ["1-2", "2-5", "5-6", "6-6"]
    assert reloaded(line).view() == line.view() and reloaded(line).open == line.open
    # A line never opens a third end, even on a double.
    assert "up" not in line.open


# RULES §4 worked table: 5-5 lead; then 5-0; then 3-5 on the spinner; then 0-2; later 5-4 on
# a short side, 2-2 on the 2, 2-5 on the 2-2, 3-3 on the 3.
WORKED = [
    (("5-5", None), 10, 10),
    (("0-5", "right"), 10, 10),
    (("3-5", "left"), 3, 13),
    (("0-2", "right"), 5, 15),
]
LATER = [("4-5", "up"), ("2-2", "right"), ("2-5", "right"), ("3-3", "left")]


@pytest.mark.parametrize(("rule", "column"), [("gambler", 1), ("full", 2)])
def test_rules_4_worked_table_position_by_position(rule: str, column: int) -> None:
    spinner = Spinner(TS, count_rule=rule)
    for row in WORKED:
        put(spinner, row[0])
        assert spinner.count() == row[column], (row[0], rule)
        assert reloaded(spinner).count() == row[column]
    put(spinner, *LATER)
    assert spinner.count() == {"gambler": 15, "full": 20}[rule]
    assert reloaded(spinner).count() == spinner.count()


def test_the_spinner_opens_its_short_sides_once_both_long_sides_are_covered() -> None:
    """RULES §4: up to 4 ends, and only after both long sides of the first double."""
    spinner = put(Spinner(TS), ("5-5", None), ("0-5", "right"))
    assert spinner.open == {"left": 5, "right": 0}
    put(spinner, ("3-5", "left"))
    assert spinner.open == {"left": 3, "right": 0, "up": 5, "down": 5}
    put(spinner, ("4-5", "up"), ("1-5", "down"))
    assert spinner.open == {"left": 3, "right": 0, "up": 4, "down": 1}
    view = spinner.view()
    assert {"tile": "5-5", "left": 5, "right": 5, "spinner": True} in view
    assert {"tile": "4-5", "arm": "up", "inner": 5, "outer": 4} in view
    assert {"tile": "1-5", "arm": "down", "inner": 5, "outer": 1} in view
    again = reloaded(spinner)
    assert again.open == spinner.open and again.view() == view


def test_a_later_double_is_ordinary_and_counts_both_halves() -> None:
    """RULES §4: only the first double spins; a double at an open end counts both halves."""
    spinner = put(Spinner(TS), ("2-3", None), ("3-3", "right"))
    # 3-3 is the first double: the spinner, with one long side covered (by 2-3).
    assert spinner.open == {"left": 2, "right": 3}
    assert spinner.count() == 2 + 6
    put(spinner, ("3-6", "right"))
    assert spinner.open == {"left": 2, "right": 6, "up": 3, "down": 3}
    put(spinner, ("6-6", "right"))
    assert spinner.count() == 2 + 12  # the spinner counts nothing now (gambler)
    assert "spinner" not in next(e for e in spinner.view() if e["tile"] == "6-6")


def test_telephone_house_example() -> None:
    """RULES §6: house 4-4, ends 6 and 3; 6-6 played -> 15; then 4-5 on the house -> 20."""
    house = put(Spinner(TS), ("4-4", None), ("4-6", "left"), ("3-4", "right"))
    assert house.open == {"left": 6, "right": 3, "up": 4, "down": 4}
    put(house, ("6-6", "left"))
    assert house.count() == 15
    put(house, ("4-5", "up"))
    assert house.count() == 20


def test_a_lone_lead_counts_once() -> None:
    assert put(Line(TS), ("2-3", None)).count() == 5
    assert put(Line(TS), ("4-4", None)).count() == 8
    assert put(Spinner(TS), ("2-3", None)).count() == 5
    assert put(Spinner(TS), ("5-5", None)).count() == 10


def test_trains_have_a_train_per_seat_and_the_mexican() -> None:
    """The shape of Mexican Train's layout (RULES §5): every train starts at the engine."""
    ts12 = tile_set(12)
    trains = Trains(ts12, players=3)
    trains.place(ts12.ids["12-12"], None)
    assert trains.open == {"train:0": 12, "train:1": 12, "train:2": 12, "mexican": 12}
    trains.place(ts12.ids["5-12"], "train:1")
    trains.place(ts12.ids["11-12"], "mexican")
    trains.markers.add(2)
    assert trains.open["train:1"] == 5 and trains.open["mexican"] == 11
    assert trains.knows("train:2") and not trains.knows("train:3") and not trains.knows("up")
    clone = Trains(ts12, players=3)
    clone.load(json.loads(json.dumps(trains.to_dict())))
    assert clone.open == trains.open and clone.view() == trains.view()
    assert clone.markers == {2}


@pytest.mark.parametrize("make", [lambda: Line(TS), lambda: Spinner(TS)])
def test_a_copy_is_independent(make) -> None:
    layout = put(make(), ("5-5", None), ("0-5", "right"), ("3-5", "left"))
    before = layout.to_dict()
    clone = layout.copy()
    put(clone, ("0-0", "right"), ("3-4", "left"))
    assert layout.to_dict() == before
    assert clone.to_dict() != before
    assert layout.on_table != clone.on_table
