"""The playable variants, as the engine declares them (PROTOCOL §2a): clients build their
create forms, option wording and leaderboard tabs from this list."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, TypeAdapter

from app.services import variants as catalogue

router = APIRouter(prefix="/api/variants", tags=["variants"])


class VariantOption(BaseModel):
    default: Any
    allowed: list[Any]
    label: str
    words: list[str]


class Variant(BaseModel):
    name: str
    title: str
    players: tuple[int, int]
    options: dict[str, VariantOption]
    layout: Literal["line", "spinner", "trains"]
    wins: Literal["higher", "lower"]
    teams: bool
    # the switch among `options` that makes a game of two teams (null: a `teams` variant
    # always is one); PROTOCOL §2d's courtyard needs two teams
    team_option: str | None
    loser: str | None  # what the game's loser is called ("goat", "donkey"), if anything
    target: int | None  # the score every game is played to, when no option sets it


def playable() -> list[Variant]:
    return [Variant.model_validate(v) for v in catalogue.playable()]


def playable_json() -> str:
    """The list as GET /api/variants sends it (the page carries it too: app/api/webfiles.py)."""
    return TypeAdapter(list[Variant]).dump_json(playable()).decode()


@router.get("")
async def variants() -> list[Variant]:
    return playable()
