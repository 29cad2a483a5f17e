"""The games the bot knows, by name or alias.

A game's rules module registers its rules class when it is imported (``register(ARKEON)``). The
registry keeps no list of modules of its own: whoever serves games tells it how to import theirs
(`set_loader`: the bot's game list, `bot.games`), so one list decides which games exist, and
importing the registry stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.errors import SetupError
from engine.core.protocol import GameRules

_games: dict[str, GameRules] = {}
_aliases: dict[str, str] = {}
_loader: Callable[[], None] | None = None


def register(rules: GameRules) -> GameRules:
    """Add a game; its name and aliases must be new."""
    for key in (rules.name, *rules.aliases):
        key = key.lower()
        if key in _aliases and _aliases[key] != rules.name:
            raise ValueError(f"game name {key!r} is taken by {_aliases[key]!r}")
    _games[rules.name] = rules
    for key in (rules.name, *rules.aliases):
        _aliases[key.lower()] = rules.name
    return rules


def unregister(name: str) -> None:
    rules = _games.pop(name)
    for key in (rules.name, *rules.aliases):
        _aliases.pop(key.lower(), None)


def set_loader(loader: Callable[[], None]) -> None:
    """How to import the rules modules of the games served: called once, before the first lookup
    of a name not registered yet."""
    global _loader
    _loader = loader


def _load() -> None:
    global _loader
    loader, _loader = _loader, None
    if loader is not None:
        loader()


def get(name: str) -> GameRules:
    """The game called `name` (or one of its aliases, any case); SetupError('unknown_game') else."""
    key = _aliases.get(name.strip().lower())
    if key is None:
        _load()
        key = _aliases.get(name.strip().lower())
    if key is None:
        raise SetupError("unknown_game", "game", game=name, known=", ".join(sorted(_games)))
    return _games[key]


def names() -> list[str]:
    _load()
    return sorted(_games)
