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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from engine.core.errors import OrderError, SetupError

StateT = TypeVar("StateT")
OrderT = TypeVar("OrderT")

JSON = dict[str, Any]


AudienceKind = Literal["everyone", "actor", "side", "gm"]


@dataclass(frozen=True)
class Audience:
    """Who may see something: everyone, one actor (a character, a ship, a player's side of the
    board), one side (a team), or the game masters. The same value says who an event is for and
    who is looking (a viewer), so "may this viewer see that" is one comparison (`sees`)."""

    kind: AudienceKind = "everyone"
    id: str | int | None = None

    @classmethod
    def actor(cls, actor: str) -> Audience:
        return cls("actor", actor)

    @classmethod
    def side(cls, side: str | int) -> Audience:
        return cls("side", side)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "id": self.id}


EVERYONE = Audience()
GM = Audience("gm")
PUBLIC = EVERYONE  # the viewer who is nobody in particular: a spectator, the channel


@dataclass(frozen=True)
class Event:
    """Something that happened, for replies and logs: ``event.<game>.<kind>`` is its i18n key.
    `audience` says who may read it; a reply shows the public ones to the channel and the rest
    privately to the member they are for."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)
    audience: Audience = EVERYONE

    def to_json(self) -> JSON:
        data: JSON = {"kind": self.kind, "params": dict(self.params)}
        if self.audience != EVERYONE:
            data["audience"] = self.audience.to_json()
        return data


@dataclass(frozen=True)
class Result:
    """Where a game stands: being set up, running, or finished with a winner (a side or actor id),
    as a draw (`winner` None), and how it ended (`reason`: a catalog word such as ``"elimination"``,
    ``"time_limit"``, ``"resigned"``, ``"timeout"``)."""

    status: Literal["setup", "running", "finished"]
    winner: str | int | None = None
    reason: str | None = None

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def is_draw(self) -> bool:
        return self.finished and self.winner is None


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
    #: the phase each kind needs (`check_phase`): `setup_inputs` only while the game is set up (a
    #: lobby's join, the GM's start), `anytime_inputs` in any phase but the end (GM corrections, a
    #: game joined while it runs); every other kind, ``order`` included, needs the game running
    setup_inputs: ClassVar[frozenset[str]] = frozenset()
    anytime_inputs: ClassVar[frozenset[str]] = frozenset()
    #: kinds whose own checks the rules put before the phase's (SpaceBlast's orders, SB-5): the game
    #: refuses them out of phase itself, after those checks
    own_phase_inputs: ClassVar[frozenset[str]] = frozenset()
    #: keys of the public view whose lists are sets (scenario `expect` ignores their order)
    unordered_view_keys: ClassVar[frozenset[str]] = frozenset()
    #: input kinds whose payload is a secret of its actor until an input of a `reveal_kinds` kind
    #: follows it in the log (SpaceBlast: ``submit`` until ``resolve``); the bot never shows a
    #: sealed payload to anyone else (history, undo, export, replies, logs)
    secret_kinds: ClassVar[frozenset[str]] = frozenset()
    reveal_kinds: ClassVar[frozenset[str]] = frozenset()
    #: whether the game masters may read sealed inputs (a refereed game) or not (a blind one)
    gm_sees_secrets: ClassVar[bool] = False
    #: whether the seed deals secrets (SpaceBlast's powers): the bot then never shows it while the
    #: game runs, not even in an export
    seed_is_secret: ClassVar[bool] = False
    #: the inputs the shared layer gives a game that takes them, checked against `input_kinds` at
    #: start: the GM starting it (None: it starts by itself once its seats are taken), a side giving
    #: the game up, the move clock running out (its payload names the side), and
    #: the three draw-offer inputs (`engine.core.drawoffer`); None or empty: the game has none
    start_input: ClassVar[str | None] = "start"
    #: what the GM may name as the side that moves first when starting it (the start input's
    #: ``first``; ``random``: drawn from the game's seed, so a replay draws the same); empty: the
    #: GM names nothing (the rules or chance decide, as in Arkeon)
    first_choices: ClassVar[tuple[str, ...]] = ()
    resign_input: ClassVar[str | None] = None
    timeout_input: ClassVar[str | None] = None
    draw_inputs: ClassVar[frozenset[str]] = frozenset()
    #: inputs a turn's deadline may give besides the reveals (`deadline_input` picks one): SpaceBlast's
    #: ``jump`` opens a time jump's wait without revealing anything to anyone but its holders
    deadline_kinds: ClassVar[frozenset[str]] = frozenset()

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
        """Apply one logged input, after the checks every game shares — as python-chess's `Board`
        does for its variants: a kind the game takes, a payload that is a table, the phase the
        kind needs (`check_phase`). What the input does is the game's (`take_input`), so every
        game refuses these the same way and none repeats the dispatch."""
        if kind not in self.input_kinds:
            raise OrderError("not_allowed", input=kind)
        if not isinstance(payload, Mapping):
            raise OrderError("bad_input", key="payload", reason="not_a_table")
        self.check_phase(state, kind)
        return self.take_input(state, kind, actor, payload)

    def check_phase(self, state: StateT, kind: str) -> None:
        """Refuse `kind` in a phase it is not taken in: nothing once the game is over; see
        `setup_inputs` and `anytime_inputs` for the others."""
        if kind in self.own_phase_inputs:
            return
        status = self.result(state).status
        if status == "finished":
            raise OrderError("game_over", winner=self.winner(state))
        if kind in self.anytime_inputs:
            return
        needed = "setup" if kind in self.setup_inputs else "running"
        if status != needed:
            reason = "not_started" if needed == "running" else "started"
            raise OrderError("not_allowed", reason=reason, input=kind, status=status)

    def take_input(self, state: StateT, kind: str, actor: str | None, payload: Mapping[str, Any]) -> Outcome[StateT]:
        """One input past the shared checks (`apply_input`): an ``order`` plays its text. Games with
        more kinds override this and call super() for the ones they leave to it."""
        if kind != "order":
            raise OrderError("not_allowed", input=kind)
        if actor is None:
            raise OrderError("unknown_character", name="")
        return self.play(state, actor, self.parse_orders(str(payload.get("text", ""))))

    def legal_orders(self, state: StateT, actor: str) -> Iterable[OrderT]:
        """Every order `actor` may give now, each accepted by :meth:`play` alone: the one source of
        "what can I do" for autocomplete, reach, previews and computer opponents. Games whose
        orders cannot be listed (free text) keep this default: nothing to suggest."""
        return ()

    # -- reading -------------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: StateT) -> JSON:
        """The public view: plain JSON, the shape given in the scenario format document. It never
        holds a secret: a game with secrets puts them only in :meth:`view_for` of their owner."""

    def view_for(self, state: StateT, viewer: Audience) -> JSON:
        """What `viewer` sees: the public view plus what is theirs. Games without secrets keep this."""
        return self.view(state)

    def side_of(self, state: StateT, actor: str) -> str | int | None:
        """The side (team) an actor plays for, for events addressed to a side; None where there are no sides."""
        return None

    def waiting_on(self, state: StateT) -> tuple[str, ...]:
        """The actors the game waits for now: the player to move (alternating games), the ships
        still without orders (simultaneous ones). Turn drivers remind them; empty means none."""
        return ()

    def deadline_input(self, state: StateT) -> str:
        """The input the bot gives when a turn's deadline falls or every seat is ready: by default the
        game's first reveal (a deadline game declares one)."""
        return sorted(self.reveal_kinds)[0]

    def turn_number(self, state: StateT) -> int:
        """The turn the game is at, as `/game info` tells it (0 where turns are not counted)."""
        return 0

    def players(self, state: StateT) -> Mapping[str, str | None]:
        """Who plays each side, by the name they joined with, where the game's actors are sides."""
        return {}

    def pending_draw_offer(self, state: StateT) -> str | None:
        """The side whose draw offer waits for an answer, in a game with `draw_inputs`."""
        return None

    def interlude(self, state: StateT) -> bool:
        """Whether the game waits, inside a turn, on a short answer of a few (SpaceBlast's time
        jump): a deadline driver then gives the wait the game's short delay, not a whole turn."""
        return False

    def result(self, state: StateT) -> Result:
        """Where the game stands. The default suits a game without a setup phase; games with one,
        or with endings worth naming, override it."""
        winner = self.winner(state)
        return Result("running") if winner is None else Result("finished", None if winner == "draw" else winner)

    @abstractmethod
    def actors(self, state: StateT) -> tuple[str, ...]:
        """Ids that give orders (characters, ships, sides), in seat order."""

    @abstractmethod
    def winner(self, state: StateT) -> str | int | None:
        """The winning side/team, ``"draw"``, or None while the game goes on."""

    def sees(self, state: StateT, viewer: Audience, audience: Audience) -> bool:
        """Whether `viewer` may read something meant for `audience` (an event, a sealed input)."""
        if audience.kind == "everyone" or viewer == audience:
            return True
        if viewer.kind == "gm":
            return audience.kind == "gm" or self.gm_sees_secrets
        if audience.kind == "side" and viewer.kind == "actor":
            return self.side_of(state, str(viewer.id)) == audience.id
        return False

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
