"""SpaceBlast's values in the reader's words: directions on the reader's compass (``NO`` for a French
reader's north-west), tokens and orders in the reader's order language (``gauche missile``), powers,
causes and reasons by name, counts with their plurals.

The engine speaks one canonical English (``left missile``, ``NW``, ``shield``); everything here turns
its values into catalog words (`Message`, `Count`, `Listing`), which the reply translates for its
reader, or into text in a given language where a string is needed (`order_text`, `picture_labels`).
An order written in either language parses back to the same order (engine.spaceblast.orders reads
both).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.i18n import Count, Listing, catalog, translate
from bot.service.replies import Message
from engine.core.errors import OrderError
from engine.spaceblast.material import POWERS
from engine.spaceblast.orders import KINDS, Order, parse_orders

DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
#: the ship's material as the events and views count it, each a noun with its plural
MATERIAL = ("turns", "brakes", "missiles", "mines")


def direction(name: Any) -> Any:
    """A direction as the reader writes it: ``W`` in English, ``O`` (ouest) in French (the labels
    Discord shows for a direction choice, ``word.choice.direction.*``); anything else as it is."""
    if isinstance(name, str) and name.upper() in DIRECTIONS:
        return Message(f"word.choice.direction.{name.lower()}")
    return name


def power(name: Any) -> Any:
    """A power by its name in prose ("super turn", "super virage"); an unknown one as it is."""
    return Message(f"sb.power.{name}") if name in POWERS else name


def powers(names: Iterable[Any]) -> Listing:
    return Listing(tuple(power(name) for name in names))


def token(word: str) -> Message:
    """One token of an order as the reader types it (``gauche``, ``pouvoir bouclier``)."""
    if word.startswith("power "):
        name = word.removeprefix("power ")
        return Message("sb.order.power", {"name": Message(f"sb.order.power.{name}") if name in POWERS else name})
    return Message(f"sb.order.{word}") if word in KINDS else Message("sb.order.raw", {"word": word})


def tokens(words: Sequence[str], ship: str | None = None) -> Message:
    """A ship's tokens for a turn in the reader's order language (``frein missile``, ``rien`` for
    none), after its ship part when it has one (``Ann 2: frein``)."""
    said = Listing(tuple(token(word) for word in words), separator=" ") if words else Message("sb.order.none")
    return Message("sb.order.ship", {"ship": ship, "tokens": said}) if ship else Message("sb.order.text", {"tokens": said})


def order(order: Order) -> Message:
    return tokens(order.tokens(), order.ship)


def order_words(text: Any) -> Any:
    """An order text (the engine's or a player's, in either language) in the reader's order words;
    a text that does not parse stays as typed."""
    try:
        orders = parse_orders(str(text))
    except OrderError:
        return text
    return Listing(tuple(order(one) for one in orders), separator="; ")


def order_text(one: Order, language: str) -> str:
    """An order as a reader of `language` types it (``gauche missile``): what `/sb order` suggests;
    it parses back to the same order."""
    return translate("sb.order.quoted", language, {"order": order(one)})


def orders_by_ship(orders: Mapping[str, Any]) -> Listing:
    """Several ships' orders, "**Ann** : frein missile, **Bob** : rien", from ``{ship: tokens}``
    (a list of token words) or ``{ship: text}``."""
    return Listing(tuple(Message("sb.order.of", {"ship": ship, "order": tokens(list(given)) if isinstance(
        given, list | tuple) else order_words(given)}) for ship, given in orders.items()))


def left(held: Mapping[str, Any]) -> Message:
    """What a ship holds ("9 virages, 2 freins, 7 missiles, 3 mines ; pouvoirs : aucun")."""
    counts = Listing(tuple(Count(int(held.get(kind, 0)), f"sb.count.{kind}") for kind in MATERIAL))
    return Message("sb.holdings", {"counts": counts, "powers": powers(held.get("powers") or ())})


def count(kind: str, n: Any) -> Any:
    """`n` of a material kind (``turns``, ``missiles``) with its noun agreed."""
    return Count(int(n), f"sb.count.{kind}") if kind in MATERIAL and isinstance(n, int) else n


def ships(idents: Iterable[Any]) -> Listing:
    return Listing(tuple(f"**{ident}**" for ident in idents), conjunction=True)


#: the event parameters that are directions, by event kind
_FACINGS = {"rotated": ("from", "to"), "fired": ("facing",), "moved": ("facing",), "missile_moved": ("facing",)}
#: the reasons a missile leaves play that its message tells (``sb.missile_removed.<reason>``)
_MISSILE_ENDS = ("left_arena", "asteroid")
#: the event parameters whose values the catalog words, by parameter: ``sb.<group>.<value>``
_WORDED = {"cause": "cause", "reason": "reason", "side": "side"}


def event_words(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """An event's parameters in the reader's words: directions, tokens, powers, causes, counts."""
    facings = _FACINGS.get(kind, ())
    words: dict[str, Any] = {}
    for key, value in params.items():
        if key in facings:
            words[key] = direction(value)
        elif key in _WORDED and isinstance(value, str) and f"sb.{_WORDED[key]}.{value}" in catalog("en"):
            words[key] = Message(f"sb.{_WORDED[key]}.{value}")
        else:
            words[key] = value
    return {**words, **_special(kind, params)}


def _special(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters whose words need more than their own value (a list of ships, a count)."""
    if kind == "started":
        ships_at = Listing(tuple(Message("sb.started.ship", {**ship, "facing": direction(ship.get("facing"))})
                                 for ship in params.get("ships") or ()))
        rocks = params.get("asteroids") or ()
        return {"ships": ships_at, "asteroids": Message("sb.started.asteroids", {
            "cells": Listing(tuple(rocks), conjunction=True), "count": Count(len(rocks), "sb.count.asteroids")})
            if rocks else ""}
    if kind == "orders_set":
        return {"text": tokens(list(params.get("tokens") or ())), "left": left(params.get("left") or {})}
    if kind == "revealed":
        defaulted = params.get("defaulted") or ()
        return {"orders": orders_by_ship(params.get("tokens") or params.get("orders") or {}),
                "defaulted": Message("sb.revealed.defaulted", {"ships": ships(defaulted)}) if defaulted else ""}
    if kind == "time_jump_offer":
        return {"orders": orders_by_ship(params.get("orders") or {})}
    if kind in ("time_jump_wait", "collision"):
        return {"ships": ships(params.get("ships") or ())}
    if kind in ("power_played", "recovered"):
        extra = {"power": power(params.get("power"))}
        if kind == "recovered":
            extra["amount"] = count(str(params.get("kind")), params.get("amount"))
        return extra
    if kind == "powers_dealt":
        return {"powers": powers(params.get("powers") or ())}
    if kind == "missile_removed":  # the arena's edge or an asteroid (SB-10, SB-16), told apart
        reason = params.get("reason")
        how = reason if reason in _MISSILE_ENDS else "gone"
        return {"how": Message(f"sb.missile_removed.{how}", {"at": params.get("at")})}
    if kind == "disqualified":
        return {"lost": Count(int(params.get("lost") or 0), "sb.count.points_lost")}
    return {}


# -- the pictures' words ---------------------------------------------------------------------------
def picture_labels(language: str) -> dict[str, str]:
    """Every word the arena, its replay and the ship cards draw (renders/spaceblast/style.py's
    LABELS), from the catalog of `language`: the render draws nothing else. Directions are the
    reader's compass (``direction.<D>``), powers their prose names (``power.<name>``)."""
    from renders.spaceblast.style import LABELS

    words = catalog(language)

    def key(label: str) -> str:
        head, _, tail = label.partition(".")
        if head == "direction":
            return f"word.choice.direction.{tail.lower()}"
        if head == "power":
            return f"sb.power.{tail}"
        return f"sb.picture.{label}"

    return {label: words[key(label)] for label in LABELS}
