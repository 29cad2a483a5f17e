"""Project-wide fixtures: the test-only game is registered for every test."""

from __future__ import annotations

import pytest

from engine import registry
from tests.support.tally import TALLY


@pytest.fixture(autouse=True, scope="session")
def tally_game():
    """The minimal test-only game, registered beside the shipped ones."""
    registry.register(TALLY)
    yield TALLY
    registry.unregister(TALLY.name)
