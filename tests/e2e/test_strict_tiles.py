"""PROTOCOL's tiles over a websocket: "a tile written otherwise ("5-3") is refused, in a
command and in a record" -- a `play` naming a tile backwards is refused as `illegal_move`
(whether it names a tile is the table's variant's question, like "9-9" in a double-six
game), after `stale` in PROTOCOL §2's order, and changes nothing."""

from __future__ import annotations

from tests.e2e.game import seat_players
from tests.e2e.test_protocol import current, move_of, on_turn
from tests.servers import Server


async def test_a_tile_written_backwards_is_refused_and_changes_nothing(server: Server) -> None:
    seated = await seat_players([server])
    for _ in range(28):
        seat, state = await on_turn(seated, server)
        plain = [m for m in state["view"]["legal"] if len(set(m["tile"].split("-"))) == 2]
        if plain:
            break
        assert (await seated.players[seat].request(move_of(state)))["type"] == "table.state"
    else:
        raise AssertionError("nobody was ever offered a tile that is not a double")
    me, move = seated.players[seat], plain[0]
    low, high = move["tile"].split("-")
    wrong = {"type": "play", "table_id": seated.table_id, "tile": f"{high}-{low}",
             "end": move["end"], "seq": state["seq"]}
    reply = await me.request(wrong)
    assert reply["type"] == "error" and reply["code"] == "illegal_move", reply
    assert reply["message"] == f"'{high}-{low}' is written backwards: say '{low}-{high}'"
    # Said in the player's language (PROTOCOL §2a), the tiles named as he wrote them.
    await me.request({"type": "hello", "token": seated.accounts[seat].token, "lang": "ru"})
    russian = await me.request(wrong)
    assert russian["code"] == "illegal_move"
    assert russian["message"] == f"'{high}-{low}' записана задом наперёд: пишите '{low}-{high}'"
    await me.request({"type": "hello", "lang": "en"})
    reply = await me.request({**wrong, "seq": state["seq"] - 1})
    assert reply["type"] == "error" and reply["code"] == "stale", reply
    after = await current(seated, server)
    assert after["seq"] == state["seq"] and after["view"]["chain"] == state["view"]["chain"]
    # The same tile written "a-b" is the move.
    reply = await me.request({**wrong, "tile": move["tile"]})
    assert reply["type"] == "table.state" and reply["seq"] == state["seq"] + 1, reply

