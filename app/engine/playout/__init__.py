"""The simulation core: one round of a line game on bit masks, an accelerator for search.

`Game` is the authority for everything a player sees: it validates, names tiles, writes
events and records, and searches play on it (`Game.copy()`, `legal_moves()`, `play()`).
For the variants whose class names its rules in `playout_core` (the draw game on a line:
Goat, Classic) this core plays the same rounds faster. A `Round` holds only what decides
the play: each hand as a bit mask of tile ids, the bazaar (the next draw last), the two
open ends and the tiles on the table (one more mask: Goat's fish is one AND and a bit
count). `copy()` is two small lists; `apply()` places a tile and then draws and knocks
exactly as `Game.play` does; `rollout()` plays the round to its end in one tight loop;
`finish()` hands the round's end back to the game, which settles it by its own rules.
The same games played through both paths, move by move, give the same positions and
the same legal moves (tests/engine/test_playout.py).

Moves are `(tile id, side)` pairs: side 0 is the left end, 1 the right, -1 a lead.

Its modules: rules.py (which variants the core plays, and by what rules), tables.py (the
per-set lookups), round.py (`Round`), deals.py (random deals for benchmarks and search:
`Dealer`, `Sampler`).
"""

from app.engine.playout.deals import Dealer, Sampler, random_round, scratch_game
from app.engine.playout.round import LEAD, LEFT_SIDE, RIGHT_SIDE, SIDE_OF_END, FastMove, Round
from app.engine.playout.rules import CORE_RULES, LineRules, core_rules, supports
from app.engine.playout.tables import Tables, special_points, tables

__all__ = [
    "CORE_RULES",
    "LEAD",
    "LEFT_SIDE",
    "RIGHT_SIDE",
    "SIDE_OF_END",
    "Dealer",
    "FastMove",
    "LineRules",
    "Round",
    "Sampler",
    "Tables",
    "core_rules",
    "random_round",
    "scratch_game",
    "special_points",
    "supports",
    "tables",
]
