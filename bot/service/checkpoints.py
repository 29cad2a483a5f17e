"""A stretch of a game's log replayed without replaying the whole log.

A history page or an undo listing words each entry from the public events its input caused, and
those come only from replaying the game (the log keeps inputs, not events). Replaying from the setup
costs the whole log: a second and more for a campaign of 10,000 entries. So a process keeps, for the
games it was asked about lately, the state every `EVERY` inputs (as JSON text: a few kilobytes each),
and replays a page from the last one before it: the page's cost, whatever the log's length.

A checkpoint is the state after every input up to its seq that was not undone then. The log is
append-only, so it stays right until an undo takes back an input at or before its seq (then it and
every later one are dropped) or a game master loads another setup (then the game's are all dropped).
Each process keeps its own: nothing to store, and nothing another process could leave stale.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.service.replaying import Step, public_events
from bot.service.secrecy import undone_seqs
from engine import registry

if TYPE_CHECKING:
    from bot.service.core import GameService
    from bot.store.repo import GameRecord, LogRecord
    from engine.core.protocol import Outcome

#: inputs replayed between two checkpoints (a page replays at most this many before its own entries)
EVERY = 25
#: games whose checkpoints a process keeps, the least recently asked about dropped first
GAMES = 32


@dataclass(frozen=True)
class _Point:
    seq: int
    undone: frozenset[int]  # the undone seqs up to `seq` when it was taken
    state: str  # the rules' JSON of the state, as text


@dataclass
class _Kept:
    signature: str  # the setup and seed the points were replayed from
    points: list[_Point] = field(default_factory=list)


class Checkpoints:
    """The checkpoints of one process's service (`GameService.checkpoints`); safe across threads."""

    def __init__(self, every: int = EVERY, games: int = GAMES) -> None:
        self.every = every
        self.games = games
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def steps(self, svc: GameService, game: GameRecord, seqs: Collection[int]) -> dict[int, Step]:
        """The replayed step (public events, state after) of each input among `seqs` that is not
        undone; other seqs (bookkeeping, undone inputs) have none."""
        if not seqs:
            return {}
        wanted = set(seqs)
        return {entry.seq: Step(entry.seq, entry.kind, entry.actor, tuple(public_events(outcome.events)), outcome.state)
                for entry, outcome in self._replay(svc, game, min(wanted), max(wanted)) if entry.seq in wanted}

    def state_without(self, svc: GameService, game: GameRecord, skip: Collection[int]) -> Any:
        """The game's state now with the inputs `skip` taken back (an undo), replayed from the
        checkpoint before the first of them."""
        state = None
        for _entry, outcome in self._replay(svc, game, min(skip), None, frozenset(skip)):
            state = outcome.state
        if state is None:  # every input after the checkpoint is taken back: the checkpoint's state
            return self._replay_start(svc, game, min(skip))[1]
        return state

    def _replay(self, svc: GameService, game: GameRecord, first: int, last: int | None,
                skip: frozenset[int] = frozenset()) -> Iterator[tuple[LogRecord, Outcome[Any]]]:
        """Every input from `first` to `last` (None: the log's end) not undone nor in `skip`, applied
        from the checkpoint before `first`; checkpoints are taken on the way (not in a what-if
        replay that skips inputs)."""
        rules = registry.get(game.kind)
        undone = undone_seqs(svc.store.log(game.id, kinds={"undo"}))
        start, state, newest = self._replay_start(svc, game, first, undone)
        since = 0  # inputs applied since the newest checkpoint
        for entry in _entries(svc, game.id, start, last):
            if entry.kind not in rules.input_kinds or entry.seq in undone or entry.seq in skip:
                continue
            outcome = rules.apply_input(state, entry.kind, entry.actor, entry.payload)
            state = outcome.state
            yield entry, outcome
            if entry.seq > newest and not skip:
                since += 1
                if since >= self.every:
                    self._add(game, _Point(entry.seq, frozenset(u for u in undone if u <= entry.seq),
                                           json.dumps(rules.to_json(state))))
                    newest, since = entry.seq, 0

    def _replay_start(self, svc: GameService, game: GameRecord, first: int,
                      undone: set[int] | None = None) -> tuple[int, Any, int]:
        """Where a replay up from `first` starts: the seq and state of the newest valid checkpoint
        before it (0 and the setup's state when none), and the game's newest valid checkpoint."""
        rules = registry.get(game.kind)
        if undone is None:
            undone = undone_seqs(svc.store.log(game.id, kinds={"undo"}))
        start, text, newest = self._before(game, undone, first)
        state = rules.setup(game.setup, game.seed) if text is None else rules.from_json(json.loads(text))
        return start, state, newest

    def _before(self, game: GameRecord, undone: set[int], seq: int) -> tuple[int, str | None, int]:
        """The newest valid checkpoint before `seq` (its seq and state; 0 and None: the setup), and
        the seq of the game's newest valid checkpoint (0: none)."""
        signature = _signature(game)
        with self._lock:
            kept = self._kept.get(game.id)
            if kept is None or kept.signature != signature:
                kept = self._kept[game.id] = _Kept(signature)
            self._kept.move_to_end(game.id)
            while len(self._kept) > self.games:
                self._kept.popitem(last=False)
            valid = 0
            for point in kept.points:  # oldest first: past the first one an undo broke, none holds
                if point.undone != frozenset(u for u in undone if u <= point.seq):
                    break
                valid += 1
            del kept.points[valid:]
            before = [point for point in kept.points if point.seq < seq]
            newest = kept.points[-1].seq if kept.points else 0
        if not before:
            return 0, None, newest
        return before[-1].seq, before[-1].state, newest

    def _add(self, game: GameRecord, point: _Point) -> None:
        with self._lock:
            kept = self._kept.get(game.id)
            if kept is None or kept.signature != _signature(game):
                return
            if not kept.points or kept.points[-1].seq < point.seq:
                kept.points.append(point)


def _entries(svc: GameService, game_id: int, after: int, last: int | None) -> Iterator[LogRecord]:
    """The log entries after seq `after` up to `last` (None: the end): one read, as the store numbers
    a game's entries without gaps (a gap would only cost another read)."""
    if last is None:
        yield from svc.store.log(game_id, after_seq=after)
        return
    while after < last:
        batch = svc.store.log(game_id, after_seq=after, limit=last - after)
        yield from (entry for entry in batch if entry.seq <= last)
        if not batch:
            return
        after = batch[-1].seq


def _signature(game: GameRecord) -> str:
    return json.dumps([game.setup, game.seed, game.created_at.isoformat()], sort_keys=True, default=str)


def replayed_events(svc: GameService, game: GameRecord, seqs: Collection[int]) -> dict[int, Any]:
    """The public events of each replayed input among `seqs`, for wording history entries."""
    return {seq: step.events for seq, step in svc.checkpoints.steps(svc, game, seqs).items()}
