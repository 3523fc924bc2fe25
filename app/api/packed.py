"""Answers kept gzip-compressed (app/live/blobs.py): sent as they are to a client that
takes gzip (every browser), unpacked for one that does not."""

from __future__ import annotations

import gzip

from fastapi import Request, Response


def gzipped_json(request: Request, body: bytes) -> Response:
    headers = {"vary": "accept-encoding"}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        headers["content-encoding"] = "gzip"
        return Response(body, media_type="application/json", headers=headers)
    return Response(gzip.decompress(body), media_type="application/json", headers=headers)
