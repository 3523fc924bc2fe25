"""The `domino` command: serve, migrate, replay."""

from __future__ import annotations

import argparse
import sys


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.config import settings

    host = args.host or settings.host
    port = args.port or settings.port
    if args.workers > 1 and settings.embedded_store:
        print(
            "domino serve: --workers above 1 needs a shared live store; "
            "set DOMINO_REDIS_URL=redis://... (the embedded store lives in one process)",
            file=sys.stderr,
        )
        return 2
    print(f"Domino server on http://{host}:{port}/", flush=True)
    uvicorn.run("app.main:app", host=host, port=port, workers=args.workers, log_level="info")
    return 0


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

    asyncio.run(migrate(settings.database_url))
    print("domino migrate: the database schema is up to date", flush=True)
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
    replay = sub.add_parser("replay", help="validate a game record and print it completed")
    replay.add_argument("file", help="a domino-record/1 JSON file, or - for standard input")
    replay.set_defaults(func=_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
