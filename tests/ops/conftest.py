"""Configurations of real server processes for the operations tests."""

from __future__ import annotations


def shared_env(pg_url: str, redis_url: str, prefix: str, **extra: str) -> dict[str, str]:
    """A process of a deployment: PostgreSQL, Redis under `prefix`, quick sweeps."""
    return {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": prefix,
        "DOMINO_SWEEP_SECONDS": "0.1",
        **{f"DOMINO_{name.upper()}": value for name, value in extra.items()},
    }
