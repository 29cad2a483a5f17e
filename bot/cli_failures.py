"""What the `spacechess` command says when something around the bot fails: the database, the disk,
the network, a log file, a closed pipe.

A person at a terminal needs one line saying what failed and where, not a stack trace: every command
ends with ``spacechess: <what failed>`` on stderr and a non-zero status, and ``--debug`` adds the
trace for whoever files the bug. The lines are English like the rest of the command's own output
(argparse, the config errors); replies to players are the ones localised.
"""

from __future__ import annotations

import errno
import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.exc import DBAPIError

#: the exit status of a command that failed for a reason outside the bot (status 2: bad usage or config)
FAILED = 1
#: the shell's status for a command stopped by Ctrl-C (128 + SIGINT)
INTERRUPTED = 130

#: what a database driver's message means for the person who has to fix it
_DATABASE_HINTS = {
    "unable to open database file": "its folder must exist and be writable",
    "readonly database": "the file or its folder is read-only",
    "disk is full": "the disk is full",
    "connection refused": "is the server running and reachable?",
    "could not translate host name": "the host name is unknown",
    "password authentication failed": "check the user and password in the URL",
}


#: the hints a SQLite file's permissions may explain more precisely (which one, and how to fix it)
_PERMISSION_HINTS = (_DATABASE_HINTS["unable to open database file"], _DATABASE_HINTS["readonly database"])


class CliFailure(Exception):
    """A failure already worded for the person at the terminal: printed as it is, on one line."""


def report(err: BaseException, *, debug: bool = False) -> int:
    """Say what failed on one stderr line (after the trace with `debug`); the exit status."""
    if isinstance(err, BrokenPipeError):
        _silence_stdout()
    if debug:
        traceback.print_exception(err, file=sys.stderr)
    if isinstance(err, KeyboardInterrupt):
        print("spacechess: interrupted", file=sys.stderr)
        return INTERRUPTED
    print(f"spacechess: {describe(err)}", file=sys.stderr, flush=True)
    return FAILED


def describe(err: BaseException) -> str:
    """One line for a failure: our own wording, the system's reason with the file it concerns, or
    the exception itself with a pointer to --debug when nothing better is known."""
    if isinstance(err, CliFailure):
        return str(err)
    if isinstance(err, BrokenPipeError):
        return "the output was closed before the end (broken pipe)"
    if isinstance(err, OSError):
        reason = "no space left on device" if err.errno == errno.ENOSPC else (err.strerror or str(err))
        return f"{reason} ({err.filename})" if err.filename else reason
    return f"unexpected error: {type(err).__name__}: {_first_line(str(err))} (run again with --debug for details)"


@contextmanager
def database_errors(url: str) -> Iterator[None]:
    """Turn a database failure (server down, unusable file, read-only, disk full) into one line naming
    the database, its password hidden."""
    try:
        yield
    except _database_failures() as err:
        raise CliFailure(f"cannot use the database {_shown_url(url)}: {database_reason(err, url)}") from err


def _database_failures() -> tuple[type[Exception], ...]:
    """SQLAlchemy's driver error and an unreadable SQLite file, imported once something failed (an
    ``except`` clause is evaluated then): the command line loads SQLAlchemy only with the command that
    opens the database."""
    from sqlalchemy.exc import DBAPIError

    from bot.store.db import UnreadableDatabase

    return DBAPIError, UnreadableDatabase


def database_reason(err: DBAPIError | Exception, url: str) -> str:
    """The driver's own first line, followed by what it usually means — for a SQLite file that cannot be
    written, exactly which of the file or its folder, and how to fix it."""
    from sqlalchemy.exc import DBAPIError

    if not isinstance(err, DBAPIError):
        return str(err)
    message = _first_line(str(err.orig) if err.orig is not None else str(err))
    hint = next((text for needle, text in _DATABASE_HINTS.items() if needle in message.lower()), None)
    if hint in _PERMISSION_HINTS:
        hint = _sqlite_permissions(url) or hint
    return f"{message} ({hint})" if hint else message


def _sqlite_permissions(url: str) -> str | None:
    from bot.store.db import sqlite_file, unwritable

    path = sqlite_file(url)
    return unwritable(path) if path is not None else None


def _shown_url(url: str) -> str:
    """The URL as typed, unless it holds a password (rendering would also escape a SQLite URI's `:`)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return "(unreadable URL)"
    return url if parsed.password is None else parsed.render_as_string(hide_password=True)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so Python's final flush cannot fail again
    (the advice of Python's own signal documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (tests capture it): nothing left to flush there
        return


@contextmanager
def discord_errors(token_env: str) -> Iterator[None]:
    """Turn a failed connection to Discord (no network, Discord down, a refused token) into one line;
    discord.py and aiohttp are imported here, only by the command that connects."""
    import aiohttp
    import discord

    try:
        yield
    except discord.LoginFailure as err:
        raise CliFailure(f"Discord refused the token: check {token_env} or `token` in the [bot] section") from err
    except discord.PrivilegedIntentsRequired as err:
        raise CliFailure("Discord refused the privileged intents the bot asks for: enable them for the "
                         "application in the Discord developer portal") from err
    except (aiohttp.ClientError, TimeoutError) as err:
        raise CliFailure(f"cannot reach Discord: {_first_line(str(err)) or type(err).__name__}") from err
    except discord.DiscordException as err:
        raise CliFailure(f"Discord refused the connection: {_first_line(str(err))}") from err
