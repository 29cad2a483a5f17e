"""The GM's variants (SB-15..SB-18) as small classes overriding a few hooks, python-chess style.

The core never asks "is BigBang on?": it asks the game's variants for the order limits of a turn
(`limits`), for the ships a joining player gets (`fleet`) and the corners they start on
(`corners`), and lets them act once when the lobby starts the game (`at_start`). Whatever a variant
puts on the arena then works through the state alone: an asteroid is in `state.asteroids` whether
a variant placed it or a setup document did, and a power acts because a ship holds and plays it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from engine.core.errors import OrderError
from engine.core.protocol import Audience, Event
from engine.spaceblast.dice import shuffled
from engine.spaceblast.events import event
from engine.spaceblast.material import ASTEROID_CLEARANCE, MISSILE_RANGE, POWERS, TOKENS_PER_TURN
from engine.spaceblast.state import GameState, Ship


@dataclass(frozen=True)
class OrderLimits:
    """What one turn's order may hold (SB-5, SB-18)."""

    #: tokens per turn, powers aside; None: no limit
    tokens: int | None = TOKENS_PER_TURN
    #: whether a token kind may repeat (missiles and mines keep their own limits)
    repeats: bool = False
    #: how far each missile fired this turn flies, in firing order: its length is the most a ship fires
    missile_ranges: tuple[int, ...] = (MISSILE_RANGE,)

    @property
    def missiles(self) -> int:
        return len(self.missile_ranges)


class Variant:
    """The standard game: no change. Subclasses override the hooks they change."""

    name: ClassVar[str] = ""

    def limits(self, limits: OrderLimits) -> OrderLimits:
        return limits

    def fleet(self, player: str, ships: tuple[Ship, ...]) -> tuple[Ship, ...]:
        """The ships a player joining the lobby gets (standard: one, named as the player)."""
        return ships

    def corners(self, state: GameState, seats: list[int]) -> list[int]:
        """The SB-3 corner (an index in seat order) of each ship of `state.ships`, at the start."""
        return seats

    def at_start(self, state: GameState) -> tuple[GameState, list[Event]]:
        """What the variant sets up once the ships sit on their corners (the lobby's ``start``)."""
        return state, []


class Asteroids(Variant):
    """SB-16: asteroids dropped at random, at distance >= 2 from every ship, from the game's seed."""

    name = "asteroids"

    def at_start(self, state: GameState) -> tuple[GameState, list[Event]]:
        if state.asteroids:  # the document placed them already
            return state, []
        ships = [ship.at for ship in state.ships if ship.at is not None]
        candidates = [cell for cell in state.board if all(cell.distance(at) >= ASTEROID_CLEARANCE for at in ships)]
        chosen = frozenset(shuffled(state.seed, "asteroids", candidates)[: state.asteroid_count])
        return replace(state, asteroids=chosen), []


class Powers(Variant):
    """SB-17: the nine tiles dealt without replacement, `powers_per_ship` each in seat order."""

    name = "powers"

    def at_start(self, state: GameState) -> tuple[GameState, list[Event]]:
        per_ship = state.powers_per_ship
        if per_ship * len(state.ships) > len(POWERS):
            raise OrderError("not_allowed", reason="too_many_powers", per_ship=per_ship, ships=len(state.ships))
        deck = shuffled(state.seed, "powers", POWERS)
        ships = []
        events = []
        for seat, ship in enumerate(state.ships):
            hand = tuple(sorted(deck[seat * per_ship : (seat + 1) * per_ship]))
            ships.append(replace(ship, powers=hand))
            events.append(event("powers_dealt", Audience.actor(ship.owner), ship=ship.id, powers=list(hand)))
        return replace(state, ships=tuple(ships)), events


class BigBang(Variant):
    """SB-18: no token limit, kinds may repeat, one missile a turn."""

    name = "bigbang"
    missile_ranges: ClassVar[tuple[int, ...]] = (MISSILE_RANGE,)

    def limits(self, limits: OrderLimits) -> OrderLimits:
        return replace(limits, tokens=None, repeats=True, missile_ranges=self.missile_ranges)


class BigBang3(BigBang):
    """SB-18, the GM's option of up to three missiles: the 1st flies 3 cells that turn, the 2nd 2, the 3rd 1."""

    name = "bigbang3"
    missile_ranges = (3, 2, 1)


class TwoShips(Variant):
    """SB-15: each player runs two ships, ``NAME 1`` and ``NAME 2``, with separate material; a
    player's ships take opposite corners (seats k and k+3), so two or three players fill the arena."""

    name = "twoships"

    def fleet(self, player: str, ships: tuple[Ship, ...]) -> tuple[Ship, ...]:
        return tuple(Ship(f"{player} {mark}", player=player) for mark in (1, 2))

    def corners(self, state: GameState, seats: list[int]) -> list[int]:
        players = state.players()
        return [players.index(ship.owner) + 3 * (state.mark(ship) - 1) for ship in state.ships]


VARIANTS: dict[str, Variant] = {v.name: v for v in (Asteroids(), Powers(), BigBang(), BigBang3(), TwoShips())}
#: variants that cannot be on together: each pair is one choice of the GM
EXCLUSIVE: tuple[frozenset[str], ...] = (frozenset({"bigbang", "bigbang3"}),)


def variants_of(names: Iterable[str]) -> Sequence[Variant]:
    return [VARIANTS[name] for name in names]


def limits_for(names: Iterable[str]) -> OrderLimits:
    limits = OrderLimits()
    for variant in variants_of(names):
        limits = variant.limits(limits)
    return limits


def fleet_for(names: Iterable[str], player: str) -> tuple[Ship, ...]:
    ships = (Ship(player),)
    for variant in variants_of(names):
        ships = variant.fleet(player, ships)
    return ships


def corners_for(state: GameState, seats: list[int]) -> list[int]:
    for variant in variants_of(state.variants):
        seats = variant.corners(state, seats)
    return seats


def start_variants(state: GameState) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for variant in variants_of(state.variants):
        state, produced = variant.at_start(state)
        events.extend(produced)
    return state, events

