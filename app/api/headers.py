"""Security headers on every HTTP response (the API's, the browser client's files', the
errors'): what the page may load, that no other site may frame it, no MIME sniffing and
no referrer leaving the site."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


# The client is static files and one module script: nothing inline, nothing from
# elsewhere, but for the page's import map, let in by its hash (app/api/webfiles.py).
# Its inline styles are set through the CSSOM, which CSP allows.
def content_security_policy(script_hashes: tuple[str, ...] = ()) -> str:
    return "; ".join((
        "default-src 'self'",
        " ".join(("script-src 'self'", *script_hashes)),
        *POLICY,
    ))


POLICY = (
    "style-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
CONTENT_SECURITY_POLICY = content_security_policy()

OTHER_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
_NAMES = {b"content-security-policy", *(name for name, _ in OTHER_HEADERS)}


class SecurityHeaders:
    """ASGI middleware adding the policy and OTHER_HEADERS to every HTTP response
    (replacing any set inside)."""

    def __init__(self, app: ASGIApp, script_hashes: tuple[str, ...] = ()) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", content_security_policy(script_hashes).encode()),
            *OTHER_HEADERS,
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": [*kept, *self.headers]}
            await send(message)

        await self.app(scope, receive, with_headers)
