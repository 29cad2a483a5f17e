"""Two-sided alternating games (Arkeon, HexArena): their lobby, resign, timeout and draw offers, once.

Past the dispatch every game shares (`GameRules.apply_input`: the input's kind, its payload's shape,
the phase each kind needs, its lobby's inputs in the lobby), `TwoSided.take_input` checks who an
input is for, then hands it to the game: its lobby (`lobby_input`), its moves (`play`), the end it names (`concluded`). A game brings
only what differs — its phase, its lobby, who plays each side and how it ends — and every refusal
reads the same in both games. A two-sided state is a dataclass naming the side to move `to_move`
and the pending draw offer `draw_offer`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.core.drawoffer import AGREED, DRAW_INPUTS, decide
from engine.core.errors import OrderError
from engine.core.protocol import GameRules, Outcome


class TwoSidedState(Protocol):
    """What every two-sided state names (a frozen dataclass)."""

    to_move: str | None
    draw_offer: str | None


StateT = TypeVar("StateT", bound=TwoSidedState)
OrderT = TypeVar("OrderT")

#: the phases `TwoSided.stage` names
LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"
#: what a drawn game's winner is
DRAW = "draw"
RESIGNED, TIMEOUT = "resigned", "timeout"
LOBBY_INPUTS = frozenset({"join", "leave", "start"})


class TwoSided(GameRules[StateT, OrderT], Generic[StateT, OrderT]):
    """Two sides taking turns, seated in a lobby; either may resign or offer a draw at any moment,
    and the move clock rules the side to move lost on time."""

    sides: ClassVar[tuple[str, str]]
    resign_input: ClassVar[str | None] = "resign"
    timeout_input: ClassVar[str | None] = "timeout"
    draw_inputs: ClassVar[frozenset[str]] = DRAW_INPUTS
    input_kinds: ClassVar[frozenset[str]] = frozenset({"order", "resign", "timeout", *DRAW_INPUTS, *LOBBY_INPUTS})
    setup_inputs: ClassVar[frozenset[str]] = LOBBY_INPUTS

    # -- what a game brings ------------------------------------------------------------------------
    @abstractmethod
    def stage(self, state: StateT) -> str:
        """`LOBBY`, `PLAYING` or `FINISHED`."""

    def to_move(self, state: StateT) -> str | None:
        """The side whose turn it is while the game is played (a two-sided state's `to_move`)."""
        return state.to_move

    @abstractmethod
    def lobby_input(self, state: StateT, kind: str, payload: Mapping[str, Any]) -> Outcome[StateT]:
        """A ``join``, ``leave`` or ``start`` in the lobby."""

    @abstractmethod
    def concluded(self, state: StateT, winner: str, reason: str) -> Outcome[StateT]:
        """The game ended now: `winner` (a side, or `DRAW`) for `reason`."""

    def pending_draw_offer(self, state: StateT) -> str | None:
        """The side whose draw offer waits for an answer, if any (the state's `draw_offer`)."""
        return state.draw_offer

    @abstractmethod
    def players(self, state: StateT) -> Mapping[str, str | None]:
        """Who plays each side (None: a seat still free)."""

    def with_draw_offer(self, state: StateT, offer: str | None) -> StateT:
        """The state with that draw offer pending (None: no offer)."""
        return replace(state, draw_offer=offer)  # type: ignore[type-var]

    # -- shared by both -------------------------------------------------------------------------
    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def waiting_on(self, state: StateT) -> tuple[str, ...]:
        mover = self.to_move(state)
        return (mover,) if self.stage(state) == PLAYING and mover is not None else ()

    def side_playing(self, state: StateT, actor: Any, kind: str) -> str:
        """The side `actor` (a side, or the name its player joined with) plays, refused when none."""
        side = self.side_of(state, actor) if isinstance(actor, str) else None
        if side is None:
            raise OrderError("unknown_character", reason="side", name="" if actor is None else str(actor))
        return str(side)

    def mover(self, state: StateT, actor: Any, kind: str = "order") -> str:
        """The side `actor` plays, when it is that side's move."""
        side = self.side_playing(state, actor, kind)
        if side != self.to_move(state):
            raise OrderError("not_your_turn", side=side, to_move=self.to_move(state))
        return side

    def take_input(self, state: StateT, kind: str, actor: str | None, payload: Mapping[str, Any]) -> Outcome[StateT]:
        """Past the shared checks (its phase included: the lobby's inputs in the lobby): the lobby's
        inputs, moves, and who resigns, runs out of time or offers a draw."""
        if kind in LOBBY_INPUTS:
            return self.lobby_input(state, kind, payload)
        if kind == "order":
            return super().take_input(state, kind, actor, payload)
        if kind == self.timeout_input:  # the move clock names the side whose time ran out: no actor
            return self.concluded(state, self.other(self.mover(state, payload.get("actor", actor), kind)), TIMEOUT)
        # a side resigns (or offers a draw) for itself; the payload names it when a GM acts for a player
        side = self.side_playing(state, actor if actor is not None else payload.get("actor"), kind)
        if kind == self.resign_input:
            return self.concluded(state, self.other(side), RESIGNED)
        decision = decide(kind, side, self.other(side), self.pending_draw_offer(state))
        if decision.agreed:
            return self.concluded(state, DRAW, AGREED)
        return Outcome(self.with_draw_offer(state, decision.offer), decision.events)

