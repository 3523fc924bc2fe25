"""Redis key and channel names of the live store; every one starts with the configured prefix."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    prefix: str

    def table(self, table_id: str) -> str:
        """Hash {version, data}: one table's whole serialized state."""
        return f"{self.prefix}:table:{table_id}"

    def rounds(self, table_id: str) -> str:
        """List of the finished rounds of the table's game (hands, bazaar, moves), in order."""
        return f"{self.prefix}:rounds:{table_id}"

    def listeners(self, table_id: str) -> str:
        """Set of the processes subscribed to the table's channel, plus "*" while the set is
        known to be whole (see LiveStore.listen); missing: unknown."""
        return f"{self.prefix}:listeners:{table_id}"

    def process_channel(self, process: str) -> str:
        """Pub/sub channel of one process (its writer prefix): moves relayed to it."""
        return f"{self.prefix}:process:{process}"

    def presence(self, table_id: str) -> str:
        """Hash "{process}:{seat}" -> expiry ms: which seats have a live socket somewhere."""
        return f"{self.prefix}:presence:{table_id}"

    def seated(self, player_id: int) -> str:
        """Sorted set table_id -> when he sat down: the tables a player was seated at (those
        he left or that ended are dropped when read)."""
        return f"{self.prefix}:seated:{player_id}"

    @property
    def index(self) -> str:
        """Sorted set of the tables shown in the lobby, scored by creation time."""
        return f"{self.prefix}:tables"

    @property
    def deadlines(self) -> str:
        """Sorted set table_id -> turn deadline (epoch ms) of every running game."""
        return f"{self.prefix}:deadlines"

    @property
    def retire(self) -> str:
        """Sorted set table_id -> when a finished table leaves the lobby (epoch ms)."""
        return f"{self.prefix}:retire"

    @property
    def resumed(self) -> str:
        """When the clocks were last restarted after an outage of the store (epoch ms)."""
        return f"{self.prefix}:resumed"

    @property
    def outage(self) -> str:
        """String "began:ended" (epoch ms): the store's last outage, until the clocks were
        restarted after it."""
        return f"{self.prefix}:outage"

    @property
    def unwritten(self) -> str:
        """Set of tables whose game finished but is not yet written to the database."""
        return f"{self.prefix}:unwritten"

    @property
    def courtyard_away(self) -> str:
        """Sorted set "{table_id}:{player_id}" -> when a courtyard's waiting player, whose
        last socket closed, leaves its queue (PROTOCOL §2d)."""
        return f"{self.prefix}:courtyard-away"

    @property
    def snapshot_due(self) -> str:
        """Set of running tables whose state should be copied to the database (a round began)."""
        return f"{self.prefix}:snapshot_due"

    def session(self, session_id: str) -> str:
        """String "{player_id}:{name}" of a valid sign-in session, "-" once it is revoked."""
        return f"{self.prefix}:session:{session_id}"

    @property
    def sessions_channel(self) -> str:
        """Revoked sessions are announced here, so every process closes their sockets."""
        return f"{self.prefix}:ch:sessions"

    def table_channel(self, table_id: str) -> str:
        return f"{self.prefix}:ch:table:{table_id}"

    @property
    def lobby_channel(self) -> str:
        return f"{self.prefix}:ch:lobby"
