"""Rate limits on HTTP and websocket traffic, kept in Redis and shared by every process.

Buckets (budgets in `app.config`): HTTP API requests per client address, sign-ups and
sign-ins per address and sign-ins per account name, table commands and table creation
per player; new sockets per address; websocket messages per socket (in memory, the
first line), per address and per player, and chat per player.

The client address is the peer's, or, when the peer is one of DOMINO_TRUSTED_PROXIES,
what it says in X-Forwarded-For (uvicorn's proxy-headers middleware, configured with that
list, has already put it in the scope). When Redis cannot be reached the shared limits
are skipped, not the requests: the per-socket bucket still holds.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from app import metrics
from app.api.deps import CurrentPlayer
from app.api.i18n import Refusal, words_for
from app.config import Settings, settings
from app.live.ratelimit import Budget, Charge, Verdict
from app.services.accounts.credentials import PlayerRef
from app.services.runtime import LiveTables
from app.words import pick_language

log = logging.getLogger(__name__)



class TokenBucket:
    """One socket's own budget, in its process's memory."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_ms(self) -> int:
        return math.ceil(max(0.0, 1 - self.tokens) * 1000 / self.rate)


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def take(live: LiveTables, buckets: dict[str, Budget], channel: str) -> Verdict:
    """One request against `buckets`; counted in the metrics when refused."""
    return await settle(live, live.limiter.charge(buckets), channel)


async def settle(live: LiveTables, charge: Charge, channel: str) -> Verdict:
    """Make a request's charge, unless its write already did; counted when refused."""
    try:
        verdict = await live.limiter.settle(charge)
    except (RedisError, OSError) as error:
        metrics.count_error(error)
        if live.store.outage_since is None:  # else said once, as the outage
            log.warning("rate limits skipped: the live store is unavailable: %r", error)
        charge.verdict = Verdict(True, 0)
        return charge.verdict
    if not verdict.allowed:
        metrics.rate_limited.labels(channel).inc()
    return verdict


def too_many(retry_ms: int, lang: str) -> JSONResponse:
    return JSONResponse(
        {"detail": words_for("too_many_requests", lang), "retry_ms": retry_ms},
        status_code=429,
        headers={"Retry-After": str(max(1, math.ceil(retry_ms / 1000)))},
    )


def refuse(retry_ms: int) -> Refusal:
    return Refusal(
        429, "too_many_requests", {"Retry-After": str(max(1, math.ceil(retry_ms / 1000)))}
    )


class HttpRateLimits:
    """ASGI middleware: 429 for a client address that calls the HTTP API too fast.

    Sign-up and sign-in get their own, smaller budget: they are what a guesser hammers.
    """

    def __init__(self, app: ASGIApp, config: Settings) -> None:
        self.app = app
        self.api = Budget(config.api_rate, config.api_burst)
        self.auth = Budget(config.auth_rate, config.auth_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        bucket = {f"auth:{address}": self.auth} if path.startswith("/api/auth/") \
            else {f"api:{address}": self.api}
        verdict = await take(scope["app"].state.live, bucket, "http")
        if not verdict.allowed:
            lang = pick_language(Headers(scope=scope).get("accept-language"))
            await too_many(verdict.retry_ms, lang)(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def signin_name_limit(request: Request, name: str) -> None:
    """Password checks at one account name, from any address (a spread-out guesser): every
    sign-in and every password change spend this one budget, on every process."""
    budget = Budget(settings.signin_name_rate, settings.signin_name_burst)
    verdict = await take(request.app.state.live, {f"signin:{name.lower()}": budget}, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)


async def player_limit(request: Request, player: CurrentPlayer) -> PlayerRef:
    """The caller, within the budget of table commands of one player (from every address
    and process together); creating a table has a smaller budget of its own."""
    buckets = {f"player:{player.id}": Budget(settings.player_rate, settings.player_burst)}
    if request.method == "POST" and request.url.path.rstrip("/") == "/api/tables":
        buckets[f"create:{player.id}"] = Budget(settings.create_rate, settings.create_burst)
    verdict = await take(request.app.state.live, buckets, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)
    return player


LimitedPlayer = Annotated[PlayerRef, Depends(player_limit)]

# An export of one's data reads every game one played: a few an hour, on every process.
EXPORT_BUDGET = Budget(1 / 600, 3)


async def export_limit(request: Request, player_id: int) -> None:
    verdict = await take(request.app.state.live, {f"export:{player_id}": EXPORT_BUDGET}, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)


def install_rate_limits(app: FastAPI) -> None:
    app.add_middleware(HttpRateLimits, config=settings)



class SocketLimits:
    """The budgets one websocket spends: its own (in memory), its address's and, once it
    is signed in, its player's (in Redis, with every other socket of them)."""

    def __init__(self, live: LiveTables, address: str) -> None:
        self.live = live
        self.address = address
        self.own = TokenBucket(settings.ws_socket_rate, settings.ws_socket_burst)
        self._charges: dict[tuple[int | None, bool], Charge] = {}

    async def connect(self) -> Verdict:
        budget = Budget(settings.ws_connect_rate, settings.ws_connect_burst)
        return await take(self.live, {f"wsconnect:{self.address}": budget}, "ws")

    def own_refusal(self) -> Verdict | None:
        """The socket's own budget, first: a refusal, or None when it had a token."""
        if self.own.take():
            return None
        metrics.rate_limited.labels("ws").inc()
        return Verdict(False, self.own.retry_ms())

    def charge(self, player_id: int | None, chat: bool) -> Charge:
        """The message's draw on the shared budgets: made by the move it makes (in the
        move's write), or by `settle`. The same for every frame of one player, chat or
        not: its keys and arguments are made once and shared (nobody changes them)."""
        made = self._charges.get((player_id, chat))
        if made is None:
            buckets = {f"ws:{self.address}": Budget(settings.ws_address_rate,
                                                     settings.ws_address_burst)}
            if player_id is not None:
                buckets[f"wsplayer:{player_id}"] = Budget(settings.ws_player_rate,
                                                          settings.ws_player_burst)
                if chat:
                    buckets[f"chat:{player_id}"] = Budget(settings.chat_rate,
                                                          settings.chat_burst)
            if len(self._charges) >= 4:  # a socket that keeps signing in as others
                self._charges.clear()
            made = self._charges[(player_id, chat)] = self.live.limiter.charge(buckets)
        return Charge(made.keys, made.args)

    async def settle(self, charge: Charge) -> Verdict:
        return await settle(self.live, charge, "ws")
