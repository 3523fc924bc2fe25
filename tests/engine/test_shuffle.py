"""PROTOCOL §4 / RULES §10 seeded shuffle, byte for byte, and the RULES §1.1 redeal."""

from __future__ import annotations

import hashlib
import random

import pytest

from app.engine import commitment, new_game, new_seed, start_game
from app.engine.shuffle import deal
from tests.engine.driver import seed_of
from tests.engine.reference import (
    DOUBLE_SIX,
    DOUBLE_TWELVE,
    classic_hand_size,
    deal_attempt,
    goat_deal,
    needs_redeal,
    shuffled,
    ts,
)


def _engine_hands(game, players: int) -> list[list[str]]:
    return [sorted(game.view(s)["hand"]) for s in range(players)]


def _names(hands) -> list[list[str]]:
    return [sorted(ts(tuple(t)) for t in h) for h in hands]


def test_reference_shuffle_is_the_protocol_text() -> None:
    """PROTOCOL §4: a self-check of the test's own reference: the canonical order is
    0-0, 0-1, ..., 0-6, 1-1, ..., 6-6 and the first swap uses draw(28) of the stream
    sha256(seed + r + k + c) read as 4-byte big-endian integers."""
    assert [ts(t) for t in DOUBLE_SIX[:8]] == [
        "0-0",
        "0-1",
        "0-2",
        "0-3",
        "0-4",
        "0-5",
        "0-6",
        "1-1",
    ]
    assert len(DOUBLE_SIX) == 28 and len(DOUBLE_TWELVE) == 91
    seed = bytes(range(32))
    digest = hashlib.sha256(seed + (0).to_bytes(4, "big") * 3).digest()
    x = int.from_bytes(digest[:4], "big")
    assert x < 2**32 - (2**32 % 28)  # no rejection for this seed: j = x % 28
    order = list(DOUBLE_SIX)
    j = x % 28
    order[27], order[j] = order[j], order[27]
    assert shuffled(seed, 0, 0)[27] == order[27]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_deal_matches_reference_byte_for_byte(players: int) -> None:
    """PROTOCOL §4: for many seeds, rounds and attempts the hands by seat and the bazaar order
    equal an independent implementation of the text."""
    rng = random.Random(players)
    for i in range(150):
        seed = rng.randbytes(32) if i % 2 else seed_of("deal", i)
        rnd, attempt = rng.randrange(0, 40), rng.randrange(0, 5)
        for size in (7, 5):
            hands, bazaar = deal(seed, rnd, attempt, players, size)
            ref_hands, ref_bazaar = deal_attempt(seed, rnd, attempt, players, size)
            assert [list(h) for h in hands] == ref_hands, (seed.hex(), rnd, attempt)
            assert list(bazaar) == ref_bazaar


def test_double_twelve_order_matches_reference() -> None:
    """RULES §10: the double-twelve set is shuffled likewise from canonical order 0-0..12-12."""
    for i in range(40):
        seed = seed_of("d12", i)
        hands, bazaar = deal(seed, i % 13, i % 3, 4, 12, max_pip=12)
        order = shuffled(seed, i % 13, i % 3, DOUBLE_TWELVE)
        assert [list(h) for h in hands] == [order[s * 12 : (s + 1) * 12] for s in range(4)]
        assert list(bazaar) == order[48:]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_deals_round_zero_from_the_seed(players: int) -> None:
    """RULES §10, §1.1: the first round's hands are the deal of round 0 (attempt 0 unless a
    redeal was due), in seat order."""
    for i in range(60):
        seed = seed_of(f"new-{players}", i)
        game = new_game("goat", players, {}, seed)
        hands, _bazaar, _k = goat_deal(seed, 0, players)
        assert _engine_hands(game, players) == _names(hands)
        assert game.view(None)["bazaar"] == 28 - 7 * players


def _redeal_seeds(players: int, rnd: int, want: int = 3) -> list[tuple[bytes, int]]:
    found = []
    i = 0
    while len(found) < want:
        seed = seed_of(f"redeal-{players}-{rnd}", i)
        k = goat_deal(seed, rnd, players)[2]
        if k > 0:
            found.append((seed, k))
        i += 1
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeal_uses_the_next_attempt(players: int) -> None:
    """RULES §1.1: a hand with 5+ doubles or 6+ tiles sharing a number is redealt; PROTOCOL §4:
    the redeal is attempt k+1 of the same round."""
    for seed, k in _redeal_seeds(players, 0):
        first, _ = deal_attempt(seed, 0, 0, players, 7)
        assert needs_redeal(first)
        game = new_game("goat", players, {}, seed)
        used, _ = deal_attempt(seed, 0, k, players, 7)
        assert _engine_hands(game, players) == _names(used)
        assert _engine_hands(game, players) != _names(first)


def test_redeal_triggered_by_six_tiles_of_one_number() -> None:
    """RULES §1.1: "six tiles that contain a 4" alone (fewer than 5 doubles) forces a redeal."""
    i = 0
    while True:
        seed = seed_of("six-of-a-number", i)
        hands, _ = deal_attempt(seed, 0, 0, 4, 7)
        doubles = max(sum(1 for a, b in h if a == b) for h in hands)
        if needs_redeal(hands) and doubles < 5:
            break
        i += 1
    game = new_game("goat", 4, {}, seed)
    assert _engine_hands(game, 4) != _names(hands)
    assert _engine_hands(game, 4) == _names(goat_deal(seed, 0, 4)[0])


def test_redeal_triggered_by_five_doubles() -> None:
    """RULES §1.1: 5 or more doubles in one hand forces a redeal."""
    i = 0
    while True:
        seed = seed_of("five-doubles", i)
        hands, _ = deal_attempt(seed, 0, 0, 4, 7)
        if any(sum(1 for a, b in h if a == b) >= 5 for h in hands):
            break
        i += 1
    game = new_game("goat", 4, {}, seed)
    assert _engine_hands(game, 4) == _names(goat_deal(seed, 0, 4)[0])


def test_classic_deals_5_or_7_without_goat_redeal() -> None:
    """RULES §2: deal 7 each with 2 players, 5 each with 3 or 4; the rest is the bazaar. There
    is no redeal rule in Classic (§1.1 is Goat's), so a 2-player deal Goat would redeal stands."""
    for players in (2, 3, 4):
        size = classic_hand_size(players)
        for i in range(20):
            seed = seed_of(f"classic-{players}", i)
            game = new_game("classic", players, {}, seed)
            hands, _ = deal_attempt(seed, 0, 0, players, size)
            assert _engine_hands(game, players) == _names(hands)
            assert game.view(None)["bazaar"] == 28 - size * players
    i = 0
    while True:
        seed = seed_of("classic-redeal", i)
        hands, _ = deal_attempt(seed, 0, 0, 2, 7)
        if needs_redeal(hands):
            break
        i += 1
    assert _engine_hands(new_game("classic", 2, {}, seed), 2) == _names(hands)


def test_commitment_is_sha256_of_the_seed() -> None:
    """PROTOCOL §4: commitment = sha256(seed).hex(); RULES §10: published at the start."""
    for i in range(10):
        seed = new_seed() if i % 2 else seed_of("commit", i)
        assert len(seed) == 32
        want = hashlib.sha256(seed).hexdigest()
        assert commitment(seed) == want
        game, started = start_game("goat", 2 + i % 3, {}, seed)
        assert game.commitment == want
        assert game.view(None)["commitment"] == want
        assert game.view(0)["seed"] is None
        starts = [e for e in started if e["type"] == "start"]
        assert starts and starts[0]["commitment"] == want
    assert new_seed() != new_seed()
