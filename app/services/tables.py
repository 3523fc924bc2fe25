"""A live table's state, its public shapes (`table`, `view`) and the one way to change it.

The state kept in the live store is a plain JSON dict:
  id, variant, options, players (seat count), seats [{"id", "name"} | None],
  status "waiting"|"playing"|"finished", turn_seconds, rated, created_by {"id","name"},
  game_id, created_at/started_at/finished_at (epoch ms), deadline (ms | None),
  game (engine `Game.to_dict()` | None), log [{"v", "events"}] (the last changes).

The state holds the current round only: when a round is over and the next one dealt, the
finished round (its deal and moves) is appended once to the store's round archive, and the
state keeps just its `end` and standings (what views and the variants' rules need), marked
`"archived": true`. `full_game_dict` joins them again for a record.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from app.engine import VARIANTS, Game, game_from_dict
from app.live.ratelimit import Charge
from app.live.store import LiveStore, Versioned, dumps
from app.services.fairness import with_reason
from app.services.seats import is_bot, wake_at

# What a finished round keeps in the hot state; the rest is in the round archive.
ARCHIVED = "archived"
_ROUND_DETAIL = ("hands", "bazaar", "moves")

# Finished tables stay in the lobby this long (then lobby.remove) ...
FINISHED_IN_LOBBY_MS = 60_000
# ... and readable by GET / table.subscribe this long after their result is written.
FINISHED_KEEP_SECONDS = 3600
# How many changes' events a state remembers, so a socket that skipped some still gets them.
LOG_LENGTH = 16


class ServiceError(Exception):
    """A refused command: `code` is the PROTOCOL §2 error code, `status` the HTTP one."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def not_found(table_id: str) -> ServiceError:
    return ServiceError("not_found", f"no table {table_id!r}", 404)


def now_ms() -> int:
    return int(time.time() * 1000)


def seat_of(state: dict[str, Any], player_id: int | None) -> int | None:
    if player_id is None:
        return None
    for seat, who in enumerate(state["seats"]):
        if who is not None and who["id"] == player_id:
            return seat
    return None


def pause_remaining(state: dict[str, Any]) -> int:
    """Milliseconds left of the pause between two rounds (0: no pause now)."""
    until = state.get("next_round_at")
    return 0 if until is None else max(0, until - now_ms())


def game_of(state: dict[str, Any]) -> Game | None:
    """The table's game, reading the server's clock (`now_ms`) where its rules need the
    time (General, RULES §12)."""
    return None if state["game"] is None else game_from_dict(state["game"], clock=now_ms)


def public_table(state: dict[str, Any]) -> dict[str, Any]:
    """PROTOCOL's `table`: names as plain strings, nothing of the game itself."""
    return {
        "id": state["id"],
        "variant": state["variant"],
        "options": state["options"],
        "seats": [
            {"seat": s, "player": None if who is None else who["name"]}
            | ({"bot": who["bot"]} if is_bot(who) else {})
            for s, who in enumerate(state["seats"])
        ],
        "status": state["status"],
        "turn_seconds": state["turn_seconds"],
        "round_pause_seconds": state.get("round_pause_seconds", 0),
        "rated": state["rated"],
        "created_by": state["created_by"]["name"],
        "game_id": state["game_id"],
        # named only where it is on: a bot plays on for a player who times out
        **({"bot_takeover": True} if state.get("bot_takeover") else {}),
    }


def _waiting_view(state: dict[str, Any]) -> dict[str, Any]:
    """The public view of a table whose game has not started: the same shape, nothing dealt."""
    return {
        "variant": state["variant"],
        "options": state["options"],
        "status": "waiting",
        "turn": None,
        "round": 0,
        "layout": VARIANTS[state["variant"]].layout,
        "ends": {},
        "chain": [],
        "bazaar": 0,
        "seats": [
            {"seat": s, "tiles": 0, "account": 0, "opened": False, "remembered": 0}
            for s in range(state["players"])
        ],
        "carry": 0,
        "history": [],
        "commitment": None,
        "seed": None,
        "result": None,
    }


def public_view(
    state: dict[str, Any],
    game: Game | None,
    connected: set[int],
    spectators: int = 0,
) -> dict[str, Any]:
    """What every seat's view and every spectator's has in common (`build_view` adds the
    seat's own part); built once for all the views of one version."""
    view = _waiting_view(state) if game is None else game.public_view()
    view["table_id"] = state["id"]
    view["game_id"] = state["game_id"]
    view["status"] = state["status"]
    view["deadline"] = state["deadline"] if state["status"] == "playing" else None
    view["next_round_at"] = state.get("next_round_at")
    view["rematch"] = state.get("rematch")
    view["spectators"] = spectators
    view["result"] = with_reason(view.get("result"), state)
    if view["next_round_at"] is not None:
        # Between rounds nobody moves and no clock runs: the new deal waits for the pause.
        view["deadline"] = None
    for entry in view["seats"]:
        who = state["seats"][entry["seat"]]
        entry["player"] = None if who is None else who["name"]
        entry["connected"] = entry["seat"] in connected or is_bot(who)
        if is_bot(who):
            entry["bot"] = who["bot"]
    return view


def build_view(
    state: dict[str, Any],
    game: Game | None,
    seat: int | None,
    connected: set[int],
    spectators: int = 0,
    public: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """PROTOCOL's `view` for `seat` (None: a spectator): the engine's view plus the table's.

    `game` is `game_of(state)`, loaded once by the caller for all the views it builds, and
    `public` its `public_view`, when the caller has it.
    """
    if public is None:
        public = public_view(state, game, connected, spectators)
    return {**public, **own_view(game, seat, public)}


def own_view(game: Game | None, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
    """The part of `seat`'s view that is his alone (`you`, `hand`, `legal`), beside the
    `public_view` of the same version."""
    own = {"you": seat, "hand": [], "legal": []} if game is None else game.own_view(seat)
    if public["next_round_at"] is not None:
        own["legal"] = []
    return own


def events_since(state: dict[str, Any], version: int, last_sent: int) -> list[dict[str, Any]]:
    """The events of the changes after `last_sent` up to `version` (those still logged)."""
    if last_sent <= 0:
        return []
    log = state["log"]
    # Newest last: only the entries after `last_sent` are looked at (one, as a rule).
    first = len(log)
    while first and log[first - 1]["v"] > last_sent:
        first -= 1
    return [event for entry in log[first:] if entry["v"] <= version
            for event in entry["events"]]


def split_rounds(game: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`game` (a `Game.to_dict()`) with every round before the current one reduced to its
    summary, and the rounds newly reduced so (to archive), in order."""
    rounds = game["rounds"]
    fresh = [rd for rd in rounds[:-1] if not rd.get(ARCHIVED)]
    if not fresh:
        return game, []
    kept = [
        rd if rd.get(ARCHIVED) else {
            **{k: v for k, v in rd.items() if k not in _ROUND_DETAIL}, "moves": [], ARCHIVED: True
        }
        for rd in rounds[:-1]
    ]
    return {**game, "rounds": [*kept, rounds[-1]]}, fresh


async def full_game_dict(store: LiveStore, table_id: str, game: dict[str, Any]
                         ) -> dict[str, Any]:
    """`game` as stored in the state, with its archived rounds joined back in."""
    if not any(rd.get(ARCHIVED) for rd in game["rounds"]):
        return game
    archive = await store.archived_rounds(table_id)
    rounds = [
        archive[r] if rd.get(ARCHIVED) else rd for r, rd in enumerate(game["rounds"])
    ]
    return {**game, "rounds": rounds}


# The state's fields that `public_table` shows: a change that leaves them all equal (a move,
# as a rule) leaves the lobby's entry as it was.
_LOBBY_FIELDS = ("seats", "status", "game_id", "options", "turn_seconds",
                 "round_pause_seconds", "rated", "bot_takeover", "variant", "created_by")


def lobby_entry_changed(before: dict[str, Any] | None, after: dict[str, Any]
                        ) -> dict[str, Any] | None:
    """The lobby's `table` for `after` if it differs from `before`'s (None: unchanged)."""
    if before is not None and all(before.get(k) == after.get(k) for k in _LOBBY_FIELDS):
        return None
    entry = public_table(after)
    return None if before is not None and public_table(before) == entry else entry


@dataclass
class Change:
    """A change that was stored: the new version and state, whether it ended the game, and
    the game as it is now (so the writer's process need not parse the state again), and
    the state's log entries as JSON (`Versioned.log_json`)."""

    version: int
    state: dict[str, Any]
    finished: bool
    game: Game | None = None
    log_json: tuple[bytes, ...] | None = None


def _log_json(current: Versioned) -> tuple[bytes, ...]:
    """`current`'s log entries as JSON: kept by the change that made it, or made now."""
    if current.log_json is not None:
        return current.log_json
    return tuple(dumps(entry) for entry in current.state.get("log", []))


async def commit(
    store: LiveStore,
    current: Versioned,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    game: Game | None,
    *,
    listed: bool = True,
    charge: Charge | None = None,
) -> Change | None:
    """Write `state` (with `game`'s new position) if nobody changed the table meanwhile.
    `listed`: False for a change of a table that must stay out of the lobby's index.
    `charge`: the rate limits of the message that makes the change, taken by the same
    write (`Refused` when they are spent: nothing is written).

    Sets the status, the deadline of the player now on turn and the event log; a game that
    just ended is marked finished in this same write, which also queues its result for
    the database writer. Returns None when the compare-and-set lost.
    """
    now = now_ms()
    version = current.version + 1
    state = dict(state)
    finished = False
    archive: list[dict[str, Any]] = []
    if game is not None:
        state["game"], archive = split_rounds(game.to_dict())
        if game.status == "finished" and current.state["status"] != "finished":
            finished = True
            state["status"] = "finished"
            state["finished_at"] = now
        elif game.status == "playing":
            state["status"] = "playing"
    state["next_round_at"] = None
    pause = state.get("round_pause_seconds", 0)
    if state["status"] == "playing" and pause and any(e["type"] == "round_end" for e in events):
        # A pause between rounds: the clock wakes at its end (play.expire then starts the
        # first turn's clock), so everyone can look at the round that was just played.
        state["next_round_at"] = state["deadline"] = now + pause * 1000
    elif state["status"] == "playing":
        state["deadline"] = now + state["turn_seconds"] * 1000
    else:
        state["deadline"] = None
    # The log's older entries were serialised by the changes that made them: between two
    # moves of a table they have left the caches, and serialising them again was half the
    # cost of the state's JSON at 250 busy tables (31-38 -> 19-24 us a move); the new one, here.
    entry = {"v": version, "events": events}
    state["log"] = [*current.state.get("log", []), entry][-LOG_LENGTH:]
    log_json = (*_log_json(current), dumps(entry))[-LOG_LENGTH:]
    # A game that starts, and every new round of it, is copied to the database soon after
    # (app.services.recovery), so a lost live store costs at most the round being played.
    started = state["status"] == "playing" and current.state["status"] != "playing"
    written = await store.write(
        state["id"],
        current.version,
        state,
        # a bot's turn wakes the clock when the bot should move, well before the deadline
        deadline_ms=wake_at(state, game, now),
        created_ms=state["created_at"],
        finished=finished,
        retire_at_ms=now + FINISHED_IN_LOBBY_MS if finished else None,
        lobby_entry=lobby_entry_changed(current.state, state),
        archive=archive,
        listed=listed,
        snapshot=state["status"] == "playing" and (started or bool(archive)),
        charge=charge,
        serialised={"log": b"[" + b",".join(log_json) + b"]"},
    )
    if written is None:
        return None
    if archive:
        # The game object still holds the rounds just archived in full; the state holds
        # their summaries. Whoever needs the game parses the state, as stored.
        game = None
    if store.local_change is not None:
        store.local_change(state["id"], written, state, game, log_json)
    return Change(written, state, finished, game, log_json)
