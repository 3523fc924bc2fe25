"""The turn and round machinery of every game: dealing, moves and the forced steps after
them, the end of a round and of the game, a timeout or a resignation."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from app.engine.errors import IllegalMove
from app.engine.events import Event
from app.engine.game_base import GameBase
from app.engine.layouts import LEFT, RIGHT
from app.engine.options import OptionValue
from app.engine.shuffle import commitment, deal_order
from app.engine.tiles import Tile, not_a_tile
from app.engine.values import TIMEOUT_REASONS, Move, MoveDict, Placement, Result, RoundEnd


class Turns(GameBase):
    """Deals, moves and ends of a game (the hooks they call: `GameBase`)."""

    # ----------------------------------------------------------------- dealing
    @property
    def commitment(self) -> str | None:
        return commitment(self.seed) if self.seed is not None else None

    def start(self) -> list[Event]:
        """Deal the first round from the seed; returns the start events (no tile in them)."""
        events: list[Event] = [
            {"type": "start", "round": 0, "commitment": self.commitment, "players": self.players}
        ]
        events += self._next_round()
        return events

    def _next_round(self) -> list[Event]:
        self.round += 1
        if self.seed is None or not self.auto_deal:
            self.awaiting_deal = True
            self.turn = None
            return []
        size, players, count = self.hand_size(), self.players, len(self.ts.tiles)
        attempt = 0
        while True:
            order = deal_order(self.seed, self.round, attempt, count)
            hands = [order[s * size : (s + 1) * size] for s in range(players)]
            if not self.needs_redeal([self.ts.mask(h) for h in hands]):
                break
            attempt += 1
        events: list[Event] = [
            {"type": "redeal", "round": self.round, "attempt": k} for k in range(1, attempt + 1)
        ]
        return events + self._deal_ids(hands, order[players * size :], attempt)

    def deal(
        self,
        hands: Sequence[Sequence[Tile | str]],
        bazaar: Sequence[Tile | str],
        attempt: int = 0,
    ) -> list[Event]:
        """Start the current round with these hands and bazaar (tiles or names, checked)."""
        ids = self.ts.ids
        return self._deal_ids(
            [[ids[t] for t in h] for h in hands], [ids[t] for t in bazaar], attempt
        )

    def _deal_ids(self, hands: list[list[int]], bazaar: list[int], attempt: int) -> list[Event]:
        names = self.ts.names
        self.awaiting_deal = False
        self.attempt = attempt
        self.hands = [self.ts.mask(h) for h in hands]
        self.bazaar = list(bazaar)
        self.board = self.new_layout()
        self.last_placer = None
        self.rounds.append(
            {
                "hands": [[names[i] for i in h] for h in hands],
                "bazaar": [names[i] for i in bazaar],
                "moves": [],
            }
        )
        seat, tile = self.lead_for_round()
        self.turn, self.required_lead = seat, tile
        opened = self.open_round()
        return [
            {"type": "round_start", "round": self.round, "turn": seat, "bazaar": len(self.bazaar)},
            *opened,
        ]

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> Iterator[Move]:
        """Every move the player on turn may make (both ends listed when a tile fits both)."""
        if self.status != "playing" or self.turn is None:
            return iter(())
        return self.moves_for(self.turn)

    def legal_for(self, seat: int | None) -> list[MoveDict]:
        if seat is None or seat != self.turn:
            return []
        return [m.to_dict() for m in self.legal_moves()]

    def is_legal(self, move: Move) -> bool:
        return move in set(self.legal_moves())

    def play(
        self, seat: int, move: Move | Tile | str, end: str | None = None, **fields: Any
    ) -> list[Event]:
        """Make `move` for `seat` (a `Move`, or a tile and an end plus the variant's extra
        `move_fields`); then every forced step. Returns the events."""
        if self.status != "playing":
            raise IllegalMove("game_over")
        if self.turn is None:
            raise IllegalMove("no_round_in_play")
        if seat != self.turn:
            raise IllegalMove("not_seats_turn", turn=self.turn, seat=seat)
        tile: Tile | str
        if isinstance(move, Move):
            tile, end, also, flags = move.tile, move.end, move.also, move.flags
        else:
            tile, also, flags = move, (), ()
            if fields:
                also, flags = self._extra_fields(fields)
        try:
            tid = self.ts.ids[tile]
        except (KeyError, TypeError):
            raise not_a_tile(tile, self.max_pip) from None
        bit = 1 << tid
        if not self.hands[seat] & bit:
            raise IllegalMove("tile_not_in_hand", tile=self.ts.names[tid])
        end = self._resolve_end(seat, tid, end)
        if also or flags:
            resolved = Move(self.ts.tiles[tid], end, also, flags)
            self.check_move(seat, resolved)
            shown = resolved.to_dict()
            entry: dict[str, Any] = {"seat": seat, **shown}
            if end is None:
                del entry["end"]
            event = self.public_play({"type": "play", "round": self.round, "seat": seat, **shown})
        else:  # the common case, kept cheap: a cached move and plain dicts
            if self._own_moves:
                resolved = (self._tables.get(end) or self._moves_on(end))[tid]
                self.check_move(seat, resolved)
            name = self.ts.names[tid]
            entry = {"seat": seat, "tile": name}
            if end is not None:
                entry["end"] = end
            event = {"type": "play", "round": self.round, "seat": seat, "tile": name, "end": end}
        self.hands[seat] ^= bit
        self.board.place(tid, end)
        for extra in also:
            self.hands[seat] ^= 1 << self.ts.ids[extra.tile]
            self.board.place(self.ts.ids[extra.tile], extra.end)
        self.rounds[-1]["moves"].append(entry)
        self.last_placer = seat
        events: list[Event] = [event]
        if self._own_after:
            events += self.after_place(seat, resolved)
        if not self.hands[seat]:
            events += self._end_round("out", seat)
        elif self.makes_fish():
            events += self._end_round("fish", seat)
        elif self._own_again and self.plays_again(seat, resolved):
            events += self._pass_turn(seat)
        else:
            events += self._pass_turn((seat + 1) % self.players)
        return events

    def _extra_fields(
        self, fields: dict[str, Any]
    ) -> tuple[tuple[Placement, ...], tuple[tuple[str, OptionValue], ...]]:
        """A client's or record's extra move fields as `Move.also` and `Move.flags`."""
        also: list[Placement] = []
        flags: list[tuple[str, OptionValue]] = []
        for name, value in fields.items():
            if name not in self.move_fields:
                raise IllegalMove("unknown_move_field", variant=self.variant, field=repr(name))
            if name == "also":
                if not isinstance(value, list) or not all(
                    isinstance(p, dict) and isinstance(p.get("end"), str) for p in value
                ):
                    raise IllegalMove("also_not_placements")
                for p in value:
                    try:
                        also.append(Placement(self.ts.tiles[self.ts.ids[p.get("tile")]], p["end"]))
                    except (KeyError, TypeError):
                        raise not_a_tile(p.get("tile"), self.max_pip) from None
            elif isinstance(value, bool | int | str):
                flags.append((name, value))
            else:
                raise IllegalMove("bad_move_field", field=repr(name))
        return tuple(also), tuple(flags)

    def _resolve_end(self, seat: int, tid: int, end: str | None) -> str | None:
        ends = self.ends_for(seat) if self._own_ends else self.board.open
        if end is not None:
            number = ends.get(end)
            if number is not None and (number == self.ts.low[tid] or number == self.ts.high[tid]):
                return end  # the common case: the end is given and the tile fits it
            if not self.board.knows(end):
                said = " or ".join(repr(e) for e in self.board.end_names)
                raise IllegalMove("unknown_end", end=repr(end), ends=said)
        name = self.ts.names[tid]
        if self.board.empty:
            if self.required_lead is not None and tid != self.required_lead:
                raise IllegalMove("first_lead_must_be", tile=self.ts.names[self.required_lead])
            return None
        fitting = self.board.fits(tid, ends)
        if not fitting:
            if len(ends) == 2:
                a, b = ends.values()
                raise IllegalMove("tile_matches_neither_end", tile=name, a=a, b=b)
            shown = " and ".join(str(n) for n in ends.values())
            raise IllegalMove("tile_matches_no_end", tile=name, numbers=shown)
        if end is None:
            if len(fitting) > 1:
                if fitting == [LEFT, RIGHT]:
                    raise IllegalMove("tile_fits_both_ends", tile=name)
                said = " or ".join(repr(e) for e in fitting)
                if len(fitting) == 2:
                    raise IllegalMove("tile_fits_two_ends", tile=name, ends=said)
                raise IllegalMove("tile_fits_several_ends", tile=name, ends=said)
            return fitting[0]
        if end not in fitting:
            if end not in ends:
                raise IllegalMove("end_not_open", end=end)
            raise IllegalMove("tile_does_not_match_end", tile=name, end=end, n=ends[end])
        return end

    def _pass_turn(self, seat: int) -> list[Event]:
        """Give the turn to the first seat from `seat` on that can place a tile; each one
        that cannot follows `cannot_place` (draw, knock); a block ends the round."""
        events: list[Event] = []
        passes = 0
        # The same open ends for every seat unless the variant narrows them per seat.
        fits = -1 if self._own_ends or self._own_can else self.board.fits_all
        while True:
            can = self.hands[seat] & fits if fits >= 0 else self.can_place(seat)
            if can or self.cannot_place(seat, events):
                self.turn = seat
                return events
            passes += 1
            if self.is_blocked(passes):
                assert self.last_placer is not None
                return events + self._end_round("fish", self.last_placer)
            seat = (seat + 1) % self.players

    # ----------------------------------------------------------------- round and game end
    def _end_round(self, kind: str, by: int) -> list[Event]:
        points = self.round_points(kind, by)
        credited = self.settle_round(kind, by, points)
        end: RoundEnd = {"kind": kind, "by": by, "points": points, "credited": credited}
        standings = self.standings_record()
        current = self.rounds[-1]
        current["end"] = end
        current.update(standings)
        self.turn = None
        events: list[Event] = [
            {
                "type": "round_end",
                "round": self.round,
                "end": end,
                "hands": self.hand_names(),
                **standings,
            }
        ]
        result = self.game_over()
        if result is not None:
            return events + self._finish(result)
        return events + self._next_round()

    def _finish(self, result: Result) -> list[Event]:
        self.status = "finished"
        self.turn = None
        self.result = result
        return [{"type": "game_end", "round": self.round, "result": result}]

    def score_round(self, kind: str, by: int) -> None:
        """Credit the round in play as ended this way and end the game if that ends it, as
        `play` would, without the events and the record of the round's end: how a search
        scores a round it played out on the bit-mask core (app/engine/playout/)."""
        self.settle_round(kind, by, self.round_points(kind, by))
        self.turn = None
        result = self.game_over()
        if result is not None:
            self._finish(result)

    def end_as_block(self) -> list[Event]:
        """End the round in play now as if nobody could move (a block, "fish", by the last
        placer), scored by the variant's own rules: how a search that cuts a playout short
        values the position where it stopped. Never part of a game that is being played."""
        if self.status != "playing" or self.turn is None or self.last_placer is None:
            raise IllegalMove("no_placement_in_round")
        return self._end_round("fish", self.last_placer)

    def timeout(self, seat: int, reason: str = "timeout") -> list[Event]:
        """End the game because `seat` timed out or resigned (RULES 1.10).

        `reason` ("timeout" or "resign") is told in the events, the record and the result.
        """
        if self.status != "playing":
            raise IllegalMove("game_over")
        if not 0 <= seat < self.players:
            raise IllegalMove("no_such_seat", seat=seat)
        if reason not in TIMEOUT_REASONS:
            raise IllegalMove("unknown_timeout_reason", reason=repr(reason))
        points = [self.hand_points(h) for h in self.hands]
        end: RoundEnd = {
            "kind": "timeout", "by": seat, "points": points, "credited": [0] * self.players
        }
        self.timed_out = {"round": self.round, "seat": seat, "reason": reason}
        hands = self.hand_names()
        if self.rounds and "end" not in self.rounds[-1]:
            self.rounds[-1]["end"] = end
            self.rounds[-1].update(self.standings_record())
        events: list[Event] = [
            {"type": "timeout", "round": self.round, "seat": seat, "reason": reason},
            {"type": "round_end", "round": self.round, "end": end, "hands": hands,
             **self.standings_record()},
        ]
        return events + self._finish(self.timeout_result(seat, reason))

    def outcome(self) -> Result | None:
        return self.result

    def hand_names(self) -> list[list[str]]:
        return [self.ts.names_of(h) for h in self.hands]
