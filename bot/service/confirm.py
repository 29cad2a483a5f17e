"""Asking first: the confirmation button of a destructive action, bound to the game's version.

The button carries the version the question was shown for, so a click after anything else happened
to the game is refused (`error.stale_confirmation`) instead of acting on a game the member did not
see. GM actions (end, kick, undo, a seat taken oneself), resignations and clock awards use it.
"""

from __future__ import annotations

from typing import Any

from bot.service.replies import Button, Message, Reply, ServiceError, Visibility
from bot.store.repo import GameRecord


def confirmation(game: GameRecord, key: str, command_path: str, options: dict[str, Any], **params: Any) -> Reply:
    """The question ``gm.<key>.confirm`` with its ``button.<key>``, which runs `command_path` again
    with `options` and the game's version as ``confirm``."""
    button = Button(Message(f"button.{key}", params), command_path, {**options, "confirm": game.version},
                    style="danger")
    return Reply((Message(f"gm.{key}.confirm", params),), buttons=(button,), visibility=Visibility.PRIVATE)


def confirmed(game: GameRecord, opts: dict[str, Any]) -> bool:
    """Whether the command comes from its confirmation button, for the game as it still is."""
    if "confirm" not in opts:
        return False
    if opts["confirm"] != game.version:
        raise ServiceError("error.stale_confirmation")
    return True
