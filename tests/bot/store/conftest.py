"""Storage-test helpers on top of tests/bot/conftest.py's `store` fixtures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.store import GameRecord, NewEntry, Store


@pytest.fixture
def make_game() -> Callable[..., GameRecord]:
    """create_game with plausible defaults; keyword arguments override them."""

    def make(store: Store, **overrides: Any) -> GameRecord:
        fields: dict[str, Any] = {
            "kind": "spacechess",
            "name": "Bataille d'Orion",
            "guild_id": 1_234_567_890_123_456_789,
            "channel_id": 987_654_321_098_765_432,
            "setup": {"map": "standard", "characters": [{"name": "Alice", "team": "red"}]},
            "state": {"turn": 0, "ap": {"Alice": 0}},
            "seed": 2**62 + 7,
            "created_by": 42,
            "entries": [NewEntry("create", None, 42, {"map": "standard"})],
        }
        fields.update(overrides)
        return store.create_game(**fields)

    return make
