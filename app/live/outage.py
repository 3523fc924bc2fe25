"""Outages of the live store: when this process found it away, and the one restart of the
clocks after each.

While the store cannot be reached, or does not answer in time, moves are answered
`unavailable` and no turn times out (app.services.play.clock). When it is back, exactly one
process restarts the clocks (`claim_resumption`), and the outage is kept as it was seen by
the process that saw it begin earliest: a turn whose deadline fell within it was not the
player's to lose (`Outage.covers`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from redis.commands.core import AsyncScript

from app.live.base import StoreBase

# Said under the store's name, as before the store was split (log filters name it).
log = logging.getLogger("app.live.store")


@dataclass(frozen=True, slots=True)
class Outage:
    """The store's last outage (epoch ms): from when a process saw it begin to when the
    clocks were restarted after it."""

    began: int
    ended: int

    def covers(self, deadline_ms: int) -> bool:
        """Whether a turn that ran out at `deadline_ms` ran out while the store was away:
        it was not the player's to lose."""
        return self.began <= deadline_ms <= self.ended


class Outages(StoreBase):
    # When this process found Redis unreachable, until the clocks have been restarted
    # after it came back (None: no outage). No turn times out meanwhile.
    outage_since: int | None
    _outage_over_at: int
    _resume: AsyncScript

    def note_outage(self, since_ms: int, error: BaseException) -> None:
        """The store could not be reached, or did not answer, for a command sent at
        `since_ms`: until the clocks are restarted (app.services.play.clock) no turn times out
        and moves are answered `unavailable`. Said once in the log, when it begins."""
        if since_ms < self._outage_over_at:
            return  # a command of an outage that is over: the store has answered since
        if self.outage_since is not None:
            self.outage_since = min(self.outage_since, since_ms)
            return
        self.outage_since = since_ms
        log.warning("live store unreachable (%s: %s); moves wait and turn clocks stop",
                    type(error).__name__, error)

    def outage_over(self, now_ms: int) -> None:
        """The store answers again and the clocks have been restarted after the outage."""
        self.outage_since = None
        self._outage_over_at = now_ms

    async def claim_resumption(self, down_since_ms: int, now_ms: int) -> bool:
        """Whether this process is the one to restart the clocks after an outage that began
        (as it saw it) at `down_since_ms`; exactly one process gets each outage."""
        return bool(await self._resume(keys=[self.keys.resumed, self.keys.outage],
                                       args=[down_since_ms, now_ms]))

    async def last_outage(self) -> Outage | None:
        """The store's last outage, from when a process saw it begin to when the clocks were
        restarted after it (None: none since the store was new)."""
        window = await self.command("GET", self.keys.outage)
        if not window:
            return None
        began, ended = (int(x) for x in str(window).split(":"))
        return Outage(began, ended)
