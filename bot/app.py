"""Wiring shared by every entry point: settings → logging, store, service.

The settings and the logging come first and cost little; the service is what is slow to open
(SQLAlchemy, the schema check, every game's modules): `open_service` imports them when it is called,
and `open_service_soon` opens it on a thread of its own, so that the console shows its prompt while it
loads and the first command waits only for what is left of it (issue 14).
"""

from __future__ import annotations

import logging
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli_failures import CliFailure
from bot.config import Settings, load_settings, resolve_config_path

if TYPE_CHECKING:
    from bot.service import GameService


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
    from bot.compose import check_games, game_service
    from bot.games import GameSetupError
    from bot.store.repo import Store

    try:
        check_games()
    except GameSetupError as err:
        raise CliFailure(str(err)) from err
    store = Store(settings.database.url)
    return game_service(store, default_language=settings.bot.language)


def open_service_soon(settings: Settings) -> Future[GameService]:
    """`open_service` on a thread of its own, started now: its result, or its failure (raised again by
    `Future.result`, so a bad database or a broken game ends the command as it would have at once).

    The caller must have imported what it needs before, and wait for the result before importing
    more: the thread imports most of the bot, and two threads importing modules that import each
    other can see one another's modules half made. The thread is not a daemon: quitting at the
    prompt waits for it, so a migration is never cut short."""
    opened: Future[GameService] = Future()

    def run() -> None:
        try:
            opened.set_result(open_service(settings))
        except BaseException as err:  # noqa: BLE001 - handed to the waiting thread, which raises it
            opened.set_exception(err)

    threading.Thread(target=run, name="open-service").start()
    return opened
