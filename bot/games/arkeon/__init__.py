"""Arkeon in the bot: a two-player game on 29 hex cells, one piece placed or swapped per turn,
against a friend or the computer, on a move clock. Presentation only: the rules are engine/arkeon."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import Presenter, register_presenter
from bot.service.replies import Attachment, Message
from engine.core.protocol import Event, GameRules

#: events after which the board is worth posting (a move, the start, the end)
_BOARD_EVENTS = ("placed", "swapped", "started", "game_over")
SIDE_MARKS = {"blue": "🔵", "red": "🔴"}


def _board(rules: GameRules, state: Any, highlight: Sequence[str] = ()) -> list[Attachment]:
    from renders.arkeon.board import render_board  # the renders are imported only when drawn

    view = rules.view(state)
    return [Attachment("arkeon.png", render_board(view, title=f"Arkeon — turn {view.get('turn', 0)}",
                                                  highlight=highlight))]


class ArkeonPresenter(Presenter):
    kind = "arkeon"

    def create_document(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"phase": "setup"}

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        if not any(event.kind in _BOARD_EVENTS for event in events):
            return []
        moved = [event.params["at"] for event in events if event.kind in ("placed", "swapped")]
        return _board(rules, state, moved)

    def board(self, rules: GameRules, state: Any) -> list[Attachment]:
        return _board(rules, state)

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        view = rules.view(state)
        lines = []
        for side, player in view.get("players", {}).items():
            reserve = view["reserve"][side]
            lines.append(Message("ak.status.side", {
                "mark": SIDE_MARKS.get(side, ""), "side": Message(f"word.side.{side}"), "player": player,
                "basic": reserve["basic"], "advanced": reserve["advanced"],
                "move": Message("ak.status.to_move") if view.get("to_move") == side else ""}))
        return lines


ARKEON_PRESENTER = register_presenter(ArkeonPresenter())
