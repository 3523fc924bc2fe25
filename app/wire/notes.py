"""Reading what another process published: each channel carries the messages of one union
(app.wire.messages), and a message read off it is handed on as that union's member, its
`kind` one the channel carries and every key its type requires present. A message of
any other shape (a process of a newer protocol that sends a kind this one does not know,
or a bug) is dropped by the reader, never read half.

Only the envelope is checked, not every value: the messages come from the server's own
processes, built by mypy-checked code, and fields nobody here names are kept as they were
sent (PROTOCOL: extra fields are always allowed), so a newer process's additions reach
the clients untouched. A check costs a dict lookup and a set comparison.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar, cast, get_args, get_origin, get_type_hints

from typing_extensions import TypeIs

from app.wire.between import (
    ChatNote,
    LobbyChange,
    LobbyGone,
    PlayedReply,
    PlayerNotice,
    PresenceNote,
    RelayedPlay,
    RemovedNote,
    Resubscribed,
    Revoked,
    SpectatorsNote,
    TableNotice,
    TournamentNote,
)

T = TypeVar("T")


class Reader(Generic[T]):
    """Reads one channel's messages: TypedDicts told apart by their `kind` (a Literal),
    or the one TypedDict a channel without kinds carries."""

    def __init__(self, *types: type) -> None:
        self._required: dict[object, frozenset[str]] = {}
        self._keyed = True
        for kind in types:
            required = frozenset(kind.__required_keys__)  # type: ignore[attr-defined]
            hint = get_type_hints(kind).get("kind")
            if hint is None or get_origin(hint) is not Literal:
                assert len(types) == 1, f"{kind.__name__}: a channel of several needs kinds"
                self._keyed = False
                self._required[None] = required
                continue
            for value in get_args(hint):
                self._required[value] = required

    def read(self, payload: Any) -> T | None:
        """`payload` (parsed JSON) as the channel's message, or None if it is not one."""
        if not isinstance(payload, dict):
            return None
        required = self._required.get(payload.get("kind") if self._keyed else None)
        if required is None or not required <= payload.keys():
            return None
        return cast(T, payload)


# Told to every handler of a channel after a gap in pub/sub (app.live.hub), this object.
RESUBSCRIBED: Resubscribed = {"kind": "resubscribed"}


def resubscribed(message: object) -> TypeIs[Resubscribed]:
    """Whether `message` is the hub's word that a gap came before it: on a channel whose
    messages have no `kind` (players', tournaments'), what tells it from them."""
    return message is RESUBSCRIBED


TableNoteIn = PresenceNote | SpectatorsNote | TableNotice | ChatNote | RemovedNote
LobbyNoteIn = LobbyChange | LobbyGone
ProcessNote = RelayedPlay | PlayedReply

# A table's channel (besides its change announcements, app.live.announce), the lobby's,
# a process's own (relayed moves and their answers), sessions', players', tournaments'.
TABLE_NOTES = Reader[TableNoteIn](PresenceNote, SpectatorsNote, TableNotice, ChatNote,
                                  RemovedNote)
LOBBY_NOTES = Reader[LobbyNoteIn](LobbyChange, LobbyGone)
PROCESS_NOTES = Reader[ProcessNote](RelayedPlay, PlayedReply)
SESSION_NOTES = Reader[Revoked](Revoked)
PLAYER_NOTES = Reader[PlayerNotice](PlayerNotice)
TOURNAMENT_NOTES = Reader[TournamentNote](TournamentNote)
