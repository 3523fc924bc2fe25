"""Redis key and channel names of the live store; every one starts with the configured prefix.

The names are made for Redis Cluster as well as for one Redis (where the braces change
nothing). Everything of one table, its keys and its channel, carries the hash tag
`{table_id}`, so it lives on one shard and the table's scripts touch one slot. Keys that a
script touches together but that are not a table's (the lobby's index and retire set, the
seeks, the caps, the clock's outage record) share a tag of their own (`family`); a
rate-limit bucket has its owner's (app.live.ratelimit). Keys only ever used alone (a
session, a player's tables) carry no tag.

A set that every move touches (the turn deadlines) is one key on one Redis and `parts` keys
on a cluster, so that no one shard takes every move's share of it: part i is under a tag
whose slot lies in the i-th of `parts` equal ranges of the slots, and a table's entry is in
the part whose range holds the table's own slot (on a cluster whose masters hold equal
ranges, the master of the table itself). Whoever reads the whole set reads every part.
"""

from __future__ import annotations

import functools
import itertools
import secrets
from dataclasses import dataclass

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

# How many parts a cluster's shared per-move sets are cut into (see `Keys.parts`).
CLUSTER_PARTS = 16


@functools.cache
def spread_tags(name: str, parts: int) -> tuple[str, ...]:
    """`parts` hash tags for the parts of `name`: the i-th one's slot in the i-th of `parts`
    equal ranges of the cluster's slots."""
    tags = []
    for i in range(parts):
        low = i * REDIS_CLUSTER_HASH_SLOTS // parts
        high = (i + 1) * REDIS_CLUSTER_HASH_SLOTS // parts
        n = 0
        while not low <= key_slot(f"{name}:{n}".encode()) < high:
            n += 1
        tags.append(f"{name}:{n}")
    return tuple(tags)


# The slot range the next new table's id is made for (see `new_table_id`).
_next_range = itertools.count(secrets.randbelow(CLUSTER_PARTS))


def new_table_id() -> str:
    """A new table's id: 16 random hex digits, made so that its slot falls in the next of
    `CLUSTER_PARTS` equal ranges of the cluster's slots in turn. Tables (and with them their
    deadline parts) then spread evenly over a cluster's masters, not as chance has it
    (a hundred random ones: a third each give or take 15 %); on one Redis it changes
    nothing. 60 of the 64 bits stay random."""
    part = next(_next_range) % CLUSTER_PARTS
    while True:
        candidate = secrets.token_hex(8)
        if key_slot(candidate.encode()) * CLUSTER_PARTS // REDIS_CLUSTER_HASH_SLOTS == part:
            return candidate


@dataclass(frozen=True)
class Keys:
    prefix: str
    # 1 on one Redis; CLUSTER_PARTS on a cluster (see the module's text)
    parts: int = 1

    def family(self, name: str) -> str:
        """The prefix of keys that are used together in one script or transaction: one hash
        tag, so one slot of a cluster."""
        return f"{self.prefix}:{{{name}}}"

    def _of_table(self, kind: str, table_id: str) -> str:
        return f"{self.prefix}:{kind}:{{{table_id}}}"

    def table(self, table_id: str) -> str:
        """Hash {version, data}: one table's whole serialized state."""
        return self._of_table("table", table_id)

    def rounds(self, table_id: str) -> str:
        """List of the finished rounds of the table's game (hands, bazaar, moves), in order."""
        return self._of_table("rounds", table_id)

    def listeners(self, table_id: str) -> str:
        """Set of the processes subscribed to the table's channel, plus "*" while the set is
        known to be whole (see LiveStore.listen); missing: unknown."""
        return self._of_table("listeners", table_id)

    def answers(self, table_id: str) -> str:
        """Hash request id -> version: the relayed moves the table's writes carried out
        lately (each kept a minute), so a process that missed the answer can look it up."""
        return self._of_table("answers", table_id)

    def process_channel(self, process: str) -> str:
        """Pub/sub channel of one process (its writer prefix): moves relayed to it. A shard
        channel (SPUBLISH), so the count of its subscribers that a publish answers is the
        whole count on a cluster too: 0 says the process is gone."""
        return f"{self.prefix}:process:{{{process}}}"

    def presence(self, table_id: str) -> str:
        """Hash "{process}:{seat}" -> expiry ms: which seats have a live socket somewhere."""
        return self._of_table("presence", table_id)

    def watchers(self, table_id: str) -> str:
        """Hash process -> "expires ms:count": each process's spectators' sockets there."""
        return self._of_table("watchers", table_id)

    def seated(self, player_id: int) -> str:
        """Sorted set table_id -> when he sat down: the tables a player was seated at (those
        he left or that ended are dropped when read)."""
        return f"{self.prefix}:seated:{player_id}"

    @property
    def index(self) -> str:
        """Sorted set of the tables shown in the lobby, scored by creation time."""
        return f"{self.family('lobby')}:tables"

    def _parts(self, name: str) -> tuple[str, ...]:
        if self.parts == 1:
            return (self.family(name),)
        return tuple(self.family(tag) for tag in spread_tags(name, self.parts))

    def _part_of(self, name: str, table_id: str) -> str:
        parts = self._parts(name)
        if len(parts) == 1:
            return parts[0]
        return parts[key_slot(table_id.encode()) * len(parts) // REDIS_CLUSTER_HASH_SLOTS]

    @property
    def deadline_sets(self) -> tuple[str, ...]:
        """Sorted sets table_id -> turn deadline (epoch ms) of every running game: one on
        one Redis, `parts` on a cluster."""
        return self._parts("deadlines")

    def deadlines(self, table_id: str) -> str:
        """The deadline set that holds the table's entry."""
        return self._part_of("deadlines", table_id)

    @property
    def retire(self) -> str:
        """Sorted set table_id -> when a finished table leaves the lobby (epoch ms)."""
        return f"{self.family('lobby')}:retire"

    @property
    def resumed(self) -> str:
        """When the clocks were last restarted after an outage of the store (epoch ms)."""
        return f"{self.family('clock')}:resumed"

    @property
    def outage(self) -> str:
        """String "began:ended" (epoch ms): the store's last outage, until the clocks were
        restarted after it."""
        return f"{self.family('clock')}:outage"

    @property
    def unwritten(self) -> str:
        """Set of tables whose game finished but is not yet written to the database."""
        return self.family("unwritten")

    @property
    def courtyard_away(self) -> str:
        """Sorted set "{table_id}:{player_id}" -> when a courtyard's waiting player, whose
        last socket closed, leaves its queue (PROTOCOL §2d)."""
        return f"{self.prefix}:courtyard-away"

    @property
    def snapshot_due(self) -> str:
        """Set of running tables whose state should be copied to the database (a round began)."""
        return self.family("snapshot_due")

    def session(self, session_id: str) -> str:
        """String "{player_id}:{name}" of a valid sign-in session, "-" once it is revoked."""
        return f"{self.prefix}:session:{session_id}"

    @property
    def sessions_channel(self) -> str:
        """Revoked sessions are announced here, so every process closes their sockets."""
        return f"{self.prefix}:ch:sessions"

    def table_channel(self, table_id: str) -> str:
        """A table's channel: a shard channel (SPUBLISH, SSUBSCRIBE) in the table's slot, so
        a cluster carries it on the table's shard only. The channels without a hash tag are
        ordinary ones, which a cluster carries to every node."""
        return self._of_table("ch:table", table_id)

    def sharded(self, channel: str) -> bool:
        """Whether `channel` is a shard channel: it carries a hash tag (a table's, a
        process's)."""
        return "{" in channel[len(self.prefix):]

    @property
    def lobby_channel(self) -> str:
        return f"{self.prefix}:ch:lobby"
