"""Accounts: register, log in, log out (here or everywhere), change the password, and who
am I (PROTOCOL.md §1, §2a "Sessions")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status

from app.api.deps import (
    SESSION_COOKIE,
    CurrentIdentity,
    CurrentPlayer,
    OptionalIdentity,
    SessionDep,
    SessionsDep,
)
from app.api.i18n import Refusal
from app.api.ratelimit import LimitedPlayer, export_limit, signin_name_limit
from app.api.schemas import (
    AccountDeletion,
    Credentials,
    Detail,
    LoginCredentials,
    Me,
    PasswordChange,
    PlayerOut,
    Session,
)
from app.api.tables import _refusals
from app.config import settings
from app.services.accounts import credentials, own_data
from app.services.accounts.sessions import Sessions

router = APIRouter(prefix="/api", tags=["accounts"])


async def _session(
    response: Response, sessions: Sessions, player: credentials.PlayerRef
) -> Session:
    token = await sessions.open(player)
    # The browser client authenticates with this cookie alone (scripts never see it);
    # outside clients use the token.
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


def _forget_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=settings.mode != "development")


@router.post(
    "/auth/register",
    status_code=status.HTTP_201_CREATED,
    responses={409: {"model": Detail}},
)
async def register(
    body: Credentials, session: SessionDep, sessions: SessionsDep, response: Response
) -> Session:
    try:
        player = await credentials.register(session, body.username, body.password)
    except credentials.NameTaken:
        raise Refusal(status.HTTP_409_CONFLICT, "name_taken") from None
    return await _session(response, sessions, player)


@router.post("/auth/login", responses={401: {"model": Detail}})
async def login(
    body: LoginCredentials, session: SessionDep, sessions: SessionsDep, response: Response,
    request: Request,
) -> Session:
    await signin_name_limit(request, body.username)
    player = await credentials.authenticate(session, body.username, body.password)
    if player is None:
        raise Refusal(status.HTTP_401_UNAUTHORIZED, "wrong_credentials")
    return await _session(response, sessions, player)


@router.post("/auth/logout", responses={503: {"model": Detail}})
async def logout(
    identity: OptionalIdentity, sessions: SessionsDep, response: Response
) -> dict[str, bool]:
    """Revoke the caller's session at once, on every process; its sockets close (4401)."""
    if identity is not None:
        await sessions.revoke([identity.session_id])
    _forget_cookie(response)
    return {"ok": True}


@router.post("/auth/logout-all", responses={401: {"model": Detail}, 503: {"model": Detail}})
async def logout_all(
    identity: CurrentIdentity, sessions: SessionsDep, response: Response
) -> dict[str, bool]:
    """Sign out everywhere: every session of the player, this one too."""
    await sessions.revoke_all(identity.player.id)
    _forget_cookie(response)
    return {"ok": True}


@router.post(
    "/auth/password",
    responses={401: {"model": Detail}, 403: {"model": Detail}, 429: {"model": Detail},
               503: {"model": Detail}},
)
async def change_password(
    body: PasswordChange, identity: CurrentIdentity, session: SessionDep,
    sessions: SessionsDep, request: Request,
) -> dict[str, bool]:
    """A new password; every other session of the player is signed out, this one stays.

    Checking the current password is a guess like a sign-in: it spends the same budget of
    the account (a thief with a session cannot guess on here once sign-in is closed)."""
    await signin_name_limit(request, identity.player.name)
    if not await credentials.change_password(
        session, identity.player.id, body.current_password, body.new_password
    ):
        raise Refusal(status.HTTP_403_FORBIDDEN, "wrong_password")
    await sessions.revoke_all(identity.player.id, keep=identity.session_id)
    return {"ok": True}


@router.get("/me/export", responses={401: {"model": Detail}, 429: {"model": Detail}})
async def export(player: LimitedPlayer, session: SessionDep, request: Request) -> dict[str, Any]:
    """Everything of the caller's: account, ratings and the record of every game he played
    (PROTOCOL §2c). Costly, so it has a small budget of its own, on every process."""
    await export_limit(request, player.id)
    with _refusals():
        return await own_data.export(session, player.id)


@router.delete("/me", status_code=status.HTTP_204_NO_CONTENT,
               responses={401: {"model": Detail}, 409: {"model": Detail},
                          429: {"model": Detail}})
async def delete_me(
    body: AccountDeletion, identity: CurrentIdentity, session: SessionDep,
    sessions: SessionsDep, request: Request, response: Response,
) -> Response:
    """Delete the account (PROTOCOL §2c): checking the password spends the sign-in budget
    of the account, like a password change."""
    live = request.app.state.live
    await signin_name_limit(request, identity.player.name)
    with _refusals():
        deleted = await own_data.delete(session, live.store, identity.player.id, body.password)
    if not deleted:
        raise Refusal(status.HTTP_401_UNAUTHORIZED, "wrong_password")
    await sessions.revoke_all(identity.player.id)
    done = Response(status_code=status.HTTP_204_NO_CONTENT)
    _forget_cookie(done)
    return done


@router.get("/me", responses={401: {"model": Detail}}, response_model_exclude_none=True)
async def me(player: CurrentPlayer, session: SessionDep) -> Me:
    ratings = await credentials.ratings_of(session, player.id)
    return Me.model_validate({"id": player.id, "name": player.name, "ratings": ratings})
