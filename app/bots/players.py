"""Computer players: pure strategies from a seat's view to a move.

Each takes a `SeatView` (what that seat may know, nothing more) and a random generator,
and returns one of `view.legal`. None keeps state between moves, so a bot can be resumed
by any server process after a crash: all it knows is in the view.

- `random`: any legal move; plays every variant.
- `heuristic`: sheds heavy tiles early, keeps a spread of numbers and moves for its next
  turn, counts what has been played to block the others, and steers toward or away from a
  fish by the table's fish rule.
- `strong`: determinised Monte Carlo search (information-set sampling) in every variant:
  it rebuilds the position from its view alone (`Knowledge`), deals the tiles it cannot
  see at random many times, plays every candidate move out to the end of the round with
  the engine's own `Game.copy()`, `legal_moves()` and `play()`, and keeps the move that
  leaves it best placed by the variant's own scoring. Where the bit-mask core plays the
  variant (app/engine/playout.py) the playouts run on it instead, the game settling the
  round. Its budget per move is a number of deals (or playouts), capped by a time.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from app.bots.search import Search
from app.bots.view import LegalMove, SeatView
from app.engine import Game
from app.engine.playout import Sampler, supports

STRENGTHS = ("random", "heuristic", "strong")


class Player(Protocol):
    strength: ClassVar[str]

    def choose(self, view: SeatView, rng: random.Random) -> LegalMove: ...


class RandomPlayer:
    strength: ClassVar[str] = "random"

    def choose(self, view: SeatView, rng: random.Random) -> LegalMove:
        if not view.legal:
            raise ValueError("there is no legal move in this view")
        return rng.choice(view.legal)


def _only_move(view: SeatView) -> LegalMove | None:
    """The move when there is no choice to make (an error when there is no move at all)."""
    if not view.legal:
        raise ValueError("there is no legal move in this view")
    return view.legal[0] if len(view.legal) == 1 else None


def _numbers(tile: str) -> tuple[int, int]:
    low, high = tile.split("-")
    return int(low), int(high)


def sampler_of(view: SeatView) -> Sampler | None:
    """The simulation core's view of `view`'s seat, if the core plays this variant."""
    ends = view.line_ends()
    if not supports(view.variant) or (view.ends and ends is None):
        return None
    forced = view.legal[0].tile if not view.ends and len(view.legal) == 1 else None
    return Sampler(
        view.variant,
        view.options,
        view.seat,
        view.hand,
        view.on_table,
        ends,
        view.tiles_held,
        view.bazaar,
        forced,
    )


@dataclass
class HeuristicPlayer:
    """Scores each legal move by a few weighted features of the position after it."""

    strength: ClassVar[str] = "heuristic"
    pips: float = 1.0  # shed heavy tiles while you can
    double: float = 2.5  # doubles fit only one number: get rid of them early
    spread: float = 1.0  # per distinct number kept in hand
    follow: float = 1.5  # per tile left in hand that fits the ends after the move
    block: float = 1.0  # per tile of the new end's number you hold beyond the unseen ones
    fish: float = 12.0  # for a fish that suits you (against one that does not)

    def choose(self, view: SeatView, rng: random.Random) -> LegalMove:
        only = _only_move(view)
        if only is not None:
            return only
        sampler = sampler_of(view)
        scored = [(self.score(view, m, sampler, rng), rng.random(), m) for m in view.legal]
        return max(scored, key=lambda x: (x[0], x[1]))[2]

    def score(
        self, view: SeatView, move: LegalMove, sampler: Sampler | None, rng: random.Random
    ) -> float:
        a, b = move.numbers
        rest = [_numbers(t) for t in view.hand if t != move.tile]
        value = self.pips * (a + b) + (self.double if a == b else 0.0)
        value += self.spread * len({n for t in rest for n in t})
        ends = view.line_ends()
        if ends is None and move.end is None:  # a lead: the line will show a and b
            new_ends: tuple[int, int] | None = (a, b)
        elif ends is not None and move.end in ("left", "right"):
            shown = ends[0] if move.end == "left" else ends[1]
            other = ends[1] if move.end == "left" else ends[0]
            new_ends = (b if a == shown else a, other)
        else:
            new_ends = None
        if new_ends is not None:
            value += self.follow * sum(1 for t in rest if set(t) & set(new_ends))
            value += self.block * self._blocking(view, rest, move, new_ends[0])
        if sampler is not None:
            value += self._fish(view, move, sampler, rest, rng)
        return value

    def _blocking(
        self, view: SeatView, rest: Sequence[tuple[int, int]], move: LegalMove, number: int
    ) -> float:
        """How much of `number` you hold against what the others may hold (counting what has
        been played): an end only you can follow makes the others draw or knock."""
        seen = [_numbers(t) for t in (*view.on_table, move.tile)]
        held = sum(1 for t in rest if number in t)
        down = sum(1 for t in seen if number in t)
        unseen = 7 - held - down
        return float(held - unseen) if held else 0.0

    def _fish(
        self,
        view: SeatView,
        move: LegalMove,
        sampler: Sampler,
        rest: Sequence[tuple[int, int]],
        rng: random.Random,
    ) -> float:
        r = sampler.sample(rng)
        r.apply(*sampler.move(move.tile, move.end))
        if r.kind != "fish" or r.by != view.seat:
            return 0.0
        # The round ends now. Mine are known; the others' hands are estimated from the pips
        # of the tiles nobody has seen.
        mine = sum(x + y for x, y in rest)
        unseen_tiles = [
            _numbers(t)
            for t in sampler.t.ts.names
            if t not in view.hand and t not in view.on_table and t != move.tile
        ]
        per_tile = sum(x + y for x, y in unseen_tiles) / max(1, len(unseen_tiles))
        others = [
            per_tile * n for s, n in enumerate(view.tiles_held) if s != view.seat
        ]
        if sampler.game.wins_by() != "lower":  # lowest hand takes the block
            return self.fish if mine < min(others) else -self.fish
        if view.options.get("fish_rule") == "one":  # the highest hand pays for everyone
            return self.fish if mine < max(others) else -2 * self.fish
        standing = view.standings[view.seat]
        if not standing.opened and mine <= 12:  # it only goes to remembered points
            return self.fish
        return self.fish * (sum(others) / len(others) - mine) / 10.0


@dataclass
class StrongPlayer:
    """Determinised Monte Carlo search over the unseen tiles (see the module docstring)."""

    strength: ClassVar[str] = "strong"
    seconds: float | None = 0.5  # thinking time per move (None: the budget alone)
    max_samples: int | None = None  # deals of the unseen tiles per move (None: time only)
    budget: int | None = None  # or playouts per move, shared among the candidate moves
    greedy: float = 0.7  # playout policy: heaviest tile this often, else any legal one
    depth: int | None = None  # moves a playout plays before it scores the hands (None: all)
    others: float = 1.0  # how much the opponents' standings count against one's own
    fallback: HeuristicPlayer | None = None
    playouts: int = 0  # played out so far (for the benchmark's playouts per second)
    thinking: float = 0.0  # seconds spent searching so far (wall clock)
    thinking_cpu: float = 0.0  # ... and in CPU time of this process

    def choose(self, view: SeatView, rng: random.Random) -> LegalMove:
        only = _only_move(view)
        if only is not None:
            return only
        try:
            search = Search(view.raw, self.greedy, self.others, self.depth)
        except (ValueError, NotImplementedError):  # a view the search cannot rebuild
            return (self.fallback or HeuristicPlayer()).choose(view, rng)
        samples = self.max_samples
        if self.budget is not None:
            samples = max(1, math.ceil(self.budget / len(view.legal)))
        start, start_cpu = time.perf_counter(), time.process_time()
        deadline = None if self.seconds is None else start + self.seconds
        done = 0
        while samples is None or done < samples:
            search.sample(rng)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.playouts += done * len(view.legal)
        self.thinking += time.perf_counter() - start
        self.thinking_cpu += time.process_time() - start_cpu
        return view.legal[search.best()]


def play_to_end(game: Game, players: Sequence[Player], rng: random.Random) -> None:
    """Let these players (by seat) play `game` to its end, each from its own seat's view."""
    while game.status == "playing":
        seat = game.turn
        assert seat is not None
        move = players[seat].choose(SeatView.of(game.view(seat)), rng)
        game.play(seat, move.tile, move.end)


def player_for(strength: str, seconds: float = 0.5) -> Player:
    """A computer player of this strength (one of STRENGTHS)."""
    if strength == "random":
        return RandomPlayer()
    if strength == "heuristic":
        return HeuristicPlayer()
    if strength == "strong":
        return StrongPlayer(seconds=seconds)
    raise ValueError(f"unknown strength {strength!r}; choose one of {', '.join(STRENGTHS)}")
