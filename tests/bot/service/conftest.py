"""The tally test game's text-order command, for the service tests that play it."""

from __future__ import annotations

import pytest

from bot.service.commands import COMMANDS
from bot.service.orders import register_order_command


@pytest.fixture
def tally_orders():
    """`/tl order` for the test-only tally game, removed afterwards (the table is global)."""
    register_order_command("tl", "tally")
    yield
    del COMMANDS["tl order"]
