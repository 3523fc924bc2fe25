"""The simulation core (app/engine/playout/) plays by the same rules as the full engine.

The same seeded games go through both paths: every placement the engine makes is applied
to a `Round` too, and after each one the two positions must be equal (every hand, the
bazaar in draw order, the open ends, the tiles down per number, who is on turn, the legal
moves); every round must end the same way (out or fish, by whom, every hand's points).
`rollout()` is checked the same way: fed the same random numbers, it must end its round
exactly where the engine ends it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import VARIANTS, Game, new_game
from app.engine.goat_family import GoatFamily
from app.engine.knowledge import Knowledge
from app.engine.playout import (
    LEAD,
    SIDE_OF_END,
    Dealer,
    Round,
    random_round,
    scratch_game,
    supports,
)

CASES = [
    ("goat", 4, {"fish_rule": "all"}),
    ("goat", 4, {"fish_rule": "one"}),
    ("goat", 3, {}),
    ("goat", 2, {}),
    ("goat", 4, {"teams": True}),
    ("classic", 2, {}),
    ("classic", 3, {}),
    ("classic", 4, {}),
]


def seed(i: int) -> bytes:
    return hashlib.sha256(b"playout-%d" % i).digest()


def fast_move(game: Game, move: Any) -> tuple[int, int]:
    return game.ts.ids[move.tile], SIDE_OF_END[move.end]


def assert_same_position(r: Round, game: Game) -> None:
    assert r.kind is None
    assert r.hands == game.hands
    assert r.bazaar[::-1] == game.bazaar
    if game.board.open:
        assert (r.left, r.right) == (game.board.open["left"], game.board.open["right"])
    else:
        assert r.left == r.right == -1
    assert r.down == game.ts.mask(game.board.tiles())
    assert r.turn == game.turn
    assert sorted(r.legal()) == sorted(fast_move(game, m) for m in game.legal_moves())


def assert_same_end(r: Round, game: Game, ended: dict[str, Any], hands: list[list[str]]) -> None:
    assert (r.kind, r.by) == (ended["kind"], ended["by"])
    assert [game.ts.names_of(h) for h in r.hands] == hands
    points = r.points()
    sides = getattr(game, "sides", None)
    if ended["kind"] == "out" and sides is not None and sides.teams:
        # Team Goat burns the partner's hand of a player who went out; the core counts hands.
        points[(r.by + 2) % 4] = 0
    assert points == ended["points"]


def round_end_of(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in events if e["type"] == "round_end"), None)


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
@pytest.mark.parametrize("game_no", range(6))
def test_every_position_of_seeded_games_is_the_same_on_both_paths(
    variant: str, players: int, options: dict[str, Any], game_no: int
) -> None:
    game = new_game(variant, players, options, seed(game_no))
    rng = random.Random(game_no)
    rounds = placements = 0
    while game.status == "playing":
        r = Round.from_game(game)
        assert_same_position(r, game)
        copy = r.copy()
        while True:
            moves = list(game.legal_moves())
            move = rng.choice(moves)
            r.apply(*fast_move(game, move))
            events = game.play(game.turn, move.tile, move.end)
            placements += 1
            end = round_end_of(events)
            if end is not None:
                assert_same_end(r, game, end["end"], end["hands"])
                break
            assert_same_position(r, game)
        # copy() shares nothing with the round it was taken from
        assert copy.kind is None and copy.hands != r.hands
        rounds += 1
    assert rounds >= 1 and placements >= 10


def engine_choice(rnd: Callable[[], float], greedy: float) -> Callable[[Game], Any]:
    """The engine-side twin of `Round.rollout`'s policy, drawing the same random numbers."""

    def choose(game: Game) -> Any:
        moves = list(game.legal_moves())  # left end's tiles by id, then the right end's
        if game.board.empty and game.required_lead is not None:  # a forced first lead
            return moves[0]
        if greedy and rnd() < greedy:
            best = max(m.tile.pips for m in moves)
            heaviest = min(game.ts.ids[m.tile] for m in moves if m.tile.pips == best)
            on_left = [m for m in moves if game.ts.ids[m.tile] == heaviest and m.end == "left"]
            return on_left[0] if on_left else next(
                m for m in moves if game.ts.ids[m.tile] == heaviest
            )
        return moves[int(rnd() * len(moves))]

    return choose


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
@pytest.mark.parametrize("greedy", [0.0, 0.6])
@pytest.mark.parametrize("game_no", range(4))
def test_rollout_ends_every_round_where_the_engine_does(
    variant: str, players: int, options: dict[str, Any], greedy: float, game_no: int
) -> None:
    game = new_game(variant, players, options, seed(100 + game_no))
    lead_rng = random.Random(game_no)
    while game.status == "playing":
        if game.round % 2:  # odd rounds: the rollout leads too; even ones: the engine leads
            lead = lead_rng.choice(list(game.legal_moves()))
            events = game.play(game.turn, lead.tile, lead.end)
            if round_end_of(events) is not None:
                continue
        r = Round.from_game(game)
        stream = 1000 * game_no + game.round
        r.rollout(random.Random(stream).random, greedy)
        choose = engine_choice(random.Random(stream).random, greedy)
        while True:
            move = choose(game)
            events = game.play(game.turn, move.tile, move.end)
            end = round_end_of(events)
            if end is not None:
                assert_same_end(r, game, end["end"], end["hands"])
                break


def test_a_forced_first_lead_is_the_only_legal_move() -> None:
    game = new_game("goat", 4, {}, seed(7))
    r = Round.from_game(game)
    assert r.legal() == [(game.required_lead, LEAD)]


def test_random_rounds_conserve_the_set_and_end() -> None:
    rng = random.Random(3)
    for variant, players, options in CASES:
        dealer = Dealer(scratch_game(variant, players, options))
        for _ in range(50):
            r = random_round(dealer, rng, greedy=0.3)
            assert r.kind in ("out", "fish")
            held = 0
            for h in [*r.hands, *(1 << i for i in r.bazaar)]:
                assert not held & h  # no tile in two places
                held |= h
            assert held & r.down == 0 and (held | r.down).bit_count() == 28
            assert all(p >= 0 for p in r.points())


def test_random_deals_are_uniform() -> None:
    """Every tile lands in every hand (and the bazaar) about equally often, and where it
    lands does not depend on where it was in the deal before."""
    rng = random.Random(11)
    for variant, players in (("goat", 4), ("goat", 2)):
        dealer = Dealer(scratch_game(variant, players, {}))
        deals = 4000
        where = [[0] * (players + 1) for _ in range(28)]
        stayed = 0
        before = dealer.deal(rng).hands
        for _ in range(deals):
            r = dealer.deal(rng)
            stayed += sum((a & b).bit_count() for a, b in zip(before, r.hands, strict=True))
            before = r.hands
            for seat, hand in enumerate(r.hands):
                for i in range(28):
                    where[i][seat] += hand >> i & 1
            for i in r.bazaar:
                where[i][players] += 1
        for counts in where:
            shares = [c / deals for c in counts]
            assert all(abs(x - 7 / 28) < 0.035 for x in shares[:players]), shares
        # a tile is in the same hand again as often as chance has it: 7/28 per hand
        assert abs(stayed / (deals * 7 * players) - 7 / 28) < 0.01


def test_the_core_covers_exactly_the_variants_whose_class_names_its_rules() -> None:
    covered = {name for name, cls in VARIANTS.items() if supports(cls)}
    assert covered == {name for name, cls in VARIANTS.items() if "playout_core" in vars(cls)}
    assert {"goat", "classic"} <= covered
    assert not supports(VARIANTS["donkey"])  # Goat's subclass plays on a cross: not covered
    # Goat's family shares the deal, leads and fish, not the core: only Goat names it.
    assert "playout_core" not in vars(GoatFamily)
    family = {name for name, cls in VARIANTS.items() if issubclass(cls, GoatFamily)}
    assert covered & family == {"goat"}
    assert covered == {variant for variant, _, _ in CASES}  # every covered one is tested here


def settled(game: Game) -> tuple[Any, ...]:
    """What a round's end leaves in the game: standings, variant state, status, result."""
    return (
        [game.standings_view(s) for s in range(game.players)],
        game.state_extra(),
        game.status,
        game.result,
        game.turn,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASES),
    game_seed=st.binary(min_size=32, max_size=32),
    skip=st.integers(0, 40),
    draws=st.integers(0, 2**32 - 1),
)
def test_dealt_positions_play_and_settle_the_same_on_both_paths(
    case: tuple[str, int, dict[str, Any]], game_seed: bytes, skip: int, draws: int
) -> None:
    """From a seat's knowledge (a position rebuilt from its view, the unseen tiles dealt at
    random), the engine and the core play the same moves to the same positions and legal
    moves, and the game settles the core's round end (`Round.finish`) exactly as it settles
    its own: the same standings, variant state, result."""
    variant, players, options = case
    game = new_game(variant, players, options, game_seed)
    rng = random.Random(draws)
    for _ in range(skip):  # somewhere into the game
        if game.status != "playing":
            return
        move = rng.choice(list(game.legal_moves()))
        game.play(game.turn, move)  # type: ignore[arg-type]
    if game.status != "playing":
        return
    dealt = Knowledge(game.view(game.turn)).deal(rng)
    r = Round.from_game(dealt)
    engine = dealt.copy()
    assert_same_position(r, engine)
    while True:
        move = rng.choice(list(engine.legal_moves()))
        r.apply(*fast_move(engine, move))
        events = engine.play(engine.turn, move)  # type: ignore[arg-type]
        end = round_end_of(events)
        if end is not None:
            assert_same_end(r, engine, end["end"], end["hands"])
            break
        assert_same_position(r, engine)
    finished = dealt.copy()
    r.finish(finished)
    assert settled(finished) == settled(engine)
