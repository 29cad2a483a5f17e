"""Project-wide fixtures: the test-only games are registered for every test."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import add_game, remove_game
from engine import registry
from tests.support.tally import TALLY
from tests.support.tally_bot import DUEL_ENTRY, SEALED_ENTRY, TALLY_ENTRY
from tests.support.variants import DUEL, SEALED


@pytest.fixture(autouse=True)
def _state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the console keeps between sessions (line history, names) goes to the test's folder, not $HOME."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture(autouse=True, scope="session")
def tally_game():
    """The test-only games, served by the bot beside the shipped ones (``/tl``, ``/ts``, ``/td``)."""
    for rules in (TALLY, SEALED, DUEL):
        registry.register(rules)
    for entry in (TALLY_ENTRY, SEALED_ENTRY, DUEL_ENTRY):
        add_game(entry)
    yield TALLY
    for rules in (TALLY, SEALED, DUEL):
        remove_game(rules.name)
        registry.unregister(rules.name)
