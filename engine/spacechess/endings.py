"""End of the game: SC-28..SC-32.

Endings are looked for after every accepted order, draw and GM correction. Because the game stops
at the first ending, every condition found at one check comes from the same event; when they point
to different winners (both generals killed by one grenade...) the game is a draw (SC-32).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core.protocol import Event
from engine.spacechess.events import event
from engine.spacechess.ruleset import TEAMS
from engine.spacechess.state import FINISHED, GameState


def _other(team: int) -> int:
    return 3 - team


def ending_reasons(state: GameState) -> list[dict[str, Any]]:
    """Each satisfied ending as {team (the team it makes win), reason}."""
    reasons: list[dict[str, Any]] = []
    last_row = state.game_map.height - 1
    for team in TEAMS:
        general = state.general(team)
        if general is not None and not general.alive:
            reasons.append({"team": _other(team), "reason": "general_dead"})
        soldiers = [c for c in state.characters if c.team == team and not c.is_general]
        if soldiers and not any(c.alive for c in soldiers):
            reasons.append({"team": _other(team), "reason": "soldiers_dead"})
        if general is not None and general.at is not None:
            back_row = last_row if team == 1 else 0
            if general.at.y == back_row:
                reasons.append({"team": team, "reason": "sudden_death"})
    return reasons


def _finish(state: GameState, winner: int | str, **params: Any) -> tuple[GameState, list[Event]]:
    return replace(state, status=FINISHED, winner=winner), [event("game_over", winner=winner, **params)]


def check_endings(state: GameState) -> tuple[GameState, list[Event]]:
    """SC-29, SC-30, SC-32: finish the game if an ending is satisfied."""
    reasons = ending_reasons(state)
    if not reasons:
        return state, []
    winners = {r["team"] for r in reasons}
    winner: int | str = winners.pop() if len(winners) == 1 else "draw"
    return _finish(state, winner, reasons=reasons)


def hp_totals(state: GameState) -> dict[int, int]:
    return {team: sum(c.hp for c in state.living() if c.team == team) for team in TEAMS}


def time_limit(state: GameState) -> tuple[GameState, list[Event]]:
    """SC-31: the team with more total HP among its living characters wins; equal totals draw."""
    totals = hp_totals(state)
    winner: int | str = "draw" if totals[1] == totals[2] else max(TEAMS, key=totals.__getitem__)
    reasons = [{"team": winner, "reason": "hp_total"}]
    return _finish(state, winner, reasons=reasons, totals={str(t): totals[t] for t in TEAMS})
