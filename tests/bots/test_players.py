"""Computer players as pure strategies: a seat's view in, one of its legal moves out.

- Every strength always answers with one of `view.legal`, in every playable variant, and
  whole games of bots finish.
- The view-only property: a bot's input is the view object and nothing else. Its typed
  form holds no tile but the seat's own and those on the table; and two positions that
  differ only in what the seat cannot see (the other hands, the bazaar) give the very
  same decision, for every strength, with the same random numbers.
- Strength shows: on the same deals, heuristic players end fewer games as goats than
  random ones.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import pytest

from app.bots import (
    STRENGTHS,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    SeatView,
    StrongPlayer,
    play_to_end,
)
from app.bots.players import player_for
from app.engine import Game, game_from_dict, new_game

TILE = re.compile(r"\b\d-\d\b")
GAMES = [
    ("goat", 4, {"fish_rule": "all"}),
    ("goat", 4, {"fish_rule": "one"}),
    ("goat", 4, {"teams": True}),
    ("goat", 2, {}),
    ("classic", 3, {}),
    # the variants the bit-mask core does not play: the strong bot searches on the engine
    ("fives", 3, {}),
    ("telephone", 2, {}),
    ("donkey", 3, {}),  # closed doubles: bots send the extra move fields back as offered
    ("sea_goat", 2, {}),  # two doubles in one turn: moves with `also`
    ("sport_goat", 4, {}),
    ("general", 4, {}),
    ("mexican_train", 3, {}),
]


def seed(i: int) -> bytes:
    return hashlib.sha256(b"bots-%d" % i).digest()


def quick(strength: str) -> Player:
    """A player of `strength` whose decisions do not depend on the clock."""
    if strength == "strong":
        return StrongPlayer(seconds=60, max_samples=4)
    return player_for(strength)


def tiles_of(obj: Any) -> set[str]:
    return set(TILE.findall(json.dumps(obj, default=repr)))


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_every_strength_plays_legal_moves_to_the_end(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    strengths = [STRENGTHS[s % len(STRENGTHS)] for s in range(players)]
    bots = [quick(s) for s in strengths]
    game = new_game(variant, players, options, seed(players))
    rng = random.Random(1)
    moves = 0
    while game.status == "playing" and moves < 400:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        move = bots[seat].choose(SeatView.of(view), rng)
        assert {"tile": move.tile, "end": move.end, **move.extra} in view["legal"]
        game.play(seat, move.tile, move.end, **move.extra)
        moves += 1
    assert moves > 20


def hidden_shuffled(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same position with the tiles `seat` cannot see dealt differently among the
    other hands and the bazaar (each keeping its size); None if there is no other way."""
    for _ in range(20):
        state = game.to_dict()
        others = [s for s in range(game.players) if s != seat]
        shuffled = [t for s in others for t in state["hands"][s]] + state["bazaar"]
        rng.shuffle(shuffled)
        for s in others:
            size = len(state["hands"][s])
            state["hands"][s], shuffled = shuffled[:size], shuffled[size:]
        state["bazaar"] = shuffled
        twin = game_from_dict(state)
        if twin.hands != game.hands or twin.bazaar != game.bazaar:
            return twin
    return None


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_a_bot_decides_from_its_view_alone(
    strength: str, variant: str, players: int, options: dict[str, Any]
) -> None:
    game = new_game(variant, players, options, seed(10 + players))
    play_rng = random.Random(2)
    checked = moves = 0
    while game.status == "playing" and moves < 40:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        seat_view = SeatView.of(view)
        # what the bot is given holds no tile but its own and those on the table
        visible = set(view["hand"]) | {c["tile"] for c in view["chain"]}
        assert tiles_of(seat_view) <= visible
        twin = hidden_shuffled(game, seat, play_rng)
        if twin is not None:
            twin_view = SeatView.of(twin.view(seat))
            assert twin_view == seat_view
            a = quick(strength).choose(seat_view, random.Random(moves))
            b = quick(strength).choose(twin_view, random.Random(moves))
            assert a == b
            checked += 1
        move = dict(play_rng.choice(view["legal"]))
        game.play(seat, move.pop("tile"), move.pop("end"), **move)
        moves += 1
    assert checked >= 10


def test_a_spectators_view_cannot_be_played() -> None:
    game = new_game("goat", 4, {}, seed(1))
    with pytest.raises(ValueError, match="seated"):
        SeatView.of(game.view(None))


def test_unknown_strength_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown strength"):
        player_for("genius")


def goats(players: list[Player], games: int) -> list[int]:
    """How many times each seat ended as a goat over `games` seeded 4-player games."""
    count = [0] * 4
    rng = random.Random(9)
    for g in range(games):
        game = new_game("goat", 4, {}, seed(1000 + g))
        play_to_end(game, players, rng)
        assert game.result is not None
        for loser in game.result["losers"]:
            count[loser] += 1
    return count


def test_the_heuristic_player_beats_random_play() -> None:
    h, r = HeuristicPlayer(), RandomPlayer()
    count = goats([h, r, h, r], 30)
    heuristic, random_ = count[0] + count[2], count[1] + count[3]
    assert heuristic * 2 < random_, count


def closing_view(hand: list[str], others_hold: list[int], fish_rule: str) -> SeatView:
    """Seat 0 of a 4-player Goat round: 0-3, 1-3, 2-3, 3-4 and 3-5 are down and the ends
    show 3 and 6, so 3-6 on the right closes the 3s: a fish (RULES 1.4)."""
    chain = ["0-3", "1-3", "2-3", "3-4", "3-5", "0-4", "1-5", "2-6", "0-6"]
    unseen = 28 - len(hand) - len(chain)
    assert sum(others_hold) == unseen
    return SeatView.of(
        {
            "variant": "goat",
            "options": {"fish_rule": fish_rule, "teams": False},
            "you": 0,
            "hand": hand,
            "turn": 0,
            "ends": {"left": 3, "right": 6},
            "chain": [{"tile": t} for t in chain],
            "bazaar": 0,
            "legal": [{"tile": t, "end": "right"} for t in hand if "6" in t],
            "seats": [
                {"seat": s, "tiles": n, "account": 0, "opened": False, "remembered": 0}
                for s, n in enumerate([len(hand), *others_hold])
            ],
            "carry": 0,
        }
    )


def test_the_heuristic_player_steers_by_the_fish_rule() -> None:
    player = HeuristicPlayer()
    # Fish for all, a light hand left: the fish costs it only remembered points. It closes
    # the 3s although 5-6 is the heavier tile to shed.
    light = closing_view(["3-6", "5-6", "0-1"], [6, 5, 5], "all")
    assert player.choose(light, random.Random(1)).tile == "3-6"
    # Fish to one, holding far more than anybody could: the fish would all be its own.
    heavy = closing_view(
        ["3-6", "1-6", "6-6", "5-5", "4-5", "4-6", "2-5", "4-4", "2-4"], [5, 4, 1], "one"
    )
    assert player.choose(heavy, random.Random(1)).tile != "3-6"
    # ... and with the same fish to one but a light hand it closes.
    one_light = closing_view(["3-6", "1-6", "0-1"], [6, 5, 5], "one")
    assert player.choose(one_light, random.Random(1)).tile == "3-6"
