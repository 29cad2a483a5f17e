"""HexArena player commands (reconstructed rules): one command per action, each building the
one-action order text `/hx order` takes, and resign. The game's `new`, `join`, `order` and
`challenge` come from the shared declaration; a turn of several actions (Alpha, Omega) is written
out with `/hx order text:"move G3 G5; move G1 G2"`.

The ship's cell is suggested from the one-action turns the caller may play with that verb, and
the target (a cell, or a rotation's or a ram's direction) from the same turns: the shared completers
see only the option being typed, so the targets are those of every ship of the caller that can act
so. Directions are typed and suggested as the reader writes them (``NO`` for a French reader's
north-west); the order's parser reads both languages' letters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.games.hexarena import HEXARENA_PRESENTER
from bot.games.hexarena.moves import first_actions
from bot.i18n import translate
from bot.service.commands import Option, command, completer
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.orders import legal_values, order_handler
from bot.service.replies import Reply
from engine.hexarena.geometry import cell_name
from engine.hexarena.orders import Turn

KIND = HEXARENA_PRESENTER.kind
CELL = 4  # the longest cell as typed: "G13", or "G 13" with the space the rules allow (HA-1)


def _play(*words: str) -> Callable[[GameService, Context, dict[str, Any]], Reply]:
    """The handler of one action: its order text from the options named in `words`, in order."""

    def handle(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        verb = handle.__name__
        text = " ".join([verb, *(str(opts[word]).strip().upper() for word in words)])
        return order_handler(KIND)(svc, ctx, {"text": text})

    return handle


def _reader(verb: str, part: str, cell: str | None = None) -> Callable[[Turn], Iterable[str]]:
    """What a suggestion reads off a one-action turn of `verb`: the acting cell, or its target — of
    the ship on `cell` only, when the command's `cell:` is typed already."""

    def pick(turn: Turn) -> Iterable[str]:
        action = turn.actions[0]
        if action.verb != verb or (cell is not None and part != "cell" and cell_name(action.at) != cell):
            return ()
        if part == "cell":
            return (cell_name(action.at),)
        if part == "direction":
            return (action.direction.name.lower(),) if action.direction is not None else ()
        return (cell_name(action.to),) if action.to is not None else ()

    return pick


def _typed_cell(filled: Mapping[str, Any]) -> str | None:
    """The `cell:` option as typed so far (``g 3`` is G3), None when it is not typed yet."""
    cell = "".join(str(filled.get("cell") or "").split()).upper()
    return cell or None


def _targets(verb: str, part: str) -> Callable[[GameService, Context, str, Mapping[str, Any]], list[str]]:
    """A target option's suggestions: the legal ones of the ship `cell:` names (every ship's before
    it is typed), so `/hx move cell:F1 to:` offers F1's moves, not the fleet's."""

    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        return legal_values(KIND, _reader(verb, part, _typed_cell(filled)), first_actions)(svc, ctx, current)

    return complete


def _directions(verb: str) -> Callable[[GameService, Context, str, Mapping[str, Any]], list[str]]:
    """The directions of the caller's legal `verb` turns of the ship `cell:` names, as the reader
    writes them (``NO``), those starting with what was typed."""
    legal = _targets(verb, "direction")

    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        language, typed = svc.language(ctx), current.strip().lower()
        named = (translate(f"word.choice.direction.{name}", language) for name in legal(svc, ctx, "", filled))
        return [name for name in named if name.lower().startswith(typed)]

    return complete


def _declare(verb: str, *targets: Option) -> None:
    """`/hx <verb> cell: [target]`, its cell and target suggested from the legal one-action turns."""
    handler = _play("cell", *(option.name for option in targets))
    handler.__name__ = verb
    command(f"hx {verb}", Option("cell", required=True, max_length=CELL, autocomplete=True, holds="cell"),
            *targets)(handler)
    completer(f"hx {verb}", "cell")(legal_values(KIND, _reader(verb, "cell"), first_actions))
    for option in targets:
        if option.name == "direction":
            completer(f"hx {verb}", option.name, filled=True)(_directions(verb))
        elif option.autocomplete:
            completer(f"hx {verb}", option.name, filled=True)(_targets(verb, option.name))


_declare("move", Option("to", required=True, max_length=CELL, autocomplete=True, holds="cell"))
# directions are typed, not chosen from a list: the order's parser reads English and French letters
_declare("rotate", Option("direction", required=True, max_length=2, autocomplete=True))
_declare("fire")
_declare("ram", Option("direction", required=True, max_length=2, autocomplete=True))
_declare("board", Option("to", required=True, max_length=CELL, autocomplete=True, holds="cell"))
_declare("leave", Option("to", required=True, max_length=CELL, autocomplete=True, holds="cell"))
_declare("recycle", Option("debris", required=True, max_length=CELL, autocomplete=True))


