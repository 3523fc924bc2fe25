"""The seeded, verifiable shuffle of PROTOCOL.md §4 (RULES.md §10)."""

from __future__ import annotations

import functools
import hashlib
import itertools
import secrets
import struct
from collections.abc import Iterator, Sequence
from typing import TypeVar

from app.engine.tiles import Tile, full_set

T = TypeVar("T")
SEED_BYTES = 32
_WORDS = struct.Struct(">8I")  # a SHA-256 digest as eight big-endian 4-byte words


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


@functools.lru_cache(maxsize=4096)  # every view of a game shows it
def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class ByteStream:
    """sha256(seed ‖ round ‖ attempt ‖ counter) blocks, counter = 0, 1, 2, ...; 4-byte draws."""

    def __init__(self, seed: bytes, round_index: int, attempt: int) -> None:
        prefix = seed + round_index.to_bytes(4, "big") + attempt.to_bytes(4, "big")
        self.words = _words(prefix)

    def draw(self, m: int) -> int:
        """A uniform integer in [0, m) by rejection sampling."""
        return _draw(self.words, m)


def _words(prefix: bytes) -> Iterator[int]:
    """The stream as big-endian 4-byte unsigned integers."""
    for counter in itertools.count():
        yield from _WORDS.unpack(hashlib.sha256(prefix + counter.to_bytes(4, "big")).digest())


def _draw(words: Iterator[int], m: int) -> int:
    limit = 2**32 - (2**32 % m)
    x = next(words)
    while x >= limit:
        x = next(words)
    return x % m


def shuffled(tiles: Sequence[T], stream: ByteStream) -> list[T]:
    """Fisher-Yates: for i from len-1 down to 1, swap i with draw(i + 1)."""
    order = list(tiles)
    words = stream.words
    for i in range(len(order) - 1, 0, -1):
        # _draw(words, i + 1), inlined: this loop is most of the cost of a deal.
        m = i + 1
        limit = 2**32 - (2**32 % m)
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % m
        order[i], order[j] = order[j], order[i]
    return order


def deal_order(seed: bytes, round_index: int, attempt: int, count: int) -> list[int]:
    """The shuffled order of tile ids 0..count-1 (canonical order) for one deal attempt."""
    return shuffled(range(count), ByteStream(seed, round_index, attempt))


def deal(
    seed: bytes, round_index: int, attempt: int, players: int, hand_size: int, max_pip: int = 6
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands by seat and the bazaar in draw order for one deal attempt."""
    tiles = full_set(max_pip)
    order = [tiles[i] for i in deal_order(seed, round_index, attempt, len(tiles))]
    hands = [order[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    return hands, order[players * hand_size :]
