"""The engine's errors: each a `ValueError` whose message a player can read.

`IllegalMove` and `OptionsError` carry what they say as a message key and its parameters
(`error.key`, `error.params`), so that whoever shows them can say them in the player's
language; `str(error)` is the English sentence, made from the key's template in
`TEMPLATES`. A parameter the English shows in quotes (a name as the client sent it) is
handed over quoted, as `repr` writes it, since it may be anything a client sent.

    raise IllegalMove("tile_not_in_hand", tile="3-4")   # str(): "3-4 is not in your hand"
"""

from __future__ import annotations

from typing import Any

Param = str | int

# Message key -> English template (`str.format` placeholders; `{{`, `}}`: a brace).
TEMPLATES: dict[str, str] = {
    # -- the variant, its players and options --------------------------------------------
    "unknown_variant": "unknown variant {variant}; playable: {playable}",
    "players_out_of_range": "{variant} is played by {min} to {max} players, not {players}",
    "two_or_four_players": "{variant} is played by 2 or 4 players, not 3",
    "teams_need_four_players": "team {variant} is played by 4 players (partners sit opposite)",
    "options_not_an_object": "options must be an object",
    "unknown_option": "unknown option {option} for {variant}",
    "option_not_allowed": "option {option} must be one of {choices}, not {value}",
    # -- whose move, and when ----------------------------------------------------------------
    "game_over": "the game is over",
    "no_round_in_play": "no round is being played",
    "no_placement_in_round": "no round with a placement in it is being played",
    "not_seats_turn": "it is seat {turn}'s turn, not seat {seat}'s",
    "no_such_seat": "there is no seat {seat}",
    "unknown_timeout_reason": "unknown timeout reason {reason}",
    # -- the tile ----------------------------------------------------------------------------
    "not_a_tile": "{tile} is not a tile of the double-{max_pip} set",
    "tile_backwards": "{tile} is written backwards: say {good}",
    "tile_not_in_hand": "{tile} is not in your hand",
    "first_lead_must_be": "the first lead must be {tile}",
    # -- the end -----------------------------------------------------------------------------
    "unknown_end": "unknown end {end}: say {ends}",
    "unknown_train": "unknown end {end}: say 'mexican' or 'train:<seat>' (seats 0 to {last})",
    "end_not_open": "the {end} end is not open",
    "tile_matches_neither_end": "{tile} matches neither end ({a} and {b})",
    "tile_matches_no_end": "{tile} matches no open end ({numbers})",
    "tile_fits_both_ends": "{tile} fits both ends: say 'left' or 'right'",
    "tile_fits_two_ends": "{tile} fits both ends: say {ends}",
    "tile_fits_several_ends": "{tile} fits several ends: say {ends}",
    "tile_does_not_match_end": "{tile} does not match the {end} end ({n})",
    # -- a move's extra fields ---------------------------------------------------------------
    "one_tile_per_turn": "one tile per turn in this game",
    "unknown_move_field": "{variant} moves have no {field}",
    "bad_move_field": "{field} must be a boolean, a number or a string",
    "also_not_placements": "'also' must list {{tile, end}} placements",
    # -- Sea Goat's two doubles (RULES §7) ---------------------------------------------------
    "lead_is_one_tile": "a lead is one tile: two doubles go one on each end later",
    "at_most_two_doubles": "at most two doubles in one turn, one on each end",
    "two_tiles_not_doubles": "two tiles in one turn must both be doubles",
    "tile_played_twice": "{tile} cannot be played twice",
    "doubles_on_one_end": "two doubles in one turn go one on each end, not both on one",
    # -- Donkey's closed doubles (RULES §8) --------------------------------------------------
    "closed_not_bool": "'closed' must be true or false",
    "only_doubles_closed": "only a double may be laid closed, not {tile}",
    "lead_never_closed": "a lead is never laid closed",
    "no_closed_double": "there is no closed double laid on the {end} end",
    "not_owner_of_double": "only seat {owner}, who laid it, may open that double",
    "end_closed": "the {end} end is closed: open it to play there",
    # -- Mexican Train's trains (RULES §5) ---------------------------------------------------
    "double_not_covered": "the double {tile} on {end} must be covered first",
    "first_turn_own_train": "on your first turn of a round you may play only on your own train",
    "not_your_train": "{end} is not your train and carries no marker",
    # -- General's time (RULES §12) ----------------------------------------------------------
    "bad_ended_ms": (
        "ended_ms must be a whole number of milliseconds, not before the last round's end "
        "({last}), not {value}"
    ),
    "missing_ended_ms": (
        "a finished round must give its ended_ms (when it ended, milliseconds since the start)"
    ),
}


class EngineError(ValueError):
    """An error said by a message key and its parameters (see the module's docstring)."""

    def __init__(self, key: str, /, **params: Param) -> None:
        super().__init__(TEMPLATES[key].format(**params))
        self.key = key
        self.params: dict[str, Param] = params

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.key, self.params)


def _rebuilt(cls: type[EngineError], key: str, params: dict[str, Param]) -> EngineError:
    return cls(key, **params)


class IllegalMove(EngineError):
    """A move the rules do not allow in the current position."""


class OptionsError(EngineError):
    """An unknown variant, an unknown option, or a bad option value."""


class RecordError(ValueError):
    """A game record that is malformed, inconsistent or contains an illegal move."""

    def __init__(self, round_index: int, move_index: int, reason: str) -> None:
        super().__init__(f"round {round_index} move {move_index}: {reason}")
        self.round = round_index
        self.move = move_index
        self.reason = reason
