"""A minimal test-only game that exercises the engine protocol without any real rules.

Players join, then `add N` (1..5) adds to their tally; the first to reach 10 wins. It has a
setup phase, refusals with standard codes, events and a winner: enough to test storage, the
service, undo and the console without depending on Space Chess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.protocol import Event, GameRules, Outcome
from engine.registry import register

GOAL = 10


@dataclass(frozen=True)
class TallyState:
    tallies: Mapping[str, int] = field(default_factory=dict)
    goal: int = GOAL
    winner: str | None = None


class TallyGame(GameRules[TallyState, int]):
    name = "tally"
    aliases = ("tl",)
    input_kinds = frozenset({"order", "join"})
    start_input = None  # a tally runs from its first join
    anytime_inputs = frozenset({"join"})  # ...and is joined while it runs

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> TallyState:
        goal = document.get("goal", GOAL)
        if not isinstance(goal, int) or goal < 1:
            raise SetupError("bad_goal", "goal", value=goal)
        return TallyState(goal=goal)

    def parse_orders(self, text: str) -> tuple[int, ...]:
        orders = []
        for part in text.split(";"):
            match = re.fullmatch(r"\s*(add|ajoute)\s+(\d+)\s*", part, re.IGNORECASE)
            if not match:
                raise OrderError("bad_syntax", expected="add N", got=part.strip())
            orders.append(int(match.group(2)))
        return tuple(orders)

    def format_order(self, order: int) -> str:
        return f"add {order}"

    def legal_orders(self, state: TallyState, actor: str) -> tuple[int, ...]:
        return (1, 2, 3, 4, 5) if state.winner is None and actor in state.tallies else ()

    def play(self, state: TallyState, actor: str, orders: Sequence[int]) -> Outcome[TallyState]:
        if state.winner is not None:
            raise OrderError("game_over")
        if actor not in state.tallies:
            raise OrderError("unknown_character", name=actor)
        tallies = dict(state.tallies)
        events = []
        for n in orders:
            if not 1 <= n <= 5:
                raise OrderError("out_of_range", value=n, max=5)
            tallies[actor] += n
            events.append(Event("added", {"actor": actor, "n": n, "total": tallies[actor]}))
        winner = actor if tallies[actor] >= state.goal else None
        return Outcome(replace(state, tallies=tallies, winner=winner), tuple(events))

    def take_input(self, state: TallyState, kind: str, actor: str | None, payload: Mapping[str, Any]):
        if kind == "join":
            name = str(payload["id"])
            if name in state.tallies:
                raise OrderError("not_allowed", reason="taken")
            return Outcome(replace(state, tallies={**state.tallies, name: 0}), (Event("joined", {"actor": name}),))
        return super().take_input(state, kind, actor, payload)

    def view(self, state: TallyState) -> dict[str, Any]:
        return {
            "status": "finished" if state.winner else "running",
            "tallies": dict(state.tallies),
            "winner": state.winner,
            "goal": state.goal,
        }

    def actors(self, state: TallyState) -> tuple[str, ...]:
        return tuple(state.tallies)

    def winner(self, state: TallyState) -> str | None:
        return state.winner

    def dump_state(self, state: TallyState) -> dict[str, Any]:
        return {"tallies": dict(state.tallies), "goal": state.goal, "winner": state.winner}

    def load_state(self, data: Mapping[str, Any]) -> TallyState:
        return TallyState(tallies=dict(data["tallies"]), goal=data["goal"], winner=data["winner"])


TALLY = register(TallyGame())  # a rules module registers its game, as engine/<game>/ does
