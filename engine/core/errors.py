"""Errors the engines raise.

Engines never produce sentences: they raise a stable code plus parameters, and the bot turns them
into a localised message (`error.<code>` in the i18n catalogs). The codes are listed in
the scenario format document; a game may add its own.
"""

from __future__ import annotations

from typing import Any

#: The codes every engine may use (scenarios.md); games add theirs to their own module.
COMMON_CODES = frozenset(
    {
        "bad_syntax",
        "bad_cell",
        "occupied",
        "path_blocked",
        "not_enough_ap",
        "out_of_range",
        "no_line_of_fire",
        "shot_limit",
        "not_adjacent",
        "not_allowed",
        "unknown_character",
        "dead",
        "not_your_turn",
        "game_over",
        "no_token",
        "duplicate_token",
        "too_many_tokens",
        "immune",
    }
)


class OrderError(Exception):
    """An order (or any player/GM input) the rules refuse; the state it was applied to is unchanged."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
        super().__init__(f"{code}({detail})" if detail else code)


class SetupError(Exception):
    """A setup document, map file or serialised state that cannot be turned into a game.

    `where` locates the fault for a person fixing the file: a dotted key path
    (``characters[2].weapon``) or ``line 3, column 7`` for text formats.
    """

    def __init__(self, code: str, where: str = "", **params: Any) -> None:
        self.code = code
        self.where = where
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
        text = f"{where}: {code}" if where else code
        super().__init__(f"{text} ({detail})" if detail else text)
