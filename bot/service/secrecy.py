"""Who may read what: the service's side of the games' secrets.

A game declares which input kinds are secret until a later input reveals them
(`GameRules.secret_kinds` / `reveal_kinds`) and who may read an event (`Event.audience`). Here the
bot applies that to what it shows: a *reader* is the member behind a command (their seat, whether
they GM the game), and a log entry is *sealed* while its secret is kept. Sealed entries are shown
to their owner only (and to GMs where the game allows): in history, undo listings and exports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.store.repo import GameRecord, LogRecord
from engine.core.protocol import GM, PUBLIC, Audience, GameRules

if TYPE_CHECKING:
    from bot.service.context import Context
    from bot.service.core import GameService


@dataclass(frozen=True)
class Reader:
    """The member reading: their id, the actor they play (if any), whether they GM the game."""

    user_id: int | None = None
    actor: str | None = None
    gm: bool = False

    def viewers(self) -> list[Audience]:
        viewers = [PUBLIC]
        if self.actor is not None:
            viewers.append(Audience.actor(self.actor))
        if self.gm:
            viewers.append(GM)
        return viewers

    def sees(self, rules: GameRules, state: Any, audience: Audience) -> bool:
        """Whether this reader may read something meant for `audience`."""
        return any(rules.sees(state, viewer, audience) for viewer in self.viewers())

    def reads(self, rules: GameRules, entry: LogRecord, sealed: set[int]) -> bool:
        """Whether this reader may read a log entry's payload: anything not sealed; a sealed one
        if it is theirs (their seat or their own command), or as a GM of a game that allows it."""
        if entry.seq not in sealed:
            return True
        if (self.actor is not None and entry.actor == self.actor) or (
                self.user_id is not None and entry.user_id == self.user_id):
            return True
        return self.gm and rules.gm_sees_secrets


def reader_of(svc: GameService, ctx: Context, game: GameRecord) -> Reader:
    seat = svc.store.seat_of_user(game.id, ctx.user_id)
    return Reader(ctx.user_id, seat.actor if seat else None, svc.is_gm(ctx, game))


def undone_seqs(entries: Iterable[LogRecord]) -> set[int]:
    """The entries an undo took back (each undo entry names them)."""
    return {seq for entry in entries if entry.kind == "undo" for seq in entry.payload.get("seqs", ())}


def sealed_seqs(rules: GameRules, entries: Iterable[LogRecord]) -> set[int]:
    """The secret entries no reveal has followed yet. An undone secret stays sealed (it was never
    revealed), and an undone reveal reveals nothing."""
    entries = list(entries)
    if not rules.secret_kinds:
        return set()
    undone = undone_seqs(entries)
    reveals = [e.seq for e in entries if e.kind in rules.reveal_kinds and e.seq not in undone]
    last_reveal = max(reveals, default=0)
    return {e.seq for e in entries if e.kind in rules.secret_kinds and e.seq > last_reveal}
