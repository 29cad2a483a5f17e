"""The game's randomness: every draw derives from the seed stored with the game (SB-16, SB-17).

A hash stream rather than `random.Random`, whose shuffling algorithms are not promised to stay the
same across Python versions: a game replayed years later, or exported to another server, must
place the same asteroids and deal the same powers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def _number(seed: int, purpose: str, index: int) -> int:
    digest = hashlib.sha256(f"spaceblast:{seed}:{purpose}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shuffled(seed: int, purpose: str, items: Sequence[T]) -> list[T]:
    """`items` in an order fixed by (seed, purpose): a Fisher-Yates shuffle on the hash stream.

    Each purpose ("asteroids", "powers") draws from its own stream, so adding a draw for one never
    changes another's outcome."""
    result = list(items)
    for index in range(len(result) - 1, 0, -1):
        pick = _number(seed, purpose, index) % (index + 1)
        result[index], result[pick] = result[pick], result[index]
    return result
