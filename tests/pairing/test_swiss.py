"""Swiss pairing: properties over random tournaments, and the brute force that says when a
round without a repeat meeting exists."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.swiss import Entrant, Round, fair_byes, pair_round


def _partitions(players: list[int], seats: int) -> Iterator[list[list[int]]]:
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for others in combinations(rest, seats - 1):
        left = [p for p in rest if p not in others]
        for more in _partitions(left, seats):
            yield [[head, *others], *more]


def _repeats(tables: list[list[int]], met: Mapping[int, frozenset[int]]) -> int:
    return sum(b in met.get(a, frozenset()) for t in tables for a, b in combinations(t, 2))


def _clean_round_exists(players: list[Entrant], seats: int,
                        met: Mapping[int, frozenset[int]]) -> bool:
    for byes in fair_byes(players, len(players) % seats):
        left = [e.id for e in players if e.id not in byes]
        if any(_repeats(p, met) == 0 for p in _partitions(left, seats)):
            return True
    return False


def _check_shape(result: Round, players: list[Entrant], seats: int) -> None:
    seated = [p for t in result.tables for p in t]
    assert all(len(t) == seats for t in result.tables)
    # nobody at two tables, nobody both seated and sitting out, nobody forgotten
    assert len(seated) == len(set(seated))
    assert not set(seated) & set(result.byes)
    assert sorted(seated + result.byes) == sorted(e.id for e in players)
    assert len(result.byes) == len(players) % seats


@st.composite
def _rounds(draw: st.DrawFn) -> tuple[list[Entrant], int, dict[int, frozenset[int]]]:
    seats = draw(st.integers(2, 4))
    count = draw(st.integers(seats, 9))
    players = [Entrant(i, draw(st.integers(0, 6)) / 2, draw(st.integers(1300, 1700)),
                       draw(st.integers(0, 2))) for i in range(count)]
    pairs = draw(st.sets(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1))))
    met: dict[int, set[int]] = {}
    for a, b in pairs:
        if a != b:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    return players, seats, {k: frozenset(v) for k, v in met.items()}


@settings(max_examples=300, deadline=None)
@given(_rounds())
def test_a_round_seats_everyone_once_and_repeats_only_when_unavoidable(
    case: tuple[list[Entrant], int, dict[int, frozenset[int]]],
) -> None:
    players, seats, met = case
    result = pair_round(players, seats, met)
    _check_shape(result, players, seats)
    # byes: nobody sits out with more byes than someone who plays
    if result.byes:
        byes = {e.id: e.byes for e in players}
        assert max(byes[p] for p in result.byes) <= min(
            (byes[e.id] for e in players if e.id not in result.byes), default=99)
    assert result.repeats == _repeats(result.tables, met)
    if _clean_round_exists(players, seats, met):
        assert result.repeats == 0, (result, met)
    else:
        assert result.repeats > 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(5, 11), st.integers(2, 6), st.randoms())
def test_a_whole_tournament_gives_byes_to_different_players_while_possible(
    seats: int, count: int, rounds: int, rng: object,
) -> None:
    import random
    assert isinstance(rng, random.Random)
    points = dict.fromkeys(range(count), 0.0)
    byes = dict.fromkeys(range(count), 0)
    met: dict[int, set[int]] = {p: set() for p in range(count)}
    for _ in range(rounds):
        players = [Entrant(p, points[p], 1500.0, byes[p]) for p in range(count)]
        result = pair_round(players, seats, {k: frozenset(v) for k, v in met.items()})
        _check_shape(result, players, seats)
        for p in result.byes:
            byes[p] += 1
            points[p] += (seats - 1) / 2
        for table in result.tables:
            for p in table:
                met[p] |= set(table) - {p}
                points[p] += rng.choice(range(seats))
        # a second bye only once everybody has had one
        assert max(byes.values()) - min(byes.values()) <= 1


def test_equal_points_meet_first_and_the_lowest_sits_out() -> None:
    players = [Entrant(i, pts, 1500.0) for i, pts in enumerate([3, 3, 3, 3, 1, 1, 1, 1, 0])]
    result = pair_round(players, 4, {})
    assert result.tables == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert result.byes == [8]


def test_players_who_met_are_kept_apart_where_possible() -> None:
    players = [Entrant(i, 0.0, 1500.0 - i) for i in range(8)]
    met = {0: frozenset({1, 2, 3}), 1: frozenset({0, 2, 3}), 2: frozenset({0, 1, 3}),
           3: frozenset({0, 1, 2})}
    result = pair_round(players, 2, met)
    assert result.repeats == 0
    assert all(len(set(t) & {0, 1, 2, 3}) == 1 for t in result.tables)
    # at tables of four two of them must meet again: as few times as two tables allow
    crowded = pair_round(players, 4, met)
    assert crowded.repeats == 2
