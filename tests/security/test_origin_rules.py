"""The rules of the Origin check, one by one, on the middleware itself (the end-to-end
refusals are in test_origins.py)."""

from __future__ import annotations

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send

from app.api.origins import OriginGuard, normal_origin


@pytest.mark.parametrize(
    ("given", "normal"),
    [
        ("http://Example.COM", "http://example.com"),
        ("http://example.com:80", "http://example.com"),
        ("https://example.com:443/", "https://example.com"),
        ("https://example.com:8443", "https://example.com:8443"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("null", None),
        ("file://", None),
        ("ftp://example.com", None),
        ("http://example.com/path", None),
        ("http://example.com:99999", None),
        ("", None),
    ],
)
def test_origins_are_compared_in_one_form(given: str, normal: str | None) -> None:
    assert normal_origin(given) == normal


async def _app(scope: Scope, receive: Receive, send: Send) -> None:
    request = Request(scope, receive)
    await PlainTextResponse(f"done {request.method}")(scope, receive, send)


async def _status(guard: OriginGuard, method: str, headers: dict[str, str],
                  base: str = "http://game.example:8000") -> int:
    transport = httpx.ASGITransport(app=guard)
    async with httpx.AsyncClient(transport=transport, base_url=base) as client:
        return (await client.request(method, "/api/x", headers=headers)).status_code


async def test_state_changing_requests_from_elsewhere_are_refused() -> None:
    guard = OriginGuard(_app, ["https://www.game.example", "not an origin"])
    own = "http://game.example:8000"
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        assert await _status(guard, method, {"Origin": "http://evil.example"}) == 403
        assert await _status(guard, method, {"Origin": own}) == 200
    cases = {
        # (headers) -> status
        (("Origin", own), ("Sec-Fetch-Site", "same-origin")): 200,
        (("Origin", "https://www.game.example"), ("Sec-Fetch-Site", "same-site")): 200,
        (("Origin", "https://WWW.game.example:443"),): 200,
        (("Origin", "http://game.example"),): 403,  # another port is another origin
        (("Origin", "https://game.example:8000"),): 403,  # and another scheme
        (("Origin", "null"),): 403,
        (("Sec-Fetch-Site", "cross-site"),): 403,
        (("Sec-Fetch-Site", "same-site"),): 403,
        (("Sec-Fetch-Site", "none"),): 200,  # typed into the address bar
        (): 200,  # no browser
    }
    for pairs, status in cases.items():
        assert await _status(guard, "POST", dict(pairs)) == status, pairs
    # Reading is never refused: a foreign page cannot read the answer anyway (no CORS).
    assert await _status(guard, "GET", {"Origin": "http://evil.example",
                                        "Sec-Fetch-Site": "cross-site"}) == 200
