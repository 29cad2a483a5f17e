"""Wiring shared by every entry point: settings → logging, store, service."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from bot.cli_failures import CliFailure
from bot.config import Settings, load_settings, resolve_config_path
from bot.games import GameSetupError, check_games
from bot.service import GameService
from bot.store.repo import Store


def settings_from(config: Path | None) -> Settings:
    return load_settings(resolve_config_path(config))


def setup_logging(settings: Settings, verbose: bool = False) -> None:
    """One line per event on stderr (and the configured file); --verbose shows debug lines."""
    level = logging.DEBUG if verbose else getattr(logging, settings.logging.level)
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if settings.logging.file is not None:
        handlers.append(_log_file(settings.logging.file))
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", handlers=handlers,
                        force=True)
    if not verbose:
        for noisy in ("discord", "apscheduler", "alembic", "urllib3"):
            logging.getLogger(noisy).setLevel(max(level, logging.WARNING))


def _log_file(path: Path) -> logging.Handler:
    """The configured log file, opened now: a missing folder or a read-only file is said at start,
    naming the key to change, rather than as a stack trace."""
    try:
        return logging.FileHandler(path, encoding="utf-8")
    except OSError as err:
        raise CliFailure(f"cannot write the log file {path} (logging.file): {err.strerror or err}") from err


def open_service(settings: Settings) -> GameService:
    """The store (migrated to the latest schema) and the service on top of it, once every game of
    the list is found whole (a game missing a part is a failure at start, not an empty board later)."""
    try:
        check_games()
    except GameSetupError as err:
        raise CliFailure(str(err)) from err
    store = Store(settings.database.url)
    return GameService(store, default_language=settings.bot.language)
