"""Game records (domino-record/1, PROTOCOL §3): replay and completion.

Replaying is the one way a record is read: the engine plays every move again, so a record
that replays is legal by construction, and its output fields are the engine's, not the file's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any, NoReturn

from app.engine.errors import IllegalMove, OptionsError, RecordError
from app.engine.events import Event
from app.engine.game import Game
from app.engine.tiles import Tile, full_set, parse_tile
from app.engine.values import FIRST_RULES, RECORD_FORMAT, TIMEOUT_REASONS
from app.engine.variants import VARIANTS, validate_options

__all__ = ["RECORD_FORMAT", "replay_positions", "replay_record", "replay_turns"]


def _fail(round_index: int, move_index: int, reason: str) -> NoReturn:
    raise RecordError(round_index, move_index, reason)


def _tiles(game: Game, names: Any, r: int, what: str) -> list[Tile]:
    if not isinstance(names, list):
        _fail(r, 0, f"{what} must be a list of tiles")
    try:
        return [parse_tile(n, game.max_pip) for n in names]
    except ValueError as exc:
        _fail(r, 0, f"{what}: {exc}")


def _deal_given(game: Game, rd: dict[str, Any], r: int) -> None:
    """Start round `r` with the hands and bazaar written in the record, after checking them."""
    if "hands" not in rd or "bazaar" not in rd:
        _fail(r, 0, "a record without a seed must give every round's hands and bazaar")
    hands_in = rd["hands"]
    if not isinstance(hands_in, list) or len(hands_in) != game.players:
        _fail(r, 0, f"hands must list {game.players} hands, one per seat")
    hands = [_tiles(game, h, r, f"hand of seat {s}") for s, h in enumerate(hands_in)]
    bazaar = _tiles(game, rd["bazaar"], r, "bazaar")
    for seat, hand in enumerate(hands):
        if len(hand) != game.hand_size():
            _fail(r, 0, f"seat {seat} was dealt {len(hand)} tiles, not {game.hand_size()}")
    counts = Counter(t for h in hands for t in h) + Counter(bazaar)
    doubled = sorted(t for t, c in counts.items() if c > 1)
    if doubled:
        _fail(r, 0, f"tile {doubled[0]} is dealt twice")
    missing = [t for t in full_set(game.max_pip) if t not in counts]
    if missing:
        _fail(r, 0, f"tile {missing[0]} is missing from the deal")
    if game.needs_redeal([game.ts.mask(game.ts.ids[t] for t in h) for h in hands]):
        _fail(r, 0, "these hands should have been redealt")
    game.deal(hands, bazaar)


def _check_seeded_deal(game: Game, rd: dict[str, Any], r: int) -> None:
    """A seeded record may still give the hands; they must be the seed's."""
    current = game.rounds[-1]
    for key in ("hands", "bazaar"):
        if key in rd:
            given = rd[key]
            expected = current[key]
            try:
                same = (
                    [[str(parse_tile(t, game.max_pip)) for t in h] for h in given] == expected
                    if key == "hands"
                    else [str(parse_tile(t, game.max_pip)) for t in given] == expected
                )
            except (ValueError, TypeError):
                same = False
            if not same:
                _fail(r, 0, f"the seed does not reproduce the given {key}")


def _play_moves(game: Game, moves: Any, r: int) -> None:
    if not isinstance(moves, list):
        _fail(r, 0, "moves must be a list")
    for m, move in enumerate(moves):
        if game.status != "playing":
            _fail(r, m, "the game is over; no more moves")
        if game.round != r:
            _fail(r, m, "the round is over; no more moves in it")
        if not isinstance(move, dict) or not _is_int(move.get("seat")):
            _fail(r, m, "a move must be an object with a seat and a tile")
        seat, tile, end = move["seat"], move.get("tile"), move.get("end")
        if not isinstance(tile, str) or (end is not None and not isinstance(end, str)):
            _fail(r, m, "a move's tile and end must be strings")
        if seat != game.turn:
            _fail(r, m, f"it is seat {game.turn}'s turn, not seat {seat}'s")
        try:
            game.play(seat, tile, end, **_move_fields(game, move))
        except IllegalMove as exc:
            _fail(r, m, str(exc))


def _is_int(value: Any) -> bool:
    """An integer, as JSON has them: `true` is not seat 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def _move_fields(game: Game, move: dict[str, Any]) -> dict[str, Any]:
    """The variant's extra fields of a recorded move (PROTOCOL §2a), as `play` takes them."""
    return {k: move[k] for k in game.move_fields if k in move}


def replay_record(record: Any) -> dict[str, Any]:
    """Replay a record move by move and return it completed (PROTOCOL §3 output fields)."""
    game, players = _replay(record)
    completed = game.record(players)
    # A seeded game deals the next round as soon as one ends; a record that stops between
    # rounds stops there, and so does its completion (no round the record never had).
    if game.status == "playing":
        completed["rounds"] = completed["rounds"][: len(record["rounds"])]
    return completed


def replay_positions(record: Any) -> list[dict[str, Any]]:
    """Every position of a recorded game, for a replay viewer: the deal of each round, the
    position after each placement (with the events it caused: draws, knocks, the round's
    end) and after a timeout. Every hand is shown: use it for finished games only.
    """
    played, _players = _replay(record)  # checks the record and finds every deal
    # Replaying once more on the found deals, dealing each round only when asked, leaves
    # each round's last position in place (a seeded game deals the next round at once).
    game = type(played)(played.players, played.options, played.seed)
    game.rules = played.rules
    game.auto_deal = False
    game.start()
    timeout = record.get("timeout")
    positions: list[dict[str, Any]] = []
    for r, (rd, dealt) in enumerate(zip(record["rounds"], played.rounds, strict=False)):
        events = game.deal(dealt["hands"], dealt["bazaar"])
        game.recall_round(rd)
        positions.append(_position(game, r, -1, None, events))
        for m, move in enumerate(rd.get("moves", [])):
            events = game.play(
                move["seat"], move["tile"], move.get("end"), **_move_fields(game, move)
            )
            positions.append(_position(game, r, m, move, events))
        if timeout is not None and timeout["round"] == r:
            events = game.timeout(timeout["seat"], timeout.get("reason", "timeout"))
            positions.append(_position(game, r, len(rd.get("moves", [])), None, events))
    return positions


def replay_turns(record: Any) -> Iterator[tuple[int, int, Game, dict[str, Any]]]:
    """Each recorded move with the game just before it: (round, index, game, move). The
    game is the replay's own and is played on as soon as the next one is asked for: look,
    or copy it, but do not change it. Every hand is in it: for finished games only."""
    played, _players = _replay(record)
    game = type(played)(played.players, played.options, played.seed)
    game.rules = played.rules
    game.auto_deal = False
    game.start()
    for r, (rd, dealt) in enumerate(zip(record["rounds"], played.rounds, strict=False)):
        game.deal(dealt["hands"], dealt["bazaar"])
        game.recall_round(rd)
        for m, move in enumerate(rd.get("moves", [])):
            yield r, m, game, move
            game.play(move["seat"], move["tile"], move.get("end"), **_move_fields(game, move))


def replay_events(record: Any) -> list[Event]:
    """The events a recorded game made, move by move, as its players were sent them, and
    nothing else (no position, no hand): the log of a game for whoever arrives after it
    began. A seeded record of a running game is replayed as far as it goes."""
    played, _players = _replay(record)
    game = type(played)(played.players, played.options, played.seed)
    game.auto_deal = False
    game.start()
    timeout = record.get("timeout")
    events: list[Event] = []
    for r, (rd, dealt) in enumerate(zip(record["rounds"], played.rounds, strict=False)):
        events += game.deal(dealt["hands"], dealt["bazaar"])
        game.recall_round(rd)
        for move in rd.get("moves", []):
            events += game.play(
                move["seat"], move["tile"], move.get("end"), **_move_fields(game, move)
            )
        if timeout is not None and timeout["round"] == r:
            events += game.timeout(timeout["seat"], timeout.get("reason", "timeout"))
    return events


def _position(
    game: Game, r: int, m: int, move: dict[str, Any] | None, events: list[Event]
) -> dict[str, Any]:
    view = game.view(None)
    return {
        "round": r,
        "move": m,
        "played": move,
        "events": events,
        "layout": view["layout"],
        "chain": view["chain"],
        "ends": view["ends"],
        "hands": game.hand_names(),
        "bazaar": view["bazaar"],
    }


def _replay(record: Any) -> tuple[Game, list[str]]:
    """The game a record describes, replayed and checked; RecordError at the first fault."""
    if not isinstance(record, dict):
        _fail(0, 0, "a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        _fail(0, 0, f"format must be {RECORD_FORMAT!r}")
    variant = record.get("variant")
    players = record.get("players")
    if not isinstance(variant, str) or variant not in VARIANTS:
        _fail(0, 0, f"unknown variant {variant!r}")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        _fail(0, 0, "players must be a list of names by seat")
    try:
        options = validate_options(variant, len(players), record.get("options"))
    except OptionsError as exc:
        _fail(0, 0, str(exc))
    seed_hex = record.get("seed")
    try:
        seed = bytes.fromhex(seed_hex) if seed_hex is not None else None
    except (TypeError, ValueError):
        _fail(0, 0, "seed must be a hex string or null")
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not all(isinstance(rd, dict) for rd in rounds):
        _fail(0, 0, "rounds must be a list of objects")
    timeout = record.get("timeout")
    if timeout is not None and not (
        isinstance(timeout, dict)
        and _is_int(timeout.get("round"))
        and _is_int(timeout.get("seat"))
        and timeout.get("reason", "timeout") in TIMEOUT_REASONS
    ):
        _fail(0, 0, 'timeout must be null or {round, seat, reason?: "timeout"|"resign"}')
    # `"rules": 1` marks a game finished under the first edition of the rules: it is
    # replayed by that edition's readings. Without it, by the rules as they are now.
    rules = record.get("rules")
    if rules is not None and not (_is_int(rules) and rules == FIRST_RULES):
        _fail(0, 0, f"rules must be {FIRST_RULES} (a game of the first rules) or absent")

    game = VARIANTS[variant](len(players), options, seed)
    if rules is not None:
        game.rules = rules
    game.start()
    for r, rd in enumerate(rounds):
        if game.status != "playing":
            _fail(r, 0, "the game is over; no more rounds")
        if game.awaiting_deal:
            _deal_given(game, rd, r)
        else:
            _check_seeded_deal(game, rd, r)
        # A fault in the round's own fields is named just past its last move (PROTOCOL §5),
        # after any fault of its moves.
        fault = None
        try:
            game.recall_round(rd)
        except IllegalMove as exc:
            fault = str(exc)
        moves = rd.get("moves", [])
        _play_moves(game, moves, r)
        if fault is None and "end" in game.rounds[r] and game.rounds[r]["end"]["kind"] != "timeout":
            try:
                game.check_finished_round(rd)
            except IllegalMove as exc:
                fault = str(exc)
        if fault is not None:
            _fail(r, len(moves), fault)
        if timeout is not None and timeout["round"] == r:
            if game.status != "playing" or game.round != r:
                _fail(r, len(rd.get("moves", [])), "a timeout after the round had ended")
            try:
                game.timeout(timeout["seat"], timeout.get("reason", "timeout"))
            except IllegalMove as exc:
                _fail(r, len(rd.get("moves", [])), str(exc))
        if r < len(rounds) - 1 and game.status == "playing" and game.round == r:
            # Only the last round of a record may be unfinished (an export of a running game).
            _fail(r, len(moves), f"the round is not over, yet the record goes on to round {r + 1}")
    if timeout is not None and game.timed_out is None:
        _fail(timeout["round"], 0, "the timeout names a round the record does not reach")
    return game, players
