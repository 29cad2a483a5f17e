"""The status message: every character's HP, AP and equipment, and when the next draw is due.

The Discord adapter keeps one such message pinned in each game channel and edits it in place
(debounced) after every change; `/game status` shows the same text on demand, in any adapter.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.lottery.apply import applier_for
from bot.service.commands import command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply
from bot.store.repo import GameRecord
from draws.calendar import next_expected_draw
from engine import registry

#: the board's team colours (team 1 blue circles, team 2 orange squares)
TEAM_MARKS = {1: "🔵", 2: "🟧"}


def discord_time(moment: dt.datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone, with a relative hint."""
    stamp = int(moment.timestamp())
    return f"<t:{stamp}:F> (<t:{stamp}:R>)"


def label(identifier: str | None) -> Message | None:
    """A rules identifier (``heavy_bolter``) in the reader's words (``bolter lourd``)."""
    return Message(f"label.{identifier}") if identifier else None


def status_messages(svc: GameService, game: GameRecord, now: dt.datetime | None = None) -> tuple[Message, ...]:
    rules = registry.get(game.kind)
    view = rules.view(rules.from_json(game.state))
    now = now or dt.datetime.now(dt.UTC)
    header: dict[str, Any] = {"name": game.name, "status": Message(f"status.value.{game.status}"),
                              "turn": view.get("turn", 0)}
    if game.status == "running":
        header["next"] = discord_time(next_expected_draw(now, applier_for(svc).schedule))
        lines = [Message("status.header_next", header)]
    else:
        lines = [Message("status.header", header)]
    characters = view.get("characters", {})
    for team in (1, 2):
        for ident, data in characters.items():
            if data.get("team") != team:
                continue
            if not data.get("alive", True):
                lines.append(Message("status.dead", {"id": ident, "mark": TEAM_MARKS[team]}))
                continue
            lines.append(Message("status.character", {
                "id": ident, "mark": TEAM_MARKS[team], "role": label(data.get("role")), "hp": data.get("hp"),
                "max_hp": data.get("max_hp"), "ap": data.get("ap"), "at": data.get("at"),
                "weapon": label(data.get("weapon")), "armour": label(data.get("armour")),
                "items": data.get("items", []),
            }))
    return tuple(lines)


@command("game status")
def game_status(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    return Reply(status_messages(svc, svc.channel_game(ctx)))
