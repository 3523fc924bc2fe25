"""A refused command, told to a person in his own language (PROTOCOL §2a "lang").

A service says what went wrong as a catalogue key (`error.<key>` in app/web/lang, see
app.words) and its parameters; the API layer says it in the reader's language. `message`
is the English words, what logs and outside clients read.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.engine.errors import EngineError
from app.words import ErrorKey, Param, Params, say

# The longest message a refusal carries: one made from what was sent (an unknown variant's
# name, an option's value) never echoes all of it.
MESSAGE_CHARS = 300


class ServiceError(Exception):
    """A refused command: `code` is the PROTOCOL §2 error code, `status` the HTTP one,
    `key` and `params` the words (`key` None: none of its own, its code's general
    sentence stands for it), `message` the English of them.

        raise ServiceError("bad_request", "seat_taken", 409, seat=2)
    """

    code: str
    key: str | None
    params: Mapping[str, Param]
    message: str
    status: int
    # How long until asking again may succeed (a muted chat's end), told to the socket.
    retry_ms: int | None = None

    def __init__(self, code: str, key: ErrorKey, status: int, **params: Param) -> None:
        self._hold(code, key, params, say(key, params), status)

    def _hold(
        self, code: str, key: str | None, params: Params, message: str, status: int
    ) -> None:
        if len(message) > MESSAGE_CHARS:
            message = message[:MESSAGE_CHARS] + "…"
        Exception.__init__(self, message)
        self.code, self.key, self.params = code, key, dict(params)
        self.message, self.status = message, status

    @classmethod
    def worded(
        cls, code: str, message: str, status: int, key: str | None = None,
        params: Params | None = None,
    ) -> ServiceError:
        """An error whose English is given: the engine's, or one relayed from another
        process (whose key may be missing: an older process's)."""
        error = cls.__new__(cls)
        error._hold(code, key, params or {}, message, status)
        return error

    @classmethod
    def of_engine(cls, code: str, error: ValueError, status: int) -> ServiceError:
        """The engine's refusal (IllegalMove, OptionsError) as `code`, with its key and
        parameters; a bare ValueError has none (its code's general sentence stands in)."""
        if isinstance(error, EngineError):
            return cls.worded(code, str(error), status, error.key, error.params)
        return cls.worded(code, str(error), status)
