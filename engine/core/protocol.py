"""The one interface every game implements.

Modelled on python-chess's variants: a game is a class whose class attributes declare its name,
aliases and formats, and whose few methods are the only way the bot touches the rules. All
methods are pure: a state passed in is never mutated; a refused input raises and leaves it as it was.

Every input that changes a game is an *input* ``(kind, actor, payload)`` with a JSON payload; the
bot appends exactly that triple to the game's log, so replaying the log through
:meth:`GameRules.apply_input` rebuilds the state (undo, audit, export). ``"order"`` (payload
``{"text": ...}``) exists in every game; games add their own kinds (Space Chess ``"draw"``,
SpaceBlast ``"submit"``/``"resolve"``, GM corrections ``"gm_set"``...).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.core.errors import OrderError, SetupError

StateT = TypeVar("StateT")
OrderT = TypeVar("OrderT")

JSON = dict[str, Any]


@dataclass(frozen=True)
class Event:
    """Something that happened, for replies and logs: ``event.<game>.<kind>`` is its i18n key."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "params": dict(self.params)}


@dataclass(frozen=True)
class Outcome(Generic[StateT]):
    """The result of an accepted input: the new state and what happened, in order."""

    state: StateT
    events: tuple[Event, ...] = ()


class GameRules(ABC, Generic[StateT, OrderT]):
    """Base class of a game's rules. Subclasses override the abstract hooks and nothing else.

    Class attributes:
        name: registry key, stored in the database (never rename).
        aliases: other names accepted by commands and scenario files.
        format_version: version of the JSON produced by :meth:`dump_state`; bump on change.
        input_kinds: the input kinds :meth:`apply_input` accepts (``"order"`` included); the bot
            replays exactly these kinds from the log.
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    format_version: ClassVar[int] = 1
    input_kinds: ClassVar[frozenset[str]] = frozenset({"order"})
    #: keys of the public view whose lists are sets (scenario `expect` ignores their order)
    unordered_view_keys: ClassVar[frozenset[str]] = frozenset()

    # -- building ------------------------------------------------------------------------------
    @abstractmethod
    def setup(self, document: Mapping[str, Any], seed: int = 0) -> StateT:
        """Build the starting state from a setup document; raise SetupError pointing at the fault."""

    # -- orders --------------------------------------------------------------------------------
    @abstractmethod
    def parse_orders(self, text: str) -> tuple[OrderT, ...]:
        """Parse order text (a `;` batch where the game allows one); raise OrderError('bad_syntax')."""

    @abstractmethod
    def format_order(self, order: OrderT) -> str:
        """The canonical text of one order; parse_orders(format_order(o)) == (o,)."""

    @abstractmethod
    def play(self, state: StateT, actor: str, orders: Sequence[OrderT]) -> Outcome[StateT]:
        """Validate and apply a batch by one actor, all or nothing; raise OrderError."""

    def apply_input(self, state: StateT, kind: str, actor: str | None, payload: Mapping[str, Any]) -> Outcome[StateT]:
        """Apply one logged input. Games with more kinds than ``order`` override and call super()."""
        if kind != "order":
            raise OrderError("not_allowed", input=kind)
        if actor is None:
            raise OrderError("unknown_character", name="")
        return self.play(state, actor, self.parse_orders(str(payload.get("text", ""))))

    # -- reading -------------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: StateT) -> JSON:
        """The public view: plain JSON, the shape given in the scenario format document."""

    @abstractmethod
    def actors(self, state: StateT) -> tuple[str, ...]:
        """Ids that give orders (characters, ships, sides), in seat order."""

    @abstractmethod
    def winner(self, state: StateT) -> str | int | None:
        """The winning side/team, ``"draw"``, or None while the game goes on."""

    # -- serialisation -------------------------------------------------------------------------
    @abstractmethod
    def dump_state(self, state: StateT) -> JSON:
        """The full state as JSON (secrets included): what the database stores."""

    @abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> StateT:
        """Inverse of dump_state."""

    def to_json(self, state: StateT) -> JSON:
        return {"game": self.name, "format": self.format_version, "state": self.dump_state(state)}

    def from_json(self, data: Mapping[str, Any]) -> StateT:
        if data.get("game") != self.name:
            raise SetupError("wrong_game", "game", expected=self.name, got=data.get("game"))
        if data.get("format") != self.format_version:
            raise SetupError("wrong_format", "format", expected=self.format_version, got=data.get("format"))
        return self.load_state(data["state"])
