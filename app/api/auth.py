"""Accounts: register, log in, log out, and who am I (PROTOCOL.md §1)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response, status

from app.api.deps import SESSION_COOKIE, CurrentPlayer, SessionDep
from app.api.ratelimit import signin_name_limit
from app.api.schemas import Credentials, Detail, LoginCredentials, Me, PlayerOut, Session
from app.config import settings
from app.services import accounts

router = APIRouter(prefix="/api", tags=["accounts"])


def _session(response: Response, player: accounts.PlayerRef) -> Session:
    token = accounts.issue_token(player)
    # The browser client authenticates with this cookie; scripts use the token.
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=settings.token_seconds,
        httponly=True,
        samesite="lax",
        secure=settings.mode != "development",
        path="/",
    )
    return Session(token=token, player=PlayerOut(id=player.id, name=player.name))


@router.post(
    "/auth/register",
    status_code=status.HTTP_201_CREATED,
    responses={409: {"model": Detail}},
)
async def register(body: Credentials, session: SessionDep, response: Response) -> Session:
    try:
        player = await accounts.register(session, body.username, body.password)
    except accounts.NameTaken:
        raise HTTPException(status.HTTP_409_CONFLICT, "name taken") from None
    return _session(response, player)


@router.post("/auth/login", responses={401: {"model": Detail}})
async def login(
    body: LoginCredentials, session: SessionDep, response: Response, request: Request
) -> Session:
    await signin_name_limit(request, body.username)
    player = await accounts.authenticate(session, body.username, body.password)
    if player is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "wrong username or password")
    return _session(response, player)


@router.post("/auth/logout")
async def logout(response: Response) -> dict[str, bool]:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return {"ok": True}


@router.get("/me", responses={401: {"model": Detail}}, response_model_exclude_none=True)
async def me(player: CurrentPlayer, session: SessionDep) -> Me:
    ratings = await accounts.ratings_of(session, player.id)
    return Me.model_validate({"id": player.id, "name": player.name, "ratings": ratings})
