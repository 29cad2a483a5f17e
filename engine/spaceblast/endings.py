"""The end of the game and the ranking (SB-13, SB-14).

The game ends after a turn that leaves one ship or none on the arena, every phase of it played (so
missiles in flight still scored); the survivor scores +1. The highest score wins; ties go to the
ship eliminated latest, a survivor beating everyone, and "latest" compares turns only. Still equal:
a draw. A disqualified ship is out of the ranking: it can neither win nor share a draw, and if every
ship is disqualified the game is a draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.spaceblast.state import Ship
from engine.spaceblast.turn import Turn

LAST_SHIP, NO_SHIP = "last_ship", "no_ship"
_SURVIVOR = 1 << 30  # later than any turn


def rank_key(ship: Ship) -> tuple[int, int]:
    return ship.score, _SURVIVOR if ship.out_turn is None else ship.out_turn


def ranking(ships: Iterable[Ship]) -> list[Ship]:
    """Ships that can win, best first (ties keep seat order)."""
    return sorted((ship for ship in ships if not ship.disqualified), key=rank_key, reverse=True)


def winner_of(ships: Iterable[Ship]) -> str:
    ranked = ranking(ships)
    if not ranked or (len(ranked) > 1 and rank_key(ranked[0]) == rank_key(ranked[1])):
        return "draw"
    return ranked[0].id


def finish(turn: Turn) -> tuple[str, str] | None:
    """(winner, reason) when this turn ends the game, after scoring the survivor; None otherwise."""
    left = list(turn.in_play())
    if len(left) > 1:
        return None
    if left:
        turn.score(left[0].id, 1, "survivor")
    ships = list(turn.ships.values())
    winner = winner_of(ships)
    reason = LAST_SHIP if left else NO_SHIP
    table: list[dict[str, Any]] = [
        {"ship": s.id, "score": s.score, "out_turn": s.out_turn, "disqualified": s.disqualified}
        for s in [*ranking(ships), *(s for s in ships if s.disqualified)]
    ]
    turn.say("game_over", winner=winner, reason=reason, ranking=table)
    return winner, reason
