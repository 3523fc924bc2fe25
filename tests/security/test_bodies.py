"""Request bodies: a size limit (413) enforced while streaming, and short 422 echoes."""

from __future__ import annotations

from collections.abc import Iterator

import httpx

from tests.servers import Server

LIMIT = 64 * 1024


def test_a_body_over_the_limit_is_413_by_its_declared_length(server: Server) -> None:
    body = b'{"username": "' + b"a" * (LIMIT + 10) + b'", "password": "x"}'
    r = httpx.post(f"{server.url}/api/auth/login", content=body,
                   headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 413
    assert "larger than" in r.json()["detail"]


def test_a_streamed_body_is_refused_once_it_passes_the_limit(server: Server) -> None:
    sent = 0

    def chunks() -> Iterator[bytes]:
        # No Content-Length (chunked): the server must count as it reads. It answers
        # well before the 50 MB are out; what it never read is never parsed.
        nonlocal sent
        yield b'{"username": "'
        for _ in range(50 * 16):
            sent += 64 * 1024
            yield b"a" * (64 * 1024)
        yield b'", "password": "x"}'

    try:
        r = httpx.post(f"{server.url}/api/auth/login", content=chunks(),
                       headers={"Content-Type": "application/json"}, timeout=30)
        assert r.status_code == 413
    except httpx.HTTPError:
        pass  # the server may close the connection while we are still sending
    assert sent < 50 * 1024 * 1024
    assert httpx.get(f"{server.url}/healthz").status_code == 200


def test_a_422_echoes_only_a_short_prefix_of_the_input(server: Server) -> None:
    long_name = "b" * 30_000
    r = httpx.post(f"{server.url}/api/auth/register",
                   json={"username": long_name, "password": "long enough"}, timeout=30)
    assert r.status_code == 422
    assert len(r.content) < 2000
    assert long_name not in r.text
    assert r.json()["detail"][0]["loc"] == ["body", "username"]
