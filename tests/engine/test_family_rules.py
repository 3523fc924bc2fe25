"""Goat's family keeps Goat's rules (RULES §1's opening): the redeal of 1.1, the lead after a
fish of 1.2 and the fish test of 1.4 hold for Sea Goat (§7), Sport Goat (§11) and General
(§12) as they do for Goat and Donkey; Sport Goat's fish is decided by plain pips; Sea Goat's
first lead without a double and its special game wins.

Whole games are played by tests/engine/family.py's seeded policy; every round is checked
against the rule book by code written here and in tests/engine/reference.py, not the
engine's.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from app.engine import VARIANTS, RecordError, new_game, replay_record
from app.engine.goat_family import GoatFamily
from app.engine.rating import round_half_up
from tests.engine.family import SET, dealt, exported, pips, play_game, round_ends
from tests.engine.reference import goat_deal, needs_redeal, tp, ts

FAMILY = [("sea_goat", 2, {}), ("sea_goat", 4, {}), ("sea_goat", 4, {"teams": True}),
          ("sport_goat", 4, {"rounds": 4}), ("general", 4, {})]
GAMES = 12


def fish_number(ends: tuple[int, int], down: set[str]) -> int | None:
    """RULES 1.4: both open ends show v and the six non-doubles with v are on the table."""
    v = ends[0]
    if ends[1] != v:
        return None
    plain = [f"{min(v, n)}-{max(v, n)}" for n in range(7) if n != v]
    return v if all(t in down for t in plain) else None


def walk(moves: list[dict[str, Any]]) -> list[tuple[tuple[int, int], set[str]]]:
    """The open ends and the tiles down after each move of a round (both doubles of a Sea
    Goat move placed), from the record alone."""
    ends: list[int] = []
    down: set[str] = set()
    after = []
    for move in moves:
        placements = [(move["tile"], move.get("end"))]
        placements += [(p["tile"], p["end"]) for p in move.get("also", ())]
        for tile, end in placements:
            a, b = tp(tile)
            if not ends:
                ends = [a, b]
            else:
                # `end` is omitted only when one end fits.
                side = (0 if ends[0] in (a, b) else 1) if end is None else ("left",
                                                                            "right").index(end)
                ends[side] = b if a == ends[side] else a
            down.add(tile)
        after.append(((ends[0], ends[1]), set(down)))
    return after


def check_fish(record: dict[str, Any], events: list[dict[str, Any]]) -> Counter:
    """Every round of a game ends at the first move that makes 1.4's fish (unless that move
    goes out), as a fish of the player who made it; never earlier, never later."""
    seen: Counter = Counter()
    for rd, event in zip(record["rounds"], round_ends(events), strict=False):
        positions = walk(rd["moves"])
        fish_at = next((m for m, (ends, down) in enumerate(positions)
                        if fish_number(ends, down) is not None), None)
        end = event["end"]
        last = len(rd["moves"]) - 1
        if end["kind"] == "timeout":
            continue
        if end["kind"] == "fish":
            # "The player who placed the tile that made the fish is the fisherman."
            assert fish_at == last, (fish_at, last, end)
            assert end["by"] == rd["moves"][last]["seat"]
            ends, down = positions[last]
            v = fish_number(ends, down)
            double = f"{v}-{v}"
            # "... even if the double v-v is still in a hand or in the bazaar"
            seen["fish, v-v not down" if double not in down else "fish, v-v down"] += 1
        else:
            # Going out: no earlier move made a fish; the last may (it then goes out).
            assert fish_at is None or fish_at == last, (fish_at, last)
            seen["out on the fish's tile" if fish_at == last else "out"] += 1
    return seen


@pytest.mark.parametrize(("variant", "players", "options"), FAMILY)
def test_rules_1_4_the_family_keeps_goats_fish(variant: str, players: int, options: dict):
    """RULES §1: "Goat's family — Sea Goat (7), Donkey (8), Sport Goat (11), General (12)
    — keeps every rule of this section that its own section does not change, among them
    ... the fish test (1.4, v-v still held or not)". 1.4: "it is recognised as soon as both
    open ends show the same number v and all six non-double tiles that contain v are on
    the table — even if the double v-v is still in a hand or in the bazaar"."""
    seen: Counter = Counter()
    for seed in range(GAMES):
        game, events = play_game(variant, players, options, seed)
        seen += check_fish(exported(game), events)
    assert seen["fish, v-v not down"], seen


@pytest.mark.parametrize(("variant", "players", "options"), FAMILY)
def test_rules_1_1_the_family_keeps_goats_redeal(variant: str, players: int, options: dict):
    """RULES §1: the family keeps "the redeal (1.1)": "if after the deal any hand holds 5
    or more doubles, or 6 or more tiles that share one number ..., all tiles are
    collected, reshuffled and dealt again (repeat until no hand qualifies)". Every deal
    equals the reference's (tests/engine/reference.py), and some needed a redeal."""
    redealt = 0
    for seed in range(GAMES):
        game, events = play_game(variant, players, options, seed)
        attempts = 0
        for r, rd in enumerate(game.rounds):
            hands, bazaar, attempt = goat_deal(game.seed, r, players)
            assert rd["hands"] == [[ts(t) for t in h] for h in hands], (seed, r)
            assert rd["bazaar"] == [ts(t) for t in bazaar]
            attempts += attempt
        assert sum(e["type"] == "redeal" for e in events) == attempts
        redealt += attempts
    for seed in range(GAMES, 5000):  # first deals, until some needed a redeal
        if redealt >= 3:
            break
        game = new_game(variant, players, options, seed.to_bytes(32, "big"))
        hands, _, attempt = goat_deal(game.seed, 0, players)
        assert game.rounds[0]["hands"] == [[ts(t) for t in h] for h in hands], seed
        redealt += attempt
    assert redealt, "no deal needed a redeal: the check does not bite"


@pytest.mark.parametrize("variant", ["sea_goat", "sport_goat", "general"])
def test_rules_1_1_a_record_whose_hands_should_have_been_redealt_is_refused(variant: str):
    """RULES 1.1 in a record without a seed: hands that qualify for a redeal are no deal."""
    five_doubles = ["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"]
    players = 2 if variant == "sea_goat" else 4
    rest = [t for t in SET if t not in five_doubles]
    hands = [five_doubles] + [rest[7 * i:7 * i + 7] for i in range(players - 1)]
    assert needs_redeal([[tp(t) for t in h] for h in hands])
    record = {"format": "domino-record/1", "variant": variant, "options": {},
              "players": [f"p{i}" for i in range(players)], "seed": None, "timeout": None,
              "rounds": [{"hands": hands, "bazaar": rest[7 * (players - 1):], "moves": []}]}
    with pytest.raises(RecordError, match="redealt") as error:
        replay_record(record)
    assert (error.value.round, error.value.move) == (0, 0)


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {}), (4, {"teams": True})])
def test_rules_1_2_after_a_fish_the_fisherman_leads_in_sea_goat_too(players: int, options):
    """RULES 1.2: "Every later round: the player who went out in the previous round, or
    the fisherman if it ended in a fish, leads with any tile of his choice" -- in Sea Goat
    too (RULES §7: "later rounds as in 1.2"), whoever won the fish."""
    seen: Counter = Counter()
    for seed in range(GAMES):
        game, events = play_game("sea_goat", players, options, seed)
        record = exported(game)
        ends = [e["end"] for e in round_ends(events)]
        for r in range(1, len(record["rounds"])):
            before = ends[r - 1]
            assert record["rounds"][r]["moves"][0]["seat"] == before["by"], (seed, r)
            if before["kind"] == "fish":
                # The fish's winner: the lowest hand (of the side whose hands count less).
                side = (lambda s: s % 2) if options.get("teams") else (lambda s: s)
                sums = Counter()
                for seat, p in enumerate(before["points"]):
                    sums[side(seat)] += p
                low = min(sums.values())
                lowest = [k for k, v in sums.items() if v == low]
                winner = min((s for s in range(players) if side(s) == lowest[0]),
                             key=lambda s: before["points"][s]) if len(lowest) == 1 else None
                seen["the winner is another seat" if winner not in (None, before["by"])
                     else "fish"] += 1
    assert seen["the winner is another seat"], seen


def test_rules_11_the_fish_goes_to_fewer_plain_pips_not_the_special_counts():
    """RULES §11: "in a fish by the team whose two hands hold fewer pips, a + b per tile,
    special hands not counted here (equal: nobody wins the round)" -- and what is written
    is counted with 7's special hands."""
    seen: Counter = Counter()
    for seed in range(400):
        _game, events = play_game("sport_goat", 4, {"rounds": 4}, seed)
        for event in round_ends(events):
            end, hands = event["end"], event["hands"]
            if end["kind"] != "fish":
                continue
            plain = [pips(hands[0]) + pips(hands[2]), pips(hands[1]) + pips(hands[3])]
            special = [end["points"][0] + end["points"][2], end["points"][1] + end["points"][3]]
            credited = [end["credited"][0], end["credited"][1]]
            if plain[0] == plain[1]:
                assert credited == [0, 0]
                continue
            won = plain.index(min(plain))
            assert credited[won] == special[1 - won] and credited[1 - won] == 0
            by_special = None if special[0] == special[1] else special.index(min(special))
            seen["special counts would say otherwise" if by_special != won else "same"] += 1
        if seen["special counts would say otherwise"] >= 3:
            break
    assert seen["special counts would say otherwise"], seen


def test_rules_7_no_double_dealt_the_smallest_tile_in_1_2s_order_leads():
    """RULES §7: "with no double dealt, the smallest tile in 1.2's value order: 0-1, 0-2,
    1-2, 0-3, ..." (two players, every double in the bazaar)."""
    hands = [["0-2", "1-3", "2-4", "3-5", "4-6", "0-5", "1-6"],
             ["1-2", "0-3", "1-4", "2-5", "3-6", "0-6", "2-6"]]
    game = dealt("sea_goat", hands)
    assert game.turn == 0 and [m.to_dict() for m in game.legal_moves()] == [
        {"tile": "0-2", "end": None}]
    hands[0][0], hands[1][0] = "1-2", "0-2"  # 0-1 is in the bazaar: 0-2 is the smallest held
    game = dealt("sea_goat", hands)
    assert game.turn == 1 and [m.to_dict() for m in game.legal_moves()] == [
        {"tile": "0-2", "end": None}]


def test_rules_7_a_bald_goat_or_6_6_win_counts_the_winner_at_125():
    """RULES §7: "A game won by a bald goat or by 6-6 counts the winner as at 125 in 9's
    S": the others' S = 100 * (125 - own) / 125."""
    seen: Counter = Counter()
    for seed in range(200):
        game, _ = play_game("sea_goat", 2, {}, seed)
        result = game.result
        if result["reason"] not in ("bald_goat", "six_six"):
            continue
        seen[result["reason"]] += 1
        (won,) = result["winners"]
        best = max(125, result["final"][won])
        for seat, score in enumerate(result["final"]):
            want = 10 if seat == won else max(1, round_half_up(
                (100 - Fraction(100 * (best - score), 125)) / 10))
            assert result["rating"][seat] == want, (seed, result)
        if seen["bald_goat"] and seen["six_six"]:
            break
    assert seen["bald_goat"] and seen["six_six"], seen


def test_the_family_shares_goats_rules_from_one_place() -> None:
    """RULES §1's opening: the family keeps §1's rules unless its own section changes them;
    they live in one class, so a new Goat variant inherits them."""
    family = {name: cls for name, cls in VARIANTS.items() if issubclass(cls, GoatFamily)}
    assert set(family) == {"goat", "donkey", "sea_goat", "sport_goat", "general"}
    for cls in family.values():
        assert cls.needs_redeal is GoatFamily.needs_redeal  # 1.1, never changed
        assert cls.hand_size is GoatFamily.hand_size
    # 1.4's fish: Donkey counts its cross's ends too; the rest as Goat.
    assert all(family[n].makes_fish is GoatFamily.makes_fish
               for n in ("goat", "sea_goat", "sport_goat", "general"))
    # 1.2: Goat, Donkey and Sea Goat's later rounds; Sport Goat and General change it.
    assert family["goat"].lead_for_round is GoatFamily.lead_for_round
