"""How each game looks in the bot: what `/gm create` and `/game join` mean for it, how its events
read, which images follow an action. The rules stay in engine/; this is presentation only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.service.replies import Attachment, Message, ServiceError
from engine.core.protocol import Event, GameRules


class Presenter:
    """Defaults that suit any game; a game's presenter overrides what differs."""

    kind: ClassVar[str] = ""
    create_options: ClassVar[tuple[str, ...]] = ()  # /gm create options copied into the setup document

    def create_document(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {name: options[name] for name in self.create_options if name in options}

    def join_input(self, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The actor id a joining member takes and the payload of the game's ``join`` input."""
        name = str(options.get("name", "")).strip()
        if not name:
            raise ServiceError("error.missing_option", option="name")
        payload = {k: v for k, v in options.items() if k != "name"}
        return name, {"id": name, **payload}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        return [Message(f"event.{rules.name}.{e.kind}", dict(e.params)) for e in events]

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        return []

    def board(self, rules: GameRules, state: Any, reach_of: str | None = None,
              line: tuple[str, str] | None = None) -> list[Attachment]:
        """The board on demand (``/game board``), optionally showing where `reach_of` can go or the
        line of fire between two characters."""
        return []

    def line_report(self, rules: GameRules, state: Any, shooter: str, target: str) -> Message | None:
        """What blocks the line between two characters, for the text beside the board."""
        return None

    def sheet(self, rules: GameRules, state: Any, actor: str, labels: Mapping[str, str]) -> list[Attachment]:
        """The sheet card of one character or side (``/game sheet``)."""
        return []


#: event parameters that hold a rules identifier, shown in the reader's words (label.<identifier>)
_IDENTIFIER_PARAMS = ("role", "weapon", "armour", "ability", "power", "items")


def labelled(params: Mapping[str, Any]) -> dict[str, Any]:
    """Event parameters with identifiers (``heavy_bolter``) as catalog labels (``bolter lourd``)."""
    out = dict(params)
    for key in _IDENTIFIER_PARAMS:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = Message(f"label.{value}")
    return out


_presenters: dict[str, Presenter] = {}


def register_presenter(presenter: Presenter) -> Presenter:
    _presenters[presenter.kind] = presenter
    return presenter


def presenter_for(kind: str) -> Presenter:
    return _presenters.get(kind) or Presenter()
