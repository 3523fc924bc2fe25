"""The strong player searches every variant on the engine's own game, from its view alone.

- In every variant (and player count) it rebuilds each position it is asked about from the
  view and searches it: it never falls back to the heuristic, and every move it makes is
  one of `view.legal` (games are played to their end, or for many moves).
- It is given only the seat's view: two positions that differ only in the tiles the seat
  cannot see give the same view, the same search totals and the same move.
- It is deterministic under a seed: the same view and the same random numbers give the
  same totals and the same move.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from app.bots import HeuristicPlayer, LegalMove, SeatView, StrongPlayer
from app.bots.search import Search
from app.engine import VARIANTS, Game, game_from_dict, new_game

CASES = [
    (variant, players)
    for variant, cls in VARIANTS.items()
    for players in sorted({cls.min_players, min(cls.max_players, 4)})
    if not (variant == "sea_goat" and players == 3)
]


def seed(*parts: object) -> bytes:
    return hashlib.sha256(repr(parts).encode()).digest()


class NoFallback(HeuristicPlayer):
    """Fails the test if the strong player ever gives up searching."""

    def choose(self, view: SeatView, rng: random.Random) -> LegalMove:
        raise AssertionError(f"the strong player fell back in {view.variant}")


def strong() -> StrongPlayer:
    return StrongPlayer(seconds=None, budget=6, fallback=NoFallback())


def play(game: Game, move: LegalMove) -> None:
    assert game.turn is not None
    game.play(game.turn, move.tile, move.end, **move.extra)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_strong_player_searches_and_plays_legal_moves_in_every_variant(
    variant: str, players: int
) -> None:
    game = new_game(variant, players, {}, seed(variant, players))
    bots = [strong() if s % 2 == 0 else HeuristicPlayer() for s in range(players)]
    rng = random.Random(3)
    moves = 0
    while game.status == "playing" and moves < 150:
        assert game.turn is not None
        view = game.view(game.turn)
        move = bots[game.turn].choose(SeatView.of(view), rng)
        assert {"tile": move.tile, "end": move.end, **move.extra} in view["legal"]
        play(game, move)
        moves += 1
    assert moves >= 20
    assert bots[0].playouts > 0  # type: ignore[union-attr]


def hidden_redealt(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same position with the tiles `seat` cannot see dealt differently among the
    other hands and the bazaar (each keeping its size); None if there is no other way."""
    for _ in range(20):
        state = game.to_dict()
        others = [s for s in range(game.players) if s != seat]
        unseen = [t for s in others for t in state["hands"][s]] + state["bazaar"]
        rng.shuffle(unseen)
        for s in others:
            size = len(state["hands"][s])
            state["hands"][s], unseen = unseen[:size], unseen[size:]
        state["bazaar"] = unseen
        twin = game_from_dict(state)
        if twin.hands != game.hands:
            return twin
    return None


def totals(view: dict[str, Any], draws: int) -> list[float]:
    search = Search(view)
    rng = random.Random(draws)
    for _ in range(3):
        search.sample(rng)
    return search.totals


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_only_the_view_decides_and_a_seed_repeats_the_decision(
    variant: str, players: int
) -> None:
    game = new_game(variant, players, {}, seed("view", variant, players))
    rng = random.Random(7)
    compared = moves = 0
    while game.status == "playing" and moves < 60:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if len(view["legal"]) > 1:
            twin = hidden_redealt(game, seat, rng)
            if twin is not None:
                assert twin.view(seat) == view
                first = totals(view, moves)
                assert totals(twin.view(seat), moves) == first  # hidden tiles change nothing
                assert totals(view, moves) == first  # and the seed repeats it
                a = strong().choose(SeatView.of(view), random.Random(moves))
                b = strong().choose(SeatView.of(twin.view(seat)), random.Random(moves))
                assert a == b
                compared += 1
        move = random.Random(moves).choice(view["legal"])
        game.play(seat, move["tile"], move["end"], **{k: v for k, v in move.items()
                                                       if k not in ("tile", "end")})
        moves += 1
    assert compared >= 3


def test_a_view_it_cannot_rebuild_falls_back_to_the_heuristic() -> None:
    game = new_game("goat", 4, {}, seed("fallback"))
    game.play(game.turn, next(iter(game.legal_moves())))  # type: ignore[arg-type]
    while len(game.view(game.turn)["legal"]) < 3:  # type: ignore[arg-type]
        game.play(game.turn, next(iter(game.legal_moves())))  # type: ignore[arg-type]
    view = SeatView.of(game.view(game.turn))
    # A view whose legal moves are not those of its position (one left out) is not searched.
    broken = SeatView.of({**view.raw, "legal": view.raw["legal"][1:]})
    with pytest.raises(ValueError):
        Search(broken.raw)
    heuristic = HeuristicPlayer().choose(broken, random.Random(1))
    assert StrongPlayer(seconds=None, budget=6).choose(broken, random.Random(1)) == heuristic
