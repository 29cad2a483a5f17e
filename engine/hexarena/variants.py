"""HexArena's variants (reconstructed rules HA-12, HA-15..HA-17), python-chess style.

The base game is :class:`Variant`; each variant is a small subclass that overrides the hooks it
changes and declares its aliases, and nothing else in the engine asks which variant is on:

- how big a turn is (``max_actions``, ``action_points``) and what an action costs (``cost``);
- what loses a game at the start of a turn besides HA-14 (``start_of_turn_loss``).

A game may combine Blitz with one turn structure (``["blitz", "omega"]``): the combination is the
subclass of both, built once (:func:`variant_for`). Alpha and Omega both say how big a turn is,
so they cannot be combined.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from engine.core.errors import OrderError, SetupError
from engine.hexarena.geometry import ADMIRAL, CARGO, FIGHTER, PATROL
from engine.hexarena.legal import admiral_can_change_cell
from engine.hexarena.state import ArenaState, in_base


@dataclass(frozen=True, slots=True)
class Budget:
    """What is left of the turn being applied: every variant activates each ship at most once
    (Alpha's D, Omega's NB; the base game has one action anyway)."""

    actions: int = 0
    ap: int | None = None
    activated: frozenset[str] = frozenset()


class Variant:
    """The base game: one action per turn (HA-12), HA-14 as the only start-of-turn loss."""

    name: ClassVar[str] = "base"
    aliases: ClassVar[tuple[str, ...]] = ("standard", "classic", "classique")
    max_actions: ClassVar[int | None] = 1
    action_points: ClassVar[int | None] = None

    def new_budget(self) -> Budget:
        return Budget(ap=self.action_points)

    def admit(self, budget: Budget, ship_id: str) -> None:
        """May this ship act now? Asked before the action is looked at, so a turn that is too long
        says so whatever its extra action is."""
        if self.max_actions is not None and budget.actions >= self.max_actions:
            raise OrderError("too_many_actions", maximum=self.max_actions)
        if ship_id in budget.activated:
            raise OrderError("already_used", ship=ship_id, reason="ship")

    def cost(self, ship_type: str, verb: str, cells: int) -> int:
        """Action points an action takes (`cells` entered for a move); only Omega counts them."""
        return 0

    def pay(self, budget: Budget, ship_id: str, cost: int) -> Budget:
        ap = budget.ap
        if ap is not None:
            if cost > ap:
                raise OrderError("not_enough_ap", need=cost, have=ap)
            ap -= cost
        return Budget(budget.actions + 1, ap, budget.activated | {ship_id})

    def room_after(self, budget: Budget, cost: int) -> bool:
        """Whether another action could still fit after one costing `cost` (move generation asks
        before paying, so the last action of a turn builds no budget)."""
        if self.max_actions is not None and budget.actions + 1 >= self.max_actions:
            return False
        return budget.ap is None or budget.ap > cost

    def start_of_turn_loss(self, state: ArenaState, side: str) -> str | None:
        """A reason `side` loses as its turn starts, besides having no legal action (HA-14)."""
        return None


class Blitz(Variant):
    """HA-15 Neutralisation: an admiral outside its own base that no action can take off its cell
    loses the game (« perd toute possibilité de déplacement »)."""

    name = "blitz"
    aliases = ("neutralisation", "neutralization")

    def start_of_turn_loss(self, state: ArenaState, side: str) -> str | None:
        admiral = next((s for s in state.ships if s.side == side and s.type == ADMIRAL and s.alive), None)
        if admiral is None or in_base(state.admiral_cell(side), side):
            return None
        return None if admiral_can_change_cell(state, admiral) else "admiral_stuck"


class Alpha(Variant):
    """HA-16 Stratège Alpha: up to two actions, by two different ships."""

    name = "alpha"
    aliases = ("stratege-alpha", "strategist-alpha")
    max_actions = 2


OMEGA_COSTS: dict[tuple[str, str], int] = {
    (ADMIRAL, "move"): 1,  # per cell
    (FIGHTER, "move"): 1,  # per cell entered, a teleport's wrap included (HA-17 pinned)
    (CARGO, "move"): 2,  # per move
    (PATROL, "move"): 2,  # per move, a teleport too
    (ADMIRAL, "rotate"): 2,
    (FIGHTER, "rotate"): 2,
    (CARGO, "rotate"): 2,
    (ADMIRAL, "board"): 3,
    (ADMIRAL, "leave"): 3,
    (ADMIRAL, "fire"): 3,
    (FIGHTER, "fire"): 3,
    (ADMIRAL, "recycle"): 3,  # D: the indirect access's step included
    (PATROL, "ram"): 2,  # D
}
_PER_CELL = frozenset({(ADMIRAL, "move"), (FIGHTER, "move")})


class Omega(Variant):
    """HA-17 Stratège Omega: 5 action points per turn, each ship activated at most once."""

    name = "omega"
    aliases = ("stratege-omega", "strategist-omega")
    max_actions = None
    action_points = 5

    def cost(self, ship_type: str, verb: str, cells: int) -> int:
        base = OMEGA_COSTS[(ship_type, verb)]
        return base * cells if (ship_type, verb) in _PER_CELL else base


VARIANTS: tuple[type[Variant], ...] = (Blitz, Alpha, Omega)
_BY_ALIAS: dict[str, type[Variant]] = {
    key: cls for cls in (Variant, *VARIANTS) for key in (cls.name, *cls.aliases)
}


def find_variant(name: str) -> type[Variant] | None:
    return _BY_ALIAS.get(name.strip().lower())


def canonical(names: list[str] | tuple[str, ...], where: str = "variant") -> tuple[str, ...]:
    """The canonical names of a variant list (aliases resolved, base dropped, VARIANTS order);
    SetupError for an unknown name or Alpha with Omega."""
    found: set[type[Variant]] = set()
    for index, name in enumerate(names):
        cls = find_variant(name) if isinstance(name, str) else None
        if cls is None:
            allowed = sorted(c.name for c in (Variant, *VARIANTS))
            raise SetupError("bad_variant", f"{where}[{index}]" if len(names) > 1 else where, value=name, allowed=allowed)
        if cls is not Variant:
            found.add(cls)
    if {Alpha, Omega} <= found:
        raise SetupError("bad_variant", where, reason="alpha_with_omega")
    return tuple(cls.name for cls in VARIANTS if cls in found)


@cache
def variant_for(names: tuple[str, ...]) -> Variant:
    """The rules hooks of a game's variants: one class, or the subclass of several."""
    classes = tuple(cls for cls in VARIANTS if cls.name in names)
    if not classes:
        return Variant()
    if len(classes) == 1:
        return classes[0]()
    combined = type("".join(cls.__name__ for cls in classes), classes, {"name": "+".join(names)})
    return combined()

