"""Where tiles go: the layouts of RULES.md (a line, a spinner/house, trains).

A layout knows the table and nothing else: the open ends by name and the number each shows
(`open`), which ends a tile fits (`fits`), placing a tile (`place`), the *count* of the open
ends (`count`, RULES §4 and §6), a view (`view`, the `chain` of PROTOCOL §2) and its
serialisation (`to_dict` / `load`). Hands, turns and scores are the game's business.

End names are PROTOCOL's: `left`, `right` (every layout with a line), `up`, `down` (the
spinner's short sides), `mexican` and `train:<seat>` (trains).

How a variant picks its layout: `Game.new_layout()` returns a fresh one for every deal
(default: `Line`), and the class attribute `Game.layout` names its kind for
GET /api/variants. A layout that needs parameters (the spinner's count rule, the number of
trains) gets them from the game's options in that hook, e.g.

    class Fives(Game):
        layout = "spinner"
        def new_layout(self) -> Layout:
            return Spinner(self.ts, count_rule=self.options["spinner_count"])

Tiles are ids (indices in the set's canonical order, see `TileSet`); each placed tile is
kept as (tile id, number on its inner side, number on its outer side) so a view can draw
it the right way round and a count can tell a double at an end.

One module per kind: base.py (what every layout is), line.py, spinner.py, cross.py
(Donkey), trains.py (Mexican Train).
"""

from __future__ import annotations

from app.engine.layouts.base import DOWN, LEFT, RIGHT, UP, Layout, Placed, ViewEntry
from app.engine.layouts.cross import ClosedDouble, Cross
from app.engine.layouts.line import Line
from app.engine.layouts.spinner import Spinner
from app.engine.layouts.trains import MEXICAN, Trains, train_end

__all__ = [
    "DOWN",
    "LEFT",
    "MEXICAN",
    "RIGHT",
    "UP",
    "ClosedDouble",
    "Cross",
    "Layout",
    "Line",
    "Placed",
    "Spinner",
    "Trains",
    "ViewEntry",
    "train_end",
]
