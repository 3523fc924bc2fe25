"""Server processes forked from a warm interpreter, so a test does not pay for importing
FastAPI, SQLAlchemy, pydantic and the rest again for every server it starts.

A run of the suite starts over a hundred servers, and each spent about two seconds of CPU
on its imports before it served anything: a sixth of the suite's CPU on a machine whose
two cores the suite keeps busy. Here one helper process per test process imports those
libraries once (none of them reads the environment at import), then forks a child per
server. The child takes the server's environment, working directory and log file and runs
`python -m app.cli serve ...` exactly as a fresh interpreter would: `app` and its settings
are imported in the child, from the child's environment. It is a real process with its own
pid, sockets and signals; `Forked` gives the test the part of `subprocess.Popen` it uses,
with the exit status the helper reads when it reaps the child.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

# Only libraries that read nothing from the environment at import (prometheus_client
# does: its multiprocess mode is chosen then, so it is left to the child).
_WARM = [
    "fastapi", "fastapi.routing", "fastapi.openapi.models", "starlette.applications",
    "pydantic", "pydantic_settings", "sqlalchemy", "sqlalchemy.ext.asyncio", "sqlalchemy.orm",
    "sqlalchemy.dialects.postgresql", "sqlalchemy.dialects.sqlite", "asyncpg", "alembic",
    "alembic.command", "alembic.config", "alembic.runtime.migration", "redis",
    "redis.asyncio", "hiredis", "uvicorn", "uvicorn.config", "uvicorn.server", "argon2",
    "orjson", "jwt", "anyio", "mako",
]

# The helper: imports, then forks a child per request line (JSON: args, env, cwd, log) and
# says "started PID"; says "exit PID CODE" for each child it reaps (CODE as Popen's
# returncode: negative for a signal). It ends when its stdin closes.
_HELPER = r"""
import atexit, importlib, json, os, runpy, select, sys, traceback
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
out = os.fdopen(os.dup(1), "w", buffering=1)

def child(request):
    code = 1
    try:
        fd = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        out.close()
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # As a fresh interpreter reads it: e.g. a benchmark's server run from another
        # checkout (PYTHONPATH) imports that checkout's `app`.
        extra = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
        sys.path[:0] = [os.path.abspath(p) for p in extra]
        sys.argv = ["app.cli", *request["args"]]
        try:
            runpy.run_module("app.cli", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        atexit._run_exitfuncs()
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)

pending = b""
while True:
    ready, _, _ = select.select([0], [], [], 0.02)
    if ready:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            pid = os.fork()
            if pid == 0:
                child(json.loads(line))
            out.write(f"started {pid}\n")
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        out.write(f"exit {pid} {os.waitstatus_to_exitcode(status)}\n")
"""


class _Helper:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _HELPER, json.dumps(_WARM)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        self.started: queue.Queue[int] = queue.Queue()
        self.exits: dict[int, int] = {}
        self.changed = threading.Condition()
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            word, pid, *rest = raw.decode().split()
            if word == "started":
                self.started.put(int(pid))
            elif word == "exit":
                with self.changed:
                    self.exits[int(pid)] = int(rest[0])
                    self.changed.notify_all()

    def fork(self, args: list[str], env: dict[str, str], cwd: Path, log: Path) -> Forked:
        assert self.process.stdin is not None
        request = {"args": args, "env": env, "cwd": str(cwd), "log": str(log)}
        with self.lock:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            return Forked(self, self.started.get(timeout=60), args)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Forked:
    """A forked server, as much of `subprocess.Popen` as the tests use."""

    def __init__(self, helper: _Helper, pid: int, args: list[str]) -> None:
        self.helper = helper
        self.pid = pid
        self.args = args
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            with self.helper.changed:
                self.returncode = self.helper.exits.get(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.helper.changed:
            while self.pid not in self.helper.exits:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(self.args, timeout or 0)
                self.helper.changed.wait(left)
            self.returncode = self.helper.exits[self.pid]
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # never a pid the helper has reaped (it may be reused)
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


_helper: _Helper | None = None


def fork_server(args: list[str], env: dict[str, str], cwd: Path, log: Path) -> Forked:
    """`python -m app.cli ARGS` as a child of this process's warm helper."""
    global _helper
    if _helper is None or _helper.process.poll() is not None:
        _helper = _Helper()
        atexit.register(_helper.close)
    return _helper.fork(args, env, cwd, log)
