"""Fixtures of the draw pipeline tests (helpers in games.py)."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.store import Store


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store)
