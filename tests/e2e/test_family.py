"""Goat's family end to end (RULES §7, §11, §12): one whole game of each over websockets,
the four sockets alternating between two server processes; each gets every check of a
finished game (results, ratings, the stored record and its replay, no hidden tile seen).
"""

from __future__ import annotations

import random
from typing import Any

from app.engine import new_game
from tests.e2e.client import Player
from tests.e2e.game import check_finished_game, play_game, seat_players, seed_deals
from tests.servers import Server

SPECIAL = ("0-0", "6-6")


async def prefer_two_doubles(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Sea Goat's two doubles in one turn whenever they are offered (RULES §7)."""
    doubled = [m for m in view["legal"] if "also" in m]
    return rng.choice(doubled or view["legal"])


async def test_sea_goat_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    """RULES §7 over websockets: a two-player Sea Goat game to its end; the smallest double
    leads the first round; two doubles in one turn are sent with `also`, told to every
    socket and written in the stored record, whose replay gives the same result."""
    # Two doubles fit one turn only by the deal and the play: a game may offer none, so up
    # to three are played until one does.
    for seed in (91, 92, 93):
        game = await play_game(
            list(server_pair), variant="sea_goat", seats=2, seed=seed, choose=prefer_two_doubles
        )
        record = await check_finished_game(server_pair[1], game)
        if any("also" in m for rd in record["rounds"] for m in rd["moves"]):
            break
    result = game.finals[0]["view"]["result"]
    assert result["reason"] in ("target", "bald_goat", "six_six")
    if result["reason"] == "target":
        assert max(result["final"]) >= 125
    hands, _bazaar = seed_deals(record)[0]
    doubles = [f"{d}-{d}" for d in range(7)]
    smallest = next(d for d in doubles if any(d in h for h in hands))
    assert record["rounds"][0]["moves"][0]["tile"] == smallest
    doubled = [m for rd in record["rounds"] for m in rd["moves"] if "also" in m]
    assert doubled, "no two doubles were played in one turn"
    told = [
        e for f in game.players[0].states(game.table_id) for e in f["events"]
        if e["type"] == "play" and "also" in e
    ]
    assert len(told) == len(doubled)


async def test_sport_goat_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    """RULES §11 over websockets: four players in teams, 4 rounds, round r led by seat
    r mod 4; the team with more points wins, or it is a draw."""
    game = await play_game(
        list(server_pair), variant="sport_goat", seats=4, options={"rounds": 4}, seed=92
    )
    record = await check_finished_game(server_pair[0], game)
    assert [rd["moves"][0]["seat"] for rd in record["rounds"]] == [0, 1, 2, 3]
    view = game.finals[0]["view"]
    assert view["result"]["reason"] == "rounds"
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    final = view["result"]["final"]
    assert final[0] == final[2] and final[1] == final[3]


class GeneralDirector:
    """Chooses every seat's moves of a General game so that team 0 makes a General each
    round when it can (the test holds all four sockets, so it knows all four hands):
    at a round's first move it plays the round out on an engine copy of the deal until
    a playout ends with a team-0 player going out on 0-0 or 6-6, then follows it."""

    def __init__(self, players: list[Player], table_id: str) -> None:
        self.players, self.table_id = players, table_id
        self.plans: dict[int, list[dict[str, Any]]] = {}

    async def hands(self, r: int) -> list[list[str]]:
        frames = [
            await p.expect(
                lambda m: m["type"] == "table.state" and m["table_id"] == self.table_id
                and m["view"]["status"] == "playing" and m["view"]["round"] == r
                and not m["view"]["chain"], timeout=30,
            )
            for p in self.players
        ]
        return [f["view"]["hand"] for f in frames]

    async def __call__(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        r = view["round"]
        if r not in self.plans:
            self.plans[r] = plan_general(await self.hands(r), rng)
        plan, placed = self.plans[r], len(view["chain"])
        if placed < len(plan) and plan[placed] in view["legal"]:
            return plan[placed]
        return rng.choice(view["legal"])


def plan_general(hands: list[list[str]], rng: random.Random) -> list[dict[str, Any]]:
    """A round's moves (as `view.legal` lists them) that end in a team-0 General, found by
    random playouts of the deal; [] if none is found."""
    dealt = new_game("general", 4, {}, None)
    dealt.deal(hands, [])
    for _ in range(2000):
        game, moves = dealt.copy(), []
        while game.round == 0 and game.status == "playing":
            move = rng.choice(list(game.legal_moves()))
            moves.append(move.to_dict())
            events = game.play(game.turn, move)
            end = next((e["end"] for e in events if e["type"] == "round_end"), None)
            if end is not None:
                if end["kind"] == "out" and end["by"] % 2 == 0 and str(move.tile) in SPECIAL:
                    return moves
                break
    return []


async def test_general_on_two_processes(server_pair: tuple[Server, Server]) -> None:
    """RULES §12 over websockets: 1-1 leads every round; a General is scored when a player
    goes out on 0-0 or 6-6; the game ends when a team leads by 3; each round's end time
    (ms since the start, by the server's clock) is in the stored record, never going
    backwards, and the replay ends the game where the server did."""
    game = await play_game(
        list(server_pair), variant="general", seats=4, seed=93, timeout=240,
        director=lambda seated: GeneralDirector(seated.players, seated.table_id),
    )
    record = await check_finished_game(server_pair[1], game)
    result = game.finals[0]["view"]["result"]
    assert result["reason"] == "generals" and result["winners"] == [0, 2]
    assert abs(result["final"][0] - result["final"][1]) == 3
    assert all(rd["moves"][0]["tile"] == "1-1" for rd in record["rounds"])
    ended = [rd["ended_ms"] for rd in record["rounds"]]
    # the server's clock: real time passed in every round, far from the 30 minutes
    assert ended == sorted(ended) and ended[0] > 0 and ended[-1] < 30 * 60_000
    generals = [rd["end"]["credited"] for rd in record["rounds"]]
    assert sum(c[0] for c in generals) - sum(c[1] for c in generals) == 3


async def test_sea_goat_refuses_a_wrong_second_double(server: Server) -> None:
    """RULES §7 over a websocket: two doubles only one on each end, never on the lead, and
    `also` must list placements -- each refused as illegal_move, and nothing changes."""
    seated = await seat_players([server], seats=2, variant="sea_goat", rated=False)
    state = await seated.first_playing_state()
    leader = state["view"]["turn"]
    player = seated.players[leader]
    mine = await player.expect(
        lambda m: m["type"] == "table.state" and m["view"]["turn"] == leader
        and m["view"]["you"] == leader and m["view"]["legal"], timeout=10)
    seq, lead = mine["seq"], mine["view"]["legal"][0]["tile"]
    other = next(t for t in mine["view"]["hand"] if t != lead)
    for also in ([{"tile": other, "end": "right"}], "5-5", [{"tile": lead}]):
        reply = await player.request(
            {"type": "play", "table_id": seated.table_id, "tile": lead, "also": also, "seq": seq})
        assert reply["type"] == "error" and reply["code"] == "illegal_move", reply
    # An extra field the variant does not know is ignored, like any extra field.
    reply = await player.request(
        {"type": "play", "table_id": seated.table_id, "tile": lead, "closed": True, "seq": seq})
    assert reply["type"] == "table.state" and reply["seq"] == seq + 1, reply
