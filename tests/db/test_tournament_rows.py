"""The tournaments' repository keeps the director's promises in the database itself: a
table's game is credited once, however many directors try (a stalled one past its lease,
say), and a Swiss round is paired once from the round it was read at."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from app.db import tournaments
from app.db.models import Tournament, TournamentPlayer
from app.db.session import Database
from app.services.accounts.credentials import PlayerRef, register


async def _tournament(db: Database) -> tuple[str, list[PlayerRef]]:
    async with db.session() as session:
        people = [await register(session, f"t{secrets.token_hex(4)}", "password123")
                  for _ in range(2)]
    tournament_id = secrets.token_hex(8)
    async with db.writing() as session:
        tournaments.add(session, Tournament(
            id=tournament_id, name="cup", variant="goat", options={}, seats=2,
            format="swiss", status="running", creator_id=people[0].id, rounds=3,
            turn_seconds=30, round_pause_seconds=0, rated=False, private=False,
            max_players=8, store="test"))
    async with db.writing() as session:
        for who in people:
            tournaments.add_member(session, TournamentPlayer(
                tournament_id=tournament_id, player_id=who.id, points=0.0, games=0, byes=0,
                withdrawn=False, rating=1500.0))
    return tournament_id, people


async def test_a_table_is_credited_once_and_pays_each_seat(db: Database) -> None:
    tournament_id, people = await _tournament(db)
    seats = [people[1].id, people[0].id]
    async with db.writing() as session:
        tournaments.add_tables(session, tournament_id, [("t1", seats)], 1)
    async with db.session() as session:
        assert await tournaments.seated(session, tournament_id) == set(seats)
    for attempt in range(2):  # a second director finds it credited: nothing is paid twice
        async with db.writing() as session:
            credited = await tournaments.table_finished(session, "t1", [1.0, 0.0],
                                                        datetime.now(UTC))
            assert credited == (seats if attempt == 0 else None)
            for player_id, scored in zip(credited or [], [1.0, 0.0], strict=bool(credited)):
                await tournaments.add_points(session, tournament_id, player_id, scored,
                                             games=1)
    async with db.session() as session:
        members = {m.player_id: m for m in await tournaments.members(session, tournament_id)}
        (table,) = await tournaments.tables(session, tournament_id)
        assert await tournaments.seated(session, tournament_id) == set()
    assert (members[people[1].id].points, members[people[1].id].games) == (1.0, 1)
    assert (members[people[0].id].points, members[people[0].id].games) == (0.0, 1)
    assert table.status == "finished" and table.points == [1.0, 0.0]


async def test_a_round_moves_on_once_from_the_round_it_was_read_at(db: Database) -> None:
    tournament_id, _people = await _tournament(db)
    async with db.session() as session:
        read = await tournaments.get(session, tournament_id)
    assert read is not None and read.round is None
    async with db.writing() as session:
        assert await tournaments.next_round(session, read)
    async with db.writing() as session:
        assert not await tournaments.next_round(session, read)  # paired meanwhile
    async with db.session() as session:
        again = await tournaments.get(session, tournament_id)
        assert again is not None and again.round == 1
    async with db.writing() as session:
        assert await tournaments.next_round(session, again)
        assert await tournaments.finish(session, tournament_id, datetime.now(UTC))
    async with db.writing() as session:
        assert not await tournaments.finish(session, tournament_id, datetime.now(UTC))
    async with db.session() as session:
        done = await tournaments.get(session, tournament_id)
        assert done is not None and (done.round, done.status) == (2, "finished")
