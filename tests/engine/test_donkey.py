"""Donkey (RULES §8) through real games: the cross, closed doubles blocking a side until
their owner opens them on a later turn, fish and blocks with closed sides, hidden faces,
records, and Goat's scoring to 101."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.engine import IllegalMove, RecordError, game_from_dict, new_game, replay_record
from app.engine.tiles import full_set

SET = [str(t) for t in full_set(6)]


def dealt(hands: list[list[str]], options: dict | None = None) -> Any:
    """A Donkey game whose first round is dealt as given, the rest of the set in canonical
    order as the bazaar (no seed: the deal is the record's)."""
    game = new_game("donkey", len(hands), options or {}, None)
    used = {t for h in hands for t in h}
    game.deal(hands, [t for t in SET if t not in used])
    return game


def refused(game: Any, seat: int, tile: str, end: str | None, **fields: Any) -> str:
    """Play a move that must be refused; nothing may change. Returns the reason."""
    before = game.to_dict()
    with pytest.raises(IllegalMove) as error:
        game.play(seat, tile, end, **fields)
    assert game.to_dict() == before
    return str(error.value)


def shown_tiles(obj: Any) -> set[str]:
    text = json.dumps(obj)
    return {t for t in SET if f'"{t}"' in text}


# Seat 0 holds 1-1 and leads (RULES 1.2); seat 1 answers. Fillers never matter.
HANDS = [
    ["1-1", "3-3", "3-5", "1-5", "2-6", "0-6", "4-6"],
    ["1-3", "1-4", "1-6", "3-4", "2-5", "0-2", "0-5"],
]


def test_the_first_double_is_a_cross_open_on_four_sides() -> None:
    """RULES §8: "Goat (1) with a cross: the first double is playable on four sides"."""
    game = dealt(HANDS)
    assert game.turn == 0 and game.legal_for(0) == [{"tile": "1-1", "end": None}]
    game.play(0, "1-1")
    view = game.view(1)
    assert view["ends"] == {"left": 1, "right": 1, "up": 1, "down": 1}
    assert view["layout"] == "spinner"
    legal = {(m["tile"], m["end"]) for m in view["legal"]}
    assert legal == {(t, e) for t in ("1-3", "1-4", "1-6") for e in ("left", "right", "up", "down")}
    game.play(1, "1-6", "up")  # a short side at once, before the long sides are covered
    assert game.view(0)["ends"] == {"left": 1, "right": 1, "up": 6, "down": 1}


# No double in either hand: 5-6, the highest non-double, leads (RULES 1.2); seat 1 holds no
# 5 or 6 and draws 6-6, the bazaar's first tile.
NO_DOUBLES = [
    ["5-6", "1-4", "2-4", "3-4", "1-5", "2-5", "4-6"],
    ["0-1", "0-2", "0-3", "1-2", "1-3", "2-3", "0-4"],
]


def no_doubles_dealt() -> Any:
    game = new_game("donkey", 2, {}, None)
    used = {*NO_DOUBLES[0], *NO_DOUBLES[1]}
    game.deal(NO_DOUBLES, ["6-6", *(t for t in SET if t not in used and t != "6-6")])
    game.play(0, "5-6")
    assert game.turn == 1 and game.view(1)["hand"][-1] == "6-6"  # drawn, and it fits
    return game


def test_a_later_first_double_opens_its_sides_at_once() -> None:
    """RULES §8: the first double is the cross also when it is not the lead: laid on an end,
    its outer side and both short sides open at once."""
    game = no_doubles_dealt()
    assert game.view(None)["ends"] == {"left": 5, "right": 6}
    game.play(1, "6-6", "right")
    assert game.view(0)["ends"] == {"left": 5, "right": 6, "up": 6, "down": 6}
    game.play(0, "4-6", "down")
    assert game.view(1)["ends"] == {"left": 5, "right": 6, "up": 6, "down": 4}


def test_a_closed_cross_blocks_three_sides_until_opened() -> None:
    """RULES §8: the cross laid closed blocks "that side": its outer long side and both short
    sides, for everyone but its owner; opening it opens all three. A lead is never closed."""
    game = no_doubles_dealt()
    game.play(1, "6-6", "right", closed=True)
    view = game.view(0)
    assert view["ends"] == {"left": 5}
    assert view["closed"] == [{"end": "right", "owner": 1, "blocks": ["right", "up", "down"]}]
    assert "6-6" not in shown_tiles(view)
    for end in ("right", "up", "down"):
        assert "matches no open end (5)" in refused(game, 0, "4-6", end)
    game.play(0, "1-5", "left")
    # Its owner opens it by naming the end it was laid on, here with a tile on the left.
    assert "no closed double" in refused(game, 1, "0-1", "left", open="up")
    game.play(1, "0-1", "left", open="right")
    assert game.view(0)["ends"] == {"left": 0, "right": 6, "up": 6, "down": 6}
    game.play(0, "4-6", "up")
    lead = new_game("donkey", 2, {}, bytes(32))
    tile = lead.legal_for(lead.turn)[0]["tile"]
    assert "never laid closed" in refused(lead, lead.turn, tile, None, closed=True)


def test_a_closed_double_blocks_its_side_until_its_owner_opens_it() -> None:
    """RULES §8: "a player who lays a double may lay it face down ("closed"), blocking that
    side until he opens it on a later turn of his"."""
    game = dealt(HANDS)
    game.play(0, "1-1")
    game.play(1, "1-3", "right")
    offered = game.legal_for(0)
    assert {"tile": "3-3", "end": "right", "closed": True} in offered
    assert {"tile": "3-3", "end": "right"} in offered
    # Closing and opening in one move: there is nothing closed yet to open (later turn).
    assert "no closed double" in refused(game, 0, "3-3", "right", closed=True, open="right")
    events = game.play(0, "3-3", "right", closed=True)
    # Hidden: the play event names no tile and no view shows its face.
    assert events[0] == {"type": "play", "round": 0, "seat": 0, "end": "right", "closed": True}
    for seat in (1, None):
        view = game.view(seat)
        assert "3-3" not in shown_tiles(view)
        assert view["ends"] == {"left": 1, "up": 1, "down": 1}  # the right side is blocked
        face_down = [e for e in view["chain"] if e.get("closed")]
        assert face_down == [
            {"tile": None, "left": None, "right": None, "closed": True, "owner": 0,
             "end": "right"}
        ]
        assert view["closed"] == [{"end": "right", "owner": 0, "blocks": ["right"]}]
    assert "3-3" not in shown_tiles(game.view(0)["chain"])
    # Blocked for the others: seat 1's 3-4 matched the 3 on the right, now it fits nowhere.
    assert all(m["end"] != "right" for m in game.legal_for(1))
    assert "matches no open end" in refused(game, 1, "3-4", "right")
    # Only its owner may open it.
    assert "only seat 0" in refused(game, 1, "1-4", "left", open="right")
    game.play(1, "1-4", "left")
    # A later turn of its owner: playing there needs the double opened first.
    assert "closed" in refused(game, 0, "3-5", "right")
    offered = game.legal_for(0)
    assert {"tile": "3-5", "end": "right", "open": "right"} in offered
    assert {"tile": "3-5", "end": "right"} not in offered
    events = game.play(0, "3-5", "right", open="right")
    assert events[0]["tile"] == "3-5"
    assert events[1] == {"type": "open", "round": 0, "seat": 0, "end": "right", "tile": "3-3"}
    view = game.view(1)
    assert view["closed"] == [] and not any(e.get("closed") for e in view["chain"])
    assert [e["tile"] for e in view["chain"]][-3:] == ["1-3", "3-3", "3-5"]
    assert view["ends"] == {"left": 4, "right": 5, "up": 1, "down": 1}


def test_opening_may_go_with_a_tile_on_another_end() -> None:
    """RULES §8 "until he opens it": opening is a field of a placement; the tile of that turn
    may go on any end, and the opened side is open for everyone from then on."""
    game = dealt(HANDS)
    game.play(0, "1-1")
    game.play(1, "1-3", "right")
    game.play(0, "3-3", "right", closed=True)
    game.play(1, "1-4", "left")
    game.play(0, "1-5", "up", open="right")
    assert game.view(1)["ends"] == {"left": 4, "right": 3, "up": 5, "down": 1}
    game.play(1, "3-4", "right")  # seat 1 now plays past the opened double


def test_fish_and_block_with_closed_sides() -> None:
    """RULES §8 + 1.4: a fish is recognised over every end, a closed one included with its
    double's number; a closed side that only its owner could use but cannot ends the round
    as a block when every seat has knocked. Found by playing fixed random games."""
    fish_closed = block_closed = 0
    for i in range(400):
        rng = random.Random(i)
        players = 2 + i % 3
        game = new_game("donkey", players, {}, bytes([i % 256, i // 256]) * 16)
        while game.status == "playing" and (not fish_closed or not block_closed):
            before_round = game.round
            move = rng.choice(list(game.legal_moves()))
            seat = game.turn
            board = game.board.copy()
            events = game.play(seat, move)
            ended = [e for e in events if e["type"] == "round_end"]
            if not ended or ended[0]["end"]["kind"] != "fish":
                # Not a fish: then no position with every end on one number v and all six
                # non-doubles of v down was left standing.
                if game.round == before_round:
                    assert not _fish_position(game.board)
                continue
            # The position that ended the round: replay the move on the board copy.
            after = board
            after.place(game.ts.ids[str(move.tile)], move.end)
            flags = dict(move.flags)
            if "open" in flags:
                after.reopen(flags["open"])
            if flags.get("closed"):
                after.close(game.ts.ids[str(move.tile)], move.end, seat)
            if not after.closed:
                continue
            if _fish_position(after):
                fish_closed += 1  # a fish over ends that include a closed one
                assert ended[0]["end"]["by"] == seat
            else:
                block_closed += 1  # everybody knocked: the last placer is the fisherman
                knocks = [e for e in events if e["type"] == "knock"]
                assert len(knocks) >= players and ended[0]["end"]["by"] == seat
        if fish_closed and block_closed:
            break
    assert fish_closed and block_closed


def _fish_position(board: Any) -> bool:
    values = set(board.open.values())  # closed ends stay listed with their double's number
    if len(values) != 1:
        return False
    return board.on_table[values.pop()] == 6


def test_a_closed_double_at_the_round_end_counts_in_the_layout_not_the_hand() -> None:
    """RULES §8 Choice (app/engine/donkey.py): a double still closed when the round ends is
    on the table, so it adds nothing to its owner's round points; the round end shows it in
    no hand, and the record of the finished round keeps its face."""
    found = 0
    for i in range(200):
        rng = random.Random(1000 + i)
        game = new_game("donkey", 2, {}, bytes([i]) * 32)
        while game.status == "playing" and game.round == 0:
            move = rng.choice(list(game.legal_moves()))
            closed = dict(game.board.closed)
            seat = game.turn
            events = game.play(seat, move)
            ended = [e for e in events if e["type"] == "round_end"]
            if not ended:
                continue
            still = {c.tid for c in closed.values()} - (
                {closed[dict(move.flags)["open"]].tid} if "open" in dict(move.flags) else set()
            )
            if dict(move.flags).get("closed"):
                still.add(game.ts.ids[str(move.tile)])
            if not still:
                break
            end, hands = ended[0]["end"], ended[0]["hands"]
            names = {game.ts.names[t] for t in still}
            assert not names & {t for h in hands for t in h}
            pips = [sum(int(x) for t in h for x in t.split("-")) for h in hands]
            lone_zero = [h == ["0-0"] for h in hands]
            assert end["points"] == [10 if z else p for p, z in zip(pips, lone_zero, strict=True)]
            moves = game.rounds[0]["moves"]
            assert names <= {m["tile"] for m in moves if m.get("closed")}
            found += 1
            break
        if found >= 3:
            break
    assert found >= 3


def test_goat_scoring_to_101() -> None:
    """RULES §8: "Scoring as Goat (remember below 13, to 101)": round points are the pips left
    (1.5), credited by 1.6 with fish for all (1.7), and the game ends when an account reaches
    101; everyone at 101 or more is a goat (1.8)."""
    rng = random.Random(8)
    game = new_game("donkey", 3, {"fish_rule": "all"}, bytes(range(32)))
    while game.status == "playing":
        game.play(game.turn, rng.choice(list(game.legal_moves())))
    record = game.record(["a", "b", "c"])
    account, opened, remembered = [0, 0, 0], [False] * 3, [0, 0, 0]
    for rd in record["rounds"]:
        end = rd["end"]
        for seat, p in enumerate(end["points"]):
            if end["kind"] == "out" and seat == end["by"]:
                assert p == 0
                remembered[seat] = 0
            elif opened[seat]:
                account[seat] += p
            elif p > 12:
                account[seat], opened[seat], remembered[seat] = p + remembered[seat], True, 0
            else:
                remembered[seat] += p
        assert rd["scores"] == account and rd["remembered"] == remembered
    assert max(account) >= 101
    assert record["result"]["reason"] == "goat"
    assert record["result"]["losers"] == [s for s in range(3) if account[s] >= 101]
    assert len(record["rounds"]) > 1


def test_records_replay_closed_and_opened_moves() -> None:
    """PROTOCOL §2a/§3: "closed" and "open" travel in records as they are; `domino replay`
    reproduces the game; a move that plays past a closed double without opening it, or
    opens another seat's double, is refused at its round and move."""
    game = dealt(HANDS)
    game.play(0, "1-1")
    game.play(1, "1-3", "right")
    game.play(0, "3-3", "right", closed=True)
    game.play(1, "1-4", "left")
    game.play(0, "3-5", "right", open="right")
    record = json.loads(json.dumps(game.record(["a", "b"])))
    moves = record["rounds"][0]["moves"]
    assert moves[2] == {"seat": 0, "tile": "3-3", "end": "right", "closed": True}
    assert moves[4] == {"seat": 0, "tile": "3-5", "end": "right", "open": "right"}
    assert replay_record(record) == record
    state = json.loads(json.dumps(game.to_dict()))
    assert game_from_dict(state).to_dict() == game.to_dict()
    for m, broken_move in (
        (4, {"seat": 0, "tile": "3-5", "end": "right"}),
        (3, {"seat": 1, "tile": "1-4", "end": "left", "open": "right"}),
        (2, {"seat": 0, "tile": "1-5", "end": "right", "closed": True}),
    ):
        broken = json.loads(json.dumps(record))
        broken["rounds"][0]["moves"][m] = broken_move
        with pytest.raises(RecordError) as error:
            replay_record(broken)
        assert (error.value.round, error.value.move) == (0, m)


def test_state_keeps_a_closed_double_across_a_reload() -> None:
    """A table saved and loaded mid-round (the live store) keeps the closed double, its
    owner and what it blocks; views stay the same."""
    game = dealt(HANDS)
    game.play(0, "1-1")
    game.play(1, "1-3", "right")
    game.play(0, "3-3", "right", closed=True)
    clone = game_from_dict(json.loads(json.dumps(game.to_dict())))
    assert [clone.view(s) for s in (0, 1, None)] == [game.view(s) for s in (0, 1, None)]
    assert "matches no open end" in refused(clone, 1, "3-4", "right")


def test_options_and_bad_fields() -> None:
    """Donkey takes Goat's `fish_rule` and nothing else; bad extra fields are refused with a
    reason and change nothing."""
    assert new_game("donkey", 4, {"fish_rule": "one"}, bytes(32)).options == {"fish_rule": "one"}
    with pytest.raises(ValueError):
        new_game("donkey", 4, {"teams": True}, bytes(32))
    game = dealt(HANDS)
    game.play(0, "1-1")
    assert "must be true or false" in refused(game, 1, "1-3", "right", closed="yes")
    assert "only a double" in refused(game, 1, "1-3", "right", closed=True)
    assert "no 'also'" in refused(game, 1, "1-3", "right", also=[])
    assert "no closed double" in refused(game, 1, "1-3", "right", open="up")
