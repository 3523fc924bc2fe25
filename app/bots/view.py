"""What a computer player is given: one seat's view (PROTOCOL §2 `view`), typed.

A computer player sees exactly what a person in its seat sees, because it is handed the
very view the server sends to that seat and nothing else: its own hand, the table, the
counts of the other hands and of the bazaar, the standings, the legal moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Standing:
    """One seat's standing as its view shows it (PROTOCOL `view.seats[]`)."""

    account: int
    opened: bool
    remembered: int
    team: int | None = None


@dataclass(frozen=True)
class LegalMove:
    """One entry of `view.legal`: a tile, where it goes, and any variant-specific fields
    (sent back in `play` exactly as they came)."""

    tile: str
    end: str | None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def numbers(self) -> tuple[int, int]:
        low, high = self.tile.split("-")
        return int(low), int(high)


@dataclass(frozen=True)
class SeatView:
    variant: str
    options: Mapping[str, Any]
    seat: int
    hand: tuple[str, ...]
    turn: int | None
    ends: Mapping[str, int]
    on_table: tuple[str, ...]
    bazaar: int
    legal: tuple[LegalMove, ...]
    tiles_held: tuple[int, ...]
    standings: tuple[Standing, ...]
    carry: int
    # The whole view as it came: what the strong player rebuilds the position from.
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> SeatView:
        """The typed form of a seat's `view` (a spectator's view has no seat to play)."""
        if view.get("you") is None:
            raise ValueError("only a seated player's view can be played from")
        seats = sorted(view["seats"], key=lambda entry: entry["seat"])
        return cls(
            variant=view["variant"],
            options=dict(view["options"]),
            seat=view["you"],
            hand=tuple(view["hand"]),
            turn=view["turn"],
            ends=dict(view["ends"]),
            on_table=tuple(c["tile"] for c in view["chain"] if c.get("tile")),  # not face down
            bazaar=view["bazaar"],
            legal=tuple(
                LegalMove(m["tile"], m.get("end"), {k: v for k, v in m.items()
                                                    if k not in ("tile", "end")})
                for m in view["legal"]
            ),
            tiles_held=tuple(entry["tiles"] for entry in seats),
            standings=tuple(
                Standing(
                    int(entry.get("account", 0)),
                    bool(entry.get("opened", False)),
                    int(entry.get("remembered", 0)),
                    entry.get("team"),
                )
                for entry in seats
            ),
            carry=int(view.get("carry", 0)),
            raw=view,
        )

    def line_ends(self) -> tuple[int, int] | None:
        """The two open ends of a line of play ("left", "right"), if that is the layout."""
        if set(self.ends) == {"left", "right"}:
            return self.ends["left"], self.ends["right"]
        return None
