"""What an order takes from a ship: the tokens it must hold, and those spent when the turn resolves.

The two differ only through powers (SB-17): super turn shows 2 or 3 turn tokens and spends one,
side slip shows a turn token for its side and spends none, rear shot spends a missile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.spaceblast.material import ENERGY_TURNS, MISSILES, RECHARGE_MISSILES, TURNS
from engine.spaceblast.orders import Order
from engine.spaceblast.state import Ship


@dataclass(frozen=True)
class Tokens:
    turns: int = 0
    brakes: int = 0
    missiles: int = 0
    mines: int = 0

    def items(self) -> tuple[tuple[str, int], ...]:
        return (("turns", self.turns), ("brakes", self.brakes), ("missiles", self.missiles), ("mines", self.mines))


def super_turn_group(order: Order) -> bool:
    """Whether the order's turn tokens are a super turn's 2 or 3 tokens of one side (SB-17)."""
    one_side = order.left == 0 or order.right == 0
    return order.has("superturn") and one_side and 2 <= order.turn_tokens <= 3


def counted(order: Order) -> int:
    """Tokens against the per-turn limit (SB-5): powers are not counted, a super turn counts as one."""
    turns = 1 if super_turn_group(order) else order.turn_tokens
    return turns + order.brake + order.missile + order.mine


def needed(order: Order) -> Tokens:
    """The tokens the ship must hold to give this order (a super turn's are shown, so held)."""
    return Tokens(order.turn_tokens, order.brake, order.missile + order.has("rearshot"), order.mine)


def spent(order: Order) -> Tokens:
    """The tokens the turn spends (SB-5: every submitted token, even if its effect cannot happen)."""
    if order.has("slip"):
        turns = 0
    elif super_turn_group(order):
        turns = 1
    else:
        turns = order.turn_tokens
    return Tokens(turns, order.brake, order.missile + order.has("rearshot"), order.mine)


def rotation(order: Order) -> int:
    """Sixths of a turn, clockwise positive (SB-7); a slip's side token does not turn the ship."""
    if order.has("slip"):
        return 0
    return order.right - order.left


def settle(ship: Ship, order: Order) -> tuple[Ship, list[tuple[str, str, int]]]:
    """The ship's holdings once the turn is paid for: energy reserve and recharge give spent tokens
    back first (SB-17: "used previously", so never above the starting material), then the order's
    tokens are spent and its powers used up. Also returns what was recovered, as (power, kind, amount)."""
    recovered = []
    turns, missiles = ship.turns, ship.missiles
    if order.has("energy"):
        gain = min(ENERGY_TURNS, TURNS - turns)
        turns += gain
        recovered.append(("energy", "turns", gain))
    if order.has("recharge"):
        gain = min(RECHARGE_MISSILES, MISSILES - missiles)
        missiles += gain
        recovered.append(("recharge", "missiles", gain))
    cost = spent(order)
    settled = replace(
        ship,
        turns=turns - cost.turns,
        brakes=ship.brakes - cost.brakes,
        missiles=missiles - cost.missiles,
        mines=ship.mines - cost.mines,
        powers=tuple(power for power in ship.powers if power not in order.powers),
    )
    return settled, recovered


def holdings(ship: Ship) -> dict[str, object]:
    """A ship's tokens as the events and the owner's view list them."""
    return {"turns": ship.turns, "brakes": ship.brakes, "missiles": ship.missiles, "mines": ship.mines,
            "powers": list(ship.powers)}
