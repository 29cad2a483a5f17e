"""The Space Chess order language in the reader's words, both ways.

The engine reads one language (``move C12 drop scope``, with a few French aliases of the original
forum game) and the log keeps it: replays never depend on a catalog. A player writes in their own
words (``déplace C12 lâche lunette de visée``, ``soigne Cid``) and reads orders back in them: the
refusal naming an order of a batch, the orders a game's end left undone, the suggestions of
``/sc order``. So the bot reads the typed text into the engine's canonical text (`read`), and words
a canonical order in the reader's language (`order_message`) — from the catalog, whose words in
both languages are accepted: every verb of ``sc.order.<verb>`` and ``sc.order.words.<verb>``, every
item named by its identifier, its label or its aliases (`bot.service.commands.choice_named`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from bot.i18n import LANGUAGES, Listing, catalog, translate
from bot.service.commands import choice_named
from bot.service.replies import Message
from engine.core.batch import segments
from engine.core.errors import OrderError
from engine.core.squaregrid import format_cell
from engine.spacechess.orders import GRAMMAR, VERBS, Order, format_order, parse_orders
from engine.spacechess.ruleset import ITEMS, WEAPONS

#: what a move may leave behind to take a pickup (SC-33): any item or weapon by any of its names
DROPPABLE = (*ITEMS, *WEAPONS)
#: the keyword that opens a move's drop clause, as the engine reads it
_DROP = "drop"


def fold(word: str) -> str:
    """A keyword as it is compared: case, accents and width ignored (``Déplace`` → ``deplace``)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _alternatives(key: str) -> list[str]:
    """The words a catalog key lists in every language (``a|b``), folded."""
    return [fold(word) for language in LANGUAGES for word in catalog(language).get(key, "").split("|") if word]


@cache
def verbs() -> dict[str, str]:
    """Every word that opens an order, folded, and the canonical verb it means: the engine's own
    and, in both languages, the catalog's verb of each order and its other words."""
    found = {fold(word): verb for word, verb in VERBS.items()}
    for verb in GRAMMAR:
        for word in _alternatives(f"sc.order.words.{verb}"):
            found.setdefault(word, verb)
        for language in LANGUAGES:
            shown = catalog(language)[f"sc.order.{verb}"].split(" ", 1)[0]
            found.setdefault(fold(shown), verb)
    return found


@cache
def drop_words() -> frozenset[str]:
    """The words opening a move's drop clause in either language (``drop``, ``lâche``, ``laisse``)."""
    return frozenset({_DROP, *_alternatives("sc.order.words.drop"),
                      *(fold(catalog(language)["sc.order.drop"].split()[0]) for language in LANGUAGES)})


def _read_segment(words: list[tuple[str, int]]) -> list[str]:
    """One order's words with its verb, and the item its move drops, in the engine's words; every
    other word (cells, names, directions) is left as it was typed, for the engine to judge."""
    texts = [text for text, _ in words]
    verb = verbs().get(fold(texts[0]))
    if verb is None:
        return texts
    texts[0] = verb
    if verb == "move":
        opening = next((index for index in range(2, len(texts)) if fold(texts[index]) in drop_words()), None)
        if opening is not None and opening + 1 < len(texts):
            item = choice_named(DROPPABLE, " ".join(texts[opening + 1 :]))
            if item is not None:
                texts[opening:] = [_DROP, item]
    return texts


def read(text: str) -> str:
    """The order text as the engine and the log take it. Text that reads as orders becomes their
    canonical text (``tir dee; déplace c3 lâche viseur`` → ``shoot dee; move C3 drop scope``);
    text that does not is passed as it was typed, so the refusal points at what the player wrote."""
    try:
        parts = segments(text)
        orders = parse_orders("; ".join(" ".join(_read_segment(words)) for words, _ in parts))
    except OrderError:
        return text
    return "; ".join(format_order(order) for order in orders)


def order_message(order: Order) -> Message:
    """One order as the reader writes it (``déplace C3 lâche viseur``, ``frappe E5 NO``), which
    `read` reads back to the same order."""
    params: dict[str, Any] = {"target": order.target or "", "cell": format_cell(order.cell) if order.cell else "",
                              "direction": Message(f"sc.direction.{order.direction.lower()}") if order.direction else "",
                              "drop": Message("sc.order.drop", {"item": Message(f"label.{order.drop}")})
                              if order.drop else ""}
    return Message(f"sc.order.{order.verb}", params)


def canonical_message(text: str) -> Message | str:
    """Canonical order text in the reader's words; text that is not one order stays as it is."""
    try:
        orders = parse_orders(text)
    except OrderError:
        return text
    return order_message(orders[0]) if len(orders) == 1 else text


def orders_listing(texts: Sequence[str]) -> Listing:
    """Canonical orders (a game's end left them undone), each in the reader's words."""
    return Listing(tuple(canonical_message(text) for text in texts))


def suggestions(orders: Iterable[Order], language: str, typed: str) -> Iterator[str]:
    """The orders as the reader would type them, those starting with what was typed (case and
    accents ignored: ``deplace`` is offered ``deplace K3``, kept as the player spells it); an
    order begun in the other language is offered in that one."""
    typed = typed.strip()
    wanted = fold(typed)
    readers = (language, *(other for other in LANGUAGES if other != language))
    for order in orders:
        message = order_message(order)
        texts = (translate(message.key, reader, message.params) for reader in readers)
        found = next((text for text in texts if fold(text).startswith(wanted)), None)
        if found is None:
            continue
        if not found.lower().startswith(typed.lower()) and len(fold(found)) == len(found):
            found = typed + found[len(typed):]
        yield found
