"""Arkeon player commands: place or swap a piece (each builds the order text `/ak order` takes),
and resign. The game's `new`, `join`, `order` and `challenge` come from the shared declaration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.arkeon import ARKEON_PRESENTER
from bot.service.commands import Option, command, completer
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.orders import order_handler
from bot.service.replies import Reply
from bot.service.suggest import suggest
from engine.arkeon.orders import PLACE, SWAP, Order
from engine.arkeon.pieces import cell_name

KIND = ARKEON_PRESENTER.kind
KINDS = ("basic", "triple", "pacifier", "cw", "ccw", "repulsor")


def _text(*words: str | None) -> str:
    return " ".join(word for word in words if word)


# the cell and the direction are suggested from the legal turns (given the options filled before
# them), so they are free text on Discord: the order's parser refuses a mistyped one in words
@command("ak place", Option("kind", required=True, choices=KINDS),
         Option("cell", required=True, max_length=4, autocomplete=True),
         Option("direction", max_length=2, autocomplete=True))
def ak_place(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A piece from the reserve (AK-11/AK-12); basic and triple pieces take a direction."""
    text = _text("place", opts["kind"], opts["cell"], opts.get("direction", "").upper() or None)
    return order_handler(KIND)(svc, ctx, {"text": text})


@command("ak swap", Option("cell", required=True, max_length=4, autocomplete=True),
         Option("kind", required=True, choices=KINDS), Option("direction", max_length=2, autocomplete=True))
def ak_swap(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """One's piece on `cell` for another of the reserve (basic ↔ advanced, AK-11)."""
    text = _text("swap", opts["cell"], opts["kind"], opts.get("direction", "").upper() or None)
    return order_handler(KIND)(svc, ctx, {"text": text})


def _fits(order: Order, verb: str, filled: Mapping[str, Any]) -> bool:
    """Whether a legal order matches the command (`verb`) and the options already filled."""
    kind, cell = str(filled.get("kind") or "").lower(), str(filled.get("cell") or "").strip().upper()
    return (order.verb == verb and (not kind or order.kind == kind)
            and (not cell or cell_name(order.cell) == cell.replace(" ", "")))


def _cells(verb: str):  # noqa: ANN202 - returns a completer
    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        """`place`: the empty cells where the chosen kind may go; `swap`: one's pieces that may be
        swapped (for the chosen kind)."""
        return suggest(svc, ctx, KIND, current,
                       lambda order: cell_name(order.cell) if _fits(order, verb, {"kind": filled.get("kind")}) else None)

    return complete


def _directions(verb: str):  # noqa: ANN202 - returns a completer
    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        """The directions the chosen piece may face on the chosen cell."""
        return suggest(svc, ctx, KIND, current, lambda order: order.facing.name if order.facing is not None
                       and _fits(order, verb, filled) else None)

    return complete


for _verb in (PLACE, SWAP):
    completer(f"ak {_verb}", "cell", filled=True)(_cells(_verb))
    completer(f"ak {_verb}", "direction", filled=True)(_directions(_verb))
