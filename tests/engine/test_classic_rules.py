"""Classic draw dominoes (RULES §2) through real games, in lockstep with the reference model."""

from __future__ import annotations

import pytest

from app.engine import IllegalMove, OptionsError, new_game, validate_options
from tests.engine.driver import deal_search, engine_legal, play_one, ref_search, replay_moves
from tests.engine.reference import (
    CLASSIC_LEAD,
    classic_hand_size,
    deal_attempt,
    required_lead,
    ts,
)


def find(players: int, label: str, predicate) -> bytes:
    size = classic_hand_size(players)
    return deal_search(label, lambda seed: deal_attempt(seed, 0, 0, players, size), predicate)


def assert_lead(seed: bytes, players: int, tile: str) -> None:
    game = new_game("classic", players, {}, seed)
    hands, _ = deal_attempt(seed, 0, 0, players, classic_hand_size(players))
    holder = next(s for s, h in enumerate(hands) if tile in {ts(t) for t in h})
    assert game.turn == holder
    assert engine_legal(game) == {(tile, None)}
    other = next(ts(t) for t in hands[holder] if ts(t) != tile)
    with pytest.raises(IllegalMove):
        game.play(holder, other, None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_holder_of_6_6_leads_it(players: int) -> None:
    """RULES §2: lead, every round: the holder of 6-6 leads it."""
    seed = find(players, f"c66-{players}", lambda h, b: (6, 6) not in b)
    assert_lead(seed, players, "6-6")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_else_highest_double_leads(players: int) -> None:
    """RULES §2: else the holder of the highest double (5-5, 4-4, ... 0-0) leads it."""
    for double in ("5-5", "4-4", "3-3"):
        v = int(double[0])
        higher = [(w, w) for w in range(v + 1, 7)]

        def pred(h, b, higher=higher, v=v) -> bool:
            return all(t in b for t in higher) and (v, v) not in b

        assert_lead(find(players, f"c{double}-{players}", pred), players, double)


def test_no_double_in_any_hand_highest_tile_leads() -> None:
    """RULES §2: with no doubles in any hand, the highest tile (pips, then higher half)."""
    doubles = [(v, v) for v in range(7)]
    seed = find(2, "c-nodouble", lambda h, b: all(d in b for d in doubles))
    hands, _ = deal_attempt(seed, 0, 0, 2, 7)
    _seat, tile = required_lead(hands, CLASSIC_LEAD)
    assert tile[0] != tile[1]
    assert_lead(seed, 2, ts(tile))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_uses_the_lead_rule(players: int) -> None:
    """RULES §2: the lead rule holds every round (not the previous winner's free lead)."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return step.end is not None and ref.result is None

    seed, moves, _ = ref_search("classic", players, {}, f"c-round2-{players}", pred)
    played = replay_moves("classic", players, {}, seed, moves)
    rnd = played.ref.round
    assert engine_legal(played.game) == {(ts(rnd.lead_tile), None)}


def test_block_with_tiles_in_the_bazaar_keeps_drawing() -> None:
    """RULES §2: no "all six" shortcut: if the ends close while tiles remain in the bazaar,
    players keep drawing by §1.3 until it is empty, then the block is declared; `by` is the
    player who placed the last tile; lowest hand scores others minus own."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        if step.end is None or step.end.kind != "fish":
            return False
        return sum(c for _, c in step.draws) > 0

    seed, moves, step = ref_search("classic", 2, {}, "c-block-draw", pred)
    played = replay_moves("classic", 2, {}, seed, moves[:-1])
    events = play_one(played, *moves[-1])
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"]["kind"] == "fish"
    assert end["end"]["by"] == moves[-1][0]
    draws = [e for e in events if e["type"] == "draw"]
    assert sum(e["count"] for e in draws) == sum(c for _, c in step.draws)


def test_goat_fish_shortcut_does_not_apply_in_classic() -> None:
    """RULES §2: both ends v with all six v non-doubles on the table is NOT a block while the
    bazaar still has tiles (players draw on)."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return (
            step.end is None
            and rnd.ends[0] == rnd.ends[1]
            and rnd.goat_fish()
            and (rnd.bazaar or step.draws)
        )

    seed, moves, _ = ref_search("classic", 2, {}, "c-no-fish", pred)
    played = replay_moves("classic", 2, {}, seed, moves)
    assert played.game.status == "playing"
    assert not any(e["type"] == "round_end" for e in played.events[-5:])


def test_block_tie_for_lowest_scores_nothing_in_a_game() -> None:
    """RULES §2: a tie for the lowest hand scores nothing for anybody."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        if step.end is None or step.end.kind != "fish":
            return False
        p = step.end.points
        return p.count(min(p)) > 1

    seed, moves, _ = ref_search("classic", 4, {}, "c-tie", pred, limit=20000)
    played = replay_moves("classic", 4, {}, seed, moves)
    end = next(e for e in reversed(played.events) if e["type"] == "round_end")
    assert end["end"]["credited"] == [0, 0, 0, 0]


@pytest.mark.parametrize("target", [100, 150, 200])
def test_game_to_target(target: int) -> None:
    """RULES §2: the game is won by the first player to reach the table's target; §9 rating."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return ref.result is not None

    seed, moves, _ = ref_search("classic", 3, {"target": target}, f"c-target-{target}", pred)
    played = replay_moves("classic", 3, {"target": target}, seed, moves)
    result = played.game.result
    assert result["reason"] == "target"
    assert max(result["final"]) >= target
    for w in result["winners"]:
        assert result["final"][w] == max(result["final"])
        assert result["rating"][w] == 10


def test_classic_options() -> None:
    """RULES §2: option `target`: 100 (default), 150, 200; anything else is an OptionsError."""
    assert validate_options("classic", 2, {})["target"] == 100
    assert validate_options("classic", 4, {"target": 150})["target"] == 150
    for bad in ({"target": 120}, {"target": "100"}, {"fish_rule": "all"}, {"tagret": 100}):
        with pytest.raises(OptionsError):
            validate_options("classic", 3, bad)
    for players in (1, 5):
        with pytest.raises(OptionsError):
            validate_options("classic", players, {})


def test_goat_options() -> None:
    """RULES §1.7: `fish_rule` is `all` (default) or `one`; 2-4 players (§1.1)."""
    assert validate_options("goat", 4, {})["fish_rule"] == "all"
    assert validate_options("goat", 2, {"fish_rule": "one"})["fish_rule"] == "one"
    for bad in ({"fish_rule": "none"}, {"target": 100}, {"fish_rule": 1}):
        with pytest.raises(OptionsError):
            validate_options("goat", 4, bad)
    for players in (1, 5):
        with pytest.raises(OptionsError):
            validate_options("goat", players, {})
    with pytest.raises(OptionsError):
        validate_options("chess", 2, {})
