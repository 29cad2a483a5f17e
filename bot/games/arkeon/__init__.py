"""Arkeon in the bot: a two-player game on 29 hex cells, one piece placed or swapped per turn,
against a friend or the computer, on a move clock. Presentation only: the rules are engine/arkeon."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import Presenter, register_presenter
from bot.i18n import Listing
from bot.service.game_over import result_words
from bot.service.replies import Attachment, Message
from engine.core.protocol import Event, GameRules

#: events after which the board is worth posting (a move, the start, the end)
_BOARD_EVENTS = ("placed", "swapped", "started", "game_over")
SIDE_MARKS = {"blue": "🔵", "red": "🔴"}


#: event parameters naming a side, a piece kind (``from``/``to`` are kinds in a swap only)
_SIDE_PARAMS = ("side", "to_move", "starter", "winner", "loser")


def worded(event: Event) -> dict[str, Any]:
    """An Arkeon event's parameters in words: sides (``word.side.blue``), piece kinds
    (``ak.kind.basic``), the reason a game ended (``ak.reason.<reason>``)."""
    params = dict(event.params)
    for key in _SIDE_PARAMS:
        if isinstance(params.get(key), str) and params[key] in SIDE_MARKS:
            params[key] = Message(f"word.side.{params[key]}")
    kinds = ("kind", "from", "to") if event.kind == "swapped" else ("kind",)
    for key in kinds:
        if isinstance(params.get(key), str):
            params[key] = Message(f"ak.kind.{params[key]}")
    if "kinds" in params:
        params["kinds"] = Listing(tuple(Message(f"ak.kind.{kind}") for kind in params["kinds"]), conjunction=True)
    if event.kind == "game_over":
        params["why"] = Message(f"ak.reason.{params.get('reason')}")  # `reason` stays the engine's word
        params["result"] = result_words(params["winner"])
    if event.kind == "started" and isinstance(params.get("players"), dict):
        params["players"] = Listing(tuple(Message("ak.player", {"side": Message(f"word.side.{side}"), "name": name})
                                          for side, name in params["players"].items()), conjunction=True)
    return params


def _board(rules: GameRules, state: Any, highlight: Sequence[str] = ()) -> list[Attachment]:
    from renders.arkeon.board import render_board  # the renders are imported only when drawn

    view = rules.view(state)
    return [Attachment("arkeon.png", render_board(view, title=f"Arkeon — turn {view.get('turn', 0)}",
                                                  highlight=highlight))]


class ArkeonPresenter(Presenter):
    kind = "arkeon"

    def create_document(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"phase": "setup"}

    examples = {"ak new": {"name": "Duel"}, "ak join": {"name": "Ann"}, "ak challenge": {"level": "easy"},
                "ak place": {"kind": "basic", "cell": "C3", "direction": "e"},
                "ak swap": {"cell": "C3", "kind": "triple", "direction": "se"},
                "ak order": {"text": "place basic C3 E"}}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        """Sides, pieces and endings in the reader's words ("Bleu pose un basique en C3")."""
        return [Message(f"event.arkeon.{event.kind}", worded(event)) for event in events]

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
