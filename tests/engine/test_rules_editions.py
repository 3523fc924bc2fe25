"""Games finished under the first edition of the rules keep their results: a record marked
`"rules": 1` replays by that edition's readings, a record without the field by the rules as
RULES.md pins them now.

`first_rules_records.json` holds records of whole games (Sea Goat, Sport Goat, General)
written by the engine of the first edition, before Goat's family kept Goat's redeal and fish:
marked, each replays to itself; unmarked, each is refused, as the rules now end its rounds
elsewhere.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.engine import (
    RecordError,
    game_from_dict,
    new_game,
    replay_positions,
    replay_record,
    validate_options,
    variant_class,
)
from app.engine.values import FIRST_RULES
from tests.engine.family import choose, exported
from tests.engine.reference import deal_attempt, goat_deal, ts
from tests.engine.test_mexican_train import dealt as mexican_dealt
from tests.engine.test_mexican_train import kinds

FIRST_RECORDS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "first_rules_records.json").read_text()
)


@pytest.mark.parametrize("n", range(len(FIRST_RECORDS)))
def test_a_record_marked_rules_1_replays_to_the_result_it_had(n: int) -> None:
    record = FIRST_RECORDS[n]
    marked = {**record, "rules": 1}
    assert replay_record(copy.deepcopy(marked)) == marked
    assert replay_positions(copy.deepcopy(marked))[-1]["round"] == len(record["rounds"]) - 1
    with pytest.raises(RecordError):
        replay_record(copy.deepcopy(record))


@pytest.mark.parametrize("rules", [2, 0, "1", True, 1.0])
def test_any_other_mark_is_refused(rules: object) -> None:
    with pytest.raises(RecordError, match="rules") as error:
        replay_record({**FIRST_RECORDS[0], "rules": rules})
    assert (error.value.round, error.value.move) == (0, 0)


def first_rules_game(variant: str, players: int, options: dict[str, Any], seed: int):
    """A game of the first rules, as a record marked `"rules": 1` sets one up."""
    game = variant_class(variant)(players, validate_options(variant, players, options),
                                  seed.to_bytes(32, "big"))
    game.rules = FIRST_RULES
    game.start()
    return game


@pytest.mark.parametrize(("variant", "players"), [("sea_goat", 2), ("sport_goat", 4),
                                                  ("general", 4)])
def test_the_first_rules_deal_once_and_their_records_say_so(variant: str, players: int):
    """The first edition gave Sea Goat, Sport Goat and General no redeal: a deal that the
    rules now redeal stands. Their records carry the mark and replay to themselves."""
    kept = 0
    for seed in range(3000):
        game = first_rules_game(variant, players, {}, seed)
        hands, _ = deal_attempt(game.seed, 0, 0, players, 7)
        assert game.rounds[0]["hands"] == [[ts(t) for t in h] for h in hands]
        if goat_deal(game.seed, 0, players)[2]:
            kept += 1
            rng = random.Random(seed)
            while game.status == "playing":
                game.play(game.turn, choose(game, rng))
            record = exported(game)
            assert record["rules"] == 1
            assert "rules" not in exported(new_game(variant, players, {}, game.seed))
            if kept == 2:
                break
    assert kept


def test_a_general_record_of_the_first_rules_may_lack_ended_ms() -> None:
    """The first edition replayed a finished round without `ended_ms` as ending when the
    round before did; its records keep that reading."""
    record = copy.deepcopy(next(r for r in FIRST_RECORDS if r["variant"] == "general"))
    for rd in record["rounds"]:
        rd.pop("ended_ms")
    replayed = replay_record({**record, "rules": 1})
    assert all(rd["ended_ms"] == 0 for rd in replayed["rounds"])


def test_mexican_train_of_the_first_rules_is_blocked_when_nobody_can_place() -> None:
    """The first edition judged the block right after each pass: the pot empty and nobody
    able to place (RULES §5 now waits for a full turn round of passes)."""
    hands = [["11-12"], ["10-12"], ["12-12", "7-12", "8-10", "8-8", "8-9", "9-9"]]
    game, _ = mexican_dealt(hands, rest=False)
    old = new_game("mexican_train", 3, {}, None)
    old.rules = FIRST_RULES
    old.deal(game.rounds[0]["hands"], game.rounds[0]["bazaar"])
    for g in (game, old):
        g.play(0, "11-12", "train:0")
        g.play(1, "10-12", "train:1")
    events = old.play(2, "7-12", "train:2")
    assert kinds(events)[1:4] == [("knock", 0), ("marker", 0), ("round_end", None)]
    events = game.play(2, "7-12", "train:2")
    assert game.turn == 2 and not any(e["type"] == "round_end" for e in events)


def test_a_state_keeps_its_edition_and_one_saved_without_it_is_of_the_first() -> None:
    """A running game keeps the edition it began under, through every save and load: a
    state saved before editions were written is a game of the first rules."""
    game = first_rules_game("sea_goat", 2, {}, 7)
    state = json.loads(json.dumps(game.to_dict()))
    assert state["rules"] == 1 and game_from_dict(state).rules == FIRST_RULES
    fresh = new_game("sea_goat", 2, {}, bytes(32))
    state = json.loads(json.dumps(fresh.to_dict()))
    assert game_from_dict(state).rules == fresh.rules != FIRST_RULES
    del state["rules"]
    assert game_from_dict(state).rules == FIRST_RULES
    assert game.copy().rules == FIRST_RULES
