"""Request and response bodies of the HTTP API (PROTOCOL.md §1), separate from the tables."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.domain import names

# Request bodies are strict: "4" is not 4, "yes" is not true, true is not 1.
STRICT = ConfigDict(strict=True)

# A moment a request names (epoch ms, PROTOCOL §2g): from 1970 to the start of year 9999,
# so that it and any length added to it (an arena's minutes) are dates; a later one is a
# 422, never a failure further in.
LAST_MOMENT_MS = 253_370_764_800_000
EpochMs = Annotated[int, Field(ge=0, le=LAST_MOMENT_MS)]


# What each refusal of a name says (PROTOCOL §2c; app/domain/names.py).
_NAME_PROBLEMS = {
    "name_length": "3-20 characters",
    "name_characters": "letters and digits of one script (Latin, Cyrillic, Thai, Arabic, "
                       "Lao), '_' and the digits 0-9 only",
    "name_scripts": "letters of one script only: this name mixes two",
}


class Credentials(BaseModel):
    model_config = STRICT
    # Taken as sent but for NFC: no trimming, no case folding (PROTOCOL.md §1, §2c).
    username: str = Field(max_length=80)
    password: str = Field(min_length=8, max_length=128)

    @field_validator("username")
    @classmethod
    def _one_script(cls, value: str) -> str:
        value = names.normal(value)
        problem = names.problem(value)
        if problem is not None:
            raise ValueError(_NAME_PROBLEMS[problem])
        return value


class LoginCredentials(BaseModel):
    model_config = STRICT
    # Not checked against the registration rules: a wrong login of any shape is a 401.
    username: str = Field(max_length=100)
    password: str = Field(max_length=1024)


class PasswordChange(BaseModel):
    current_password: str = Field(max_length=1024)
    # The registration rule for passwords (PROTOCOL.md §1).
    new_password: str = Field(min_length=8, max_length=128)


class AccountDeletion(BaseModel):
    model_config = STRICT
    password: str = Field(max_length=1024)


class PlayerOut(BaseModel):
    id: int
    name: str


class Session(BaseModel):
    token: str
    player: PlayerOut


class RatingFigures(BaseModel):
    """A player's standing in one variant: the site's points and the Glicko-2 skill."""

    points: int
    games: int
    wins: int
    losses: int
    skill: float
    deviation: float


class VariantRating(RatingFigures):
    volatility: float
    goats: int | None = None


class Me(BaseModel):
    id: int
    name: str
    ratings: dict[str, VariantRating]
    # PROTOCOL §2h: shown (true) to moderators only
    moderator: bool | None = None


class LeaderboardEntry(RatingFigures):
    rank: int
    player: str


class Leaderboard(BaseModel):
    variant: str
    sort: str
    total: int
    entries: list[LeaderboardEntry]


class RecentGame(BaseModel):
    game_id: str
    variant: str
    finished_at: int  # epoch milliseconds
    seat: int
    final: int
    rating: int
    outcome: str
    rated: bool
    reason: str = ""  # how the game ended: "goat", "target", "timeout", "resign", ...


class HistoryStep(BaseModel):
    game_id: str
    variant: str
    finished_at: int
    gained: int
    points: int  # cumulative rating points after this game
    skill: float | None


class PlayerPage(BaseModel):
    name: str
    ratings: dict[str, VariantRating]
    recent_games: list[RecentGame]
    history: list[HistoryStep]


class Detail(BaseModel):
    detail: str


GameRecord = dict[str, Any]
