"""What text the database can hold: PostgreSQL refuses the NUL character in any string,
so a name or an id carrying one can name nothing stored (and must not reach a query,
where it would fail as if the database were down)."""

from __future__ import annotations


def storable(text: str) -> bool:
    return "\x00" not in text
