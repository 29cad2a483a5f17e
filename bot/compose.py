"""The composition root: the bot put together, once, at start.

The registries below it import nothing above them — the rules registry (`engine.registry`), the game
list (`bot.games`), the drivers (`bot.drivers`), the command table (`bot.service.commands`) — and
this module, which nothing of the bot imports, fills them: it tells the command table how to
declare every command (the shared ones, then each game's and its driver's), checks each game whole
(its rules declare what its commands and its driver need), and serves games from outside the
package (`SPACECHESS_GAMES`). Whatever runs the bot — the CLI, the console, the Discord adapter,
the tests, the benchmarks — imports it first.
"""

from __future__ import annotations

import importlib
from typing import Any

from bot.drivers import DRIVERS, add_timer_handlers, driver_named
from bot.games import GameEntry, GameSetupError, add_game, entries_named, games, presenter_for
from bot.i18n import LANGUAGES, catalog
from bot.service import computers
from bot.service.commands import Command, set_loader, table
from bot.service.core import GameService
from bot.service.lifecycle import declare_game_commands
from bot.store.repo import Store
from engine import registry
from engine.core.errors import SetupError

#: the modules of the commands every game shares
COMMAND_MODULES = (
    "bot.service.lifecycle",
    "bot.service.orders",
    "bot.service.views",
    "bot.service.gm",
    "bot.service.status",
    "bot.service.draw_offers",
    "bot.service.recap",
    "bot.service.mine",
    "bot.service.away",
    "bot.service.member",
    "bot.service.channels",
    "bot.service.owed_posts",
    "bot.service.web_links",
)


def declare_commands(entry: GameEntry) -> None:
    """A game's own commands: its ``new``, ``join`` and ``order`` (from its presenter's and its
    driver's options), its module's, its driver's GM commands (each module declares on import)."""
    importlib.import_module(entry.commands)
    driver = driver_named(entry.driver)
    if driver.commands:
        importlib.import_module(driver.commands)
    declare_game_commands(entry)


def load_commands() -> None:
    """Every command of the bot: the shared ones, then each game's."""
    for module in COMMAND_MODULES:
        importlib.import_module(module)
    for entry in games():
        declare_commands(entry)


set_loader(load_commands)
add_timer_handlers(computers.timer_handlers)  # a computer's turn is a timer (`bot.service.computers`)


def command_table() -> dict[str, Any]:
    """Every command of the bot, declared (what Discord is sent, what `/game help` lists)."""
    return table()


def game_service(store: Store, **settings: Any) -> GameService:
    """The service over `store` (`GameService`'s settings), its commands declared by this root."""
    return GameService(store, **settings)


def check_game(entry: GameEntry) -> None:
    """Import every part of one game, declare its commands and check they fit together."""
    for part in ("rules", "presenter", "commands"):
        try:
            importlib.import_module(getattr(entry, part))
        except ImportError as err:
            raise GameSetupError(f"game {entry.kind!r}: cannot import its {part} module {getattr(entry, part)!r}: "
                                 f"{err}") from err
    try:
        rules = registry.get(entry.kind)
    except SetupError:
        raise GameSetupError(f"game {entry.kind!r}: {entry.rules!r} registers no rules of that name") from None
    if rules.name != entry.kind:
        raise GameSetupError(f"game {entry.kind!r}: it is an alias of {rules.name!r}, not a game's name")
    presenter_for(entry.kind)
    if entry.computer:
        try:
            computer = importlib.import_module(entry.computer)
        except ImportError as err:
            raise GameSetupError(f"game {entry.kind!r}: cannot import its computer module {entry.computer!r}: "
                                 f"{err}") from err
        if not getattr(computer, "LEVELS", ()) or not callable(getattr(computer, "choose", None)):
            raise GameSetupError(f"game {entry.kind!r}: its computer module has no LEVELS or no choose()")
        if rules.draw_inputs and not callable(getattr(computer, "accepts_draw", None)):
            # a computer asked to draw answers at once, by its own judgement: none would decline forever
            raise GameSetupError(f"game {entry.kind!r}: its rules take draw offers but its computer module "
                                 f"has no accepts_draw() to judge one")
    if entry.driver not in DRIVERS:
        raise GameSetupError(f"game {entry.kind!r}: unknown turn driver {entry.driver!r} "
                             f"(known: {', '.join(sorted(DRIVERS))})")
    declared = {"start_input": {rules.start_input} - {None}, "resign_input": {rules.resign_input} - {None},
                "draw_inputs": set(rules.draw_inputs)}
    missing = [name for name, kinds in declared.items() if not kinds <= rules.input_kinds]
    missing += driver_named(entry.driver).missing(rules)
    if missing:
        raise GameSetupError(f"game {entry.kind!r}: its rules class lacks what its commands and its "
                             f"{entry.driver} driver need: {', '.join(missing)} (engine/core/protocol.py)")
    declare_commands(entry)
    own = [path for path in table() if path.split()[0] == entry.group]
    if not own:
        raise GameSetupError(f"game {entry.kind!r}: no command of its group /{entry.group}")
    unworded = sorted({key for path in own for key in _words_of(table()[path])
                       for language in LANGUAGES if key not in catalog(language)})
    if unworded:
        raise GameSetupError(f"game {entry.kind!r}: its commands have no words for {', '.join(unworded)} "
                             f"(each in both catalogs, {' and '.join(LANGUAGES)})")
    taken = [other.kind for other in games() if other.group == entry.group and other.kind != entry.kind]
    if taken:
        raise GameSetupError(f"game {entry.kind!r}: its command group /{entry.group} is {taken[0]!r}'s")


def check_games() -> None:
    """Every game of the list, whole: called when the bot starts (console, Discord, CLI)."""
    for entry in games():
        check_game(entry)


def _words_of(command: Command) -> list[str]:
    """The catalog keys a command's description and options are shown with."""
    return [command.description_key, *(command.option_key(opt) for opt in command.options)]


def serve_game(entry: GameEntry) -> GameEntry:
    """One more game served (a game from outside the package), checked like the shipped ones."""
    add_game(entry)
    check_game(entry)
    return entry


def serve_games(spec: str) -> list[GameEntry]:
    """Serve the games `spec` names (``module:NAME``, as `bot.games.EXTRA_GAMES_ENV`)."""
    return [serve_game(entry) for entry in entries_named(spec)]
