"""The browser client's files (app/web), read once at start, served compressed and cached.

A phone's first visit should cost one round trip for the page and one for everything
else, and its next visit none at all. So:

- Every file is read, hashed and compressed (brotli and gzip) when the server starts (a
  new file in app/web is served with no list to keep). A browser that takes brotli gets
  it, else gzip, else the file as it is.
- The modules come as one minified module, dist/main.js, made by `make web` (bundle.mjs,
  with esbuild), while the digest it was made from (dist/sources) matches the modules
  (`sources_digest`); otherwise (no build, or a module edited since) the page loads the
  modules themselves and preloads every one (`<link rel=modulepreload>`), so the browser
  fetches them in parallel instead of one level of imports after another.
- The page (index.html) names each file by a content-hashed address (`/js/dom.js?v=…`): its
  own links directly, the modules' imports and the language catalogues through an import
  map. A hashed address is cached for a year (`immutable`); the page itself, an address
  without its hash and the service worker are checked again each time (`no-cache` with an
  ETag).
- The import map is an inline script; its hash is what the Content-Security-Policy lets
  run (`script_hashes`), nothing else inline.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import logging
import mimetypes
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import brotli
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.api.shell import in_language, reader_language
from app.words import LANGUAGES

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PAGE = "index.html"
ENTRY = "js/main.js"
# The bundle of every module under js/ (bundle.mjs), and the digest of the modules it
# was made from.
BUNDLE = "dist/main.js"
BUNDLE_SOURCES = "dist/sources"
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
MIN_PACK = 512
# Brotli's quality 5 packs the client 5 to 10 % smaller than gzip -9 (the catalogues in
# other scripts most) in about the same time at start (tens of ms for all of app/web);
# quality 11 would pack 10 % smaller still but costs about a second of every start.
BROTLI_QUALITY = 5
log = logging.getLogger(__name__)
_LINK = re.compile(r'(?P<attr>src|href)="(?P<path>(?:css|js|lang|icons|dist)/[^"?#]+)"')


@dataclass(frozen=True)
class WebFile:
    body: bytes
    gzipped: bytes | None
    brotli: bytes | None
    media_type: str
    version: str  # the first hex digits of the content's SHA-256

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


def _media_type(path: str) -> str:
    suffix = Path(path).suffix
    return TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def _smaller(packed: bytes, body: bytes) -> bytes | None:
    return packed if len(packed) < len(body) else None


def _file(path: str, body: bytes) -> WebFile:
    version = hashlib.sha256(body).hexdigest()[:12]
    media = _media_type(path)
    if len(body) < MIN_PACK:
        return WebFile(body, None, None, media, version)
    return WebFile(body, _smaller(gzip.compress(body, 9, mtime=0), body),
                   _smaller(brotli.compress(body, quality=BROTLI_QUALITY), body), media, version)


def sources_digest(root: Path) -> str:
    """SHA-256 over each module's path (under `root`) and bytes, in path order; the first
    16 hex digits. bundle.mjs writes the same digest beside the bundle it makes."""
    digest = hashlib.sha256()
    for path in sorted(p.relative_to(root).as_posix() for p in (root / "js").rglob("*.js")):
        digest.update(path.encode() + b"\0")
        digest.update((root / path).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def _codings(accept_encoding: str) -> set[str]:
    """The content codings an Accept-Encoding header takes (a q of 0 refuses one)."""
    taken = set()
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.partition(";")
        q = params.strip().removeprefix("q=")
        try:
            refused = bool(params.strip()) and float(q) == 0
        except ValueError:
            refused = False
        if coding.strip() and not refused:
            taken.add(coding.strip())
    return taken


class WebFiles:
    """ASGI app serving the files under `root` from memory (GET and HEAD: the server
    sends no body for a HEAD)."""

    def __init__(self, root: Path, blocks: Mapping[str, str] | None = None) -> None:
        """`blocks`: JSON the page carries as data blocks, by id (`<script
        type="application/json" id=…>`, never run), so the client has it without asking."""
        self.blocks = dict(blocks or {})
        files = {
            p.relative_to(root).as_posix(): _file(p.relative_to(root).as_posix(), p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_file()
        }
        self.addresses = {
            path: f"/{path}?v={f.version}" for path, f in files.items() if path not in FIXED
        }
        stamp = files.get(BUNDLE_SOURCES)
        self.bundled = (BUNDLE in files and stamp is not None
                        and stamp.body.decode().strip() == sources_digest(root))
        if BUNDLE in files and not self.bundled:
            log.warning("app/web/%s was made from other modules than app/web/js holds: the "
                        "page loads the modules one by one (`make web` makes it anew)", BUNDLE)
        page, self.script_hashes = self._page(files[PAGE].body.decode())
        # The page in each language (app/api/shell.py), chosen for each reader.
        self.pages = {lang: _file(PAGE, in_language(page, lang).encode()) for lang in LANGUAGES}
        del files[PAGE]
        self.files = files

    def _page(self, html: str) -> tuple[str, tuple[str, ...]]:
        """The page with hashed links, its import map and its module preloads (the bundle
        needs none: it is the page's one module); the hash of its one inline script."""
        if self.bundled:
            html = html.replace(f'src="{ENTRY}"', f'src="{BUNDLE}"', 1)
            mapped = [p for p in self.addresses if p.startswith("lang/")]
            preloaded: list[str] = []
        else:
            mapped = [p for p in self.addresses if p.startswith(("js/", "lang/"))]
            preloaded = sorted(p for p in self.addresses if p.startswith("js/"))
        importmap = json.dumps({"imports": {f"/{p}": self.addresses[p] for p in mapped}},
                               separators=(",", ":"), sort_keys=True)
        preloads = "".join(f'<link rel="modulepreload" href="{self.addresses[p]}">'
                           for p in preloaded)
        head = f'<script type="importmap">{importmap}</script>{preloads}'
        for name, data in sorted(self.blocks.items()):
            # "</" written "<\/" (the same JSON): the block cannot end early.
            data = data.replace("</", "<\\/")
            head += f'<script type="application/json" id="{name}">{data}</script>'
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
        request = Headers(scope=scope)
        vary = "Accept-Encoding"
        if path == PAGE:
            lang = reader_language(cookie_parser(request.get("cookie", "")),
                                   request.get("accept-language"))
            found: WebFile | None = self.pages[lang]
            vary = "Accept-Encoding, Accept-Language, Cookie"
        else:
            found = self.files.get(path)
        if found is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        query = scope.get("query_string", b"").decode()
        hashed = query == f"v={found.version}"
        headers = {
            "cache-control": IMMUTABLE if hashed else REVALIDATE,
            "etag": found.etag,
            "vary": vary,
        }
        if request.get("if-none-match") == found.etag:
            return Response(status_code=304, headers=headers)
        body = found.body
        codings = _codings(request.get("accept-encoding", ""))
        if found.brotli is not None and "br" in codings:
            body = found.brotli
            headers["content-encoding"] = "br"
        elif found.gzipped is not None and "gzip" in codings:
            body = found.gzipped
            headers["content-encoding"] = "gzip"
        return Response(body, headers=headers, media_type=found.media_type)
