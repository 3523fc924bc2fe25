"""Goat (RULES §1) through real games: new_game / play / legal_moves / view.

Positions are found by searching seeds and random choices with the reference model
(tests/engine/reference.py), then the same moves are played on the engine in lockstep.
"""

from __future__ import annotations

import json
import random

import pytest

from app.engine import IllegalMove, new_game
from tests.engine.driver import (
    check_views,
    deal_search,
    engine_legal,
    play_one,
    ref_search,
    replay_moves,
    seed_of,
    start,
)
from tests.engine.reference import (
    DOUBLE_SIX,
    GOAT_FIRST_LEAD,
    NON_DOUBLES_DESC,
    deal_attempt,
    goat_deal,
    required_lead,
    tp,
    ts,
)


def find_seed(players: int, label: str, predicate) -> bytes:
    return deal_search(label, lambda seed: goat_deal(seed, 0, players)[:2], predicate, 20000)


# --- §1.2 who leads ---------------------------------------------------------------------------


def test_lead_value_order_is_the_rules_list() -> None:
    """RULES §1.2 Choice: 5-6, 4-6, 3-6, 4-5, 2-6, 3-5, 1-6, 2-5, 3-4, 0-6, 1-5, 2-4, ... (a
    self-check of the reference's order, which the lead tests below rely on)."""
    names = [ts(t) for t in NON_DOUBLES_DESC[:12]]
    assert names == [
        "5-6",
        "4-6",
        "3-6",
        "4-5",
        "2-6",
        "3-5",
        "1-6",
        "2-5",
        "3-4",
        "0-6",
        "1-5",
        "2-4",
    ]
    assert [ts(t) for t in GOAT_FIRST_LEAD[:7]] == ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0"]


def _assert_first_lead(seed: bytes, players: int, tile: str) -> None:
    game = new_game("goat", players, {}, seed)
    hands, _, _ = goat_deal(seed, 0, players)
    holder = next(s for s, h in enumerate(hands) if tp(tile) in h)
    assert game.turn == holder
    assert engine_legal(game) == {(tile, None)}
    assert game.legal_for(holder) == [{"tile": tile, "end": None}]
    for other in hands[holder]:
        if ts(other) != tile:
            before = game.to_dict()
            with pytest.raises(IllegalMove):
                game.play(holder, ts(other), None)
            assert game.to_dict() == before  # an illegal move changes nothing
    events = game.play(holder, tile, None)
    assert events[0] == {"type": "play", "round": 0, "seat": holder, "tile": tile, "end": None}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_round_holder_of_1_1_leads_it(players: int) -> None:
    """RULES §1.2: first round: the holder of 1-1 leads and must lead 1-1."""
    for i in range(15):
        seed = find_seed(players, f"one-one-{players}-{i}", lambda h, b: (1, 1) not in b)
        _assert_first_lead(seed, players, "1-1")


def test_first_round_1_1_in_bazaar_next_double_leads() -> None:
    """RULES §1.2: if no hand holds 1-1 (it is in the bazaar), the holder of 2-2 leads it;
    then 3-3, 4-4, 5-5, 6-6, and finally 0-0 (2-player deals, found by search)."""
    for k, double in enumerate(["2-2", "3-3", "4-4", "5-5", "6-6", "0-0"]):
        missing = [(v, v) for v in (1, 2, 3, 4, 5, 6, 0)[: k + 1]]

        def pred(hands, bazaar, missing=missing, double=double) -> bool:
            return all(t in bazaar for t in missing) and tp(double) not in bazaar

        seed = find_seed(2, f"double-{double}", pred)
        _assert_first_lead(seed, 2, double)


def test_first_round_without_doubles_in_hands_highest_tile_leads() -> None:
    """RULES §1.2: no hand holds any double: the holder of 5-6 leads it; if nobody holds 5-6,
    the holder of the next tile in descending value (4-6, 3-6, 4-5, ...) leads it."""
    doubles = [(v, v) for v in range(7)]
    seed = find_seed(2, "no-doubles", lambda h, b: all(d in b for d in doubles) and (5, 6) not in b)
    _assert_first_lead(seed, 2, "5-6")
    seed = find_seed(2, "no-doubles-no-56", lambda h, b: all(d in b for d in [*doubles, (5, 6)]))
    hands, _, _ = goat_deal(seed, 0, 2)
    _seat, tile = required_lead(hands, GOAT_FIRST_LEAD)
    assert tile in NON_DOUBLES_DESC[1:]
    _assert_first_lead(seed, 2, ts(tile))


def test_wrong_seat_cannot_play() -> None:
    """RULES §1.3: only the player on turn places a tile."""
    seed = seed_of("wrong-seat", 0)
    game = new_game("goat", 3, {}, seed)
    hands, _, _ = goat_deal(seed, 0, 3)
    other = (game.turn + 1) % 3
    before = game.to_dict()
    with pytest.raises(IllegalMove):
        game.play(other, ts(hands[other][0]), None)
    assert game.to_dict() == before


@pytest.mark.parametrize("kind", ["out", "fish"])
def test_later_rounds_led_by_out_player_or_fisherman_with_any_tile(kind: str) -> None:
    """RULES §1.2: every later round: the player who went out, or the fisherman if it ended in
    a fish, leads with any tile of his choice."""
    for players in (2, 3, 4):

        def pred(ref, rnd, step, seat, tile, kind=kind) -> bool:
            return step.end is not None and step.end.kind == kind and ref.result is None

        seed, moves, step = ref_search("goat", players, {}, f"later-{kind}-{players}", pred)
        played = replay_moves("goat", players, {}, seed, moves)
        game = played.game
        assert game.round == len(played.ref.rounds) - 1 >= 1
        assert game.turn == step.end.by
        hand = game.view(step.end.by)["hand"]
        assert engine_legal(game) == {(t, None) for t in hand}
        tile = sorted(hand)[-1]
        play_one(played, step.end.by, tile, None)
        check_views(played.game, played.ref)


# --- §1.3 turns ---------------------------------------------------------------------------------


def _midround(players: int, label: str, predicate, moves_at_least: int = 1):
    """A game stopped right after a placement matching predicate(played) in lockstep."""
    for i in range(400):
        rng = random.Random(f"{label}-{i}")
        played = start("goat", players, {}, seed_of(label, i))
        count = 0
        while played.ref.result is None:
            legal = sorted(engine_legal(played.game), key=str)
            if count >= moves_at_least and predicate(played):
                return played
            tile, end = rng.choice(legal)
            play_one(played, played.game.turn, tile, end)
            count += 1
    raise AssertionError(f"nothing found for {label}")


def test_must_play_if_able_and_only_matching_tiles() -> None:
    """RULES §1.3: a tile is placed on one of the two open ends with matching numbers touching;
    a tile that does not match, or is not in the hand, is refused (IllegalMove)."""

    def has_unplayable(played) -> bool:
        rnd = played.ref.round
        hand = rnd.hands[rnd.turn]
        return rnd.ends is not None and any(not rnd.fits(t) for t in hand)

    for players in (2, 3, 4):
        played = _midround(players, f"must-play-{players}", has_unplayable)
        game, rnd = played.game, played.ref.round
        seat = game.turn
        before = game.to_dict()
        for t in rnd.hands[seat]:
            if not rnd.fits(t):
                for end in ("left", "right", None):
                    with pytest.raises(IllegalMove):
                        game.play(seat, ts(t), end)
        foreign = next(t for t in DOUBLE_SIX if t not in rnd.hands[seat] and rnd.fits(t))
        with pytest.raises(IllegalMove):
            game.play(seat, ts(foreign), rnd.fits(foreign)[0])
        for bad in ("7-7", "x", "", "3-", "up"):
            with pytest.raises(IllegalMove):
                game.play(seat, bad, "left")
        t = next(t for t in rnd.hands[seat] if rnd.fits(t))
        with pytest.raises(IllegalMove):
            game.play(seat, ts(t), "up")
        assert game.to_dict() == before


def test_end_required_when_a_tile_fits_both_ends() -> None:
    """PROTOCOL §2 / RULES §1.3: `end` is required whenever the tile fits more than one open end
    (also when both ends show the same number); with it the move is accepted."""

    def both_fit(same: bool):
        def pred(played) -> bool:
            rnd = played.ref.round
            if rnd.ends is None or (rnd.ends[0] == rnd.ends[1]) != same:
                return False
            return any(len(rnd.fits(t)) == 2 for t in rnd.hands[rnd.turn])

        return pred

    for same in (False, True):
        played = _midround(2, f"both-ends-{same}", both_fit(same))
        game, rnd = played.game, played.ref.round
        seat = game.turn
        tile = next(t for t in rnd.hands[seat] if len(rnd.fits(t)) == 2)
        before = game.to_dict()
        with pytest.raises(IllegalMove):
            game.play(seat, ts(tile), None)
        assert game.to_dict() == before
        assert {(ts(tile), "left"), (ts(tile), "right")} <= engine_legal(game)
        play_one(played, seat, ts(tile), "right")
        check_views(played.game, played.ref)


def test_single_fitting_end_may_be_omitted_and_wrong_end_refused() -> None:
    """PROTOCOL §2: `end` may be omitted when exactly one end fits; naming the end that does
    not match is an IllegalMove (RULES §1.3: matching numbers touching)."""

    def one_fit(played) -> bool:
        rnd = played.ref.round
        return rnd.ends is not None and any(len(rnd.fits(t)) == 1 for t in rnd.hands[rnd.turn])

    played = _midround(3, "one-end", one_fit)
    game, rnd = played.game, played.ref.round
    seat = game.turn
    tile = next(t for t in rnd.hands[seat] if len(rnd.fits(t)) == 1)
    (good,) = rnd.fits(tile)
    wrong = "left" if good == "right" else "right"
    with pytest.raises(IllegalMove):
        game.play(seat, ts(tile), wrong)
    play_one(played, seat, ts(tile), None)
    check_views(played.game, played.ref)


def test_forced_draws_and_knocks_are_automatic_events_with_counts_only() -> None:
    """RULES §1.3: a player with no playable tile draws from the front of the bazaar until he
    draws a playable tile, else knocks; the server does it and reports "seat 2 drew 3 tiles" /
    "seat 2 knocked" as events (draw events carry only a count). Drawn tiles stay in hand."""
    seen_draw = seen_knock = seen_draw_then_knock = False
    for i in range(60):
        played = start("goat", 2, {}, seed_of("draws", i))
        rng = random.Random(i)
        while played.ref.result is None and not (seen_draw and seen_knock):
            rnd = played.ref.round
            bazaar_before = list(rnd.bazaar)
            hands_before = [list(h) for h in rnd.hands]
            tile, end = rng.choice(sorted(engine_legal(played.game), key=str))
            events = play_one(played, played.game.turn, tile, end)
            draws = [e for e in events if e["type"] == "draw"]
            knocks = [e for e in events if e["type"] == "knock"]
            for e in draws:
                assert set(e) == {"type", "round", "seat", "count"}
                assert e["count"] >= 1
            if draws and played.ref.round is rnd and rnd.end is None:
                seen_draw = True
                e = draws[0]
                got = set(played.game.view(e["seat"])["hand"])
                want = {ts(t) for t in hands_before[e["seat"]] + bazaar_before[: e["count"]]}
                assert want <= got | {tile}
                assert played.game.view(None)["bazaar"] == len(bazaar_before) - sum(
                    d["count"] for d in draws
                )
            if knocks and rnd.end is None:
                seen_knock = True
                for e in knocks:
                    assert set(e) == {"type", "round", "seat"}
                if draws and draws[-1]["seat"] == knocks[0]["seat"]:
                    seen_draw_then_knock = True
        if seen_draw and seen_knock:
            break
    assert seen_draw and seen_knock, "search found no draws/knocks"
    del seen_draw_then_knock


# --- §1.4 end of a round ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fish_with_the_double_still_unplayed(players: int) -> None:
    """RULES §1.4: a fish is recognised as soon as both open ends show v and all six
    non-doubles containing v are on the table, even if v-v is still in a hand or the bazaar;
    the player who placed that tile is the fisherman."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        if step.end is None or step.end.kind != "fish":
            return False
        return (rnd.ends[0], rnd.ends[0]) not in rnd.table

    seed, moves, _step = ref_search("goat", players, {}, f"fish-vv-{players}", pred)
    played = replay_moves("goat", players, {}, seed, moves)
    end = [e for e in played.events if e["type"] == "round_end"][-1]
    assert end["end"]["kind"] == "fish"
    assert end["end"]["by"] == moves[-1][0]
    v = played.ref.rounds[-2 if played.ref.result is None else -1].ends[0]
    assert f"{v}-{v}" in {t for hand in end["hands"] for t in hand} or players == 2


def test_fish_with_tiles_left_in_the_bazaar() -> None:
    """RULES §1.4: the "all six" test ends the round even while the bazaar still has tiles."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return step.end is not None and step.end.kind == "fish" and len(rnd.bazaar) > 0

    seed, moves, _step = ref_search("goat", 2, {}, "fish-bazaar", pred)
    played = replay_moves("goat", 2, {}, seed, moves)
    end = [e for e in played.events if e["type"] == "round_end"][-1]
    assert end["end"]["kind"] == "fish"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fish_on_the_last_tile_is_going_out(players: int) -> None:
    """RULES §1.4: if the tile that makes the fish is also the player's last tile, the round
    ends by going out, not by a fish (§1.6: his remembered points are reset)."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return step.end is not None and step.end.kind == "out" and rnd.goat_fish()

    seed, moves, _step = ref_search("goat", players, {}, f"last-fish-{players}", pred)
    played = replay_moves("goat", players, {}, seed, moves)
    end = [e for e in played.events if e["type"] == "round_end"][-1]
    assert end["end"]["kind"] == "out"
    assert end["end"]["by"] == moves[-1][0]
    assert end["end"]["points"][moves[-1][0]] == 0


def test_round_end_shows_the_hands_face_up() -> None:
    """PROTOCOL §2: round_end carries `hands`, every seat's remaining tiles; §1.5 points."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return step.end is not None and any(h == [(0, 0)] for h in step.end.hands)

    seed, moves, _step = ref_search("goat", 4, {}, "lone-0-0", pred)
    played = replay_moves("goat", 4, {}, seed, moves)
    end = [e for e in played.events if e["type"] == "round_end"][-1]
    lone = next(s for s, h in enumerate(end["hands"]) if h == ["0-0"])
    assert end["end"]["points"][lone] == 10  # RULES §1.5: a lone 0-0 counts 10


# --- §1.8 end of the game ------------------------------------------------------------------------


def test_game_ends_at_101_and_every_player_at_101_is_a_goat() -> None:
    """RULES §1.8: after a round is credited, if any opened account is 101 or more the game
    ends; every player at 101 or more is a goat. §1.9: goats gain 0, others the formula."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return ref.result is not None and len(ref.result.losers) >= 2

    seed, moves, _step = ref_search("goat", 4, {"fish_rule": "all"}, "two-goats", pred)
    played = replay_moves("goat", 4, {"fish_rule": "all"}, seed, moves)
    result = played.game.result
    assert result["reason"] == "goat"
    assert len(result["losers"]) >= 2
    assert all(result["final"][s] >= 101 for s in result["losers"])
    assert all(result["final"][s] < 101 for s in result["winners"])
    assert all(result["rating"][s] == 0 for s in result["losers"])
    view = played.game.view(None)
    assert view["status"] == "finished" and view["turn"] is None
    assert view["seed"] == seed.hex()
    with pytest.raises(IllegalMove):
        played.game.play(0, "0-0", None)


def test_remembered_points_never_count_toward_101() -> None:
    """RULES §1.8: remembered points never count toward 101 (the final score is the account,
    0 while not opened)."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        return ref.result is not None and any(not s.opened and s.remembered > 0 for s in ref.stds)

    seed, moves, _step = ref_search("goat", 4, {"fish_rule": "all"}, "remembered-end", pred)
    played = replay_moves("goat", 4, {"fish_rule": "all"}, seed, moves)
    result = played.game.result
    seats = played.game.view(None)["seats"]
    for s in seats:
        if not s["opened"]:
            assert result["final"][s["seat"]] == 0
            assert result["rating"][s["seat"]] == 10


def test_timeout_ends_the_game_with_the_timeout_formula() -> None:
    """RULES §1.10: a player who times out ends the game at once ("interrupted by a timeout");
    §1.9: he gains 0, every other player max(1, round_half_up((T - S) / 10))."""

    def pred(ref, rnd, step, seat, tile) -> bool:
        opened = [s for s in ref.stds if s.opened]
        return ref.result is None and len(opened) >= 2 and rnd.end is None

    seed, moves, _step = ref_search("goat", 3, {}, "timeout", pred)
    played = replay_moves("goat", 3, {}, seed, moves)
    loser = max(range(3), key=lambda s: played.ref.account(s))
    events = played.game.timeout(loser)
    played.ref.timeout(loser)
    assert any(e["type"] == "timeout" and e["seat"] == loser for e in events)
    ge = [e for e in events if e["type"] == "game_end"]
    assert len(ge) == 1
    r = played.ref.result
    want = {
        "reason": "timeout",
        "losers": [loser],
        "winners": r.winners,
        "final": r.final,
        "rating": r.rating,
    }
    assert {k: played.game.result[k] for k in want} == want
    assert ge[0]["result"]["rating"] == r.rating
    assert played.game.status == "finished"
    hist = played.game.view(0)["history"][-1]
    assert hist["end"] == "timeout" and hist["by"] == loser and hist["credited"] == [0, 0, 0]
    json.dumps(played.game.view(0))


def test_redeal_in_a_later_round() -> None:
    """RULES §1.1 + PROTOCOL §4: every round is dealt from (seed, round, attempt); a later
    round that needs a redeal uses attempt k+1 of that round."""
    for i in range(3000):
        seed = seed_of("late-redeal", i)
        if goat_deal(seed, 1, 3)[2] > 0:
            break
    first, _ = deal_attempt(seed, 1, 0, 3, 7)
    rng = random.Random(0)
    played = start("goat", 3, {}, seed)
    while played.game.round == 0:
        tile, end = rng.choice(sorted(engine_legal(played.game), key=str))
        play_one(played, played.game.turn, tile, end)
    hands = [sorted(played.game.view(s)["hand"]) for s in range(3)]
    assert hands == [sorted(ts(t) for t in h) for h in goat_deal(seed, 1, 3)[0]]
    assert hands != [sorted(ts(t) for t in h) for h in first]
