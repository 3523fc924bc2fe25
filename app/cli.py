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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="domino", description="The domino server.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
