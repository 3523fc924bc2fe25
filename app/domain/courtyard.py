"""The courtyard table's rotation (PROTOCOL §2d, RULES §12): who sits the next game.

Four play in two teams, partners opposite (seats 0+2 and 1+3); the others wait in a queue.
When a game ends the losing team gives way: its two players go to the back of the queue and
the first two waiting take its two seats, so they are partners; the winners stay. A draw:
the team that has sat longer gives way. With fewer than two waiting, the same four play on.
Seats left empty (a player who left the table) are taken by the first waiting.

Pure: people are whatever hashable values the caller uses; `since` is, by seat, the number
of the game at which that seat's player sat down.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Who = TypeVar("Who")

# Partners sit opposite: team 0 is seats 0 and 2, team 1 seats 1 and 3.
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
SEATS = 4
# How many must wait for a team to give way: a whole team.
PAIR = 2


@dataclass(frozen=True, slots=True)
class Rotation(Generic[Who]):
    """The next game's seats (None: empty, waiting for a player), the queue after it, when
    each seat's player sat down (game numbers), and who gave way and who came in."""

    seats: tuple[Who | None, ...]
    queue: tuple[Who, ...]
    since: tuple[int, ...]
    leaving: tuple[Who, ...] = ()
    coming: tuple[Who, ...] = ()


def team_of(seat: int) -> int:
    return seat % len(TEAMS)


def losing_team(losers: Collection[int]) -> int | None:
    """The team a game's `losers` (seats) belong to; None when they name both teams or
    neither (a draw)."""
    teams = {team_of(seat) for seat in losers}
    return teams.pop() if len(teams) == 1 else None


def sat_longer(since: Sequence[int]) -> int:
    """The team that has sat longer: its two players have sat down, together, before the
    other's (the smaller sum of the games they sat down at), then the one whose player sat
    down first; equal in both, team 0 (its seat 0 is the table's first)."""
    return min(range(len(TEAMS)),
               key=lambda t: (sum(since[s] for s in TEAMS[t]), min(since[s] for s in TEAMS[t]),
                              t))


def giving_way(losers: Collection[int], since: Sequence[int]) -> int:
    """The team that gives way after a game: the losing one; in a draw, the one that has
    sat longer."""
    lost = losing_team(losers)
    return sat_longer(since) if lost is None else lost


def fill(seats: Sequence[Who | None], queue: Sequence[Who], since: Sequence[int],
         game: int) -> Rotation[Who]:
    """Empty seats taken by the first waiting, in seat order; they sit down at `game`."""
    taken = list(seats)
    left = list(queue)
    sat = list(since)
    coming: list[Who] = []
    for seat, who in enumerate(taken):
        if who is None and left:
            coming.append(left.pop(0))
            taken[seat] = coming[-1]
            sat[seat] = game
    return Rotation(tuple(taken), tuple(left), tuple(sat), (), tuple(coming))


def rotate(seats: Sequence[Who | None], queue: Sequence[Who], losers: Collection[int],
           since: Sequence[int], game: int) -> Rotation[Who]:
    """Who sits the next game, number `game`, after one whose losing seats were `losers`
    (none, or both teams': a draw). `seats`: the four of the game that ended (None where a
    player has left the table: his seat is taken by the first waiting and he does not
    queue); `queue`: who waits, first first."""
    assert len(seats) == SEATS and len(since) == SEATS
    waiting = [who for who in queue if who not in seats]
    if len(waiting) < PAIR:
        # Fewer than a team wait: the same four play on (an empty seat is filled).
        return fill(seats, waiting, since, game)
    team = TEAMS[giving_way(losers, since)]
    taken = list(seats)
    sat = list(since)
    leaving = tuple(who for s in team if (who := seats[s]) is not None)
    coming = tuple(waiting[:PAIR])
    for seat, who in zip(team, coming, strict=True):
        taken[seat] = who
        sat[seat] = game
    rest = fill(taken, [*waiting[PAIR:], *leaving], sat, game)
    return Rotation(rest.seats, rest.queue, rest.since, leaving, (*coming, *rest.coming))
