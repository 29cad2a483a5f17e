"""The end of the game and the ranking (SB-13, SB-14, SB-15).

The game ends after a turn that leaves ships of at most one player on the arena (one ship or none
in the standard game), every phase of it played (so missiles in flight still scored); the survivor
scores +1. Players are ranked, not ships: a player's score is the sum of its ships' (SB-15, two
ships each; in the standard game each ship is its own player). The highest score wins; ties go to
the player whose last ship was eliminated latest, a survivor beating everyone, and "latest"
compares turns only. Still equal: a draw. A disqualified ship's points are 0 for good; a player
all of whose ships are disqualified is out of the ranking (it can neither win nor share a draw),
and its disqualified ships do not count for the tie-break. If nobody is left in the ranking, the
game is a draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.spaceblast.state import Ship
from engine.spaceblast.turn import Turn

LAST_SHIP, NO_SHIP = "last_ship", "no_ship"
_SURVIVOR = 1 << 30  # later than any turn


@dataclass(frozen=True)
class Standing:
    """One player's place in the ranking: its ships, their points added, when its last counted ship left."""

    player: str
    ships: tuple[str, ...]
    score: int
    #: the turn its last ship not disqualified left the arena (all disqualified: its last ship);
    #: None while one of them flies on
    out_turn: int | None
    #: every ship of it was disqualified: out of the ranking (SB-9, SB-14)
    disqualified: bool

    @property
    def key(self) -> tuple[int, int]:
        return self.score, _SURVIVOR if self.out_turn is None else self.out_turn

    def to_json(self) -> dict[str, Any]:
        """A ranking line; in the standard game (a ship is its own player) it names the ship."""
        who: dict[str, Any] = {"ship": self.player} if self.ships == (self.player,) else {
            "player": self.player, "ships": list(self.ships)}
        return {**who, "score": self.score, "out_turn": self.out_turn, "disqualified": self.disqualified}


def standings(ships: Iterable[Ship]) -> list[Standing]:
    """Every player's standing, in seat order."""
    fleets: dict[str, list[Ship]] = {}
    for ship in ships:
        fleets.setdefault(ship.owner, []).append(ship)
    result = []
    for player, fleet in fleets.items():
        counted = [ship for ship in fleet if not ship.disqualified]
        outs = [ship.out_turn for ship in counted or fleet]
        out_turn = None if None in outs else max(outs, default=None)
        result.append(Standing(player, tuple(ship.id for ship in fleet), sum(ship.score for ship in fleet),
                               out_turn, not counted))
    return result


def ranking(ships: Iterable[Ship]) -> list[Standing]:
    """Players who can win, best first (ties keep seat order)."""
    return sorted((s for s in standings(ships) if not s.disqualified), key=lambda s: s.key, reverse=True)


def winner_of(ships: Iterable[Ship]) -> str:
    ranked = ranking(ships)
    if not ranked or (len(ranked) > 1 and ranked[0].key == ranked[1].key):
        return "draw"
    return ranked[0].player


def finish(turn: Turn) -> tuple[str, str] | None:
    """(winner, reason) when this turn ends the game, after scoring the survivor; None otherwise.
    With two ships each the survivor's point goes to its first ship still flying (the player's
    total is what counts)."""
    left = list(turn.in_play())
    if len({ship.owner for ship in left}) > 1:
        return None
    if left:
        turn.score(left[0].id, 1, "survivor")
    ships = list(turn.ships.values())
    winner = winner_of(ships)
    reason = LAST_SHIP if left else NO_SHIP
    every = standings(ships)
    table = [s.to_json() for s in [*ranking(ships), *(s for s in every if s.disqualified)]]
    turn.say("game_over", winner=winner, reason=reason, ranking=table)
    return winner, reason
