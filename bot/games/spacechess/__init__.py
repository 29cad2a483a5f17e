"""Space Chess in the bot: new-game documents, joining, event messages and board images."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games import Presenter, register_presenter
from bot.i18n import catalog
from bot.service.commands import Option
from bot.service.replies import Attachment, Embed, Message, Reply
from engine.core.errors import OrderError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules
from engine.core.squaregrid import format_cell
from engine.spacechess import legal
from engine.spacechess.previews import line_of_fire_between
from engine.spacechess.state import GameState
from renders.spacechess.board import Overlay, render_board
from renders.spacechess.sheet import render_sheet

#: events after which the board is worth posting, and the overlay each draws
_OVERLAY_EVENTS = ("moved", "shot", "grenade", "airstrike", "power", "deployed", "started", "draw_award", "pickup_placed")


def overlay_for(events: Sequence[Event]) -> Overlay:
    """The last action drawn over the board: path, line of fire, grenade square or air strike."""
    for ev in reversed(events):
        p = ev.params
        if ev.kind == "moved":
            return Overlay("move", path=(p["from"], *p["path"]))
        if ev.kind == "shot":
            return Overlay("shot", line=(p["from"], p["to"]))
        if ev.kind == "grenade":
            return Overlay("grenade", area=tuple(p["area"]))
        if ev.kind == "airstrike":
            return Overlay("airstrike", area=tuple(p["area"]))
    return Overlay("none")


def board_png(rules: GameRules, state: GameState, events: Sequence[Event] = (), reach: Mapping[str, int] | None = None,
              title: str = "") -> bytes:
    return render_board(rules.view(state), state.game_map, overlay=overlay_for(events), reach=reach, title=title)


def _hits(row: Mapping[str, Any]) -> str:
    """Which drawn numbers hit which card, e.g. ``c2: 9 12 · c6: 40+``; numbers read the same in any language."""
    parts = []
    for card in row.get("cards", ()):
        numbers = [str(n) for n in card.get("numbers", ())]
        if card.get("bonus"):
            numbers.append(f"{card['bonus']}+" if isinstance(card["bonus"], int) and card["bonus"] > 1 else "★")
        if numbers:
            parts.append(f"c{card['card']}: {' '.join(numbers)}")
    return " · ".join(parts) or "—"


def award_lines(breakdown: Sequence[Mapping[str, Any]]) -> list[Message]:
    """One line per character of a draw: hits, modifiers, AP before → after, AP lost to the cap."""
    lines = []
    for row in breakdown:
        if row.get("dead"):
            lines.append(Message("turn.dead", {"id": row["id"]}))
            continue
        if row.get("skipped"):
            key = "turn.skipped_zeroed" if row.get("zeroed") else "turn.skipped"
            lines.append(Message(key, {"id": row["id"], "ap": row["ap_after"]}))
            continue
        extras = []
        if row.get("grade"):
            extras.append(Message("turn.extra.grade", {"n": row["grade"]}))
        if row.get("encouragement"):
            extras.append(Message("turn.extra.encouragement", {"n": row["encouragement"]}))
        if row.get("hacking"):
            extras.append(Message("turn.extra.hacking", {"n": row["hacking"]}))
        if row.get("hack_immune"):
            extras.append(Message("turn.extra.hack_immune"))
        if row.get("lost_to_cap"):
            extras.append(Message("turn.extra.capped", {"n": row["lost_to_cap"]}))
        lines.append(Message("turn.gain", {"id": row["id"], "hits": _hits(row), "award": row["award"],
                                           "before": row["ap_before"], "after": row["ap_after"],
                                           "extras": extras or ""}))
    return lines


#: event parameters that hold a rules identifier, shown in the reader's words (label.<identifier>)
_IDENTIFIER_PARAMS = ("role", "weapon", "armour", "ability", "power", "items")
#: the board's team colours (team 1 blue circles, team 2 orange squares), in text and on sheet cards
TEAM_MARKS = {1: "🔵", 2: "🟧"}
TEAM_COLOURS = {1: 0x0072B2, 2: 0xE69F00}  # Okabe-Ito blue and orange
SHEET_FIELDS = ("team", "role", "hp", "max_hp", "ap", "at", "weapon", "armour", "items", "ability", "cards")


def labelled(params: Mapping[str, Any]) -> dict[str, Any]:
    """Event parameters with identifiers (``heavy_bolter``) as catalog labels (``bolter lourd``)."""
    out = dict(params)
    for key in _IDENTIFIER_PARAMS:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = Message(f"label.{value}")
    return out


def label(identifier: str | None) -> Message | None:
    """A rules identifier (``heavy_bolter``) in the reader's words (``bolter lourd``)."""
    return Message(f"label.{identifier}") if identifier else None


def _missing(params: Mapping[str, Any]) -> dict[str, Any]:
    """`not_ready`: Space Chess lists what the start waits for as ``general:<team>``, ``<part>:<name>``
    and ``deploy:<name>``; a game master needs it per character, in words."""
    teams: list[Message] = []
    todo: dict[str, list[str]] = {}
    for entry in params.get("missing") or ():
        part, _, who = str(entry).partition(":")
        if part == "general":
            teams.append(Message("ready.general", {"team": who}))
        else:
            todo.setdefault(who, []).append(part)
    lines = [Message("ready.character", {"name": name, "todo": _parts(parts)}) for name, parts in todo.items()]
    return {"missing": [*teams, *lines]}


def _parts(parts: list[str]) -> list[Message]:
    """Each part carries its own separator: nested fragments are joined as they are (bot.i18n)."""
    return [
        Message(f"ready.part.{part}" if _known(f"ready.part.{part}") else "ready.part.other",
                {"sep": ", " if index else "", "part": part})
        for index, part in enumerate(parts)
    ]


def _known(key: str) -> bool:
    return key in catalog("en")


class SpaceChessPresenter(Presenter):
    kind = "spacechess"
    create_options = (
        Option("hp_soldier", "integer", min_value=1, max_value=999),
        Option("hp_general", "integer", min_value=1, max_value=999),
        Option("map"),
    )
    join_options = (
        Option("team", required=True, choices=("1", "2")),
        Option("role", required=True, choices=("soldier", "general")),
    )

    def create_document(self, options: Mapping[str, Any]) -> dict[str, Any]:
        document: dict[str, Any] = {"phase": "setup", "map": options.get("map") or "standard"}
        for key in ("hp_soldier", "hp_general"):
            if key in options:
                document[key] = options[key]
        return document

    def join_input(self, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        name = str(options["name"])
        return name, {"id": name, "team": int(options["team"]), "role": options["role"]}

    def refusal_params(self, err: OrderError) -> dict[str, Any]:
        return _missing(err.params) if err.code == "not_ready" else {}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        messages: list[Message] = []
        for ev in events:
            params = labelled(ev.params)
            if ev.kind == "pickup_left":  # why it stays there, in words
                params["reason"] = Message(f"pickup_left.{ev.params.get('reason')}")
            messages.append(Message(f"event.spacechess.{ev.kind}", params))
            if ev.kind == "draw_award":
                messages.extend(award_lines(ev.params.get("breakdown", ())))
        return messages

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        if not any(ev.kind in _OVERLAY_EVENTS for ev in events):
            return []
        return [Attachment("board.png", board_png(rules, state, events))]

    def board(self, rules: GameRules, state: Any) -> list[Attachment]:
        return self.board_with(rules, state)

    def board_with(self, rules: GameRules, state: Any, reach_of: str | None = None,
                   line: tuple[str, str] | None = None) -> list[Attachment]:
        """The board, optionally showing where `reach_of` can go or the line of fire between two characters."""
        reach = reachable(state, reach_of) if reach_of is not None else None
        overlay = Overlay("none")
        if line is not None:
            cells = [_cell_of(state, name) for name in line]
            overlay = Overlay("shot", line=(cells[0], cells[1]))
        view = rules.view(state)
        return [Attachment("board.png", render_board(view, state.game_map, overlay=overlay, reach=reach))]

    def line_report(self, state: Any, shooter: str, target: str) -> Message:
        """SC-21/SC-22: the exact line, whatever the range or AP; what blocks it, if anything."""
        found = line_of_fire_between(state, _character(state, shooter).id, _character(state, target).id)
        params = {"shooter": _character(state, shooter).id, "target": _character(state, target).id,
                  "blocked_at": found["blocked_at"]}
        return Message("game.board.line_blocked" if found["blocked_at"] else "game.board.line_clear", params)

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        """The sheet's values in a line, and its card (the drawn sheet) framed in the team's colour."""
        data = rules.view(state)["characters"][actor]
        labels = {k.removeprefix("label."): v for k, v in catalog(language).items() if k.startswith("label.")}
        card = Attachment(f"sheet-{_file_safe(actor)}.png", render_sheet(rules.view(state), actor, labels=labels))
        line = Message("game.sheet", {"id": actor, **labelled({k: data.get(k) for k in SHEET_FIELDS})})
        frame = Embed(Message("game.sheet.title", {"id": actor}), colour=TEAM_COLOURS.get(data.get("team")),
                      image=card.filename)
        return Reply((line,), files=(card,), embeds=(frame,))

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        """Team by team: each living character's HP, AP, place and gear; the dead in a word."""
        lines = []
        characters = rules.view(state).get("characters", {})
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
        return lines


def _file_safe(name: str) -> str:
    """A name as an attachment file name: Discord rewrites spaces and other characters in file names,
    which would break the embed's ``attachment://`` link to the image."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name)


def _character(state: GameState, name: str) -> Any:
    """A living character on the board, by name (any case or width, as `GameState.find`)."""
    character = state.find(name)
    if character is None:
        raise OrderError("unknown_character", name=name)
    if character.at is None:
        raise OrderError("dead", name=character.id)
    return character


def _cell_of(state: GameState, name: str) -> str:
    return format_cell(_character(state, name).at)


def reachable(state: GameState, character_id: str) -> dict[str, int]:
    """Every cell the character can move to with its AP now, and the AP it costs: the engine's legal
    moves, so the overlay never offers a cell the move would refuse. A name that is nobody on the
    board is an error here, not an empty overlay, so the asker learns the name is wrong."""
    mover = state.find(character_id)
    if mover is None or mover.at is None:
        raise OrderError("unknown_character", name=character_id)
    return legal.reach(state, mover.id)


SPACECHESS_PRESENTER = register_presenter(SpaceChessPresenter())
