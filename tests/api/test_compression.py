"""Websocket compression is the server's choice (`DOMINO_WS_COMPRESSION`), not the client's:
a browser offers permessage-deflate on every socket, and by default the server declines.
The client's files come in brotli or gzip, whichever the browser takes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import brotli
import httpx
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


def test_the_clients_files_come_in_brotli_or_gzip_as_the_browser_takes_them(
    tmp_path: Path,
) -> None:
    """Brotli to a browser that takes it, gzip to one that takes only gzip (or refuses
    brotli with q=0), the file as it is to one that takes neither; each says so, and
    every answer varies by Accept-Encoding."""
    env = {"DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'domino.db'}",
           "DOMINO_REDIS_URL": ""}
    words = (Path(__file__).resolve().parents[2] / "app" / "web" / "lang" / "fa.json").read_bytes()
    with run_server(env, log_dir=tmp_path) as server:
        sizes = {}
        for accept, coding in (("gzip, deflate, br, zstd", "br"), ("br", "br"),
                               ("gzip", "gzip"), ("br;q=0, gzip", "gzip"),
                               ("identity", None), ("", None)):
            answer = httpx.get(f"{server.url}/lang/fa.json", headers={"Accept-Encoding": accept},
                               timeout=30)
            assert answer.status_code == 200
            assert answer.headers.get("content-encoding") == coding, accept
            assert answer.headers["vary"] == "Accept-Encoding"
            assert answer.content == words  # httpx unpacks both
            sizes[coding] = answer.num_bytes_downloaded
        assert sizes["br"] < sizes["gzip"] < sizes[None] / 3
        # As sent: brotli's own bytes.
        with httpx.stream("GET", f"{server.url}/lang/fa.json", headers={"Accept-Encoding": "br"},
                          timeout=30) as answer:
            assert brotli.decompress(b"".join(answer.iter_raw())) == words
