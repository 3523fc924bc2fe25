"""Security headers on every HTTP response (the API's, the browser client's files', the
errors'): what the page may load, that no other site may frame it, no MIME sniffing and
no referrer leaving the site."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The client is static files and one module script: nothing inline, nothing from
# elsewhere. Its inline styles are set through the CSSOM, which CSP allows; the favicon
# is an empty data: URL.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
_NAMES = {name for name, _ in HEADERS}


class SecurityHeaders:
    """ASGI middleware adding HEADERS to every HTTP response (replacing any set inside)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)
