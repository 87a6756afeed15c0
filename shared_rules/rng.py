"""A small seeded generator whose whole state is one integer kept in the match.

SplitMix64: fast, statistically sound for shuffling, and trivially serialisable.
"""

import hashlib
import secrets

MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int | str | None) -> int:
    """The generator's starting state for a seed; a fresh random one for None."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError("a seed is an int, a str or None")
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    """The next 64-bit value and the new state."""
    state = (state + _GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), state


def randbelow(n: int, state: int) -> tuple[int, int]:
    """A number in 0..n-1 and the new state (the modulo bias is below 2**-50 for a deck)."""
    value, state = next_u64(state)
    return value % n, state


def shuffled(items: list, state: int) -> tuple[list, int]:
    """A shuffled copy of items (Fisher-Yates) and the new state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = randbelow(i + 1, state)
        out[i], out[j] = out[j], out[i]
    return out, state
