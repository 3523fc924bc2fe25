"""The shared mechanics of every variant: rounds, hands, the bazaar, turns, records.

A `Game` is a plain, deterministic state machine. `play()` applies one move (a typed
`Move` as `legal_moves()` yields it, or a tile and an end as a client sends them) and
then performs every forced step (draws, knocks, passes) until somebody must choose a move
again, the round ends or the game ends. Where tiles go is the game's *layout*
(app/engine/layouts/).

How a new variant plugs in: a subclass in its own module plus one line in
`app/engine/variants.py`'s `VARIANTS`. The subclass says only what differs:

Class attributes
  `variant` (its PROTOCOL name), `title` (its name for people), `max_pip`,
  `min_players`/`max_players`,
  `options_spec` (name -> `Option(default, allowed)`: the one place its options live;
  their words for people are the message catalogue's, by name and value),
  `layout` (the kind for GET /api/variants: "line", "spinner" or "trains"),
  `wins` ("higher" or "lower"), `team_play` (can be played by teams of two),
  `move_fields` (extra move fields it understands, e.g. Donkey's "closed"; they travel in
  `view.legal`, in `play` and in records as they are), `losers_called` (what a loser is
  called on a rating, e.g. "goats"), `history_keys` (standings copied into `view.history`).

Deal and lead (required): `hand_size()`, `lead_for_round()`; optional `needs_redeal()`,
  `check_options()`. `lead_for_round()` runs once per deal, right after the hands are
  dealt and the layout is new; then `open_round()` does what happens by itself before the
  first move and returns its events (e.g. Mexican Train's engine double in the centre).
Layout: `new_layout()` (default a `Line`); `ends_for(seat)` narrows the open ends a seat
  may use (Mexican Train's own/marked trains).
Turn policy hooks (defaults: the draw game of RULES §1.3):
  `moves_for(seat)` every legal move of that seat (override to add flags or multi-tile
      moves; the default yields one tile on each open end it fits, or any lead);
  `check_move(seat, move)` refuse a move the defaults would allow (or accept the extra
      fields/`also` placements the variant added);
  `after_place(seat, move)` what a placement causes: points during play (Fives),
      returning events;
  `public_play(event)` the play event of a move with extra fields as everyone may see it
      (Donkey's closed double names no tile);
  `plays_again(seat, move)` whether the same seat moves again (Mexican Train's double);
  `can_place(seat)` whether a seat has a move now;
  `cannot_place(seat, events)` what a seat that cannot place does: draw until playable
      (default) or draw one then pass; returns whether it can place now;
  `is_blocked(passes)` whether this many turns in a row without a placement end the
      round (default: every seat knocked);
  `makes_fish()` a round end recognised right after a placement (Goat's fish).
  A hook a variant leaves as `Game` has it is not called at all on the hot path, so
  overriding one costs only that variant.
Scoring (required): `hand_points()`, `settle_round()`, `final_scores()`, `game_over()`,
  `standings_view()`, `standings_record()`; optional `round_points()`,
  `timeout_result()`, `extra_view()`, `state_extra()`/`load_extra()` (variant state in
  `to_dict`), `wins_by()` (when an option turns `wins` round).
Search: `load_view()` takes the standings and the variant's public state back from a
  seat's view (app/engine/knowledge.py rebuilds positions for the strong computer player
  with it); `playout_core` names the rules by which the bit-mask core of app/engine/playout/
  plays the variant's rounds, if it does.
Time: a variant whose rules read the time (General) reads `self.clock` (the server's
  clock, handed in by `start_game`/`game_from_dict`; None in searches and tests) and
  writes what it read into the round, so that `recall_round()` can give it back when a
  record is replayed. Teams of two: `app/engine/teams.py`.
Records: `check_finished_round()` refuses a recorded round that its moves finished but
  that lacks a field the variant needs (General's `ended_ms`).
Editions: `self.rules` is the edition of the rule book the game plays by (`RULES`; a record
  marked `"rules": 1` sets `FIRST_RULES`, whose readings a variant keeps behind that test).
Goat's family shares RULES §1's deal, leads and fish: `app/engine/goat_family.py`.

Where it lives: the class attributes, the state and the hooks' defaults in `GameBase`
(app/engine/game_base.py), dealing, moves and the ends of rounds in `Turns`
(app/engine/turns.py), views and persistence here; the values it hands out (`Move`,
`Result`, ...) in app/engine/values.py, its events in app/engine/events.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from app.engine.events import Event
from app.engine.layouts import LEFT, RIGHT
from app.engine.tiles import value_order
from app.engine.turns import Turns
from app.engine.values import (
    FIRST_RULES,
    RECORD_FORMAT,
    RULES,
    Clock,
    Move,
    Placement,
    Result,
    RoundEnd,
    Standings,
    VariantInfo,
)

# Names that have lived here and are imported from here still.
__all__ = [
    "FIRST_RULES", "LEFT", "RECORD_FORMAT", "RIGHT", "RULES", "Clock", "Event", "Game", "Move",
    "Placement", "Result", "RoundEnd", "Standings", "VariantInfo",
]


def _copy_rounds(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rounds as a new list whose last round (the only one play changes) is not shared with
    the source; the rounds before it are over and shared as they are."""
    if not rounds:
        return []
    last = rounds[-1]
    return [*rounds[:-1], {**last, "moves": list(last["moves"])}]


class Game(Turns):
    """One game at one table: rounds, the layout, hands, bazaar, standings.

    Tiles are ids (their index in canonical order) and hands are bit masks of ids; the
    public surface (moves, views, records) speaks in `Tile`s and "a-b" names.
    """

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know, and nothing more."""
        return {**self.public_view(), **self.own_view(seat)}

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The part of `view(seat)` that is the seat's alone: its hand and its moves."""
        return {
            "you": seat,
            "hand": [] if seat is None else self.ts.names_of(self.hands[seat]),
            "legal": self.legal_for(seat) if self.status == "playing" else [],
        }

    def public_view(self) -> dict[str, Any]:
        """The part of every seat's and every spectator's view that is the same for all:
        built once for all the views of one position."""
        finished = self.status == "finished"
        return {
            "variant": self.variant,
            "options": dict(self.options),
            # the edition of the rule book the game plays by (how a block or a fish is judged)
            "rules": self.rules,
            "status": self.status,
            "turn": self.turn,
            "round": self.round,
            "layout": self.board.kind,
            "ends": dict(self.board.open),
            "chain": self.board.view(),
            "bazaar": len(self.bazaar),
            "seats": [
                {"seat": s, "tiles": self.hands[s].bit_count(), **self.standings_view(s)}
                for s in range(self.players)
            ],
            "history": self._history(),
            "commitment": self.commitment,
            "seed": self.seed.hex() if finished and self.seed is not None else None,
            "result": self.result,
            **self.extra_view(),
        }

    def _history(self) -> list[dict[str, Any]]:
        """`view.history`: one entry per round that has ended, with the standings after it
        as the score table shows them. Only the last round changes in play, so the entries
        of the rounds before it are kept from copy to copy instead of made for every view."""
        rounds = self.rounds
        kept: list[dict[str, Any]] = self.__dict__.get("_history_kept", [])
        done = kept[-1]["round"] + 1 if kept else 0
        fresh = [self._history_entry(r, rounds[r]) for r in range(done, len(rounds) - 1)
                 if "end" in rounds[r]]
        if fresh:
            kept = self.__dict__["_history_kept"] = kept + fresh
        last = len(rounds) - 1
        if last >= 0 and "end" in rounds[last]:
            return [*kept, self._history_entry(last, rounds[last])]
        return list(kept)

    def _history_entry(self, r: int, rd: dict[str, Any]) -> dict[str, Any]:
        end = rd["end"]
        return {"round": r, "end": end["kind"], "by": end["by"], "points": end["points"],
                "credited": end["credited"],
                **{k: rd[k] for k in self.history_keys if k in rd}}

    # ----------------------------------------------------------------- persistence
    def record(self, players: Sequence[str]) -> dict[str, Any]:
        """The game as a domino-record/1 (PROTOCOL §3), finished or still running.

        With a seed the deals are left out (they follow from it). A record of a running game
        with its seed reveals every hand: it is for the server and for finished games only.
        """
        hidden = ("hands", "bazaar") if self.seed is not None else ()
        rounds = [{k: v for k, v in rd.items() if k not in hidden} for rd in self.rounds]
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(players),
            "seed": self.seed.hex() if self.seed is not None else None,
            "rounds": rounds,
            "timeout": self.timed_out,
            "result": self.result,
        }
        if self.rules != RULES:
            record["rules"] = self.rules  # replayed by that edition's readings
        return record

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed.hex() if self.seed is not None else None,
            "status": self.status,
            "round": self.round,
            "attempt": self.attempt,
            "hands": self.hand_names(),
            "bazaar": [self.ts.names[i] for i in self.bazaar],
            "layout": self.board.to_dict(),
            "turn": self.turn,
            "required_lead": (
                self.ts.names[self.required_lead] if self.required_lead is not None else None
            ),
            "last_placer": self.last_placer,
            "awaiting_deal": self.awaiting_deal,
            "rounds": _copy_rounds(self.rounds),
            "timed_out": self.timed_out,
            "result": self.result,
            "rules": self.rules,
            **self.state_extra(),
        }

    def load(self, data: dict[str, Any]) -> None:
        ids = self.ts.ids
        self.status = data["status"]
        self.round = data["round"]
        self.attempt = data["attempt"]
        self.hands = [self.ts.mask([ids[t] for t in h]) for h in data["hands"]]
        self.bazaar = [ids[t] for t in data["bazaar"]]
        self.board = self.new_layout()
        self.board.load(data["layout"])
        self.turn = data["turn"]
        lead = data["required_lead"]
        self.required_lead = ids[lead] if lead is not None else None
        self.last_placer = data["last_placer"]
        self.awaiting_deal = data["awaiting_deal"]
        self.rounds = _copy_rounds(data["rounds"])
        self.timed_out = data["timed_out"]
        self.result = data["result"]
        # A state saved before editions were written is a game begun under the first.
        self.rules = data.get("rules", FIRST_RULES)
        self.load_extra(data)

    def copy(self) -> Self:
        """An independent copy for searching ahead: playing on it leaves this game alone.

        Cheap: containers are copied one level deep (their items are immutable values),
        the layout by its own `copy()`, the rounds that are over shared.
        """
        clone = object.__new__(type(self))
        clone.__dict__.update(
            {
                k: v.copy() if isinstance(v, (list, dict, set)) else v
                for k, v in self.__dict__.items()
            }
        )
        clone.board = self.board.copy()
        clone.rounds = _copy_rounds(self.rounds)
        return clone

    # ----------------------------------------------------------------- shared helpers
    def first_held(self, candidates: Sequence[int]) -> tuple[int, int]:
        """The first of these tile ids that some hand holds, and that hand's seat."""
        held = 0
        for h in self.hands:
            held |= h
        for tid in candidates:
            if held >> tid & 1:
                return next(s for s, h in enumerate(self.hands) if h >> tid & 1), tid
        raise AssertionError("no hand holds any tile")  # every deal gives each hand tiles

    @classmethod
    def double_ids(cls) -> list[int]:
        """The doubles' ids from 0-0 up."""
        return cls.ts.members(cls.ts.doubles)

    @classmethod
    def value_ids(cls) -> list[int]:
        """Non-doubles' ids from the highest value down (pips, then the higher half)."""
        return [cls.ts.ids[t] for t in value_order(cls.max_pip)]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} round={self.round} "
            f"turn={self.turn} status={self.status!r}>"
        )
