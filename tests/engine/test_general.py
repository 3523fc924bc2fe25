"""General (RULES §12): 1-1 leads every round, Generals on 0-0 and 6-6, fish and other
round ends score nothing, the 3-General early end, the time end (replayed exactly from the
round end times in the record), draws and the ratings."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from app.engine import OptionsError, RecordError, replay_record, start_game, validate_options
from app.engine.rating import round_half_up
from tests.engine.family import choose, exported, last_play, play_game, round_ends

START = 1_700_000_000_000


class Clock:
    """A server clock that moves on `step` ms each time it is read."""

    def __init__(self, step: int) -> None:
        self.now, self.step = START, step

    def __call__(self) -> int:
        self.now += self.step
        return self.now


def expected_gains(generals: list[int]) -> list[int]:
    """§12: S = 100 * (winner's Generals - own) / max(1, winner's Generals); winners +10;
    a draw +5 each. By team."""
    if generals[0] == generals[1]:
        return [5, 5]
    best = max(generals)
    return [10 if g == best else max(1, round_half_up((100 - Fraction(100 * (best - g),
            max(1, best))) / 10)) for g in generals]


def check_game(game, events) -> Counter:
    seen: Counter = Counter()
    generals = [0, 0]
    record = exported(game)
    for r, (rd, event) in enumerate(zip(record["rounds"], round_ends(events), strict=True)):
        # "Every round is led by the holder of 1-1, who must lead it."
        assert rd["moves"][0]["tile"] == "1-1"
        # "Double-six, 7 tiles each, no bazaar."
        assert game.rounds[r]["bazaar"] == [] and all(len(h) == 7 for h in game.rounds[r]["hands"])
        end = event["end"]
        last = last_play(events, event)["tile"]
        if end["kind"] == "out" and last in ("0-0", "6-6"):
            # "A player who goes out with 0-0 or 6-6 as his last tile is a General"
            generals[end["by"] % 2] += 1
            seen[f"General on {last}"] += 1
        else:
            # "Any other round end, and every fish, scores nothing"
            seen[end["kind"]] += 1
            assert end["credited"] == [0, 0, 0, 0]
        assert event["scores"] == [generals[0], generals[1], generals[0], generals[1]]
        decided = abs(generals[0] - generals[1]) >= 3
        timed = rd["ended_ms"] >= game.options["minutes"] * 60_000
        is_last = r == len(record["rounds"]) - 1
        assert is_last == (decided or timed), r
    result = game.result
    assert result["reason"] == ("generals" if decided else "time")
    seen[result["reason"]] += 1
    assert result["final"] == [*generals, *generals]
    gains = expected_gains(generals)
    assert result["rating"] == [*gains, *gains]
    if generals[0] == generals[1]:
        seen["draw"] += 1
        assert result["winners"] == result["losers"] == []
    else:
        won = generals.index(max(generals))
        assert result["winners"] == [won, won + 2] and result["losers"] == [1 - won, 3 - won]
    return seen


def test_rules_12_whole_games_without_time_end_when_a_team_leads_by_3() -> None:
    """RULES §12: "at once when one team leads by 3 Generals"; Generals on 0-0 and on 6-6;
    fish and every other round end score nothing. (No clock: no time passes.)"""
    seen: Counter = Counter()
    for seed in range(15):
        game, events = play_game("general", 4, {}, seed)
        seen += check_game(game, events)
        assert all(rd["ended_ms"] == 0 for rd in game.rounds)
    for situation in ("General on 0-0", "General on 6-6", "fish", "out", "generals"):
        assert seen[situation], (situation, seen)
    assert not seen["time"]


@pytest.mark.parametrize("minutes", [30, 60])
def test_rules_12_the_time_end(minutes: int) -> None:
    """RULES §12: "The game ends at the end of the first round that finishes after that
    much time since the start (the server's clock)" -- each round's end is written
    (ms since the start) and the game ends at the first at or past the limit."""
    seen: Counter = Counter()
    step = 4 * 60_000
    for seed in range(15):
        clocked, clock_events = play_clocked(seed, minutes, step)
        seen += check_game(clocked, clock_events)
        ends = [rd["ended_ms"] for rd in clocked.rounds]
        assert ends == [step * (r + 1) for r in range(len(ends))]  # read once per round end
    assert seen["time"] and seen["draw"], seen


def play_clocked(seed: int, minutes: int, step: int):
    """`play_game` with a server clock handed in at the start, as the live path does."""
    game, events = start_game("general", 4, {"minutes": minutes}, seed.to_bytes(32, "big"),
                              clock=Clock(step))
    rng = random.Random(seed)
    while game.status == "playing":
        events += game.play(game.turn, choose(game, rng))
    return game, events


def test_rules_12_time_end_replayed_exactly_from_the_record() -> None:
    """RULES §12: "A record stores each round's end time (milliseconds since the start)
    so that a replay ends the game exactly where the server did." The replay, with no
    clock, ends where the record says; a record whose times say otherwise is another
    game; times that run backwards are refused."""
    for seed in range(40):
        game, _ = play_clocked(seed, 30, 7 * 60_000)
        if game.result["reason"] == "time" and len(game.rounds) > 1:
            break
    record = json.loads(json.dumps(exported(game)))
    assert record["rounds"][-1]["ended_ms"] >= 30 * 60_000 > record["rounds"][-2]["ended_ms"]
    bare = {**record, "result": None,
            "rounds": [{"moves": rd["moves"], "ended_ms": rd["ended_ms"]}
                       for rd in record["rounds"]]}
    assert replay_record(bare) == record
    # The same moves with the last round ending a minute before the limit: no end there.
    early = json.loads(json.dumps(bare))
    early["rounds"][-1]["ended_ms"] = 29 * 60_000
    replayed = replay_record(early)
    last = len(record["rounds"]) - 1
    assert replayed["result"] is None and replayed["rounds"][last]["ended_ms"] == 29 * 60_000
    # The record stops between rounds: the replay shows no round that was not played.
    assert len(replayed["rounds"]) == len(record["rounds"])
    backwards = json.loads(json.dumps(bare))
    backwards["rounds"][-1]["ended_ms"] = backwards["rounds"][-2]["ended_ms"] - 1
    with pytest.raises(RecordError) as error:
        replay_record(backwards)
    assert error.value.round == len(record["rounds"]) - 1
    for bad in ("600000", -1, 1.5, True):
        broken = json.loads(json.dumps(bare))
        broken["rounds"][0]["ended_ms"] = bad
        with pytest.raises(RecordError, match="ended_ms"):
            replay_record(broken)


def test_rules_12_players_and_options() -> None:
    """RULES §12: four players in two teams; option minutes 30 (default) or 60."""
    assert validate_options("general", 4, {}) == {"minutes": 30}
    assert validate_options("general", 4, {"minutes": 60}) == {"minutes": 60}
    for bad in ({"minutes": 45}, {"minutes": "30"}):
        with pytest.raises(OptionsError):
            validate_options("general", 4, bad)
    with pytest.raises(OptionsError):
        validate_options("general", 3, {})
