"""Error words for people, in the reader's language (PROTOCOL §2a "lang").

A refusal carries a catalogue key and its parameters (app.words): a service's
`ServiceError`, an HTTP `Refusal` raised here in the API. The socket says it in `hello`'s
language (or its handshake's Accept-Language), HTTP in the request's Accept-Language.
Error `code`s never change; English is the words as they always were; a message without
words of its own (a framework's reply, a frame a client got wrong) is said as its code's
general sentence, so a Russian player never reads English.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.services.errors import ServiceError
from app.words import DEFAULT, ErrorKey, Param, Params, pick_language, said, say

# The PROTOCOL code of a framework's own HTTP refusal, by its status.
_HTTP_CODES = {401: "unauthorized", 404: "not_found", 409: "bad_request", 429: "rate_limited",
               503: "unavailable"}


class Refusal(HTTPException):
    """An HTTP refusal for a person: `detail` is the English of the catalogue's
    `error.<key>`; the answer says it in the request's language.

        raise Refusal(404, "no_player")
    """

    code: str
    key: str | None
    params: Mapping[str, Param]

    def __init__(
        self, status: int, key: ErrorKey, headers: Mapping[str, str] | None = None,
        **params: Param,
    ) -> None:
        super().__init__(status, say(key, params), dict(headers) if headers else None)
        self.code, self.key, self.params = _HTTP_CODES.get(status, ""), key, params

    @classmethod
    def of(cls, error: ServiceError) -> Refusal:
        """A service's refusal as its HTTP answer (`detail`: its English message)."""
        refusal = cls.__new__(cls)
        HTTPException.__init__(refusal, error.status, error.message)
        refusal.code, refusal.key, refusal.params = error.code, error.key, error.params
        return refusal


def words_of(error: ServiceError, lang: str) -> str:
    """A service's refusal in `lang`."""
    return said(error.code, error.key, error.params, error.message, lang)


def words_for(key: ErrorKey, lang: str, params: Params | None = None) -> str:
    """The catalogue's `error.<key>` in `lang`."""
    return say(key, params, lang)


def general(code: str, english: str, lang: str) -> str:
    """Words of no catalogue key (`english`, e.g. a framework's) in `lang`: English as they
    are, another language its code's general sentence."""
    return said(code, None, {}, english, lang)


async def _said_http_error(request: Request, error: Exception) -> Response:
    """Starlette's own answer, with a string `detail` said in the request's language."""
    assert isinstance(error, StarletteHTTPException)
    lang = pick_language(request.headers.get("accept-language"))
    if isinstance(error.detail, str) and lang != DEFAULT:
        if isinstance(error, Refusal):
            words = said(error.code, error.key, error.params, error.detail, lang)
        else:
            words = general(_HTTP_CODES.get(error.status_code, ""), error.detail, lang)
        error = StarletteHTTPException(error.status_code, words, error.headers)
    return await http_exception_handler(request, error)


def install_translations(app: FastAPI) -> None:
    app.add_exception_handler(StarletteHTTPException, _said_http_error)
