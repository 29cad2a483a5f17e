"""Reading a part of a game's log at the cost of that part: a history page, the inputs an undo takes back.

A log grows with every input (10,000 entries is a long campaign), but a reader looks at ten of them.
What decides how an entry reads besides the entry itself is small and read apart: the undo entries
(which entries were taken back) and the reveals (which secrets are still sealed). `secrecy` then
works on those plus the page exactly as it would on the whole log, so a page reads the same as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.secrecy import sealed_seqs, undone_seqs
from bot.store.repo import LogRecord, Store
from engine.core.protocol import GameRules

UNDO_KIND = "undo"


@dataclass(frozen=True)
class LogPage:
    page: int  # 1-based, clamped to the last page
    pages: int
    entries: tuple[LogRecord, ...]  # newest first
    sealed: frozenset[int]  # seqs of the page's entries still sealed
    undone: frozenset[int]  # seqs an undo took back (anywhere in the log)


def _deciding(store: Store, rules: GameRules, game_id: int) -> list[LogRecord]:
    """The entries that decide how others read: undos, and reveals in a game with secrets."""
    kinds = {UNDO_KIND, *rules.reveal_kinds} if rules.secret_kinds else {UNDO_KIND}
    return store.log(game_id, kinds=kinds)


def _sealed(rules: GameRules, deciding: Sequence[LogRecord], shown: Sequence[LogRecord]) -> frozenset[int]:
    if not rules.secret_kinds:
        return frozenset()
    merged = {entry.seq: entry for entry in (*deciding, *shown)}
    shown_seqs = {entry.seq for entry in shown}
    return frozenset(sealed_seqs(rules, sorted(merged.values(), key=lambda e: e.seq)) & shown_seqs)


def history_page(store: Store, rules: GameRules, game_id: int, page: int, size: int) -> LogPage:
    """Page `page` (newest first) of `size` entries: counted and sliced by the database."""
    pages = max(1, -(-store.log_count(game_id) // size))
    page = max(1, min(page, pages))
    entries = store.log_page(game_id, offset=(page - 1) * size, limit=size)
    deciding = _deciding(store, rules, game_id)
    return LogPage(page, pages, tuple(entries), _sealed(rules, deciding, entries),
                   frozenset(undone_seqs(deciding)))


def undo_targets(store: Store, rules: GameRules, game_id: int, count: int) -> tuple[list[LogRecord], frozenset[int]]:
    """The `count` newest inputs not undone yet (oldest first), as `effective_inputs(...)[-count:]`
    finds them, and which of them are sealed: read from the end of the log."""
    deciding = _deciding(store, rules, game_id)
    targets = store.log_newest(game_id, kinds=rules.input_kinds, skip=undone_seqs(deciding), count=count)
    return targets, _sealed(rules, deciding, targets)
