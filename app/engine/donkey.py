"""Donkey, RULES.md §8: Goat (§1) with a cross and closed doubles.

Everything of Goat stays: the deal and redeal, who leads, drawing and knocking, the fish,
round points, remembering below 13, the game to 101 and its goats, the rating. What differs:

- The first double on the table is a cross: all four of its sides are open at once
  (`Cross`, app/engine/layouts/cross.py).
- A double may be laid face down: the move carries `"closed": true`. It blocks the end it
  was laid on (laid as the cross, also both short sides) for everyone but its owner.
- Its owner opens it on a later turn of his: the move carries `"open": "<end it was laid
  on>"` next to the tile he places that turn, on the opened end or any other. Opening is
  part of a placement, because a turn is one placement (RULES 1.3).

Choices where RULES §8 is silent:
- A lead is never laid closed (there is no side to block).
- A closed end counts as playable for its owner: he draws only when no tile of his fits an
  open end or one of his own closed ends, and when such a tile is his only move he must
  open and play (a player who can play must, 1.3).
- Only the seat that laid a closed double may open it; nobody plays past it meanwhile.
- A closed double is hidden information until it is opened: views show a face-down tile
  (no face, no numbers, only its owner and end) and the play event of a closed double
  names no tile (the open event later does). The record keeps its face; a finished game's
  record shows it.
- A double still closed when the round ends is counted in its owner's layout, not his
  hand: it is on the table, so it adds nothing to his round points.
- The fish (1.4) looks at every end, closed ones included with the number of their
  double: the round is a fish when all of them show the same number v and the six
  non-doubles with v are down. A position where nobody can move for another reason (a
  closed double whose owner cannot use it) ends as a block, the last placer the fisherman.
- No teams (Goat's `teams` option is not offered); `fish_rule` is Goat's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from app.engine.errors import IllegalMove
from app.engine.events import Event, PlayEvent
from app.engine.goat import Goat
from app.engine.layouts import Cross, Layout
from app.engine.options import Option
from app.engine.values import Move

CLOSED, OPEN = "closed", "open"
_CLOSED_FLAG = ((CLOSED, True),)


class Donkey(Goat):
    variant: ClassVar[str] = "donkey"
    title: ClassVar[str] = "Donkey"
    options_spec: ClassVar[dict[str, Option]] = {"fish_rule": Goat.options_spec["fish_rule"]}
    layout: ClassVar[str] = Cross.kind
    team_play: ClassVar[bool] = False
    move_fields: ClassVar[tuple[str, ...]] = (CLOSED, OPEN)
    loser_word: ClassVar[str | None] = "donkey"

    board: Cross

    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> None:
        return None

    def new_layout(self) -> Layout:
        return Cross(self.ts)

    # -- where a seat may play ---------------------------------------------------------
    def ends_for(self, seat: int) -> dict[str, int]:
        return self.board.free_ends(seat)

    def moves_for(self, seat: int) -> Iterator[Move]:
        board = self.board
        if board.empty:
            yield from super().moves_for(seat)  # a lead: never closed
            return
        hand, ts = self.hands[seat], self.ts
        free = board.free_ends(None)
        own = [c for c in board.closed.values() if c.owner == seat]
        choices: list[tuple[dict[str, int], tuple[tuple[str, Any], ...]]] = [(free, ())]
        for c in own:
            opened = {e: n for e, n in board.open.items() if e in free or e in c.blocks}
            choices.append((opened, ((OPEN, c.end),)))
        for ends, opening in choices:
            for end, number in ends.items():
                for tid in ts.members(hand & ts.suits[number]):
                    tile = ts.tiles[tid]
                    yield Move(tile, end, (), opening)
                    if ts.low[tid] == ts.high[tid]:
                        yield Move(tile, end, (), _CLOSED_FLAG + opening)

    def check_move(self, seat: int, move: Move) -> None:
        super().check_move(seat, move)
        flags = dict(move.flags)
        closed, opening = flags.get(CLOSED, False), flags.get(OPEN)
        board = self.board
        if not isinstance(closed, bool):
            raise IllegalMove("closed_not_bool")
        if closed:
            if move.tile.low != move.tile.high:
                raise IllegalMove("only_doubles_closed", tile=str(move.tile))
            if move.end is None:
                raise IllegalMove("lead_never_closed")
        blocks: tuple[str, ...] = ()
        if opening is not None:
            c = board.closed.get(opening) if isinstance(opening, str) else None
            if c is None:
                raise IllegalMove("no_closed_double", end=str(opening))
            if c.owner != seat:
                raise IllegalMove("not_owner_of_double", owner=c.owner)
            blocks = c.blocks
        if move.end in board.blocked and move.end not in blocks:
            raise IllegalMove("end_closed", end=move.end)

    def after_place(self, seat: int, move: Move) -> list[Event]:
        flags = dict(move.flags)
        events: list[Event] = []
        opening = flags.get(OPEN)
        if isinstance(opening, str):  # check_move has made sure it names a closed double
            opened = self.board.reopen(opening)
            events.append(
                {"type": "open", "round": self.round, "seat": seat, "end": opening,
                 "tile": self.ts.names[opened.tid]}
            )
        if flags.get(CLOSED) is True:
            assert move.end is not None
            self.board.close(self.ts.ids[move.tile], move.end, seat)
        return events

    def public_play(self, event: PlayEvent) -> PlayEvent:
        if event.get(CLOSED) is True:
            hidden = event.copy()
            del hidden["tile"]
            return hidden
        return event

    def makes_fish(self) -> bool:
        # Every end, closed ones too (their owner could open them), shows v, and the six
        # non-doubles with v are down (1.4).
        ends = iter(self.board.open.values())
        v = next(ends)
        return self.board.on_table[v] == self.max_pip and all(n == v for n in ends)

    def load_view(self, view: Mapping[str, Any]) -> None:
        super().load_view(view)
        # The layout rebuilt the closed doubles from the chain; the view lists them in the
        # order they were laid, which is the order their owner's moves are listed in.
        closed = self.board.closed
        self.board.closed = {c["end"]: closed[c["end"]] for c in view["closed"]}

    # -- views -------------------------------------------------------------------------
    def extra_view(self) -> dict[str, Any]:
        board = self.board
        return {
            **super().extra_view(),
            "ends": {e: n for e, n in board.open.items() if e not in board.blocked},
            "closed": [
                {"end": c.end, "owner": c.owner, "blocks": list(c.blocks)}
                for c in board.closed.values()
            ],
        }
