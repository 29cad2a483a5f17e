"""The games the bot knows, by name or alias.

Shipped games are listed here by module and imported on first use, so importing the registry
stays cheap; tests register their own throwaway games with :func:`register`.
"""

from __future__ import annotations

import importlib

from engine.core.errors import SetupError
from engine.core.protocol import GameRules

BUILTIN_MODULES: tuple[str, ...] = ("engine.spacechess", "engine.spaceblast", "engine.hexarena", "engine.arkeon")

_games: dict[str, GameRules] = {}
_aliases: dict[str, str] = {}
_loaded = False


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


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN_MODULES:
            importlib.import_module(module)


def get(name: str) -> GameRules:
    """The game called `name` (or one of its aliases, any case); SetupError('unknown_game') else."""
    _load_builtins()
    key = _aliases.get(name.strip().lower())
    if key is None:
        raise SetupError("unknown_game", "game", game=name, known=", ".join(sorted(_games)))
    return _games[key]


def names() -> list[str]:
    _load_builtins()
    return sorted(_games)
