"""The status message: where the game stands, what comes next, and the game's own lines.

The Discord adapter keeps one such message pinned in each game channel and edits it in place
(debounced) after every change; `/game status` shows the same text on demand, in any adapter.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.games import driver_of, presenter_for
from bot.service.away import status_lines as away_lines
from bot.service.commands import command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.draw_offers import draw_status_lines
from bot.service.replies import Message, Reply
from bot.store.repo import GameRecord
from engine import registry


def status_messages(svc: GameService, game: GameRecord, now: dt.datetime | None = None) -> tuple[Message, ...]:
    """The header (name, state, turn, and what comes next per the game's turn driver), then the
    game's own lines of its public state: nothing here can hold a secret."""
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    now = now or svc.clock()
    header: dict[str, Any] = {"name": game.name, "status": Message(f"status.value.{game.status}"),
                              "turn": rules.turn_number(state)}
    upcoming = driver_of(game.kind).next_moment(svc, game, now) if game.status == "running" else None
    if upcoming is not None:
        lines = [Message("status.header_next", {**header, "next": upcoming})]
    else:
        lines = [Message("status.header", header)]
    if game.status == "running":
        lines += away_lines(game, now)
    seats = {seat.actor: seat.user_id for seat in svc.store.seats(game.id)}
    return (*lines, *presenter_for(game.kind).seated_status_lines(rules, state, seats),
            *draw_status_lines(rules, state, seats))


@command("game status")
def game_status(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    return Reply(status_messages(svc, svc.channel_game(ctx)))
