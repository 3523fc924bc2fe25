"""The seeded, verifiable shuffle of PROTOCOL.md §4 (RULES.md §10)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence

from app.engine.tiles import Tile, full_set

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class ByteStream:
    """sha256(seed ‖ round ‖ attempt ‖ counter) blocks, counter = 0, 1, 2, ...; 4-byte draws."""

    def __init__(self, seed: bytes, round_index: int, attempt: int) -> None:
        self._prefix = seed + round_index.to_bytes(4, "big") + attempt.to_bytes(4, "big")
        self._blocks = self._generate()
        self._buffer = b""

    def _generate(self) -> Iterator[bytes]:
        counter = 0
        while True:
            yield hashlib.sha256(self._prefix + counter.to_bytes(4, "big")).digest()
            counter += 1

    def _take4(self) -> int:
        while len(self._buffer) < 4:
            self._buffer += next(self._blocks)
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def draw(self, m: int) -> int:
        """A uniform integer in [0, m) by rejection sampling."""
        limit = 2**32 - (2**32 % m)
        while True:
            x = self._take4()
            if x < limit:
                return x % m


def shuffled(tiles: Sequence[Tile], stream: ByteStream) -> list[Tile]:
    order = list(tiles)
    for i in range(len(order) - 1, 0, -1):
        j = stream.draw(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def deal(
    seed: bytes, round_index: int, attempt: int, players: int, hand_size: int, max_pip: int = 6
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands by seat and the bazaar in draw order for one deal attempt."""
    order = shuffled(full_set(max_pip), ByteStream(seed, round_index, attempt))
    hands = [order[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    return hands, order[players * hand_size :]


def random_seat(seed: bytes, players: int) -> int:
    """A random first leader (Fives): draw(n) from round 0's stream with attempt 1000."""
    return ByteStream(seed, 0, 1000).draw(players)
