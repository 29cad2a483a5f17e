"""What each reader sees (scenarios.md): the public view, and a ship owner's view with its secrets.

Public: the arena, every ship's material and score, who has given orders and who is ready, and the
orders revealed when the last turn resolved (SB-20). Secret (only `view_for` the ship itself):
this turn's orders before they resolve, and the powers not played yet (SB-17) — the public view
only counts them. During a time jump, its holders also see everyone's orders. In SB-15's two-ships
game each ship names its player and its number (``player``, ``mark``), the view adds each player's
total (``players``), and a player's view holds both its ships' secrets (``fleet``).
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import JSON, Audience
from engine.spaceblast.orders import NO_ORDER, format_order
from engine.spaceblast.state import JUMP, GameState, Ship
from engine.spaceblast.tokens import holdings, settle


def public_ship(state: GameState, ship: Ship) -> JSON:
    return {
        "at": state.cell(ship.at),
        "facing": None if ship.facing is None else ship.facing.name,
        "hits": ship.hits,
        "alive": ship.alive,
        "turns": ship.turns,
        "brakes": ship.brakes,
        "missiles": ship.missiles,
        "mines": ship.mines,
        "score": ship.score,
        "disqualified": ship.disqualified,
        "out_turn": ship.out_turn,
        "fate": ship.fate,
        "powers_held": len(ship.powers),
        "submitted": ship.id in state.orders,
        "ready": ship.id in state.ready,
        **({"player": ship.player, "mark": state.mark(ship)} if ship.player is not None else {}),
    }


def public_view(state: GameState) -> JSON:
    fmt = state.board.format
    return {
        "status": state.status,
        "phase": state.phase,
        "radius": state.radius,
        "variants": list(state.variants),
        "turn": state.turn,
        "winner": state.winner,
        "reason": state.reason,
        "ships": {ship.id: public_ship(state, ship) for ship in state.ships},
        "missiles": [{"owner": m.owner, "at": fmt(m.at), "facing": m.facing.name} for m in state.missiles],
        "mines": [{"owner": m.owner, "at": fmt(m.at), "active": m.active} for m in state.mines],
        "asteroids": [fmt(cell) for cell in sorted(state.asteroids)],
        "revealed": {ident: order.tokens() for ident, order in state.revealed.items()},
        "time_jump": list(state.jumpers),
        **({"players": _players(state)} if any(ship.player is not None for ship in state.ships) else {}),
    }


def _players(state: GameState) -> JSON:
    """Each player's ships and points added (SB-15); a disqualified ship's are 0."""
    return {player: {"ships": [s.id for s in state.ships if s.owner == player],
                     "score": sum(s.score for s in state.ships if s.owner == player)} for player in state.players()}


def own_view(state: GameState, ship: Ship) -> JSON:
    """The ship's secrets: its unplayed powers, this turn's orders and what they leave it."""
    own: dict[str, Any] = {"id": ship.id, "powers": list(ship.powers)}
    order = state.orders.get(ship.id)
    if order is not None:
        own["orders"] = format_order(order)
        own["tokens"] = order.tokens()
        own["left"] = holdings(settle(ship, order)[0])
    if state.phase == JUMP and ship.id in state.jumpers:
        own["jump"] = {s.id: format_order(state.orders.get(s.id, NO_ORDER)) for s in state.on_board()}
    return own


def view_for(state: GameState, viewer: Audience) -> JSON:
    """The public view, plus for a ship's owner its secrets: ``own`` for a ship reading its own,
    ``fleet`` (by ship) for every ship the reader commands — one, or a player's two (SB-15)."""
    view = public_view(state)
    if viewer.kind == "actor":
        fleet = {ship.id: own_view(state, ship) for ship in state.fleet(str(viewer.id))}
        if fleet:
            view["fleet"] = fleet
        ship = state.ship(str(viewer.id))
        if ship is not None:
            view["own"] = fleet.get(ship.id) or own_view(state, ship)
    return view
