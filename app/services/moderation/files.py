"""A player's file as the moderators' page shows it: his standing, his recent games, the
chat lines kept from his tables (PROTOCOL §2h), his open reports and the audit log's last
lines about him. Bounded: the newest `GAMES` games, `TABLES` tables of chat."""

from __future__ import annotations

from app.db import moderation
from app.db.models import utcnow
from app.db.session import Database
from app.live.chat_log import ChatLog
from app.services.moderation.shapes import epoch_ms, log_entry, standing_info
from app.services.people import directory
from app.wire.moderation import PlayerFile, TableChat

GAMES = 20
TABLES = 10
LOG_LINES = 10


async def player_file(db: Database, chat: ChatLog, name: str) -> PlayerFile:
    async with db.session() as session:
        found = await directory.find(session, name)
        standing = await moderation.standing(session, found.id)
        assert standing is not None
        games = await moderation.recent_games(session, found.id, GAMES)
        open_reports, _ = await moderation.reports(session, "open", 1, 0, found.id)
        log = await moderation.entries(session, LOG_LINES, 0, found.id)
    # The tables he spoke at last, then those of his recent games, each once.
    tables = list(dict.fromkeys([*await chat.tables_of(found.id),
                                 *(game.table_id for game in games)]))[:TABLES]
    kept = await chat.lines(tables)
    said: list[TableChat] = [
        {"table_id": table_id,
         "lines": [{"name": line.name, "text": line.text, "at": line.at}
                   for line in kept[table_id]]}
        for table_id in tables if table_id in kept
    ]
    return {
        "player": standing_info(standing, utcnow()),
        "recent_games": [
            {"game_id": g.game_id, "variant": g.variant, "finished_at": epoch_ms(g.finished_at),
             "rated": g.rated, "outcome": g.outcome, "points": g.points,
             "gains_removed": g.gains_removed}
            for g in games
        ],
        "chat": said,
        "open_reports": open_reports,
        "log": [log_entry(entry) for entry in log],
    }
