"""A game's log replayed: which entries a replay applies, the state they lead to, and what each
showed everyone. Pure functions over the rules and the log, below the service that stores them, so
the scene, the checkpoints and the service all build on them without importing one another.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.service.secrecy import undone_seqs
from bot.store.repo import LogRecord
from engine.core.protocol import EVERYONE, Event, GameRules


@dataclass(frozen=True)
class Step:
    """One input of the game's log replayed: what it was, what everyone saw happen, the state after."""

    seq: int
    kind: str
    actor: str | None
    events: tuple[Event, ...]  # the public ones only: a recap or a replay is shown to the channel
    state: Any


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events everyone may read: what a channel post or a public image may show."""
    return [event for event in events if event.audience == EVERYONE]


def effective_inputs(rules: GameRules, entries: Iterable[LogRecord], skip: Iterable[int] = ()) -> list[LogRecord]:
    """The log entries a replay applies: the game's inputs (not bookkeeping such as pauses or seat
    changes), less those undone (each undo entry names them) and those in `skip`."""
    entries = list(entries)
    skipped = set(skip) | undone_seqs(entries)
    return [e for e in entries if e.kind in rules.input_kinds and e.seq not in skipped]


def replay_inputs(rules: GameRules, setup: Mapping[str, Any], seed: int, entries: Iterable[LogRecord]) -> Any:
    """The state after applying `entries` in order to the game built from its setup document."""
    state = rules.setup(setup, seed)
    for entry in entries:
        state = rules.apply_input(state, entry.kind, entry.actor, entry.payload).state
    return state
