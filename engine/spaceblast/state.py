"""The SpaceBlast game state: small frozen records, replaced (never mutated) by every input.

Everything the rules need lives here, secrets included (each ship's unplayed powers and this
turn's submitted orders), so a dumped state reloads to exactly the same game; the public view
(`views`) is where secrets are left out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.hexgrid import Direction, Hex, HexBoard
from engine.spaceblast.material import ASTEROIDS_DEFAULT, BRAKES, MINES, MISSILES, TURNS
from engine.spaceblast.orders import Order, format_order, parse_order

SETUP, RUNNING, FINISHED = "setup", "running", "finished"
#: the phases of a running turn: orders are given, then (SB-17 time jump) revealed and waiting for a change
ORDERS, JUMP = "orders", "jump"
#: how a ship left the arena
DESTROYED, LEFT_ARENA, ASTEROID = "destroyed", "left_arena", "asteroid"


@lru_cache(maxsize=8)
def arena(radius: int) -> HexBoard:
    """The arena of that radius, built once (SB-1)."""
    return HexBoard.hexagon(radius)


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    at: Hex | None = None
    facing: Direction | None = None
    hits: int = 0
    turns: int = TURNS
    brakes: int = BRAKES
    missiles: int = MISSILES
    mines: int = MINES
    score: int = 0
    #: powers not played yet (secret, SB-17)
    powers: tuple[str, ...] = ()
    disqualified: bool = False
    #: the turn it left the arena (destroyed or eliminated), for the SB-14 tie-break; None while in play
    out_turn: int | None = None
    fate: str | None = None
    #: the player commanding it when a player has several ships (SB-15 two ships each); None: the
    #: ship is its own player, as in the standard game
    player: str | None = None

    @property
    def owner(self) -> str:
        """Who gives its orders, scores with it and wins or loses with it: its player, or itself."""
        return self.player or self.id

    @property
    def alive(self) -> bool:
        return self.out_turn is None

    @property
    def on_board(self) -> bool:
        return self.at is not None and self.out_turn is None


@dataclass(frozen=True, slots=True)
class Missile:
    owner: str
    at: Hex
    facing: Direction


@dataclass(frozen=True, slots=True)
class Mine:
    owner: str
    at: Hex
    active: bool


@dataclass(frozen=True)
class GameState:
    radius: int
    variants: tuple[str, ...]
    ships: tuple[Ship, ...]
    seed: int = 0
    missiles: tuple[Missile, ...] = ()
    mines: tuple[Mine, ...] = ()
    asteroids: frozenset[Hex] = frozenset()
    status: str = RUNNING
    phase: str = ORDERS
    #: turns resolved so far
    turn: int = 0
    #: a ship id, "draw", or None while the game goes on
    winner: str | None = None
    reason: str | None = None
    #: this turn's submitted orders, by ship (secret until the turn resolves)
    orders: Mapping[str, Order] = field(default_factory=dict)
    ready: frozenset[str] = frozenset()
    #: during a time jump (SB-17): the ships holding it, who may still change one token
    jumpers: tuple[str, ...] = ()
    #: the orders revealed when the last turn resolved (public from then on), by ship
    revealed: Mapping[str, Order] = field(default_factory=dict)
    #: the lobby's settings for `start` (SB-16, SB-17)
    asteroid_count: int = ASTEROIDS_DEFAULT
    powers_per_ship: int = 1

    @property
    def board(self) -> HexBoard:
        return arena(self.radius)

    def ship(self, ident: str) -> Ship | None:
        return next((ship for ship in self.ships if ship.id == ident), None)

    def find(self, name: str) -> Ship | None:
        """A ship named as a player types it: exact id first, then ignoring case."""
        return self.ship(name) or next((s for s in self.ships if s.id.casefold() == name.casefold()), None)

    def on_board(self) -> Iterator[Ship]:
        return (ship for ship in self.ships if ship.on_board)

    def players(self) -> tuple[str, ...]:
        """Who gives orders, in seat order: each ship's owner once (the ships themselves in the
        standard game, the players in SB-15's two-ships game)."""
        return tuple(dict.fromkeys(ship.owner for ship in self.ships))

    def fleet(self, actor: str) -> tuple[Ship, ...]:
        """The ships `actor` commands: a player's ships, or the one ship it names (a ship answers for
        itself, so scenarios and the computer can address one ship of a pair). Exact names first,
        then ignoring case, as `find` does; empty when nobody goes by that name."""
        for same in (str.__eq__, lambda a, b: a.casefold() == b.casefold()):
            owned = tuple(ship for ship in self.ships if same(ship.owner, actor))
            if owned:
                return owned
            named = next((ship for ship in self.ships if same(ship.id, actor)), None)
            if named is not None:
                return (named,)
        return ()

    def mark(self, ship: Ship) -> int:
        """A ship's number among its player's ships (1, 2), from the seat order."""
        return [s.id for s in self.ships if s.owner == ship.owner].index(ship.id) + 1

    def ship_at(self, cell: Hex) -> Ship | None:
        return next((ship for ship in self.on_board() if ship.at == cell), None)

    def mine_at(self, cell: Hex) -> Mine | None:
        return next((mine for mine in self.mines if mine.at == cell), None)

    def with_ship(self, ship: Ship) -> GameState:
        return replace(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    def cell(self, cell: Hex | None) -> str | None:
        return None if cell is None else self.board.format(cell)


# -- serialisation ---------------------------------------------------------------------------------
_SHIP_NUMBERS = ("hits", "turns", "brakes", "missiles", "mines", "score")


def _direction(direction: Direction | None) -> str | None:
    return None if direction is None else direction.name


def ship_to_json(state: GameState, ship: Ship) -> dict[str, Any]:
    data: dict[str, Any] = {"id": ship.id, "at": state.cell(ship.at), "facing": _direction(ship.facing)}
    data.update({name: getattr(ship, name) for name in _SHIP_NUMBERS})
    data.update(powers=list(ship.powers), disqualified=ship.disqualified, out_turn=ship.out_turn, fate=ship.fate)
    if ship.player is not None:
        data["player"] = ship.player
    return data


def dump_state(state: GameState) -> dict[str, Any]:
    fmt = state.board.format
    return {
        "radius": state.radius,
        "variants": list(state.variants),
        "seed": state.seed,
        "status": state.status,
        "phase": state.phase,
        "turn": state.turn,
        "winner": state.winner,
        "reason": state.reason,
        "ships": [ship_to_json(state, ship) for ship in state.ships],
        "missiles": [{"owner": m.owner, "at": fmt(m.at), "facing": m.facing.name} for m in state.missiles],
        "mines": [{"owner": m.owner, "at": fmt(m.at), "active": m.active} for m in state.mines],
        "asteroids": [fmt(cell) for cell in sorted(state.asteroids)],
        "orders": {ident: format_order(order) for ident, order in state.orders.items()},
        "ready": sorted(state.ready),
        "jumpers": list(state.jumpers),
        "revealed": {ident: format_order(order) for ident, order in state.revealed.items()},
        "asteroid_count": state.asteroid_count,
        "powers_per_ship": state.powers_per_ship,
    }


def load_state(data: Mapping[str, Any]) -> GameState:
    """Inverse of dump_state; a corrupt document raises SetupError('bad_state')."""
    try:
        board = arena(int(data["radius"]))

        def cell(text: str | None) -> Hex | None:
            return None if text is None else board.parse(text)

        def direction(text: str | None) -> Direction | None:
            return None if text is None else Direction[text]

        ships = tuple(
            Ship(
                id=s["id"],
                at=cell(s["at"]),
                facing=direction(s["facing"]),
                **{name: int(s[name]) for name in _SHIP_NUMBERS},
                powers=tuple(s["powers"]),
                disqualified=bool(s["disqualified"]),
                out_turn=s["out_turn"],
                fate=s["fate"],
                player=s.get("player"),
            )
            for s in data["ships"]
        )
        return GameState(
            radius=int(data["radius"]),
            variants=tuple(data["variants"]),
            ships=ships,
            seed=int(data["seed"]),
            missiles=tuple(Missile(m["owner"], board.parse(m["at"]), Direction[m["facing"]]) for m in data["missiles"]),
            mines=tuple(Mine(m["owner"], board.parse(m["at"]), bool(m["active"])) for m in data["mines"]),
            asteroids=frozenset(board.parse(text) for text in data["asteroids"]),
            status=data["status"],
            phase=data["phase"],
            turn=int(data["turn"]),
            winner=data["winner"],
            reason=data["reason"],
            orders={ident: parse_order(text) for ident, text in data["orders"].items()},
            ready=frozenset(data["ready"]),
            jumpers=tuple(data["jumpers"]),
            revealed={ident: parse_order(text) for ident, text in data["revealed"].items()},
            asteroid_count=int(data["asteroid_count"]),
            powers_per_ship=int(data["powers_per_ship"]),
        )
    except (KeyError, TypeError, ValueError, OrderError) as error:
        raise SetupError("bad_state", "state", detail=str(error)) from error
