"""A finished game reviewed by the strong player's search (PROTOCOL §2f, RULES §13).

For every decision of the record (a placement: a tile and its end, with the variant's extra
fields), the position before it is taken whole from the record: every hand is known, the
bazaar's tiles too but not their order (it is shuffled for each deal of the search, as no
player could know it). Each legal choice is played on a copy of the position and the round
is played out to its end by the strong player's playout policy (`play_out`, or the bit-mask
core where it plays the variant), the same playouts for every choice (common random
numbers: the same shuffle of the bazaar and the same random stream), as many of them as the
budget gives each choice. What a choice is worth to the mover is the strong player's own
measure (`Outlook`): his standing over his opponents' average once the round is credited,
in the variant's points, signed so that more is better, plus or minus `Outlook.GAME_END`
for ending the game a winner or a loser. Its mean over the playouts is the choice's value;
the best choice is the one of the highest value, the loss is the best value less the
played one (never below 0; 0 when there was only one choice).

Marks and accuracy are the variant's (`MARKS`, measured by benchmarks/review.py
--calibrate): a loss of at least a threshold is an inaccuracy, a mistake or a blunder;
a decision's accuracy is 100 * 2 ** (-loss / scale) where scale is the variant's mistake
threshold, and a player's accuracy is the mean over his decisions that had a choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from app.bots.search import Outlook, play_out
from app.engine import Game, Move, replay_turns
from app.engine.playout import SIDE_OF_END, Round, supports

ENGINE_NAME = "strong"
# Playouts per decision, shared among its legal choices (each at least MIN_EACH), per
# variant: the same in every review of it, chosen by measurement (benchmarks/review.py,
# RULES §13) so that the bit-mask core's variants get enough for their marks to be stable
# and the long games (Donkey's many rounds, Mexican Train of eight) stay within minutes.
BUDGETS: dict[str, int] = {
    "goat": 384,
    "classic": 512,
    "fives": 256,
    "telephone": 256,
    "sea_goat": 256,
    "sport_goat": 384,
    "donkey": 128,
    "general": 128,
    "mexican_train": 128,
}
BUDGET = 128  # a variant not listed
MIN_EACH = 16
GREEDY = 0.7  # the strong player's playout policy: the heaviest tile this often


@dataclass(frozen=True)
class Marks:
    """A variant's thresholds of loss (its points) for the three marks."""

    inaccuracy: float
    mistake: float
    blunder: float

    def of(self, loss: float) -> str | None:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


# Per variant, from the losses of the Steady computer player's decisions that had a
# choice, reviewed with the variant's budget (benchmarks/review.py --calibrate): an
# inaccuracy is a loss that 10% of them reach, a mistake 5%, a blunder 3% (RULES §13).
MARKS: dict[str, Marks] = {
    "goat": Marks(6.4, 9.3, 13.5),
    "classic": Marks(21.3, 36.5, 43.9),
    "fives": Marks(15.5, 23.5, 36.6),
    "telephone": Marks(4.9, 9.1, 16.2),
    "sea_goat": Marks(19.6, 34.3, 47.8),
    "sport_goat": Marks(17.4, 25.0, 31.4),
    "donkey": Marks(6.5, 10.4, 13.9),
    "general": Marks(0.1, 0.2, 0.3),
    # from the first measurement (10 %, 4 % and 1.5 % of the losses, the same budget)
    "mexican_train": Marks(7.5, 11.1, 14.9),
}
DEFAULT_MARKS = Marks(6.4, 9.3, 13.5)  # Goat's, for a variant not measured


class Choice(TypedDict):
    """A decision in the record's own terms (PROTOCOL §2f `played`/`best`)."""

    tile: str
    end: NotRequired[str]
    also: NotRequired[list[dict[str, str]]]
    closed: NotRequired[bool]
    open: NotRequired[str]


class ReviewedMove(TypedDict):
    round: int
    index: int
    seat: int
    played: Choice
    best: Choice
    choices: int
    value_played: float
    value_best: float
    loss: float
    mark: str | None


class ReviewedPlayer(TypedDict):
    seat: int
    name: str
    accuracy: float
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int


class CurvePoint(TypedDict):
    index: int
    round: int
    values: list[float]


class Engine(TypedDict):
    name: str
    budget: int
    min_each: int
    information: str  # "full": every hand known, the bazaar's order not


class Review(TypedDict):
    """What a review finds (PROTOCOL §2f, without the queue's `status` and `progress`)."""

    engine: Engine
    moves: list[ReviewedMove]
    players: list[ReviewedPlayer]
    curve: list[CurvePoint]


def budget_for(variant: str) -> int:
    return BUDGETS.get(variant, BUDGET)


def engine_info(budget: int) -> Engine:
    return {"name": ENGINE_NAME, "budget": budget, "min_each": MIN_EACH, "information": "full"}


def marks_of(variant: str) -> Marks:
    return MARKS.get(variant, DEFAULT_MARKS)


def _choice(move: Mapping[str, Any]) -> Choice:
    """A move (a record's entry or `Move.to_dict()`) as the review names it."""
    out = {k: v for k, v in move.items() if k != "seat" and v is not None}
    return out  # type: ignore[return-value]  # the record's move fields are a Choice's


def _key(choice: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, repr(v)) for k, v in choice.items()))


@dataclass
class Weighed:
    """One decision weighed: each legal choice's mean worth to the mover, and every seat's
    mean worth after the choice that was played."""

    moves: list[Move]
    values: list[float]
    played: int
    seats: list[float]


def weigh(
    game: Game, played: Mapping[str, Any], rng: random.Random, budget: int = BUDGET
) -> Weighed:
    """Weigh the decision of the seat on turn in `game` (left unchanged), whose choice was
    `played` (a record's move)."""
    seat = game.turn
    assert seat is not None
    moves = list(game.legal_moves())
    wanted = _key(_choice(played))
    index = next((i for i, m in enumerate(moves) if _key(_choice(m.to_dict())) == wanted), None)
    if index is None:
        raise ValueError(f"the recorded move {dict(played)} is not among the legal ones")
    each = max(min(MIN_EACH, budget), budget // max(2, len(moves)))
    outlooks = [Outlook(game, s) for s in range(game.players)]
    totals = [0.0] * len(moves)
    seats = [0.0] * game.players
    fast = supports(type(game))
    ids = game.ts.ids
    for _ in range(each):
        dealt = game.copy()
        rng.shuffle(dealt.bazaar)
        stream = rng.getrandbits(64)
        base = Round.from_game(dealt) if fast else None
        for i, move in enumerate(moves):
            rnd = random.Random(stream).random
            if base is not None:
                r = base.copy()
                r.apply(ids[move.tile], SIDE_OF_END[move.end])
                if r.kind is None:
                    r.rollout(rnd, GREEDY)
                after = dealt.copy()
                r.finish(after)
            else:
                after = dealt.copy()
                after.play(seat, move)
                play_out(after, rnd, GREEDY)
            totals[i] += outlooks[seat].worth(after)
            if i == index:
                for s, outlook in enumerate(outlooks):
                    seats[s] += outlook.worth(after)
    return Weighed(moves, [t / each for t in totals], index, [v / each for v in seats])


def _accuracy(loss: float, marks: Marks) -> float:
    return 100.0 * 2.0 ** (-loss / marks.mistake)


def review(
    record: Mapping[str, Any],
    seed: int = 0,
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a recorded game (finished: the record shows every hand). `progress(done,
    total)` is told after each decision."""
    marks = marks_of(str(record["variant"]))
    if budget is None:
        budget = budget_for(str(record["variant"]))
    names: Sequence[str] = record["players"]
    total = sum(len(rd.get("moves", [])) for rd in record["rounds"])
    rng = random.Random(seed)
    moves: list[ReviewedMove] = []
    curve: list[CurvePoint] = []
    for r, _m, game, played in replay_turns(record):
        weighed = weigh(game, played, rng, budget)
        best = max(range(len(weighed.moves)), key=weighed.values.__getitem__)
        value_played = weighed.values[weighed.played]
        value_best = weighed.values[best]
        if len(weighed.moves) == 1 or value_best <= value_played:
            best, value_best = weighed.played, value_played
        loss = round(value_best - value_played, 2)
        moves.append(
            {
                "round": r,
                "index": len(moves),
                "seat": int(played["seat"]),
                "played": _choice(weighed.moves[weighed.played].to_dict()),
                "best": _choice(weighed.moves[best].to_dict()),
                "choices": len(weighed.moves),
                "value_played": round(value_played, 2),
                "value_best": round(value_best, 2),
                "loss": loss,
                "mark": marks.of(loss) if len(weighed.moves) > 1 else None,
            }
        )
        curve.append(
            {"index": len(curve), "round": r, "values": [round(v, 2) for v in weighed.seats]}
        )
        if progress is not None:
            progress(len(moves), total)
    return {
        "engine": engine_info(budget),
        "moves": moves,
        "players": _players(names, moves, marks),
        "curve": curve,
    }


def _players(
    names: Sequence[str], moves: Sequence[ReviewedMove], marks: Marks
) -> list[ReviewedPlayer]:
    out: list[ReviewedPlayer] = []
    for seat, name in enumerate(names):
        mine = [m for m in moves if m["seat"] == seat and m["choices"] > 1]
        accuracy = (
            sum(_accuracy(m["loss"], marks) for m in mine) / len(mine) if mine else 100.0
        )
        out.append(
            {
                "seat": seat,
                "name": name,
                "accuracy": round(accuracy, 1),
                "decisions": len(mine),
                "inaccuracies": sum(1 for m in mine if m["mark"] == "inaccuracy"),
                "mistakes": sum(1 for m in mine if m["mark"] == "mistake"),
                "blunders": sum(1 for m in mine if m["mark"] == "blunder"),
            }
        )
    return out
