"""The `domino` command: serve, worker, migrate, replay, cancel-tournament, moderator."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.config import Settings

# A start that cannot reach its database or Redis within this long gives up.
PREPARE_SECONDS = 30


def _fail(line: str, code: int = 1) -> int:
    """A start that cannot go on: one clear line, a non-zero exit, nothing left running."""
    print(f"domino serve: {line}", file=sys.stderr, flush=True)
    return code


def _listen(host: str, port: int) -> socket.socket:
    """Bind the listening socket first: a taken port fails before anything has started."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


async def _prepare(settings: Settings) -> None:
    """Everything a server needs before it serves: the schema, and the live store if shared."""
    from app.db.session import migrate
    from app.live.store import LiveStore, connect
    from app.services.runtime import unpersisted_refusal

    try:
        await migrate(settings.database_url)
    except Exception as error:
        raise StartError(f"the database {_safe_url(settings.database_url)}", error) from error
    if settings.redis_url:
        store = None
        try:
            # Inside: a URL that names no Redis (or no cluster node) is said as such too.
            store = LiveStore(connect(settings.redis_url, timeout=settings.redis_timeout_seconds),
                              settings.redis_prefix)
            await store.redis.ping()
            refusal = await unpersisted_refusal(settings, store)
        except Exception as error:
            raise StartError(f"Redis at {_safe_url(settings.redis_url)}", error) from error
        finally:
            if store is not None:
                await store.close()
        if refusal is not None:
            raise StartError(f"Redis at {_safe_url(settings.redis_url)}", ValueError(refusal))


class StartError(Exception):
    def __init__(self, what: str, error: BaseException) -> None:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        super().__init__(f"cannot use {what}: {reason}")


def _safe_url(url: str) -> str:
    """`url` without its password, fit for a log line."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads (a cluster's list of nodes)
        scheme, sep, rest = url.partition("://")
        return f"{scheme}{sep}{rest.rsplit('@', 1)[-1]}"


def _settings() -> Settings:
    from app.config import settings

    return settings


def _serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging.config

    import uvicorn
    from pydantic import ValidationError

    from app import logs

    try:
        settings = _settings()
    except ValidationError as error:
        return _fail("bad configuration: " + "; ".join(
            "".join(f"DOMINO_{str(part).upper()}: " for part in e["loc"])
            + e["msg"].removeprefix("Value error, ")
            for e in error.errors()
        ))
    host = args.host or settings.host
    port = args.port or settings.port
    if args.workers > 1 and settings.embedded_store:
        return _fail(
            "--workers above 1 needs a shared live store; "
            "set DOMINO_REDIS_URL=redis://... (the embedded store lives in one process)",
            2,
        )
    try:
        sock = _listen(host, port)
    except OSError as error:
        return _fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    made_folder = None
    if settings.metrics_port:
        from app import metrics

        # Its own port, never the app's: served to the operator's network only. With
        # several workers this process serves every worker's metrics added up.
        if args.workers > 1:
            made_folder = _shared_metrics_folder()
        try:
            metrics.serve(host, settings.metrics_port)
        except OSError as error:
            sock.close()
            return _fail(f"cannot listen on {host}:{settings.metrics_port} (metrics): "
                         f"{error.strerror or error}")
    try:
        asyncio.run(asyncio.wait_for(_prepare(settings), PREPARE_SECONDS))
    except StartError as error:
        sock.close()
        return _fail(str(error))
    except TimeoutError:
        sock.close()
        return _fail(f"the database or Redis did not answer within {PREPARE_SECONDS} s")
    log_config = logs.logging_config(settings.log_format, settings.log_level)
    logging.config.dictConfig(log_config)
    config = uvicorn.Config(
        "app.main:app",
        workers=args.workers,
        log_config=log_config,
        # X-Forwarded-For names the client only when one of these proxies sent it.
        forwarded_allow_ips=settings.trusted_proxies,
        ws_per_message_deflate=settings.ws_compression,
        # Open connections get most of the stop; the watchdog of app.main ends it.
        timeout_graceful_shutdown=max(1, int(settings.shutdown_seconds * 0.6)),
    )
    logging.getLogger("app.cli").info("Domino server on http://%s:%d/", host, port)
    if args.workers == 1:
        server = uvicorn.Server(config)
        # uvicorn raises the stop signal again once it has stopped; Ctrl+C is not an error.
        with contextlib.suppress(KeyboardInterrupt), _embedded_worker(settings):
            server.run(sockets=[sock])
        return 0 if server.started else 3
    try:
        with _shared_metrics(), _embedded_worker(settings):
            from uvicorn.supervisors import Multiprocess

            Multiprocess(config, sockets=[sock]).run()
    finally:
        if made_folder is not None:
            shutil.rmtree(made_folder, ignore_errors=True)
    return 0


@contextlib.contextmanager
def _shared_metrics() -> Iterator[None]:
    """Workers add up their metrics through files in one folder (prometheus-client)."""
    made = _shared_metrics_folder()
    try:
        yield
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def _shared_metrics_folder() -> str | None:
    """Set up the workers' metrics folder unless one is set; returns the folder made."""
    from app.metrics import MULTIPROC_ENV

    if os.environ.get(MULTIPROC_ENV):
        return None
    folder = tempfile.mkdtemp(prefix="domino-metrics-")
    os.environ[MULTIPROC_ENV] = folder
    return folder


def _worker(args: argparse.Namespace) -> int:
    """`domino worker`: compute reviews of finished games from the queue (PROTOCOL §2f)
    until SIGTERM or Ctrl+C."""
    import asyncio
    import logging.config
    import signal

    from app import logs
    from app.db.session import Database
    from app.services.durable.review_worker import ReviewWorker
    from app.services.durable.reviews import budget_of

    settings = _settings()
    logging.config.dictConfig(logs.logging_config(settings.log_format, settings.log_level))

    async def work() -> None:
        db = Database(settings.database_url)
        worker = ReviewWorker(db, budget_of(settings.review_budget),
                              settings.review_lease_seconds, settings.review_poll_seconds)
        loop = asyncio.get_running_loop()
        for stop in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(stop, worker.stop)
        orphaned = None
        if args.parent is not None:
            orphaned = asyncio.create_task(_stop_when_orphaned(args.parent, worker.stop))
        try:
            await worker.run()
        finally:
            if orphaned is not None:
                orphaned.cancel()
            await db.dispose()

    asyncio.run(work())
    return 0


async def _stop_when_orphaned(parent: int, stop: Callable[[], None]) -> None:
    """A worker started by a server stops as SIGTERM would stop it once that server is gone,
    however it went (a server that ends by its own signal raised again, as uvicorn's does,
    or SIGKILL, runs no code that could stop it)."""
    import asyncio

    while os.getppid() == parent:
        await asyncio.sleep(1.0)
    stop()


@contextlib.contextmanager
def _embedded_worker(settings: Settings) -> Iterator[None]:
    """With DOMINO_REVIEW_WORKER=embedded, one `domino worker` beside the server, as a
    child process of its own (a review's CPU never runs where sockets are served),
    started again if it exits while the server runs; stopped with the server."""
    import logging
    import subprocess
    import threading

    if settings.review_worker != "embedded":
        yield
        return
    stopping = threading.Event()
    child: list[subprocess.Popen[bytes]] = []

    def keep() -> None:
        while not stopping.is_set():
            process = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "worker", "--parent", str(os.getpid())])
            child[:] = [process]
            process.wait()
            if not stopping.wait(5.0):
                logging.getLogger("app.cli").warning(
                    "the review worker exited (%s); starting it again", process.returncode)

    keeper = threading.Thread(target=keep, name="review-worker", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        stopping.set()
        for process in child:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _replay(args: argparse.Namespace) -> int:
    import json

    from app.engine import RecordError, replay_record

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"domino replay: {exc}", file=sys.stderr)
        return 2
    try:
        completed = replay_record(json.loads(text))
    except json.JSONDecodeError as exc:
        print(f"round 0 move 0: not valid JSON ({exc})", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    json.dump(completed, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _migrate(args: argparse.Namespace) -> int:
    import asyncio

    from app.config import settings
    from app.db.session import migrate

    try:
        asyncio.run(migrate(settings.database_url))
    except Exception as error:
        failure = StartError(f"the database {_safe_url(settings.database_url)}", error)
        print(f"domino migrate: {failure}", file=sys.stderr, flush=True)
        return 1
    print("domino migrate: the database schema is up to date", flush=True)
    return 0


def _cancel_tournament(args: argparse.Namespace) -> int:
    """An operator cancels a tournament; its followers are told through the live store
    when one is configured (else they see it at their next reading)."""
    import asyncio

    from app.config import settings
    from app.db.session import Database
    from app.services.gathering import tournaments
    from app.services.tables.transact import ServiceError

    async def cancel() -> str | None:
        db = Database(settings.database_url)
        try:
            await tournaments.cancel(db, None, args.tournament_id)
        except ServiceError as error:
            return error.message
        finally:
            await db.dispose()
        if settings.redis_url:
            from app.live.store import connect, dumps
            client = connect(settings.redis_url)  # one Redis or a cluster
            try:
                await client.publish(f"{settings.redis_prefix}:ch:tournaments",
                                     dumps({"tournament_id": args.tournament_id}))
            finally:
                await client.aclose()
        return None

    refused = asyncio.run(cancel())
    if refused is not None:
        print(f"domino cancel-tournament: refused: {refused}", file=sys.stderr, flush=True)
        return 1
    print(f"domino cancel-tournament: {args.tournament_id} is cancelled", flush=True)
    return 0


def _moderator(args: argparse.Namespace) -> int:
    """An operator makes a player a moderator, or takes the role back (`--revoke`); the
    audit log keeps it (PROTOCOL §2h). It takes effect at the player's next request."""
    import asyncio

    from app.config import settings
    from app.db.session import Database
    from app.services.moderation.roles import set_role
    from app.services.tables.transact import ServiceError

    async def change() -> str:
        db = Database(settings.database_url)
        try:
            return await set_role(db, args.name, not args.revoke, args.reason)
        finally:
            await db.dispose()

    try:
        name = asyncio.run(change())
    except ServiceError as error:
        print(f"domino moderator: refused: {error.message}", file=sys.stderr, flush=True)
        return 1
    done = "is no longer a moderator" if args.revoke else "is a moderator"
    print(f"domino moderator: {name} {done}", flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="domino", description="The domino server.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=_serve)
    migrate = sub.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(func=_migrate)
    worker = sub.add_parser("worker", help="compute reviews of finished games")
    worker.add_argument("--parent", type=int, default=None,
                        help="stop once the process with this id is no longer its parent "
                             "(as `domino serve` starts it)")
    worker.set_defaults(func=_worker)
    replay = sub.add_parser("replay", help="validate a game record and print it completed")
    replay.add_argument("file", help="a domino-record/1 JSON file, or - for standard input")
    replay.set_defaults(func=_replay)
    cancel = sub.add_parser("cancel-tournament",
                            help="cancel a waiting or running tournament (an operator's)")
    cancel.add_argument("tournament_id")
    cancel.set_defaults(func=_cancel_tournament)
    moderator = sub.add_parser("moderator",
                               help="make a player a moderator, or take it back (an operator's)")
    moderator.add_argument("name")
    moderator.add_argument("--revoke", action="store_true", help="take the role back")
    moderator.add_argument("--reason", default="by the operator",
                           help="why, for the audit log")
    moderator.set_defaults(func=_moderator)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
