"""Rate limits: a token bucket per websocket connection and per client address.

Per-address limits live in each process's memory: with N processes a client can get N
times the budget, which still stops a password-guessing or flooding loop cold.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from app import metrics
from app.config import settings


class TokenBucket:
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


class BucketsByKey:
    """One TokenBucket per key (a client address), forgetting the least recently seen."""

    def __init__(self, rate: float, burst: float, max_keys: int = 10_000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str) -> bool:
        bucket = self._buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
        self._buckets[key] = bucket
        if len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return bucket.take()


def install_rate_limits(app: FastAPI) -> None:
    """429 for a client address that sends HTTP API requests faster than allowed.

    Sign-up and sign-in get their own, smaller budget: they are what a guesser hammers.
    """
    auth = BucketsByKey(settings.auth_rate, settings.auth_burst)
    api = BucketsByKey(settings.api_rate, settings.api_burst)

    @app.middleware("http")
    async def limit(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        path = request.url.path
        if path.startswith("/api/"):
            address = request.client.host if request.client else "unknown"
            buckets = auth if path.startswith("/api/auth/") else api
            if not buckets.take(address):
                metrics.rate_limited.labels("http").inc()
                return JSONResponse(
                    {"detail": "too many requests; slow down"},
                    status_code=429,
                    headers={"Retry-After": "1"},
                )
        return await call_next(request)
