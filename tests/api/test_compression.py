"""Websocket compression is the server's choice (`DOMINO_WS_COMPRESSION`), not the client's:
a browser offers permessage-deflate on every socket, and by default the server declines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import websockets

from tests.servers import run_server


async def _extensions(ws_url: str) -> str | None:
    # The client offers permessage-deflate, as browsers do.
    async with websockets.connect(ws_url, compression="deflate") as ws:
        return ws.response.headers.get("Sec-WebSocket-Extensions")


def test_compression_is_off_unless_asked(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_deflate",
    }
    with run_server(env, log_dir=tmp_path) as server:
        assert asyncio.run(_extensions(server.ws_url)) is None
    with run_server({**env, "DOMINO_WS_COMPRESSION": "true"}, log_dir=tmp_path) as server:
        accepted = asyncio.run(_extensions(server.ws_url))
        assert accepted is not None and "permessage-deflate" in accepted
