"""Arkeon player commands: place or swap a piece (each builds the order text `/ak order` takes),
and resign. The game's `new`, `join`, `order` and `challenge` come from the shared declaration.

The piece and the direction are typed, suggested from the legal turns in the reader's words
(``basique``, ``anti-horaire``, ``NO``): a piece is read by its name in either language, accents and
case aside, and anything else goes to the order's parser, which reads the order words of both
languages and refuses the rest in words."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from bot.games.arkeon import ARKEON_PRESENTER
from bot.i18n import LANGUAGES, catalog, translate
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
KIND_LENGTH = 40  # the longest name of a piece, in either language, with room to spare


def _fold(text: str) -> str:
    """A name as pieces are compared: case, accents and spacing aside (``Répulseur`` → ``repulseur``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("-", " ").split())


def kind_named(text: str) -> str | None:
    """The piece `text` names: its order word, or its name in either language as the catalogs give
    it (``triple attaque``, ``tournicoteur anti-horaire``, ``clockwise (cw)``); None for any other."""
    wanted = _fold(text)
    for kind in KINDS:
        names = {kind} | {_fold(catalog(language)[key]) for language in LANGUAGES
                          for key in (f"word.choice.kind.{kind}", f"ak.kind.{kind}")}
        if wanted in names:
            return kind
    return None


def _piece(typed: Any) -> str:
    """The order word of the piece typed; what names no piece goes as typed, for the order's parser
    to refuse in words (``attendu un pion (basique, triple…), trouvé `truc```)."""
    text = str(typed).strip()
    return kind_named(text) or text


def _text(*words: str | None) -> str:
    return " ".join(word for word in words if word)


# the piece, the cell and the direction are suggested from the legal turns (given the options filled
# before them), so they are free text on Discord: the order's parser refuses a mistyped one in words
@command("ak place", Option("kind", required=True, max_length=KIND_LENGTH, autocomplete=True),
         Option("cell", required=True, max_length=4, autocomplete=True, holds="cell"),
         Option("direction", max_length=2, autocomplete=True))
def ak_place(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A piece from the reserve (AK-11/AK-12); basic and triple pieces take a direction."""
    text = _text("place", _piece(opts["kind"]), opts["cell"], opts.get("direction", "").upper() or None)
    return order_handler(KIND)(svc, ctx, {"text": text})


@command("ak swap", Option("cell", required=True, max_length=4, autocomplete=True, holds="cell"),
         Option("kind", required=True, max_length=KIND_LENGTH, autocomplete=True),
         Option("direction", max_length=2, autocomplete=True))
def ak_swap(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """One's piece on `cell` for another of the reserve (basic ↔ advanced, AK-11)."""
    text = _text("swap", opts["cell"], _piece(opts["kind"]), opts.get("direction", "").upper() or None)
    return order_handler(KIND)(svc, ctx, {"text": text})


def _fits(order: Order, verb: str, filled: Mapping[str, Any]) -> bool:
    """Whether a legal order matches the command (`verb`) and the options already filled (a piece
    by its name in either language)."""
    typed, cell = str(filled.get("kind") or "").strip(), str(filled.get("cell") or "").strip().upper()
    return (order.verb == verb and (not typed or order.kind == kind_named(typed))
            and (not cell or cell_name(order.cell) == cell.replace(" ", "")))


def _kinds(verb: str):  # noqa: ANN202 - returns a completer
    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        """The pieces the caller may place (on the chosen cell, for a swap), named in the reader's words."""
        language = svc.language(ctx)
        return suggest(svc, ctx, KIND, current,
                       lambda order: translate(f"word.choice.kind.{order.kind}", language)
                       if _fits(order, verb, {"cell": filled.get("cell")}) else None)

    return complete


def _cells(verb: str):  # noqa: ANN202 - returns a completer
    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        """`place`: the empty cells where the chosen kind may go; `swap`: one's pieces that may be
        swapped (for the chosen kind)."""
        return suggest(svc, ctx, KIND, current,
                       lambda order: cell_name(order.cell) if _fits(order, verb, {"kind": filled.get("kind")}) else None)

    return complete


def _directions(verb: str):  # noqa: ANN202 - returns a completer
    def complete(svc: GameService, ctx: Context, current: str, filled: Mapping[str, Any]) -> list[str]:
        """The directions the chosen piece may face on the chosen cell, as the reader writes them (``NO``)."""
        language = svc.language(ctx)
        return suggest(svc, ctx, KIND, current,
                       lambda order: translate(f"word.choice.direction.{order.facing.name.lower()}", language)
                       if order.facing is not None and _fits(order, verb, filled) else None)

    return complete


for _verb in (PLACE, SWAP):
    completer(f"ak {_verb}", "kind", filled=True)(_kinds(_verb))
    completer(f"ak {_verb}", "cell", filled=True)(_cells(_verb))
    completer(f"ak {_verb}", "direction", filled=True)(_directions(_verb))
