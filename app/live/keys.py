"""Redis key and channel names of the live store; every one starts with the configured prefix.

The names are made for Redis Cluster as well as for one Redis (where the braces change
nothing). Everything of one table, its keys and its channel, carries the hash tag
`{table_id}`, so it lives on one shard and the table's scripts touch one slot. Keys that a
script touches together but that are not a table's (the lobby's index and retire set, the
seeks, the caps, the rate-limit buckets, the clock's outage record) share a tag of their
own (`family`). Keys only ever used alone (a session, a player's tables) carry no tag.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    prefix: str

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

    @property
    def deadlines(self) -> str:
        """Sorted set table_id -> turn deadline (epoch ms) of every running game."""
        return self.family("deadlines")

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
