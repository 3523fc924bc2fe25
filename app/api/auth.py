"""Accounts: register, log in, log out (here or everywhere), change the password, and who
am I (PROTOCOL.md §1, §2a "Sessions")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse

from app.api.deps import (
    SESSION_COOKIE,
    CurrentIdentity,
    CurrentPlayer,
    OptionalIdentity,
    SessionDep,
    SessionsDep,
)
from app.api.i18n import Refusal, words_of
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
from app.services.errors import ServiceError
from app.services.moderation import standing
from app.words import pick_language

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


@router.post("/auth/login", response_model=Session,
             responses={401: {"model": Detail}, 403: {"model": Detail}})
async def login(
    body: LoginCredentials, session: SessionDep, sessions: SessionsDep, response: Response,
    request: Request,
) -> Session | JSONResponse:
    await signin_name_limit(request, body.username)
    player = await credentials.authenticate(session, body.username, body.password)
    lang = pick_language(request.headers.get("accept-language"))
    if player is None:
        renamed = await standing.renamed(session, body.username, body.password)
        if renamed is not None:  # PROTOCOL §2h: told his new name, and why
            return _refused(renamed, lang, {"renamed": {"name": renamed.name,
                                                        "reason": renamed.reason}})
        raise Refusal(status.HTTP_401_UNAUTHORIZED, "wrong_credentials")
    suspended = await standing.refusal(session, player.id)
    if suspended is None:
        made = await _session(response, sessions, player)
        # Suspended while the session was being opened: its suspension revoked the
        # sessions it saw, so this one is revoked here.
        suspended = await standing.refusal(session, player.id)
        if suspended is None:
            return made
        await sessions.revoke_all(player.id)
    return _refused(suspended, lang, {"suspended": {"reason": suspended.reason,
                                                    "until": suspended.until}})


def _refused(error: ServiceError, lang: str, extra: dict[str, Any]) -> JSONResponse:
    """A sign-in refused for a reason a moderator gave (PROTOCOL §2h): 403, the words in
    the reader's language, and the reason whole beside them."""
    return JSONResponse({"detail": words_of(error, lang), **extra},
                        status_code=status.HTTP_403_FORBIDDEN)


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
    moderator = await standing.is_moderator(session, player.id)
    return Me.model_validate({"id": player.id, "name": player.name, "ratings": ratings,
                              "moderator": moderator or None})
