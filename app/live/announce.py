"""What a change's announcement carries, and who makes it ready.

A change's announcement is bytes (app.wire.bytes lays them out): a JSON header line (kind,
table id, version, writer, the state's length in bytes, and whatever the writer adds), a
newline, the state's JSON, then what the writer made ready to send (`Announcement`: each
seat's view, built once by the process that made the change, so a process that receives it
only routes bytes to its sockets). `announced` reads one back without parsing the state.

Every write carries an id that starts with its process's writer prefix, so a process knows
its own writes when their announcements come back (`writer_process`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from app.wire.bytes import Announced, announced

if TYPE_CHECKING:
    from app.engine import Game

__all__ = ["WRITER_PREFIX_BYTES", "Announced", "Announcement", "Announcer", "Prepared",
           "announced", "writer_process"]

# A process's writer prefix: this many random bytes, in hex.
WRITER_PREFIX_BYTES = 6


def writer_process(writer: str) -> str | None:
    """The writer prefix of the process that made a write (from its write id), if a process
    made it (not a restore)."""
    size = 2 * WRITER_PREFIX_BYTES
    return writer[:size] if len(writer) > size else None


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a writer adds to its change's announcement: `fields`, more members of the JSON
    header (`,"name":value,...`: app.wire.bytes.members), and `parts`, the bytes after the
    state (what they hold is the writer's and its readers' business: app.services.fanout.feed)."""

    fields: bytes = b""
    parts: bytes = b""


class Prepared(Protocol):
    """A change made ready to write: what its announcement carries besides the state."""

    def announcement(self) -> Announcement: ...


class Announcer(Protocol):
    """What shows a process's changes to its sockets and makes each change's announcement
    (app.services.fanout.feed.Feed, as `LiveStore.announcer`): `prepare` before the write (`table`:
    the table as it is to be stored), `written` once it is stored (`published`: whether its
    announcement went out to other processes)."""

    def prepare(self, table: Any, game: Game | None) -> Prepared: ...

    def written(self, prepared: Any, published: bool) -> object: ...
