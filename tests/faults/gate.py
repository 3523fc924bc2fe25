"""A gate between one server process and its Redis: a TCP proxy that passes every byte both
ways and, once armed, acts on the first bytes that match a pattern before passing them on.

It puts a fault at an exact point of a step, which a test polling the store from outside
can only hope to hit: a process stopped (or killed) right after the store has carried out
its command and before it has read the reply (`reply=True`: the reply is passed on to a
process that can no longer act on it), or right as it sends a command (`reply=False`: the
command is held back for good, as if the process had died before sending it). Every
process's commands and replies go through the gate of its own URL; the gate runs its own
event loop in a thread, since starting a server blocks the caller's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlparse

from tests.servers import free_port

# What of a stream's past is kept to find a pattern split across two reads.
TAIL = 512


@dataclass
class Trap:
    pattern: re.Pattern[bytes]
    action: Callable[[], None]
    reply: bool


class RedisGate:
    def __init__(self, redis_url: str) -> None:
        parsed = urlparse(redis_url)
        self.upstream = (parsed.hostname or "127.0.0.1", parsed.port or 6379)
        self.path = parsed.path
        self.port = free_port()
        self.sprung = threading.Event()
        self._trap: Trap | None = None
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="redis-gate")
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}{self.path}"

    def __enter__(self) -> RedisGate:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, "127.0.0.1", self.port), self._loop).result()

    def close(self) -> None:
        async def shut() -> None:
            assert self._server is not None
            self._server.close()
            for writer in list(self._writers):
                writer.close()
        asyncio.run_coroutine_threadsafe(shut(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def arm(self, pattern: bytes, action: Callable[[], None], *, reply: bool) -> None:
        """On the first reply (`reply`) or command whose bytes match the regular expression
        `pattern`: `action()` first; then a reply is passed on, a command never is."""
        with self._lock:
            self._trap = Trap(re.compile(pattern, re.DOTALL), action, reply)
            self.sprung.clear()

    def _spring(self, reply: bool, seen: bytes, start: int) -> bool:
        """Whether these bytes spring the trap (they are acted on first)."""
        with self._lock:
            trap = self._trap
            if trap is None or trap.reply != reply:
                return False
            found = trap.pattern.search(seen)
            if found is None or found.end() <= start:
                return False
            self._trap = None
        trap.action()
        self.sprung.set()
        return True

    async def _serve(self, client_reader: asyncio.StreamReader,
                     client_writer: asyncio.StreamWriter) -> None:
        try:
            redis_reader, redis_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.close()
            return
        self._writers |= {client_writer, redis_writer}
        try:
            await asyncio.gather(self._pump(client_reader, redis_writer, reply=False),
                                 self._pump(redis_reader, client_writer, reply=True))
        finally:
            for writer in (client_writer, redis_writer):
                self._writers.discard(writer)
                writer.close()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                    reply: bool) -> None:
        tail = b""
        held = False
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while chunk := await reader.read(65536):
                seen = tail + chunk
                tail = seen[-TAIL:]
                if held:
                    continue
                if self._spring(reply, seen, len(seen) - len(chunk)) and not reply:
                    held = True  # the command never leaves: nor does anything after it
                    continue
                writer.write(chunk)
                await writer.drain()
        writer.close()


def stop(pid: int) -> None:
    """SIGSTOP the process and wait until it is stopped (it runs no further step)."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                return
        time.sleep(0.0005)


# The reply of the seek script when a seek completes a table (app/live/lua/seek_add.lua):
# the seeks are taken, nothing is made or told yet.
SEEKS_TAKEN = rb"\*\d+\r\n\$7\r\nmatched\r\n"
# The first command that tells a player of his tournament table (kept as his pending notice,
# or published): the round's tables are made, nobody is told yet.
PAIRING_TOLD = rb"tournament\.pairing"
# The publish of a tournament table's pairing (app/services/fanout/notices.py): its players'
# notices are kept, the sockets open on every process are not told yet.
PAIRING_PUBLISHED = (rb"PUBLISH\r\n\$\d+\r\n[^\r]*:ch:players\r\n"
                     rb"\$\d+\r\n[^\r]*tournament\.pairing")
