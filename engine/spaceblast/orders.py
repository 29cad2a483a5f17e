"""The SpaceBlast order language (SB-5, SB-17): a ship's tokens for one turn, parsed and written back.

An order is the whole set of tokens one ship plays in a turn, space-separated in any order::

    left | right        gauche | droite     a turn token, showing its side
    brake               frein
    missile             missile
    mine                mine
    power NAME          pouvoir NAME        a power tile (SB-17): energy, turbo, superturn, slip,
                                            timejump, shield, recharge, armour, rearshot
    none                rien | aucun        no token: the ship flies straight on (also the empty text)

Keywords ignore case and accents; power names also ignore ``-`` and ``_`` and have French aliases
(``power super-turn``, ``pouvoir bouclier``).

A player commanding two ships (SB-15) says which one an order is for, before a colon, by the ship's
name or its number, and may give both in one text, separated by ``;``::

    1: left missile; 2: brake        Ann 2: mine

The colon and the semicolon cannot be in a name, so the ship part is always plain to read. Parsing only reads: how many tokens a turn allows,
which may repeat (BigBang) and whether the ship holds them are the order checks' business, so
``left left`` parses and is refused there with ``duplicate_token``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from engine.core.errors import OrderError
from engine.spaceblast.material import POWERS

#: the plain token kinds, in canonical order
KINDS: tuple[str, ...] = ("left", "right", "brake", "missile", "mine")

_WORDS: dict[str, str] = {
    **{kind: kind for kind in KINDS},
    "gauche": "left",
    "droite": "right",
    "frein": "brake",
}
_NONE_WORDS = frozenset({"none", "rien", "aucun"})
_POWER_WORDS = frozenset({"power", "pouvoir"})
_POWER_NAMES: dict[str, str] = {
    **{name: name for name in POWERS},
    "energyreserve": "energy",
    "reserve": "energy",
    "reservedenergie": "energy",
    "energie": "energy",
    "supervirage": "superturn",
    "sideslip": "slip",
    "glissement": "slip",
    "glissementlateral": "slip",
    "sauttemporel": "timejump",
    "saut": "timejump",
    "bouclier": "shield",
    "superarmour": "armour",
    "superarmor": "armour",
    "armor": "armour",
    "superblindage": "armour",
    "blindage": "armour",
    "tirarriere": "rearshot",
}


@dataclass(frozen=True, slots=True)
class Order:
    """One ship's tokens for one turn: how many of each kind, and the powers played (sorted).

    Counts rather than a list because an order is a set of tokens (their typed order means
    nothing), so two texts giving the same tokens are the same order."""

    left: int = 0
    right: int = 0
    brake: int = 0
    missile: int = 0
    mine: int = 0
    powers: tuple[str, ...] = ()
    #: which of the player's ships it is for, as written (a name or a number; SB-15); None: the
    #: player's only ship, or the ship giving it
    ship: str | None = None

    def count(self, kind: str) -> int:
        return int(getattr(self, kind))

    @property
    def turn_tokens(self) -> int:
        return self.left + self.right

    def has(self, power: str) -> bool:
        return power in self.powers

    def tokens(self) -> list[str]:
        """The tokens as words, canonical order: what events and the view list."""
        words = [kind for kind in KINDS for _ in range(self.count(kind))]
        return words + [f"power {name}" for name in self.powers]

    def without_powers(self) -> Order:
        return Order(self.left, self.right, self.brake, self.missile, self.mine)

    def for_ship(self, ship: str | None) -> Order:
        return replace(self, ship=ship)


NO_ORDER = Order()


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_order(text: str) -> Order:
    """The order a text gives; OrderError('bad_syntax', expected, got, position) otherwise."""
    counts = dict.fromkeys(KINDS, 0)
    powers: list[str] = []
    words: list[tuple[str, int]] = []
    position = 0
    for raw in text.split():
        position = text.index(raw, position)
        words.append((raw, position))
        position += len(raw)
    if len(words) == 1 and _fold(words[0][0]) in _NONE_WORDS:
        return NO_ORDER
    index = 0
    while index < len(words):
        raw, at = words[index]
        word = _fold(raw)
        if word in _POWER_WORDS:
            if index + 1 == len(words):
                raise OrderError("bad_syntax", expected="power", got="end", position=len(text))
            name_raw, name_at = words[index + 1]
            name = _POWER_NAMES.get(_fold(name_raw).replace("-", "").replace("_", ""))
            if name is None:
                raise OrderError("bad_syntax", expected="power", got=name_raw, position=name_at, powers=list(POWERS))
            powers.append(name)
            index += 2
            continue
        kind = _WORDS.get(word)
        if kind is None:
            raise OrderError("bad_syntax", expected="token", got=raw, position=at)
        counts[kind] += 1
        index += 1
    return Order(**counts, powers=tuple(sorted(powers)))


def parse_orders(text: str) -> tuple[Order, ...]:
    """The orders of one text: ``;``-separated parts, each ``[SHIP:] tokens`` (SB-15); a text
    without a ship part is one order. Empty parts are skipped; errors point into the whole text."""
    orders: list[Order] = []
    start = 0
    for part in text.split(";"):
        ship, colon, tokens = part.partition(":")
        if not colon:
            ship, tokens = "", part
        offset = start + (len(ship) + 1 if colon else 0)
        start += len(part) + 1
        if colon and not ship.strip():
            raise OrderError("bad_syntax", expected="ship", got=":", position=offset - 1)
        if not part.strip():
            continue
        try:
            order = parse_order(tokens)
        except OrderError as error:
            params = dict(error.params)
            if isinstance(params.get("position"), int):
                params["position"] += offset
            raise OrderError(error.code, **params) from None
        orders.append(order.for_ship(" ".join(ship.split()) or None))
    return tuple(orders) or (NO_ORDER,)


def format_order(order: Order) -> str:
    """Canonical English text; parse_orders(format_order(o)) == (o,)."""
    text = " ".join(order.tokens()) or "none"
    return f"{order.ship}: {text}" if order.ship else text
