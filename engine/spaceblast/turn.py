"""The scratch pad of one turn's resolution: the arena as it changes, and the hits and points rules
every phase shares (SB-9..SB-12, SB-17 shield).

Resolution is long and its phases touch the same ships many times, so it works on this mutable
copy and freezes it back into a GameState at the end; the state it started from is never touched.
Every change goes through a method here that also records its event, so the story told to
players is exactly what happened, in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from engine.core.hexgrid import Hex
from engine.core.protocol import Event
from engine.spaceblast.events import event
from engine.spaceblast.orders import NO_ORDER, Order
from engine.spaceblast.state import DESTROYED, GameState, Mine, Missile, Ship


class Turn:
    def __init__(self, state: GameState, orders: Mapping[str, Order]) -> None:
        self.start = state
        self.number = state.turn + 1
        self.board = state.board
        self.ships: dict[str, Ship] = {ship.id: ship for ship in state.ships}
        self.missiles: list[Missile] = list(state.missiles)
        self.mines: list[Mine] = list(state.mines)
        self.orders = orders
        self.shielded: frozenset[str] = frozenset(i for i, o in orders.items() if o.has("shield"))
        #: ships that lost their one point of hull to collisions and rams this movement phase (SB-9)
        self.bumped: set[str] = set()
        self.events: list[Event] = []
        self.frames: list[dict[str, Any]] = []

    # -- reading ---------------------------------------------------------------------------------
    def order(self, ident: str) -> Order:
        return self.orders.get(ident, NO_ORDER)

    def cell(self, cell: Hex | None) -> str | None:
        return None if cell is None or cell not in self.board else self.board.format(cell)

    def in_play(self) -> Iterator[Ship]:
        """Ships on the arena, in seat order, doomed ones included (SB-12: they stay until the damage phase)."""
        return (ship for ship in self.ships.values() if ship.on_board)

    def ship_at(self, cell: Hex) -> Ship | None:
        return next((ship for ship in self.in_play() if ship.at == cell), None)

    def mine_at(self, cell: Hex) -> Mine | None:
        return next((mine for mine in self.mines if mine.at == cell), None)

    def say(self, kind: str, /, **params: Any) -> None:
        self.events.append(event(kind, **params))

    def update(self, ship: Ship) -> Ship:
        self.ships[ship.id] = ship
        return ship

    # -- points and hull -------------------------------------------------------------------------
    def score(self, ident: str, points: int, reason: str, victim: str | None = None) -> None:
        """Points to `ident`, even when its ship is gone (SB-12); none for hitting oneself (SB-9,
        SB-10) or one's own other ship (SB-15), and none for a disqualified ship, whose score stays
        0 (SB-14)."""
        ship = self.ships.get(ident)
        if ship is None or ship.disqualified or (victim is not None and self.ships[victim].owner == ship.owner):
            return
        ship = self.update(replace(ship, score=ship.score + points))
        self.say("scored", ship=ident, points=points, reason=reason, victim=victim, total=ship.score)

    def hit(self, ident: str, cause: str, by: str | None) -> bool:
        """One hit on `ident`, its author scoring 1; a shield takes it instead (SB-17). Whether it landed."""
        if ident in self.shielded:
            self.say("shielded", ship=ident, cause=cause, by=by)
            return False
        ship = self.update(replace(self.ships[ident], hits=self.ships[ident].hits + 1))
        self.say("damaged", ship=ident, cause=cause, by=by, hits=ship.hits)
        if by is not None:
            self.score(by, 1, cause, ident)
        return True

    def bump(self, ident: str, cause: str, by: str | None) -> None:
        """A collision or ram loss: at most one per ship in the movement phase (SB-9), no point."""
        if ident in self.bumped:
            return
        self.bumped.add(ident)
        if ident in self.shielded:
            self.say("shielded", ship=ident, cause=cause, by=by)
            return
        ship = self.update(replace(self.ships[ident], hits=self.ships[ident].hits + 1))
        self.say("damaged", ship=ident, cause=cause, by=by, hits=ship.hits)

    # -- leaving the arena -----------------------------------------------------------------------
    def arm_mine(self, owner: str, cell: Hex) -> None:
        """A mine becomes active the moment its layer leaves its cell or is destroyed (SB-8)."""
        for index, mine in enumerate(self.mines):
            if mine.owner == owner and mine.at == cell and not mine.active:
                self.mines[index] = replace(mine, active=True)
                self.say("mine_armed", owner=owner, at=self.cell(cell))

    def remove(self, ident: str, fate: str) -> None:
        ship = self.ships[ident]
        if ship.at is not None and fate == DESTROYED:
            self.arm_mine(ident, ship.at)
        self.update(replace(ship, at=None, out_turn=self.number, fate=fate))

    # -- freezing --------------------------------------------------------------------------------
    def result(self) -> GameState:
        return replace(
            self.start,
            ships=tuple(self.ships.values()),
            missiles=tuple(self.missiles),
            mines=tuple(self.mines),
        )
