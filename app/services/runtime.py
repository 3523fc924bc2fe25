"""The live-tables machinery of one process, as kept on `app.state.live`."""

from __future__ import annotations

import secrets

from app.config import Settings
from app.db.session import Database
from app.live.chat_log import ChatLog
from app.live.hub import Hub
from app.live.ratelimit import RateLimiter
from app.live.store import LiveStore, connect
from app.services.accounts.sessions import Sessions
from app.services.durable.finish import Finisher
from app.services.durable.recovery import Recovery
from app.services.durable.replays import Replays
from app.services.fanout.feed import Feed
from app.services.fanout.notices import PlayerNotices
from app.services.fanout.tournament_feed import TournamentFeed
from app.services.gathering.seeks import Seeks
from app.services.gathering.tournament_director import Director
from app.services.moderation.actions import Moderation
from app.services.people.blocks import Blocks
from app.services.people.challenges import Challenges
from app.services.people.friends import Friends
from app.services.play.bot_turns import BotTurns
from app.services.play.clock import Clock
from app.services.play.game_log import GameLogs
from app.services.play.relay import Relay
from app.services.play.route import Route
from app.services.tables.caps import PlayerCaps
from app.services.tables.queue_absence import QueueAbsence


async def unpersisted_refusal(settings: Settings, store: LiveStore) -> str | None:
    """Why this Redis must not hold the live tables, or None when it may."""
    if settings.mode != "development" and not settings.redis_unpersisted_ok \
            and not settings.embedded_store and not await store.persistent():
        return (
            "the live store's Redis does not persist (appendonly no): a restart would lose "
            "every running game. Turn on AOF (appendonly yes), or set "
            "DOMINO_REDIS_UNPERSISTED_OK=true if persistence is handled elsewhere."
        )
    return None


class LiveTables:
    def __init__(self, settings: Settings, db: Database) -> None:
        # Names this process's presence entries; unique per start.
        self.process_id = secrets.token_hex(6)
        self.store = LiveStore(
            connect(settings.redis_url, pool_size=settings.redis_pool_size,
                    pool_timeout=settings.redis_pool_timeout,
                    timeout=settings.redis_timeout_seconds),
            settings.redis_prefix,
        )
        # Rate limits shared by every process, in the same Redis as the tables.
        self.limiter = RateLimiter(self.store.redis, self.store.keys.prefix,
                                   self.store.runner)
        self.caps = PlayerCaps(self.store, settings)
        self.hub = Hub(self.store)
        self.recovery = Recovery(self.store, db)
        self.feed = Feed(self.store, self.hub, self.process_id, settings.heartbeat_seconds,
                         recover=self.recovery.restore)
        self.sessions = Sessions(self.store, db)
        # The messages for players rather than tables (kept until they act on them).
        self.notices = PlayerNotices(self.store, self.hub)
        self.finisher = Finisher(self.store, db, self.notices)
        # Moves at a table another process holds are applied there.
        self.relay = Relay(self.store, self.hub, self.feed, self.finisher)
        # A player's move, applied here or where its table is held.
        self.route = Route(self.store, self.feed, self.relay, self.finisher)
        self.bots = BotTurns(self.store, self.finisher, settings.bot_think_seconds)
        self.bot_pace_ms = int(settings.bot_pace_seconds * 1000)
        self.clock = Clock(
            self.store, self.feed, self.finisher, settings.sweep_seconds, due=self.bots.due,
            recovery=self.recovery, recover_seconds=settings.recover_seconds,
        )
        self.db = db
        self.settings = settings
        # Quick pairing.
        self.seeks = Seeks(self.store, db, self.notices, self.caps)
        # A courtyard's waiting players who are away too long leave its queue (PROTOCOL §2d).
        self.queue_absence = QueueAbsence(self.store, self.caps, self.notices)
        # Answers that replay a whole game, computed once and kept for every process.
        self.logs = GameLogs(self.store)
        self.replays = Replays(self.store, db)
        # People: friends, blocks, challenges (PROTOCOL §2c).
        self.friends = Friends(self.store, db, self.notices, self.caps)
        self.blocks = Blocks(db, self.notices)
        self.challenges = Challenges(db, self.notices)
        # Reports and moderation (PROTOCOL §2h): chat kept for the moderators, the actions.
        self.chat_log = ChatLog(self.store)
        self.moderation = Moderation(db, self.chat_log, self.sessions, self.notices)
        self.tournaments = TournamentFeed(self.store, self.hub, db)
        self.director = Director(self.store, db, self.notices, self.tournaments, self.recovery,
                                 self.process_id)

    async def start(self) -> None:
        refusal = await unpersisted_refusal(self.settings, self.store)
        if refusal is not None:
            raise RuntimeError(refusal)
        await self.feed.start()
        await self.relay.start()
        await self.sessions.start(self.hub)
        # Games that finished while no process could write them (a crash, a restart).
        await self.finisher.sweep()
        self.clock.start()
        self.caps.start()
        await self.notices.start()
        self.seeks.start()
        self.queue_absence.start()
        await self.tournaments.start()
        self.director.start()

    async def stop(self) -> None:
        await self.director.stop()
        await self.seeks.stop()
        await self.queue_absence.stop()
        await self.caps.stop()
        await self.clock.stop()
        await self.bots.stop()
        await self.finisher.stop()
        await self.sessions.stop()
        await self.relay.stop()
        await self.feed.stop()
        await self.store.close()

    async def ping(self) -> bool:
        return await self.store.ping()
