"""The browser client's files (app/web), read once at start, served compressed and cached.

A phone's first visit should cost one round trip for the page and one for everything
else, and its next visit none at all. So:

- Every file is read, hashed and gzip-compressed when the server starts (a new file in
  app/web is served with no list to keep).
- The page (index.html) names each file by a content-hashed address (`/js/dom.js?v=…`): its
  own links directly, the modules' imports through an import map, and it preloads every
  module at once (`<link rel=modulepreload>`), so the browser fetches them in parallel
  instead of one level of imports after another. A hashed address is cached for a year
  (`immutable`); the page itself, an address without its hash and the service worker are
  checked again each time (`no-cache` with an ETag).
- The import map is an inline script; its hash is what the Content-Security-Policy lets
  run (`script_hashes`), nothing else inline.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PAGE = "index.html"
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}
# Files whose address must never change: the service worker (its scope is its address)
# and the manifest a home screen remembers.
FIXED = {"sw.js", "manifest.webmanifest", "offline.html", "offline.js"}
# Too small to be worth compressing.
MIN_GZIP = 512
_LINK = re.compile(r'(?P<attr>src|href)="(?P<path>(?:css|js|lang|icons)/[^"?#]+)"')


@dataclass(frozen=True)
class WebFile:
    body: bytes
    gzipped: bytes | None
    media_type: str
    version: str  # the first hex digits of the content's SHA-256

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


def _media_type(path: str) -> str:
    suffix = Path(path).suffix
    return TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def _file(path: str, body: bytes) -> WebFile:
    version = hashlib.sha256(body).hexdigest()[:12]
    media = _media_type(path)
    packed = gzip.compress(body, 9, mtime=0) if len(body) >= MIN_GZIP else None
    if packed is not None and len(packed) >= len(body):
        packed = None
    return WebFile(body, packed, media, version)


class WebFiles:
    """ASGI app serving the files under `root` from memory (GET and HEAD: the server
    sends no body for a HEAD)."""

    def __init__(self, root: Path) -> None:
        files = {
            p.relative_to(root).as_posix(): _file(p.relative_to(root).as_posix(), p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_file()
        }
        self.addresses = {
            path: f"/{path}?v={f.version}" for path, f in files.items() if path not in FIXED
        }
        page, self.script_hashes = self._page(files[PAGE].body.decode())
        files[PAGE] = _file(PAGE, page.encode())
        self.files = files

    def _page(self, html: str) -> tuple[str, tuple[str, ...]]:
        """The page with hashed links, its import map and its module preloads; the hash
        of its one inline script."""
        importmap = json.dumps({"imports": {f"/{p}": a for p, a in self.addresses.items()
                                            if p.endswith((".js", ".json"))}},
                               separators=(",", ":"), sort_keys=True)
        preloads = "".join(f'<link rel="modulepreload" href="{a}">'
                           for p, a in sorted(self.addresses.items()) if p.endswith(".js"))
        head = f'<script type="importmap">{importmap}</script>{preloads}'
        def hashed(m: re.Match[str]) -> str:
            return f'{m["attr"]}="{self.addresses.get(m["path"], "/" + m["path"])}"'

        html = _LINK.sub(hashed, html)
        # The import map must come before the first module script.
        html = html.replace('<script type="module"', f'{head}\n  <script type="module"', 1)
        digest = base64.b64encode(hashlib.sha256(importmap.encode()).digest()).decode()
        return html, (f"'sha256-{digest}'",)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.response(scope).__call__(scope, receive, send)

    def response(self, scope: Scope) -> Response:
        if scope["method"] not in ("GET", "HEAD"):
            return Response(status_code=405, headers={"allow": "GET, HEAD"})
        path = scope["path"].lstrip("/") or PAGE
        if path.endswith("/"):
            path += PAGE
        found = self.files.get(path)
        if found is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        query = scope.get("query_string", b"").decode()
        hashed = query == f"v={found.version}"
        request = Headers(scope=scope)
        headers = {
            "cache-control": IMMUTABLE if hashed else REVALIDATE,
            "etag": found.etag,
            "vary": "Accept-Encoding",
        }
        if request.get("if-none-match") == found.etag:
            return Response(status_code=304, headers=headers)
        body = found.body
        if found.gzipped is not None and "gzip" in request.get("accept-encoding", ""):
            body = found.gzipped
            headers["content-encoding"] = "gzip"
        return Response(body, headers=headers, media_type=found.media_type)
