"""Project-wide fixtures: the test-only games are registered for every test."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.compose import serve_games
from bot.games import remove_game
from tests.support.tally_bot import TEST_GAMES_SPEC


@pytest.fixture(autouse=True)
def _state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the console keeps between sessions (line history, names) goes to the test's folder, not $HOME."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture(autouse=True, scope="session")
def tally_game():
    """The test-only games, served by the bot beside the shipped ones (``/tl``, ``/ts``, ``/td``)
    through the path any game from outside the package takes: its entries, checked whole."""
    served = serve_games(TEST_GAMES_SPEC)
    yield served
    for entry in served:
        remove_game(entry.kind)
