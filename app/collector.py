"""Python's cycle collector, set for a server with a large, long-lived heap.

Almost every object a move makes (parsed messages, views, frames) is freed by reference
counting as soon as the move is answered; cycles are rare. With Python's default threshold
(700 more container objects made than freed) the collector nevertheless ran several times
per move, promoted the short-lived objects it happened to catch, and so ran a full
collection over every socket's and every table's objects a few times a second: about a
third of the server's CPU at 250 busy tables, in pauses of tens of milliseconds
(benchmarks/README.md). With a threshold of tens of thousands it runs a few times a
minute, and what start-up made (modules, settings, routes) is kept out of its scans.
"""

from __future__ import annotations

import gc


def settle_heap(threshold: int) -> None:
    """Call once, when the process is ready: collects what start-up left, moves everything
    still alive out of the collector's way (it lives as long as the process) and sets the
    young generation's threshold (0: keep Python's)."""
    gc.collect()
    gc.freeze()
    if threshold > 0:
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(threshold, older, oldest)
