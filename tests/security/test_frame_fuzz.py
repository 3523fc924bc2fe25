"""Hypothesis-generated websocket frames against a real server (a short run; the long one
is `benchmarks/fuzz.py`): every frame gets PROTOCOL's error in its order of precedence,
no socket is dropped, the server lives on and the table does not change."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest

from tests.security.conftest import servers
from tests.security.fuzzing import FUZZ_SERVER_ENV, fuzz_ws
from tests.servers import LOAD_LIMITS, Server

FRAMES = int(os.environ.get("DOMINO_FUZZ_FRAMES", "300"))


@pytest.fixture(scope="module")
def fuzz_server(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("fuzz"),
                 **LOAD_LIMITS, **FUZZ_SERVER_ENV) as running:
        yield running[0]


def test_hostile_frames_get_protocol_errors_and_change_nothing(fuzz_server: Server) -> None:
    figures = fuzz_ws(fuzz_server.url, fuzz_server.ws_url, FRAMES, "t")
    assert figures.frames >= FRAMES * 0.9
    assert figures.wrong == [], "\n".join(figures.wrong[:20])
    assert figures.closed == 0 and figures.state_changes == 0
    # The frames reached every kind of refusal, not only the first.
    assert {"bad_request", "unauthorized", "not_found", "not_seated", "stale"} \
        <= set(figures.codes), figures.codes
    assert fuzz_server.process.poll() is None
    assert httpx.get(f"{fuzz_server.url}/healthz").status_code == 200
