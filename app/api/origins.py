"""Where requests may come from: the Origin check that is our CSRF defence.

The algorithm of Go's `net/http.CrossOriginProtection` (after Filippo Valsorda's "CSRF"
note), which rests on two headers every browser of the last years sends and no page
can forge, in front of every route and the websocket:

- `Origin`: a websocket handshake or a state-changing request (POST, PUT, PATCH,
  DELETE) that names an origin must name an allowed one: the server's own origin as the
  request's Host and scheme say, or one of `DOMINO_ALLOWED_ORIGINS`; `null` (sandboxed
  frames, `file:` pages, some redirects) is refused.
- Fetch metadata: a state-changing request whose `Sec-Fetch-Site` is `same-site` or
  `cross-site` is refused unless its Origin is allowed (a sibling subdomain is another
  site to us, although SameSite=Lax cookies would reach us from it).

A request with neither header comes from no browser of this decade (scripts, outside
clients, tests); it goes on to authenticate as usual, Bearer token or cookie.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.i18n import words_for
from app.words import ErrorKey, pick_language, say

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The handshake is refused with this close code before it is accepted (an HTTP 403).
CLOSE_POLICY = 1008
# A refused handshake's close reason (a close frame is read by programs, in English).
FOREIGN_ORIGIN = say("cross_origin")

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def normal_origin(origin: str) -> str | None:
    """`scheme://host[:port]` in lower case without a default port; None if not an origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"{scheme}://{host}" if port in (None, _DEFAULT_PORTS[scheme]) \
        else f"{scheme}://{host}:{port}"


def own_origin(scope: Scope, headers: Headers) -> str | None:
    """The origin this request was made to: its scheme (after any trusted proxy's
    X-Forwarded-Proto) and its Host."""
    host = headers.get("host")
    scheme = _SCHEMES.get(scope.get("scheme", "http"), "http")
    return normal_origin(f"{scheme}://{host}") if host else None


class OriginGuard:
    """ASGI middleware: refuse what foreign pages send, before any route sees it."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        configured = {normal_origin(o) for o in allowed_origins}
        self.allowed = frozenset(o for o in configured if o is not None)

    def origin_allowed(self, origin: str, scope: Scope, headers: Headers) -> bool:
        found = normal_origin(origin)
        if found is None:  # "null" and anything else that is not an origin
            return False
        # The page's own origin (the site the browser sent this request to) always may.
        return found in self.allowed or found == own_origin(scope, headers)

    def refusal(self, scope: Scope, headers: Headers) -> ErrorKey | None:
        """Why this state-changing request is refused (the words' key), or None."""
        origin = headers.get("origin")
        if origin is not None and not self.origin_allowed(origin, scope, headers):
            return "cross_origin"
        if headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none"):
            return None
        # Another site's page (or a sibling subdomain's) that named no allowed origin.
        return None if origin is not None else "cross_origin"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            # Browsers always name the page's origin on a websocket; other clients may not.
            if origin is not None and not self.origin_allowed(origin, scope, headers):
                message = await receive()
                if message["type"] == "websocket.connect":
                    await send({"type": "websocket.close", "code": CLOSE_POLICY,
                                "reason": FOREIGN_ORIGIN})
                return
        elif scope["type"] == "http" and scope["method"] in STATE_CHANGING:
            headers = Headers(scope=scope)
            why = self.refusal(scope, headers)
            if why is not None:
                lang = pick_language(headers.get("accept-language"))
                response = JSONResponse({"detail": words_for(why, lang)}, 403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
