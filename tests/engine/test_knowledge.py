"""A seat's knowledge rebuilt from its view alone (app/engine/knowledge.py) is the real
position less what the seat cannot see, in every variant.

Random seeded games of every variant and player count are played with random legal moves;
at every turn the position is rebuilt from the view of the seat on turn (and of one seat not
on turn) and compared with the real game: the same layout, open ends, standings, variant
state and legal moves; and each deal of the unseen tiles gives every hand and the bazaar
as many tiles as the real ones hold, the seat's own hand untouched, the set whole.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from app.engine import VARIANTS, Game, IllegalMove, new_game
from app.engine.knowledge import Knowledge

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
