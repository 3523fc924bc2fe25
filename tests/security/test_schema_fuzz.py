"""Schemathesis against the OpenAPI schema of a real server: whatever it sends, no 5xx.

A short run here (DOMINO_FUZZ_REQUESTS requests, default 300); the long run is
`benchmarks/fuzz.py --http N`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.security.conftest import servers
from tests.security.fuzzing import fuzz_http, register
from tests.servers import LOAD_LIMITS, Server

REQUESTS = int(os.environ.get("DOMINO_FUZZ_REQUESTS", "300"))


@pytest.fixture(scope="module")
def api_server(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("schema"), **LOAD_LIMITS) as running:
        yield running[0]


def test_no_request_from_the_schema_makes_a_server_error(api_server: Server) -> None:
    figures = fuzz_http(api_server.url, register(api_server.url, "schema_fuzzer"), REQUESTS)
    assert figures.requests >= REQUESTS * 0.9
    assert figures.server_errors == []
    # Not only refusals: some requests were valid and did their work.
    assert any(200 <= status < 300 for status in figures.statuses), figures.statuses
