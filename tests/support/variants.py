"""Two variants of the tally test game that exercise the platform's secrets and turn drivers, as
python-chess's variants do: a subclass overriding a few hooks, with its own name and aliases.

- **Sealed tally** (``/ts``, deadline driver): every turn each player secretly bids 1..5 (an
  ``order``, sealed until the turn resolves), may say they are ``ready``; the turn resolves at the
  deadline or once all are ready, and every bid is added to its bidder's tally. No bid: 0 (the
  game's "no move received" default). First to the goal wins; a tie is a draw.
- **Duel tally** (``/td``, move clock): two players alternate ``add N``; the one whose clock runs
  out loses when the bot rules a ``timeout``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.errors import OrderError
from engine.core.protocol import EVERYONE, Audience, Event, Outcome, Result
from engine.registry import register
from tests.support.tally import TallyGame, TallyState


@dataclass(frozen=True)
class SealedState(TallyState):
    bids: Mapping[str, int] = field(default_factory=dict)
    ready: frozenset[str] = frozenset()
    turn: int = 0
    draw: bool = False


class SealedTally(TallyGame):
    name = "sealed"
    aliases = ("ts",)
    input_kinds = frozenset({"order", "join", "ready", "resolve"})
    secret_kinds = frozenset({"order"})
    reveal_kinds = frozenset({"resolve"})

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> SealedState:
        base = super().setup(document, seed)
        return SealedState(goal=base.goal)

    def play(self, state: SealedState, actor: str, orders: Sequence[int]) -> Outcome[SealedState]:
        if state.winner is not None or state.draw:
            raise OrderError("game_over")
        if actor not in state.tallies:
            raise OrderError("unknown_character", name=actor)
        if len(orders) != 1 or not 1 <= orders[0] <= 5:
            raise OrderError("out_of_range", value=orders[0] if orders else None, max=5)
        bids = {**state.bids, actor: orders[0]}
        return Outcome(replace(state, bids=bids), (
            Event("submitted", {"actor": actor}),
            Event("bid", {"actor": actor, "n": orders[0]}, Audience.actor(actor)),
        ))

    def take_input(self, state: SealedState, kind: str, actor: str | None, payload: Mapping[str, Any]):
        if kind == "join":
            joined = super().take_input(state, kind, actor, payload)
            return Outcome(replace(state, tallies=joined.state.tallies), joined.events)
        if kind == "ready":
            if actor not in state.tallies:
                raise OrderError("unknown_character", name=actor)
            return Outcome(replace(state, ready=state.ready | {actor}), (Event("ready", {"actor": actor}),))
        if kind == "resolve":
            return self._resolve(state)
        return super().take_input(state, kind, actor, payload)

    def _resolve(self, state: SealedState) -> Outcome[SealedState]:
        """Every bid revealed and added at once; the missing ones count 0."""
        bids = {actor: state.bids.get(actor, 0) for actor in state.tallies}
        tallies = {actor: total + bids[actor] for actor, total in state.tallies.items()}
        leaders = [a for a, t in tallies.items() if t >= state.goal and t == max(tallies.values())]
        winner = leaders[0] if len(leaders) == 1 else None
        resolved = SealedState(tallies=tallies, goal=state.goal, winner=winner, turn=state.turn + 1,
                               draw=len(leaders) > 1)
        return Outcome(resolved, (Event("resolved", {"turn": resolved.turn, "bids": bids}, EVERYONE),))

    def turn_number(self, state: SealedState) -> int:
        return state.turn

    def view(self, state: SealedState) -> dict[str, Any]:
        """Who has bid and who is ready is public; how much is not."""
        return {**super().view(state), "turn": state.turn, "bid": sorted(state.bids),
                "ready": sorted(state.ready)}

    def view_for(self, state: SealedState, viewer: Audience) -> dict[str, Any]:
        view = self.view(state)
        if viewer.kind == "actor" and viewer.id in state.bids:
            view["my_bid"] = state.bids[str(viewer.id)]
        return view

    def waiting_on(self, state: SealedState) -> tuple[str, ...]:
        return tuple(actor for actor in state.tallies if actor not in state.ready)

    def result(self, state: SealedState) -> Result:
        if state.draw:
            return Result("finished", None, "tie")
        return Result("finished", state.winner, "goal") if state.winner else Result("running")

    def dump_state(self, state: SealedState) -> dict[str, Any]:
        return {**super().dump_state(state), "bids": dict(state.bids), "ready": sorted(state.ready),
                "turn": state.turn, "draw": state.draw}

    def load_state(self, data: Mapping[str, Any]) -> SealedState:
        return SealedState(tallies=dict(data["tallies"]), goal=data["goal"], winner=data["winner"],
                           bids=dict(data["bids"]), ready=frozenset(data["ready"]), turn=data["turn"],
                           draw=data["draw"])


@dataclass(frozen=True)
class DuelState(TallyState):
    to_move: int = 0  # index in the joining order
    forfeit: str | None = None


class DuelTally(TallyGame):
    name = "duel"
    aliases = ("td",)
    input_kinds = frozenset({"order", "join", "timeout"})
    setup_inputs, anytime_inputs = frozenset({"join"}), frozenset()
    timeout_input = "timeout"

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> DuelState:
        return DuelState(goal=super().setup(document, seed).goal)

    def play(self, state: DuelState, actor: str, orders: Sequence[int]) -> Outcome[DuelState]:
        if self.waiting_on(state) != (actor,):
            raise OrderError("not_your_turn", name=actor, to_move=self.waiting_on(state)[0])
        played = super().play(state, actor, orders)
        return Outcome(replace(state, tallies=played.state.tallies, winner=played.state.winner,
                               to_move=(state.to_move + 1) % 2), played.events)

    def take_input(self, state: DuelState, kind: str, actor: str | None, payload: Mapping[str, Any]):
        if kind == "join":  # taken while the duel is set up: a third finds it started
            joined = super().take_input(state, kind, actor, payload)
            return Outcome(replace(state, tallies=joined.state.tallies), joined.events)
        if kind == "timeout":
            late = str(payload.get("actor"))
            if self.waiting_on(state) != (late,):
                raise OrderError("not_your_turn", name=late, to_move=self.waiting_on(state)[0])
            other = next(a for a in state.tallies if a != late)
            return Outcome(replace(state, winner=other, forfeit=late), (Event("timed_out", {"actor": late}),))
        return super().take_input(state, kind, actor, payload)

    def legal_orders(self, state: DuelState, actor: str) -> tuple[int, ...]:
        return (1, 2, 3, 4, 5) if self.waiting_on(state) == (actor,) else ()

    def waiting_on(self, state: DuelState) -> tuple[str, ...]:
        if len(state.tallies) < 2 or state.winner is not None:
            return ()
        return (list(state.tallies)[state.to_move],)

    def result(self, state: DuelState) -> Result:
        if state.winner is None:
            return Result("setup" if len(state.tallies) < 2 else "running")
        return Result("finished", state.winner, "timeout" if state.forfeit else "goal")

    def dump_state(self, state: DuelState) -> dict[str, Any]:
        return {**super().dump_state(state), "to_move": state.to_move, "forfeit": state.forfeit}

    def load_state(self, data: Mapping[str, Any]) -> DuelState:
        return DuelState(tallies=dict(data["tallies"]), goal=data["goal"], winner=data["winner"],
                         to_move=data["to_move"], forfeit=data["forfeit"])


SEALED = register(SealedTally())
DUEL = register(DuelTally())
