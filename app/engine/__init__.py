"""The rules engine: pure, deterministic, standard library only."""

from app.engine.errors import IllegalMove, OptionsError, RecordError
from app.engine.game import Game, Move
from app.engine.records import RECORD_FORMAT, replay_positions, replay_record
from app.engine.shuffle import commitment, new_seed
from app.engine.tiles import Tile, parse_tile
from app.engine.variants import (
    VARIANTS,
    game_from_dict,
    new_game,
    start_game,
    validate_options,
)

__all__ = [
    "RECORD_FORMAT",
    "VARIANTS",
    "Game",
    "IllegalMove",
    "Move",
    "OptionsError",
    "RecordError",
    "Tile",
    "commitment",
    "game_from_dict",
    "new_game",
    "new_seed",
    "parse_tile",
    "replay_positions",
    "replay_record",
    "start_game",
    "validate_options",
]
