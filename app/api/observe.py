"""Seeing what a server does: /metrics for Prometheus, and an id for every request."""

from __future__ import annotations

import re
import secrets

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.core import GaugeMetricFamily
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import logs, metrics
from app.services import census
from app.services.runtime import LiveTables

router = APIRouter(tags=["operations"])

# A caller's (or proxy's) X-Request-ID is kept when it is a sane token, else we make one.
_REQUEST_ID = re.compile(r"[\w.-]{1,64}")


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request) -> Response:
    live: LiveTables = request.app.state.live
    now = await census.take(live.store)
    tables = GaugeMetricFamily(
        "domino_tables", "Tables in the lobby index by status and variant (all processes).",
        labels=["status", "variant"],
    )
    for (status, variant), count in sorted(now.tables.items()):
        tables.add_metric([status, variant], count)
    backlog = GaugeMetricFamily(
        "domino_results_backlog", "Finished games not yet written to the database.",
        value=now.unwritten,
    )
    return Response(metrics.render([tables, backlog]), media_type=CONTENT_TYPE_LATEST)


class RequestIds:
    """ASGI middleware: each HTTP request and websocket gets an id, in logs and in replies."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _REQUEST_ID.fullmatch(given) else secrets.token_hex(8)
        token = logs.request_id.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            # A websocket's frames carry no headers: its sends go straight through.
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            logs.request_id.reset(token)
