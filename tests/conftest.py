"""Project-wide fixtures: the test-only games are registered for every test."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.compose import serve_games
from bot.games import remove_game
from tests.support.tally_bot import TEST_GAMES_SPEC


@pytest.fixture(autouse=True)
def _state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the console keeps between sessions (line history, names) goes to the test's folder, not $HOME."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


#: The loggers whose level `bot.app.setup_logging` changes besides the root's.
_QUIETED = ("discord", "apscheduler", "alembic", "urllib3")


@pytest.fixture(autouse=True)
def _logging_put_back() -> Iterator[None]:
    """A command run in this process (`bot.cli.main`) sets up logging as `spacechess` does: handlers on
    the root logger writing to the test's captured stderr (or a log file), and levels. They are removed
    after the test, else every later test of this process (or a thread of this one still finishing,
    such as a draw tick) logs to a stream pytest has closed ("--- Logging error ---")."""
    root = logging.getLogger()
    handlers, level = set(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in _QUIETED}
    yield
    for handler in root.handlers[:]:
        # pytest's own capture handlers (subclasses) come and go with each phase: left to pytest
        if handler not in handlers and type(handler) in (logging.StreamHandler, logging.FileHandler):
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)
    for name, kept in levels.items():
        logging.getLogger(name).setLevel(kept)


@pytest.fixture(autouse=True, scope="session")
def tally_game():
    """The test-only games, served by the bot beside the shipped ones (``/tl``, ``/ts``, ``/td``)
    through the path any game from outside the package takes: its entries, checked whole."""
    served = serve_games(TEST_GAMES_SPEC)
    yield served
    for entry in served:
        remove_game(entry.kind)
