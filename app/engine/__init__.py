"""The rules engine: pure, deterministic, standard library only."""

from app.engine.errors import IllegalMove, OptionsError, RecordError
from app.engine.game import Game
from app.engine.layouts import Layout, Line, Spinner, Trains
from app.engine.options import Option
from app.engine.records import (
    RECORD_FORMAT,
    replay_events,
    replay_positions,
    replay_record,
    replay_turns,
)
from app.engine.shuffle import commitment, new_seed
from app.engine.tiles import Tile, parse_tile
from app.engine.values import Clock, Move, Placement, Result, RoundEnd, Standings, VariantInfo
from app.engine.variants import (
    VARIANTS,
    describe_variants,
    game_from_dict,
    in_two_teams,
    new_game,
    start_game,
    validate_options,
    variant_class,
)

__all__ = [
    "RECORD_FORMAT",
    "VARIANTS",
    "Clock",
    "Game",
    "IllegalMove",
    "Layout",
    "Line",
    "Move",
    "Option",
    "OptionsError",
    "Placement",
    "RecordError",
    "Result",
    "RoundEnd",
    "Spinner",
    "Standings",
    "Tile",
    "Trains",
    "VariantInfo",
    "commitment",
    "describe_variants",
    "game_from_dict",
    "in_two_teams",
    "new_game",
    "new_seed",
    "parse_tile",
    "replay_events",
    "replay_positions",
    "replay_record",
    "replay_turns",
    "start_game",
    "validate_options",
    "variant_class",
]
