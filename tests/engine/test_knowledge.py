"""A seat's knowledge rebuilt from its view alone (app/engine/knowledge.py) is the real
position less what the seat cannot see, in every variant.

Random seeded games of every variant and player count are played with random legal moves;
at every turn the position is rebuilt from the view of the seat on turn (and of one seat not
on turn) and compared with the real game: the same layout, open ends, edition of the rules,
standings, variant state and legal moves; and each deal of the unseen tiles gives every
hand and the bazaar as many tiles as the real ones hold, the seat's own hand untouched, the
set whole. Given the real hidden tiles, the rebuilt position plays the rest of the round as
the real game does, under either edition of the rules: the same legal moves, draws, passes,
blocks and fishes, and the same round end.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from app.engine import VARIANTS, Game, IllegalMove, new_game
from app.engine.events import Event
from app.engine.knowledge import Knowledge
from app.engine.values import FIRST_RULES, RULES
from app.engine.variants import validate_options

CASES = [
    (variant, players)
    for variant, cls in VARIANTS.items()
    for players in range(cls.min_players, cls.max_players + 1)
    if players <= 4 and not (variant == "sea_goat" and players == 3)
]
IGNORED = ("history", "commitment", "seed", "result")


def seed(*parts: object) -> bytes:
    return hashlib.sha256(repr(parts).encode()).digest()


def public(game: Game) -> dict[str, Any]:
    return {k: v for k, v in game.public_view().items() if k not in IGNORED}


def check_position(game: Game, seat: int, rng: random.Random) -> None:
    view = game.view(seat)
    knows = Knowledge(view)
    rebuilt = knows.game
    assert rebuilt.rules == game.rules
    assert rebuilt.board.to_dict() | {"closed": None} == game.board.to_dict() | {"closed": None}
    closed = getattr(game.board, "closed", {})
    assert sorted(getattr(rebuilt.board, "closed", {}).values()) == sorted(closed.values())
    assert rebuilt.board.open == game.board.open
    assert rebuilt.board.fits_all == game.board.fits_all
    assert rebuilt.board.on_table == game.board.on_table
    assert rebuilt.hands[seat] == game.hands[seat]
    for s in range(game.players):
        assert rebuilt.standings_view(s) == game.standings_view(s)
    assert rebuilt.state_extra().keys() == game.state_extra().keys()
    for _ in range(3):
        dealt = knows.deal(rng)
        assert public(dealt) == public(game)
        assert dealt.own_view(seat) == game.own_view(seat)
        assert [h.bit_count() for h in dealt.hands] == [h.bit_count() for h in game.hands]
        assert len(dealt.bazaar) == len(game.bazaar)
        held = dealt.ts.mask(dealt.board.tiles())
        for h in [*dealt.hands, *(1 << i for i in dealt.bazaar)]:
            assert not held & h
            held |= h
        assert held == dealt.ts.all
        moves = list(dealt.legal_moves())
        if dealt.turn == seat:
            assert moves == list(game.legal_moves())


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.parametrize("game_no", range(2))
def test_every_position_is_rebuilt_from_a_seats_view(
    variant: str, players: int, game_no: int
) -> None:
    game = new_game(variant, players, {}, seed(variant, players, game_no))
    rng = random.Random(game_no)
    turns = 0
    while game.status == "playing" and turns < 400:
        if game.turn is None:
            break
        check_position(game, game.turn, rng)
        check_position(game, (game.turn + 1) % players, rng)
        move = rng.choice(list(game.legal_moves()))
        game.play(game.turn, move)
        turns += 1
    assert turns >= 10


def game_by(rules: int, variant: str, players: int, game_seed: bytes) -> Game:
    """A seeded game of `variant` played by the edition `rules` of the rule book."""
    game = VARIANTS[variant](players, validate_options(variant, players, {}), game_seed)
    game.rules = rules
    game.start()
    return game


def round_so_far(events: list[Event]) -> list[Event]:
    """`events` up to the end of the round they are in (the next deal is the seed's), the
    round's end as far as the play decides it (how it ended, the hands left): what the
    record adds of the round (e.g. Fives' points during play by seat) is not the view's."""
    so_far: list[Event] = []
    for event in events:
        if event["type"] == "round_end":
            return [*so_far, {k: event[k] for k in ("type", "round", "end", "hands")}]
        so_far.append(event)
    return so_far


def rest_of_round(
    game: Game, rng: random.Random
) -> tuple[list[Event], list[list[Any]], list[dict[str, Any]]]:
    """Play `game`'s round to its end with random legal moves: its events, move by move the
    legal moves there were, and the standings it ended with."""
    current, events, legal = game.round, [], []
    while game.status == "playing" and game.turn is not None and game.round == current:
        moves = list(game.legal_moves())
        legal.append([m.to_dict() for m in moves])
        events += game.play(game.turn, rng.choice(moves))
    # The standings as credited (a seeded game has dealt the next round: its markers are new)
    credited = [
        {k: game.standings_view(s)[k] for k in ("account", "opened", "remembered")}
        for s in range(game.players)
    ]
    return round_so_far(events), legal, credited


@pytest.mark.parametrize("rules", [FIRST_RULES, RULES])
@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_rebuilt_position_with_the_real_tiles_plays_the_round_as_the_real_game(
    rules: int, variant: str, players: int
) -> None:
    game = game_by(rules, variant, players, seed("rest", rules, variant, players))
    rng = random.Random(rules)
    ends: list[str] = []
    for turn in range(60):
        if game.status != "playing" or game.turn is None:
            break
        if turn % 3 == 0:
            rebuilt = Knowledge(game.view(game.turn)).game
            rebuilt.hands = list(game.hands)
            rebuilt.bazaar = list(game.bazaar)
            there = rest_of_round(game.copy(), random.Random(turn))
            here = rest_of_round(rebuilt, random.Random(turn))
            assert here == there
            ends.append(there[0][-1]["end"]["kind"])
        game.play(game.turn, rng.choice(list(game.legal_moves())))
    assert ends


def test_a_mexican_train_block_waits_for_a_full_round_of_passes_in_the_rebuilt_game_too(
) -> None:
    """RULES §5 as pinned: the pot empty, a pass opens the passer's train to the players
    after him, and only a full turn round of passes since the last tile ends the round; the
    first edition ended it at the first pass after which nobody could place. Rebuilt from a
    view, each edition's position ends its rounds where the real game does."""
    blocks = {FIRST_RULES: 0, RULES: 0}
    for rules in blocks:
        for game_no in range(6):
            game = game_by(rules, "mexican_train", 2, seed("block", rules, game_no))
            rng = random.Random(game_no)
            while game.status == "playing" and game.turn is not None and game.round < 2:
                if not game.bazaar:
                    rebuilt = Knowledge(game.view(game.turn)).game
                    rebuilt.hands = list(game.hands)
                    rebuilt.bazaar = []
                    there = rest_of_round(game.copy(), random.Random(game_no))
                    here = rest_of_round(rebuilt, random.Random(game_no))
                    assert here == there
                    blocks[rules] += there[0][-1]["end"]["kind"] == "fish"
                game.play(game.turn, rng.choice(list(game.legal_moves())))
    assert all(blocks.values()), blocks


def test_a_view_without_a_seat_or_a_turn_is_refused() -> None:
    game = new_game("goat", 4, {}, seed("refused"))
    with pytest.raises(ValueError):
        Knowledge(game.view(None))


def test_a_view_whose_tiles_do_not_add_up_is_refused() -> None:
    game = new_game("goat", 4, {}, seed("counts"))
    view = game.view(game.turn)
    with pytest.raises(ValueError, match="add up"):
        Knowledge({**view, "bazaar": view["bazaar"] + 1})
    with pytest.raises(ValueError, match="legal"):
        Knowledge({**view, "legal": []})


def test_a_round_ended_as_a_block_is_scored_by_the_variants_own_rules() -> None:
    game = new_game("classic", 2, {}, seed("block"))
    with pytest.raises(IllegalMove):
        game.end_as_block()  # nothing placed yet
    rng = random.Random(4)
    for _ in range(3):
        game.play(game.turn, rng.choice(list(game.legal_moves())))  # type: ignore[arg-type]
    hands = [game.hand_points(h) for h in game.hands]
    placer, current = game.last_placer, game.round
    events = game.end_as_block()
    end = next(e for e in events if e["type"] == "round_end")["end"]
    assert (end["kind"], end["by"], end["points"]) == ("fish", placer, hands)
    assert game.round == current + 1  # credited, and the next round dealt (the seed's)
