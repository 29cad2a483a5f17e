"""The `spacechess` command: run the bot, the console, the database and the rules tools.

Only argparse is imported up front: SQLAlchemy, pydantic, Alembic, Pillow and discord.py come with the
command that needs them, so `spacechess --help` answers at once (a test checks `sys.modules`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.console import Console
    from bot.service import GameService
    from bot.store.draws import SaveReport
    from bot.store.repo import Store
    from bot.web.server import WebServer
    from draws import Draw


_DEBUG_HELP = "on a failure, show the stack trace above the one-line reason"


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="config file (default: $SPACECHESS_CONFIG, else ./config.toml)")
    parser.add_argument("--verbose", "-v", action="store_true", help="debug logging")
    # SUPPRESS: a subcommand's default must not overwrite `spacechess --debug <command>`
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)


def _demo_game(name: str) -> str:
    """A game that ships a demo, checked against the game list only when the demo command is parsed
    (argparse `choices` would load every game before the console's prompt)."""
    from bot.demo import demo_games

    known = demo_games()
    if name not in known:
        raise argparse.ArgumentTypeError(f"invalid choice: {name!r} (choose from {', '.join(map(repr, known))})")
    return name


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spacechess", description="Game-master bot for play-by-post space games.")
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="connect to Discord (token from SPACECHESS_TOKEN or the config)")
    _common(run)

    console = sub.add_parser("console", help="play locally: type the same slash commands as on Discord")
    _common(console)
    console.add_argument("--script", type=Path, help="run the lines of this file, then exit (non-zero if any was refused)")
    console.add_argument("--out", type=Path, default=Path("out"), help="folder for images (default ./out)")
    console.add_argument("--admins", default="gm", help="comma-separated console users who manage the server (default: gm)")
    console.add_argument("--lang", choices=("fr", "en"),
                         help="the console's language, its replies' and its posts' (default: the system locale, "
                              "LC_ALL/LC_MESSAGES/LANG, when it is French or English, else English)")

    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_sub.add_parser("upgrade", help="apply the schema migrations")
    _common(upgrade)
    backup = db_sub.add_parser("backup", help="copy the database to FILE while the bot runs (SQLite: a "
                               "database file; PostgreSQL: a portable JSON-lines dump)")
    _common(backup)
    backup.add_argument("file", type=Path)
    restore = db_sub.add_parser("restore", help="load a backup into the configured database (stop the bot first)")
    _common(restore)
    restore.add_argument("file", type=Path)
    restore.add_argument("--force", action="store_true", help="replace what the database holds")

    scenario = sub.add_parser("scenario", help="run rules scenario files (files or folders)")
    scenario.add_argument("paths", nargs="+", type=Path)
    scenario.add_argument("--quiet", "-q", action="store_true", help="print only failures and the summary")

    selfplay = sub.add_parser("selfplay", help="computer against computer or random in a two-sided game")
    selfplay.add_argument("game", help="a game with computer players (arkeon...)")
    selfplay.add_argument("--a", default="hard", help="a level, or random (default hard)")
    selfplay.add_argument("--b", default="easy", help="a level, or random (default easy)")
    selfplay.add_argument("--games", type=int, default=20)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--think", type=float, default=2.0, help="seconds per computer move (default 2)")
    selfplay.add_argument("--budget", type=float, default=1.0,
                          help="scale of each level's node budget (default 1: the bot's own levels)")
    selfplay.add_argument("--variant", help="the game's variant, for a game that has them (hexarena: blitz, alpha, omega)")
    selfplay.add_argument("--json", action="store_true", help="print the results as JSON")

    _draws_parser(sub)

    demo = sub.add_parser("demo", help="play a demo game in the console and write its images")
    demo.add_argument("game", nargs="?", default="spacechess", type=_demo_game,
                      help="a game whose entry ships a demo script (default spacechess, on real past FDJ draws)")
    demo.add_argument("--out", type=Path, default=Path("demo-out"), help="folder for the images (default ./demo-out)")
    demo.add_argument("--lang", choices=("fr", "en"),
                      help="the demo's language (default: the system locale when it is French or English, else English)")

    commands = sub.add_parser("commands", help="show the slash commands the bot registers on Discord")
    commands.add_argument("--json", action="store_true", help="print the exact JSON payload synced to Discord")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Whatever fails around it (database, disk, network, log file, a closed pipe)
    ends as one line on stderr and a non-zero status, never a stack trace (`--debug` shows it)."""
    args = build_parser().parse_args(argv)
    from bot.cli_failures import report
    from bot.config import ConfigError

    try:
        return _dispatch(args)
    except ConfigError as err:
        print(f"spacechess: configuration error: {err}", file=sys.stderr)
        return 2
    except (Exception, KeyboardInterrupt) as err:  # noqa: BLE001 - the command's last word, on one line
        return report(err, debug=args.debug)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "scenario":
        return _scenario(args)
    if args.command == "commands":
        return _commands(args)
    if args.command == "selfplay":
        return _selfplay(args)
    if args.command == "demo":
        from bot.demo import run_demo

        return 1 if run_demo(args.out, args.lang, game=args.game) else 0
    from bot.app import settings_from, setup_logging
    from bot.cli_failures import database_errors

    settings = settings_from(args.config)
    setup_logging(settings, args.verbose)
    with database_errors(settings.database.url):
        if args.command == "console":
            return _console(args, settings)
        if args.command == "db":
            return _db_upgrade(settings) if args.db_command == "upgrade" else _db_backup(args, settings)
        if args.command == "draws":
            return _draws(args, settings)
        return _run(settings)


def _scenario(args: argparse.Namespace) -> int:
    from bot.scenarios import run_paths

    results = run_paths(args.paths)
    for result in results:
        if not (args.quiet and result.passed):
            print(result.line())
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 0 if results and not failed else 1


def _selfplay(args: argparse.Namespace) -> int:
    import json

    from bot.cli_failures import CliFailure
    from bot.games import GameSetupError, entry_for
    from bot.selfplay import MAX_PLIES, RANDOM, levels_of, run_matches
    from bot.service.replies import ServiceError
    from engine.core.errors import SetupError

    try:
        if not entry_for(args.game).computer:
            raise CliFailure(f"{args.game} has no computer players")
        levels = levels_of(args.game)
    except (ServiceError, GameSetupError) as err:
        raise CliFailure(f"unknown game {args.game!r}") from err
    for player in (args.a, args.b):
        if player not in (*levels, RANDOM):
            raise CliFailure(f"{player!r} is not a level of {args.game} ({', '.join(levels)}) nor random")
    if args.budget <= 0:
        raise CliFailure(f"--budget must be positive, not {args.budget}")
    try:
        results = run_matches(args.game, args.a, args.b, args.games, args.seed, args.think, budget=args.budget,
                              variant=args.variant)
    except SetupError as err:
        raise CliFailure(f"{args.game} cannot be set up with variant {args.variant!r}: {err.code}") from err
    if args.json:
        print(json.dumps(results))
    else:
        print(f"{args.game}: {args.a} {results['a_wins']} – {results['b_wins']} {args.b}, "
              f"{results['draws']} draws ({results['capped']} cut at {MAX_PLIES} plies) in {args.games} games "
              f"(score {results['a_score']:.0%})")
    return 0


def _commands(args: argparse.Namespace) -> int:
    """The synced payload needs no config, token or connection: it is built from the command table."""
    import json

    from bot.compose import command_table
    from bot.discord_adapter.payload import command_payload

    command_table()  # the composition root declares them
    payload = command_payload()
    if args.json:
        print(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    for group in payload:
        for sub in group.get("options", ()):
            options = " ".join(o["name"] if o.get("required") else f"[{o['name']}]" for o in sub.get("options", ()))
            print(f"/{group['name']} {sub['name']} {options}".rstrip() + f" — {sub['description']}")
    return 0


def _console(args: argparse.Namespace, settings: Settings) -> int:
    """`_console_session`, with the web companion (when on) stopped when the session ends."""
    servers: list[WebServer] = []
    try:
        return _console_session(args, settings, servers)
    finally:
        for server in servers:
            server.stop()


def _console_session(args: argparse.Namespace, settings: Settings, servers: list[WebServer]) -> int:
    """A script runs on the service opened first. At the keyboard, the service opens on a thread
    while the prompt is shown (`open_service_soon`: SQLAlchemy, the schema check and every game take
    about a second, the prompt a fraction of that); the first line typed waits for what is left, and
    a failure to open ends the session as it would have before the prompt."""
    import datetime as dt
    import logging

    from bot.app import open_service, open_service_soon
    from bot.console import (
        Console,
        banner,
        console_language,
        history_file,
        line_editing,
        names_file,
        run_name,
    )

    if not args.verbose:  # the replies are the console's output: a log line after each would bury them
        for handler in logging.getLogger().handlers:
            if type(handler) is logging.StreamHandler:
                handler.setLevel(logging.WARNING)
    admins = frozenset(name.strip().lower() for name in args.admins.split(",") if name.strip())
    started = run_name(dt.datetime.now())
    language = console_language(args.lang)

    def console_on(service: GameService) -> Console:
        servers.extend(_start_web(settings, service))  # the games played here, followed in a browser too
        return Console(service, out_dir=args.out, admins=admins, language=language, per_run=True, run=started,
                       names_file=names_file())

    if args.script is not None:
        console = console_on(open_service(settings))
        console.base_dir = args.script.resolve().parent
        try:
            lines = args.script.read_text(encoding="utf-8").splitlines()
        except OSError as err:
            print(f"spacechess: cannot read {args.script}: {err.strerror}", file=sys.stderr)
            return 2
        refused = console.run_lines(lines)
        return 1 if refused else 0
    opening = open_service_soon(settings)
    line_editing(history_file())
    print(banner(language))
    session: Console | None = None
    while True:
        try:
            line = input(_prompt(session or Console))
        except EOFError:
            print()
            opening.result()  # a database or a game that cannot open fails the session, typed into or not
            return 0
        session = session or console_on(opening.result())
        session.run_line(line)


def _prompt(console: Console | type[Console]) -> str:
    """``[#channel @user] ``: where the session types, or before it has opened, where a new one
    starts (the class's defaults)."""
    return f"[#{console.channel} @{console.user}] "


def _db_upgrade(settings: Settings) -> int:
    from bot.store.db import upgrade

    upgrade(settings.database.url)
    print("database schema is up to date")
    return 0


def _db_backup(args: argparse.Namespace, settings: Settings) -> int:
    """`db backup FILE` / `db restore FILE [--force]`, said in the bot's language."""
    from bot.backup import BackupError, backup, restore
    from bot.cli_failures import CliFailure
    from bot.i18n import translate

    language = settings.bot.language
    try:
        if args.db_command == "backup":
            games = backup(settings.database.url, args.file)
            print(translate("console.backup.done", language, {"file": str(args.file), "games": games}))
        else:
            games = restore(settings.database.url, args.file, force=args.force)
            print(translate("console.backup.restored", language, {"file": str(args.file), "games": games}))
    except BackupError as err:
        raise CliFailure(translate(err.key, language, err.params)) from err
    return 0


# --- draws ----------------------------------------------------------------------------------------


def _draws_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    draws = sub.add_parser("draws", help="lottery draws: import files, list, fetch now")
    draws_sub = draws.add_subparsers(dest="draws_command", required=True)
    imp = draws_sub.add_parser("import", help="store the draws of FDJ CSV or ZIP files (idempotent)")
    _common(imp)
    imp.add_argument("paths", nargs="+", type=Path)
    listing = draws_sub.add_parser("list", help="the stored draws, oldest first")
    _common(listing)
    listing.add_argument("--last", type=_positive_count, metavar="N", help="only the N newest")
    listing.add_argument("--json", action="store_true", help="one JSON object per line")
    fetch = draws_sub.add_parser("fetch", help="poll the configured source once and store what is new")
    _common(fetch)
    fetch.add_argument("--apply", action="store_true",
                       help="also apply pending draws to running games now, printing the turn posts here "
                            "(a running bot does it at its next poll and posts them on Discord)")


def _draws(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store.db import read_only_url
    from bot.store.repo import Store

    url = settings.database.url
    store = Store(read_only_url(url) if args.draws_command == "list" else url)  # reads: a read-only file too
    try:
        if args.draws_command == "import":
            return _draws_import(store, args.paths, settings)
        if args.draws_command == "list":
            return _draws_list(store, args.last, args.json)
        return _draws_fetch(store, settings, args.apply)
    finally:
        store.close()


def _positive_count(text: str) -> int:
    """`--last N`: how many draws to show, 1 or more (`-1` used to be taken and print nonsense)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of draws, got {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"the number of draws to show is 1 or more, got {count}")
    return count


def _progress(name: str) -> Callable[[int, int], None]:
    """A bar redrawn in place on a terminal; anywhere else (a log, a pipe, CI) plain lines, where
    `\\r` would pile every redraw onto one long line."""
    return _progress_bar(name) if sys.stderr.isatty() else _progress_lines(name)


def _progress_lines(name: str, steps: int = 4) -> Callable[[int, int], None]:
    """One line per quarter of the file, and the last one."""
    shown: set[int] = set()

    def show(done: int, total: int) -> None:
        step = steps * done // total if total else steps
        if step and step not in shown:
            shown.add(step)
            print(f"{name}: {done}/{total} draws read", file=sys.stderr, flush=True)

    return show


def _progress_bar(name: str, width: int = 30) -> Callable[[int, int], None]:
    """Redrawn only when a segment fills, so a slow terminal is not flooded with one redraw per draw."""
    shown: list[int] = []

    def show(done: int, total: int) -> None:
        filled = width * done // total if total else width
        if shown and shown[-1] == filled and done != total:
            return
        shown.append(filled)
        end = "\n" if done == total else ""
        print(f"\r{name}: [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end=end, file=sys.stderr,
              flush=True)

    return show


def _save_draws(store: Store, found: list[Draw], settings: Settings) -> SaveReport | None:
    """Store draws, saying on stderr why a batch was refused (a draw from the future: None) and
    which stored draws other values were offered for (kept as stored)."""
    from bot.lottery.poll import schedule_from
    from bot.store.draws import save_draws
    from draws import FutureDrawError

    try:
        report = save_draws(store, found, schedule=schedule_from(settings.draws))
    except FutureDrawError as err:
        print(f"spacechess: the draw of {err.params['date']} is in the future (its results are not out "
              f"before {err.params['expected']}) — nothing was stored", file=sys.stderr)
        return None
    for conflict in report.conflicts:
        stored, offered = conflict.stored, conflict.offered
        print(f"spacechess: conflict for the draw of {stored.date.isoformat()} #{stored.index} ({stored.source}): "
              f"stored {_numbers(stored)}, offered {_numbers(offered)} — the stored draw is kept", file=sys.stderr)
    return report


def _numbers(draw: Draw) -> str:
    extra = f" +{draw.complementary}" if draw.complementary is not None else ""
    extra += f" chance {draw.chance}" if draw.chance is not None else ""
    return " ".join(map(str, draw.numbers)) + extra


def _draws_import(store: Store, paths: Sequence[Path], settings: Settings) -> int:
    """Every file is read and checked before anything is stored, then all are stored in one transaction:
    a bad file anywhere (or a draw dated after now) stores nothing. Conflicts with stored draws are
    reported and end with status 1, the other draws being stored."""
    from bot.console import system_language
    from bot.i18n import translate
    from bot.lottery.file_errors import draw_file_message
    from draws import DrawFileError, iter_path

    found = []
    for path in paths:
        try:
            found.extend(iter_path(path, _progress(path.name)))
        except DrawFileError as err:  # in the terminal's language (its locale), English by default
            message = draw_file_message(err)
            print(f"spacechess: {translate(message.key, system_language() or 'en', message.params)}",
                  file=sys.stderr)
            return 1
        except OSError as err:
            print(f"spacechess: cannot read {path}: {err.strerror} — nothing was imported", file=sys.stderr)
            return 1
    report = _save_draws(store, found, settings)
    if report is None:
        return 1
    print(f"{len(found)} draw(s) read, {report.new} new, {len(found) - report.new} already stored")
    return 1 if report.conflicts else 0


def _draws_list(store: Store, last: int | None, as_json: bool) -> int:
    import json

    from bot.store.draws import stored_draws

    for draw in stored_draws(store, last=last):
        if as_json:
            print(json.dumps({"date": draw.date.isoformat(), "index": draw.index, "numbers": list(draw.numbers),
                              "complementary": draw.complementary, "chance": draw.chance}))
        else:
            print(f"{draw.date.isoformat()} #{draw.index} {_numbers(draw)} ({draw.source})")
    return 0


def _draws_fetch(store: Store, settings: Settings, apply: bool) -> int:
    from bot.compose import game_service
    from bot.lottery.apply import DrawApplier
    from bot.lottery.poll import schedule_from, source_from
    from bot.lottery.turn_post import PrintedHooks
    from draws import DrawSourceError

    source = source_from(settings.draws)
    status = 0
    if source is None:
        print('spacechess: draws.source is "manual": there is nothing to fetch (game masters use /gm draw)',
              file=sys.stderr)
        status = 1
    else:
        try:
            result = source.fetch(None)
        except DrawSourceError as err:
            print(f"spacechess: the draw source failed: {err}", file=sys.stderr)
            return 1
        report = _save_draws(store, result.draws or [], settings)
        if report is None:
            return 1
        print(f"{len(result.draws or [])} draw(s) fetched from {result.url}, {report.new} new")
    if apply:
        service = game_service(store, default_language=settings.bot.language)
        hooks = PrintedHooks(settings.bot.language)
        posts = DrawApplier(service, schedule=schedule_from(settings.draws), hooks=hooks).apply_all()
        print(f"{len(posts)} turn post(s)")
    return status


def _run(settings: Settings) -> int:
    from bot.cli_failures import discord_errors
    from bot.config import TOKEN_ENV

    if not settings.bot.token:
        print(
            f"spacechess: no Discord token. Set the environment variable {TOKEN_ENV} or `token` in the "
            "[bot] section of the config file.\nTo play locally without Discord, run: spacechess console",
            file=sys.stderr,
        )
        return 2
    from bot.discord_adapter.client import run_bot

    servers: list[WebServer] = []
    if settings.web.enabled:  # its own service over the same database: its pages hear the bot's commits
        from bot.app import open_service

        servers = _start_web(settings, open_service(settings))
    try:
        with discord_errors(TOKEN_ENV):
            return run_bot(settings)
    finally:
        for server in servers:
            server.stop()


def _start_web(settings: Settings, service: GameService) -> list[WebServer]:
    """The web companion (`bot.web`) when ``[web] enabled = true``, started (else none). An address it
    cannot listen on fails the start, naming the keys to change."""
    if not settings.web.enabled:
        return []
    from bot.cli_failures import CliFailure
    from bot.web.server import WebServer

    web = settings.web
    try:
        return [WebServer(service, web.host, web.port, base_url=web.link_base).start()]
    except OSError as err:
        raise CliFailure(f"the web companion cannot listen on {settings.web.host}:{settings.web.port} "
                         f"(web.host, web.port): {err.strerror or err}") from err


if __name__ == "__main__":
    sys.exit(main())
