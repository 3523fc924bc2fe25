"""Fixtures of the fault tests: stores of the test's own."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.stores import PrivatePostgres, PrivateRedis


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.kill()


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    # Not under pytest's temporary folder: every pytest run that starts on the machine
    # makes /tmp/pytest-of-<user> private again, and the cluster's own user (postgres)
    # would lose its way to the data directory in the middle of a test.
    directory = Path(tempfile.mkdtemp(prefix="domino-pg-"))
    postgres = PrivatePostgres(directory)
    postgres.init()
    postgres.start()
    yield postgres
    with contextlib.suppress(subprocess.CalledProcessError):  # already stopped by the test
        postgres.stop()
    pid_file = postgres.directory / "postmaster.pid"
    if pid_file.exists():  # pg_ctl could not stop it: end the postmaster by its own id
        with contextlib.suppress(OSError, ValueError, IndexError):
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGQUIT)
    shutil.rmtree(directory, ignore_errors=True)
