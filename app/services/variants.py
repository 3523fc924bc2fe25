"""The variants this server plays, as the engine declares them (its registry)."""

from __future__ import annotations

from app.engine import VARIANTS, VariantInfo, describe_variants


def playable() -> list[VariantInfo]:
    """Every playable variant: name, title, players, options, layout, who wins, teams."""
    return describe_variants()


def is_playable(variant: str) -> bool:
    return variant in VARIANTS


def names() -> list[str]:
    return list(VARIANTS)
