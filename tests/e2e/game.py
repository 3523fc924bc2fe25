"""One whole game played by real websocket clients, and the checks every such game gets."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from app.engine import rating
from tests.e2e.client import Account, Chooser, Player, autoplay, create_table, join, register
from tests.servers import REPO, Server


@dataclass
class PlayedGame:
    table_id: str
    game_id: str
    accounts: list[Account]
    players: list[Player]
    spectator: Player
    finals: list[dict[str, Any]]


@dataclass
class Seated:
    table_id: str
    accounts: list[Account]
    players: list[Player]
    spectator: Player

    async def first_playing_state(self) -> dict[str, Any]:
        return await self.players[0].expect(
            lambda m: m["type"] == "table.state" and m["view"]["status"] == "playing"
        )


async def seat_players(
    servers: list[Server], *, seats: int = 4, options: dict[str, Any] | None = None,
    rated: bool = True, turn_seconds: int = 60, variant: str = "goat",
    reserve_seconds: int = 0, on_timeout: str | None = None,
) -> Seated:
    """New accounts at a new table (socket i on server i mod n), all subscribed; started."""
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
        accounts = [await register(http) for _ in range(seats)]
        table = await create_table(
            http, accounts[0], seats=seats, options=options, rated=rated,
            turn_seconds=turn_seconds, variant=variant, reserve_seconds=reserve_seconds,
            on_timeout=on_timeout,
        )
    table_id = table["id"]
    players = [
        await Player(servers[i % len(servers)].ws_url, accounts[i]).connect()
        for i in range(seats)
    ]
    spectator = await Player(servers[-1].ws_url).connect()
    for p in [*players, spectator]:
        reply = await p.request({"type": "table.subscribe", "table_id": table_id})
        assert reply["type"] == "table.state", reply
    for i in range(1, seats):
        async with httpx.AsyncClient(base_url=servers[i % len(servers)].url) as other:
            assert await join(other, table_id, accounts[i], seat=i) == i
    return Seated(table_id, accounts, players, spectator)


async def play_game(
    servers: list[Server], *, seats: int = 4, options: dict[str, Any] | None = None,
    seed: int = 0, rated: bool = True, variant: str = "goat", timeout: float = 120,
    choose: Chooser | None = None, director: Callable[[Seated], Chooser] | None = None,
) -> PlayedGame:
    """Seat `seats` new players and play to the end with random legal moves (or those
    `choose` picks; `director` makes such a chooser once the table is seated)."""
    rng = random.Random(seed)
    seated = await seat_players(
        servers, seats=seats, options=options, rated=rated, variant=variant
    )
    table_id, players, spectator = seated.table_id, seated.players, seated.spectator
    if director is not None:
        choose = director(seated)
    finals = await asyncio.gather(
        *(autoplay(p, table_id, random.Random(rng.random()), timeout=timeout, choose=choose)
          for p in players)
    )
    await spectator.expect(
        lambda m: m["type"] == "table.state" and m["view"]["status"] == "finished",
        timeout=30,
    )
    game_id = finals[0]["view"]["game_id"]
    for final in finals:
        assert final["errors"] == [], final["errors"]
        assert final["view"]["status"] == "finished"
        assert final["view"]["game_id"] == game_id
    return PlayedGame(table_id, game_id, seated.accounts, players, spectator, list(finals))


def _stream(seed: bytes, r: int, k: int) -> Iterator[int]:
    """PROTOCOL §4's byte stream, as 4-byte big-endian unsigned integers."""
    c = 0
    while True:
        block = hashlib.sha256(seed + r.to_bytes(4, "big") + k.to_bytes(4, "big")
                               + c.to_bytes(4, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        c += 1


def shuffled_set(seed: bytes, r: int, k: int, max_pip: int = 6) -> list[str]:
    """PROTOCOL §4, written out independently of the engine: Fisher-Yates of 0-0..6-6
    (or up to 12-12)."""
    tiles = [f"{a}-{b}" for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    stream = _stream(seed, r, k)

    def draw(m: int) -> int:
        while True:
            x = next(stream)
            if x < 2**32 - (2**32 % m):
                return x % m

    for i in range(len(tiles) - 1, 0, -1):
        j = draw(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def _goat_redeal(hands: list[list[str]]) -> bool:
    """RULES 1.1 (Goat, and its family: Donkey §8, Sea Goat §7, Sport Goat §11, General §12):
    five doubles, or six tiles sharing a number, in one hand."""
    for hand in hands:
        halves = [tuple(int(x) for x in t.split("-")) for t in hand]
        if sum(1 for a, b in halves if a == b) >= 5:
            return True
        if any(sum(1 for a, b in halves if n in (a, b)) >= 6 for n in range(7)):
            return True
    return False


def _redeals(record: dict[str, Any]) -> bool:
    """Whether the record's game redeals by RULES 1.1: Goat and Donkey always; Sea Goat,
    Sport Goat and General from the second edition of the rules on (a record marked
    `"rules": 1` dealt once)."""
    if record["variant"] in ("goat", "donkey"):
        return True
    return record["variant"] in ("sea_goat", "sport_goat", "general") and record.get(
        "rules", 2
    ) != 1


def hand_size(variant: str, players: int) -> int:
    """RULES §1.1, §2, §4, §5, §6: tiles dealt to each hand."""
    if variant == "mexican_train":
        return 12 if players <= 6 else 10
    seven = ("goat", "donkey", "telephone", "sea_goat", "sport_goat", "general")  # §7-12
    return 7 if variant in seven or players == 2 else 5


def seed_deals(record: dict[str, Any]) -> list[tuple[list[list[str]], list[str]]]:
    """Every round's hands and bazaar recomputed from the revealed seed (Goat redeals)."""
    seed = bytes.fromhex(record["seed"])
    players = len(record["players"])
    size = hand_size(record["variant"], players)
    deals = []
    for r in range(len(record["rounds"])):
        k = 0
        while True:
            order = shuffled_set(seed, r, k, 12 if record["variant"] == "mexican_train" else 6)
            hands = [order[s * size : (s + 1) * size] for s in range(players)]
            if not _redeals(record) or not _goat_redeal(hands):
                break
            k += 1
        deals.append((hands, order[players * size :]))
    return deals


def check_no_leaks(game: PlayedGame, record: dict[str, Any]) -> None:
    """No frame shows a tile of another hand or of the bazaar before that round is over.

    The truth is the revealed seed, which gives every deal. A tile may be seen once it
    is on the table, in one's own hand, or in a round_end event (the round is over and
    its hands are shown face up). Each seat's first view of a round shows its dealt hand.
    """
    deals = seed_deals(record)
    played = [_played(rnd) for rnd in record["rounds"]]
    for seat, player in enumerate([*game.players, game.spectator]):
        you = seat if seat < len(game.players) else None
        rounds_seen: set[int] = set()
        for frame, raw in zip(player.frames, player.raw, strict=True):
            if frame.get("type") != "table.state" or frame["table_id"] != game.table_id:
                continue
            for event in frame["events"]:
                if event["type"] not in ("round_end", "game_end"):
                    shown = _tiles_in(event) - played[event["round"]]
                    assert not shown, f"seat {you} saw {shown} in {event}"
            view = frame["view"]
            # Once the game is on, every view a socket gets is its own seat's (or a
            # spectator's), whichever process made it: seats are spread over the processes,
            # and a view made by one is sent by the other.
            if view["status"] != "waiting":
                assert view["you"] == you, (you, view["you"], frame["seq"])
            if view["status"] != "playing":
                continue
            r = view["round"]
            hands, bazaar = deals[r]
            if you is None:
                assert view["hand"] == []
            elif r not in rounds_seen and frame["events"]:
                # (A subscription's snapshot may come in the middle of a round.)
                # Its dealt hand (plus any forced draws: it has not played yet this round),
                # less a tile put down for it before the first turn (Mexican Train's engine).
                on_table = {link["tile"] for link in view["chain"]}
                assert set(hands[you]) - on_table <= set(view["hand"]), (r, view["hand"])
            rounds_seen.add(r)
            hidden = set(bazaar).union(*(set(h) for s, h in enumerate(hands) if s != you))
            visible = set(view["hand"]) | {link["tile"] for link in view["chain"]}
            shown = _tiles_in(view, skip=("hand", "chain", "legal"))
            leaked = (shown & hidden) - visible
            assert not leaked, f"seat {you} saw {leaked} in round {r}: {raw[:300]}"
            assert view["seed"] is None
            assert record["seed"] not in raw
        assert rounds_seen == set(range(len(record["rounds"]))) or you is None


def _played(rnd: dict[str, Any]) -> set[str]:
    """Every tile placed in a round (a move may place two: Sea Goat's `also`)."""
    return {t for m in rnd["moves"] for t in [m["tile"], *(p["tile"] for p in m.get("also", ()))]}


def _tiles_in(value: Any, skip: tuple[str, ...] = ()) -> set[str]:
    """Every string anywhere in `value` (outside the keys in `skip`) that looks like a tile."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                found |= _tiles_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _tiles_in(v)
    elif isinstance(value, str) and len(value) <= 5 and "-" in value:
        a, _, b = value.partition("-")
        if a.isdigit() and b.isdigit():
            found.add(value)
    return found


async def fetch_record(server: Server, game: PlayedGame, timeout: float = 20) -> dict[str, Any]:
    return await stored_record(server, game.game_id, timeout)


async def stored_record(server: Server, game_id: str, timeout: float = 20) -> dict[str, Any]:
    """GET /api/games/{id} once the results writer has stored it."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(int(timeout / 0.1)):
            r = await http.get(f"/api/games/{game_id}")
            if r.status_code == 200:
                return dict(r.json())
            assert r.status_code == 404, r.text
            await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id} was never written")


def check_seed(game: PlayedGame, record: dict[str, Any]) -> None:
    """The seed revealed at the end matches the commitment every seat saw at the start."""
    seed = game.finals[0]["view"]["seed"]
    assert seed is not None and seed == record["seed"]
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    for player in [*game.players, game.spectator]:
        playing = [
            f for f in player.states(game.table_id) if f["view"]["status"] == "playing"
        ]
        assert playing and all(f["view"]["commitment"] == commitment for f in playing)
        starts = [
            e for f in player.states(game.table_id) for e in f["events"] if e["type"] == "start"
        ]
        assert all(e["commitment"] == commitment for e in starts)


async def check_positions(server: Server, game: PlayedGame, record: dict[str, Any]) -> None:
    """GET /api/games/{id}/positions: each round starts from the seed's deal (recomputed
    here independently) and the last position is the game's end."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.get(f"/api/games/{game.game_id}/positions")
        assert r.status_code == 200, r.text
        positions = r.json()["positions"]
        assert (await http.get("/api/games/no-such-game/positions")).status_code == 404
    deals = [p for p in positions if p["move"] == -1]
    expected = seed_deals(record)
    assert len(deals) == len(expected) == len(record["rounds"])
    for pos, (hands, bazaar) in zip(deals, expected, strict=True):
        # The deal, after anything done before the first turn: draws from the front of the
        # bazaar, a tile put on the table (Mexican Train's engine double).
        assert 0 <= pos["bazaar"] <= len(bazaar)
        drawn = set(bazaar[: len(bazaar) - pos["bazaar"]])
        on_table = {c["tile"] for c in pos["chain"]}
        for dealt, now in zip(hands, pos["hands"], strict=True):
            assert set(dealt) - on_table <= set(now) <= set(dealt) | drawn
        assert set().union(*map(set, pos["hands"])) | on_table == set().union(*hands) | drawn
    assert positions[-1]["events"][-1]["result"] == record["result"]


def check_replay(record: dict[str, Any]) -> dict[str, Any]:
    """`python -m app.cli replay -` reproduces the stored result from the seed and moves."""
    bare = {k: v for k, v in record.items() if k != "result"}
    bare["rounds"] = [
        # what a client writes: the deal, the moves, General's round end times (RULES §12)
        {k: v for k, v in rnd.items() if k in ("hands", "bazaar", "moves", "ended_ms")}
        for rnd in record["rounds"]
    ]
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "replay", "-"],
        input=json.dumps(bare), capture_output=True, text=True, cwd=REPO, check=False,
    )
    assert out.returncode == 0, out.stderr
    replayed = json.loads(out.stdout)
    assert replayed["result"] == record["result"]
    assert [r.get("end") for r in replayed["rounds"]] == [r.get("end") for r in record["rounds"]]
    return dict(replayed)


def expected_gains(view: dict[str, Any]) -> list[int]:
    """RULES 1.9 and 9, from the final view (its result, and the target of the variants
    that play to one)."""
    result = view["result"]
    final = result["final"]
    if result["reason"] in ("timeout", "resign"):  # RULES 1.10: the same scoring
        return rating.timeout_gains(final, result["losers"][0])
    if view["variant"] in ("sport_goat", "general"):  # RULES §11, §12, by team
        teams = final[:2]
        won = [t for t in (0, 1) if teams[t] > teams[1 - t]]
        gains = rating.margin_gains(teams, won)
        return [gains[s % 2] for s in range(len(final))]
    if result["reason"] in ("bald_goat", "six_six"):  # Sea Goat: as if the winners had 125
        as_if = [max(view["target"], f) if s in result["winners"] else f
                 for s, f in enumerate(final)]
        return rating.higher_wins_gains(as_if, result["winners"], view["target"])
    if result["reason"] == "target":
        return rating.higher_wins_gains(final, result["winners"], view["target"])
    if result["reason"] == "rounds":  # Mexican Train: RULES §9 "lower wins" (plus: mirrored)
        ranked = final if view["wins"] == "lower" else [-s for s in final]
        return rating.lower_wins_gains(ranked, result["winners"])
    assert result["reason"] == "goat"
    return rating.goat_gains(final, result["losers"])


async def leaderboard_points(
    server: Server, names: list[str], variant: str = "goat"
) -> dict[str, int]:
    found: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=server.url) as http:
        offset = 0
        while True:
            r = await http.get(
                "/api/leaderboard",
                params={"variant": variant, "sort": "points", "limit": 200, "offset": offset},
            )
            assert r.status_code == 200, r.text
            board = r.json()
            for entry in board["entries"]:
                if entry["player"] in names:
                    found[entry["player"]] = entry["points"]
            offset += 200
            if offset >= board["total"]:
                return found


async def check_finished_game(
    server: Server, game: PlayedGame, *, rated: bool = True
) -> dict[str, Any]:
    """Everything a finished game must satisfy; returns its stored record."""
    result = game.finals[0]["view"]["result"]
    for final in game.finals:
        assert final["view"]["result"] == result
    assert result["rating"] == expected_gains(game.finals[0]["view"])
    record = await fetch_record(server, game)
    assert record["result"] == result
    assert record["players"] == [a.name for a in game.accounts]
    check_seed(game, record)
    check_replay(record)
    await check_positions(server, game, record)
    check_no_leaks(game, record)
    names = [a.name for a in game.accounts]
    points = await leaderboard_points(server, names, record["variant"])
    if rated:
        assert points == dict(zip(names, result["rating"], strict=True))
    else:
        assert all(points.get(n, 0) == 0 for n in names)
    return record
