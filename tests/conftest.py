"""Project-wide fixtures: the test-only games are registered for every test."""

from __future__ import annotations

import pytest

from bot.games import add_game, remove_game
from engine import registry
from tests.support.tally import TALLY
from tests.support.tally_bot import TALLY_ENTRY


@pytest.fixture(autouse=True, scope="session")
def tally_game():
    """The minimal test-only game, served by the bot beside the shipped ones (``/tl``)."""
    registry.register(TALLY)
    add_game(TALLY_ENTRY)
    yield TALLY
    remove_game(TALLY.name)
    registry.unregister(TALLY.name)
