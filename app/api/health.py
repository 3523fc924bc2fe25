"""Readiness: 200 only when every backing service answers (the load balancer's probe)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

router = APIRouter(tags=["health"])

# A readiness check answers True when its service works; it must not raise.
ReadyCheck = Callable[[], Awaitable[bool]]


def add_ready_check(app_state: object, name: str, check: ReadyCheck) -> None:
    """Register `check` under `name` (e.g. "database", "live store") in `app.state`."""
    checks: dict[str, ReadyCheck] = getattr(app_state, "ready_checks", {})
    checks[name] = check
    app_state.ready_checks = checks  # type: ignore[attr-defined]


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    checks: dict[str, ReadyCheck] = getattr(request.app.state, "ready_checks", {})
    if not checks:
        return JSONResponse({"detail": "starting"}, status_code=503)
    failing = []
    for name, check in checks.items():
        try:
            ok = await check()
        except Exception:
            ok = False
        if not ok:
            failing.append(name)
    if failing:
        return JSONResponse({"detail": f"{', '.join(failing)} unavailable"}, status_code=503)
    return JSONResponse({"status": "ready", "checks": sorted(checks)})
