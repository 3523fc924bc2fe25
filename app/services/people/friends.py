"""Friends (PROTOCOL §2c): a request one way, a friendship both ways; `friend.update` to
the other player on each change, and to a player's friends when he comes online, goes
offline or sits at a table."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.db import people
from app.db.session import Database
from app.live.store import LiveStore
from app.services.errors import ServiceError
from app.services.fanout.notices import PlayerNotices
from app.services.people import directory
from app.services.tables.caps import PlayerCaps
from app.wire.messages import FriendInfo

log = logging.getLogger(__name__)


class Friends:
    def __init__(self, store: LiveStore, db: Database, notices: PlayerNotices,
                 caps: PlayerCaps) -> None:
        self.store = store
        self.db = db
        self.notices = notices
        self.caps = caps

    async def info(self, player_id: int, name: str, status: str) -> FriendInfo:
        """What another sees of the player: his presence only where they are friends."""
        if status != "friends":
            return {"name": name, "status": status,  # type: ignore[typeddict-item]
                    "online": False, "table_id": None}
        return {"name": name, "status": "friends",
                "online": await directory.online(self.caps, player_id),
                "table_id": await directory.public_table(self.store, player_id)}

    async def ask(self, me: int, my_name: str, name: str) -> str:
        """`me` asks `name` to be friends, or accepts his request: "requested" or
        "friends". 403 when either blocks the other, 409 for oneself."""
        async with self.db.writing() as session:
            other = await directory.find(session, name)
            if other.id == me:
                raise ServiceError("bad_request", "people_yourself", 409)
            if await people.apart(session, me, [other.id]):
                raise ServiceError("bad_request", "people_forbidden", 403)
            await people.add_link(session, me, other.id)
            mutual = await people.has_link(session, other.id, me)
        status = "friends" if mutual else "requested"
        await self.notices.tell([other.id], {
            "type": "friend.update", "friend": await self.info(me, my_name, status)})
        if mutual:
            await self.notices.tell([me], {
                "type": "friend.update", "friend": await self.info(other.id, other.name,
                                                                    "friends")})
        return status

    async def drop(self, me: int, my_name: str, name: str) -> None:
        """Unfriend, withdraw a request or decline one."""
        async with self.db.writing() as session:
            other = await directory.find(session, name)
            if other.id == me:
                raise ServiceError("bad_request", "people_yourself", 409)
            dropped = await people.drop_links(session, me, other.id)
        if dropped:
            await self.notices.tell([other.id], {"type": "friend.update", "friend": {
                "name": my_name, "status": "none", "online": False, "table_id": None}})

    async def listing(self, me: int, limit: int, offset: int) -> dict[str, object]:
        async with self.db.session() as session:
            links = await people.links_of(session, me, limit, offset)
        friends = [await self.info(pid, name, "friends") for pid, name in links.friends]
        return {"friends": [{"name": f["name"], "online": f["online"],
                             "table_id": f["table_id"]} for f in friends],
                "incoming": [name for _pid, name in links.incoming],
                "outgoing": [name for _pid, name in links.outgoing]}

    async def tell_friends(self, player_id: int, name: str) -> None:
        """The player's friends hear where he is now (online, offline, at a table)."""
        try:
            async with self.db.session() as session:
                ids = await people.friend_ids(session, player_id)
            if ids:
                await self.notices.tell(ids, {
                    "type": "friend.update", "friend": await self.info(player_id, name,
                                                                        "friends")})
        except (RedisError, OSError, SQLAlchemyError) as error:
            log.warning("friends of %s not told where he is: %r", player_id, error)
