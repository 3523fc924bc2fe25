"""Stores of a test's own, to kill, stop and start again: a Redis with an append-only file and
a PostgreSQL cluster in a temporary directory. The machine's shared services are never touched.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg
from redis.crc import key_slot

from tests.servers import PG_ADMIN_DSN, clear_redis_prefix, free_port


class PrivateRedis:
    """A redis-server of our own with an append-only file (`persistent`; else nothing is
    kept), to kill, freeze and start again."""

    def __init__(self, directory: Path, *, persistent: bool = True) -> None:
        self.directory = directory
        self.port = free_port()
        self.persistent = persistent
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.directory),
             "--appendonly", "yes" if self.persistent else "no", "--appendfsync", "always",
             "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                             capture_output=True, text=True).stdout.strip() != "PONG":
            assert time.monotonic() < deadline, "private redis did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)  # a frozen one is killed too
        self.process.kill()
        self.process.wait()

    def freeze(self) -> None:
        """Stop the process (SIGSTOP): its connections stay open and nothing answers."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def flush(self) -> None:
        """Everything the store holds is lost at once."""
        subprocess.run(["redis-cli", "-p", str(self.port), "flushall"], check=True,
                       capture_output=True)


class ClusterPart:
    """The keys of one prefix on a shared Redis Cluster (`make cluster`), standing in for a
    private Redis where a test only needs the store to lose everything: `flush` deletes
    every key of `prefix` on every master. The cluster itself is never stopped."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = ""

    def start(self) -> None:
        pass

    def flush(self) -> None:
        assert self.prefix, "the prefix to lose"
        clear_redis_prefix(self.url, self.prefix)

    def kill(self) -> None:
        if self.prefix:
            clear_redis_prefix(self.url, self.prefix)


class PrivateCluster:
    """A Redis Cluster of our own: three masters, a replica of each unless `replicas` is
    False (AOF on, a node timeout of `node_timeout_ms`, any replica may take over), on free
    ports under `directory`, to kill a master of (and start it again)."""

    def __init__(self, directory: Path, *, replicas: bool = True,
                 node_timeout_ms: int = 2000) -> None:
        self.directory = directory
        self.replicas = replicas
        self.node_timeout_ms = node_timeout_ms
        self.ports = [_free_pair() for _ in range(6 if replicas else 3)]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports[:3])

    def cli(self, port: int, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True,
                              text=True, timeout=30).stdout

    def start(self) -> None:
        for port in self.ports:
            (self.directory / f"node-{port}").mkdir()
            self.start_node(port)
        subprocess.run(["redis-cli", "--cluster", "create",
                        *(f"127.0.0.1:{p}" for p in self.ports), "--cluster-replicas",
                        "1" if self.replicas else "0", "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        self.wait_ok()

    def start_node(self, port: int) -> None:
        """Start (or start again) the node of `port`, with its files as it left them."""
        self.processes[port] = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
             "--dir", str(self.directory / f"node-{port}"), "--cluster-enabled", "yes",
             "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(self.node_timeout_ms),
             "--cluster-replica-validity-factor", "0", "--appendonly", "yes",
             "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while self.cli(port, "ping").strip() != "PONG":
            assert time.monotonic() < deadline, "a cluster node did not start"
            time.sleep(0.05)

    def wait_ok(self) -> None:
        deadline = time.monotonic() + 30
        alive = [p for p in self.ports if self.processes[p].poll() is None]
        while not all("cluster_state:ok" in self.cli(p, "cluster", "info") for p in alive):
            assert time.monotonic() < deadline, "the cluster did not come up"
            time.sleep(0.1)

    def masters(self) -> dict[int, list[tuple[int, int]]]:
        """Each master's port and the ranges of slots it holds, as a live node says."""
        alive = next(p for p in self.ports if self.processes[p].poll() is None)
        out: dict[int, list[tuple[int, int]]] = {}
        for line in self.cli(alive, "cluster", "nodes").splitlines():
            fields = line.split()
            if "master" in fields[2] and "fail" not in fields[2]:
                port = int(fields[1].split(":")[1].split("@")[0])
                out[port] = []
                for part in fields[8:]:
                    low, _, high = part.partition("-")
                    if low.isdigit():
                        out[port].append((int(low), int(high or low)))
        return out

    def master_of(self, key: str) -> int:
        """The port of the master that holds `key`'s slot."""
        slot = key_slot(key.encode())
        for port, ranges in self.masters().items():
            if any(low <= slot <= high for low, high in ranges):
                return port
        raise AssertionError(f"no master holds slot {slot}")

    def migrate_slot_keys(self, slot: int, source: int, target: int) -> list[str]:
        """Resharding's first half: the slot is marked moving from master `source` to
        master `target` and its keys are moved there (the slot is still the source's: it
        answers ASK for them). The keys moved."""
        source_id, target_id = self.node_id(source), self.node_id(target)
        self.cli(target, "cluster", "setslot", str(slot), "importing", source_id)
        self.cli(source, "cluster", "setslot", str(slot), "migrating", target_id)
        moving = self.cli(source, "cluster", "getkeysinslot", str(slot), "1000").split()
        if moving:
            self.cli(source, "migrate", "127.0.0.1", str(target), "", "0", "5000", "keys",
                     *moving)
        return moving

    def assign_slot(self, slot: int, target: int) -> None:
        """Resharding's second half: every master says the slot is `target`'s (the source
        answers MOVED from now on)."""
        for port in self.masters():
            self.cli(port, "cluster", "setslot", str(slot), "node", self.node_id(target))

    def node_id(self, port: int) -> str:
        return self.cli(port, "cluster", "myid").strip()

    def replica_caught_up(self, master: int) -> bool:
        """Whether the master's replica has everything the master has written."""
        info = dict(line.split(":", 1) for line in self.cli(master, "info", "replication")
                    .splitlines() if ":" in line)
        offset = info.get("master_repl_offset")
        return info.get("connected_slaves") == "1" and f"offset={offset}," in \
            info.get("slave0", "")

    def kill(self, port: int) -> None:
        self.processes[port].kill()
        self.processes[port].wait()

    def stop(self) -> None:
        for process in self.processes.values():
            process.kill()
            process.wait()


def _free_pair() -> int:
    """A free port whose cluster bus port (10000 above it) is free too."""
    while True:
        port = free_port()
        if port + 10000 < 65536:
            with contextlib.suppress(OSError), socket.socket() as s:
                s.bind(("127.0.0.1", port + 10000))
                return port


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    assert found, f"no PostgreSQL {name} under /usr/lib/postgresql"
    return found[-1]


class PrivatePostgres:
    """A PostgreSQL cluster of our own (trust auth, loopback, a free port) to stop and start.

    `initdb` refuses to run as root, so under root the cluster belongs to the `postgres` user
    the machine's own cluster runs as. Its directory is its own, not pytest's (which
    removes old runs' directories, perhaps another run's on the same machine, while in use).
    """

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="domino-pg-")) / "pgdata"
        self.port = free_port()
        self._as_root = os.geteuid() == 0

    def _run(self, *argv: str) -> None:
        command = list(argv)
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}")

    def init(self) -> None:
        self.directory.parent.mkdir(parents=True, exist_ok=True)
        if self._as_root:
            os.chmod(self.directory.parent, 0o777)
            for parent in self.directory.parents:
                if parent == Path("/"):
                    break
                os.chmod(parent, os.stat(parent).st_mode | 0o711)
        self._run(_pg_bin("initdb"), "-D", str(self.directory), "-A", "trust", "-U", "postgres",
                  "--no-sync")

    def start(self) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off "
                   f"-c unix_socket_directories={self.directory}")
        self._run(_pg_bin("pg_ctl"), "-D", str(self.directory), "-o", options, "-w", "-t", "30",
                  "-l", str(self.directory / "log"), "start")

    def remove(self) -> None:
        """Stop the cluster if it runs and delete its files."""
        with contextlib.suppress(RuntimeError):
            self.stop()
        shutil.rmtree(self.directory.parent, ignore_errors=True)

    def stop(self) -> None:
        self._run(_pg_bin("pg_ctl"), "-D", str(self.directory), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    @property
    def admin_dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


def _dsn(pg_url: str) -> str:
    return PG_ADMIN_DSN.rsplit("/", 1)[0] + "/" + pg_url.rsplit("/", 1)[1]


async def saved_snapshot(pg_url: str, table_id: str, timeout: float = 10) -> dict[str, Any]:
    """The table's row in `live_snapshots` (version, game id), once it is there."""
    connection = await asyncpg.connect(_dsn(pg_url))
    try:
        deadline = time.monotonic() + timeout
        while True:
            row = await connection.fetchrow(
                "SELECT version, game_id FROM live_snapshots WHERE table_id = $1", table_id)
            if row is not None:
                return dict(row)
            assert time.monotonic() < deadline, "no snapshot was saved"
            await asyncio.sleep(0.1)
    finally:
        await connection.close()


async def database_value(pg_url: str, sql: str, *args: Any) -> Any:
    """The first value `sql` returns in the test database at `pg_url`."""
    connection = await asyncpg.connect(_dsn(pg_url))
    try:
        return await connection.fetchval(sql, *args)
    finally:
        await connection.close()
