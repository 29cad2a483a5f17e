"""HexArena in the bot (reconstructed rules): two fleets of nine race for the enemy base on 127 hex
cells, one whole turn per order, against a friend or the computer, on a move clock.

Presentation only: the rules are engine/hexarena. Ships are named to players by side, type and
number ("Red fighter 2") rather than by their ids, and every image is drawn from the public view.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games import Presenter, register_presenter, seated_player
from bot.games.hexarena import history
from bot.games.last_action import last_action
from bot.i18n import Count, Listing, catalog, translate
from bot.service.commands import Option
from bot.service.replies import Attachment, Message, Reply
from engine.core.errors import OrderError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules
from engine.hexarena.geometry import BASE, BOARD, SIDES, cell_name, other
from engine.hexarena.orders import Turn

if TYPE_CHECKING:
    from bot.service.scene import Scene
    from bot.store.repo import LogRecord
    from renders.hexmarks import Mark

VARIANTS = ("base", "blitz", "alpha", "omega")
SIDE_MARKS = {"red": "🔴", "blue": "🔵"}
#: events after which the board is worth posting: a turn played, the start, the end
_BOARD_EVENTS = ("turn_ended", "started", "game_over")
_STANDARD_ID = re.compile(r"(red|blue)_(admiral|fighter|cargo|patrol)(\d+)")
#: parameter values the catalog words: the kind of ship, why a game ended, how a debris was reached,
#: the action a refusal names
_WORDED = {"type": "hx.type", "reason": "hx.reason", "access": "hx.access", "verb": "hx.verb"}
#: the parameters of an event that are directions (a rotation's from and to are facings, a move's cells)
FACINGS = {"rotated": ("from", "to"), "fired": ("direction",), "rammed": ("direction",)}
#: the parameters of a refusal worded for the reader (the shared ones are worded already)
_REFUSAL_WORDS = ("ship", "target", "by", "side", "to_move", "type", "verb", "missing", "allowed")
_REFUSAL_DIRECTIONS = ("direction", "facing")


def ship_words(ident: Any) -> Any:
    """A ship as players read it: "Red fighter 2" ("Patrouille bleue 1": the colour agrees with the
    type in French, ``hx.colour.<type>.<side>``) for the standard fleet's ids (HA-2), else its id
    (a setup document may name ships freely)."""
    match = _STANDARD_ID.fullmatch(str(ident))
    if match is None:
        return ident
    side, kind, number = match.groups()
    return Message(f"hx.ship.{kind}", {"side": Message(f"hx.colour.{kind}.{side}"), "n": number})


def word_value(key: str, value: Any) -> Any:
    """One event or refusal parameter in words: sides, ships, types and reasons; cells as they are."""
    if isinstance(value, str):
        if value in SIDES:
            return Message(f"word.side.{value}")
        if key in _WORDED:
            return Message(f"{_WORDED[key]}.{value}")
        if _STANDARD_ID.fullmatch(value):
            return ship_words(value)
    if isinstance(value, list) and value and all(isinstance(v, str) and v in SIDES for v in value):
        return Listing(tuple(Message(f"word.side.{v}") for v in value), conjunction=True)
    return value


def event_words(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """An event's parameters in words: sides, ships and types, and directions as the reader writes
    them (``O`` for west in French), with the sentence's optional parts."""
    facings = FACINGS.get(kind, ())
    return {**{key: history.direction(value) if key in facings and isinstance(value, str) else word_value(key, value)
               for key, value in params.items()},
            **_fragments(kind, params)}


def _fragments(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The optional parts of a sentence (a teleport, a debris left, Omega's points), each a catalog
    fragment or empty, so every event has one sentence per language."""
    if kind == "moved":
        passenger = params.get("passenger")
        return {"teleport": Message("hx.moved.teleport") if params.get("teleport") else "",
                "passenger": Message("hx.moved.passenger", {"ship": ship_words(passenger)}) if passenger else ""}
    if kind == "destroyed":
        if params.get("released"):
            left = Message("hx.destroyed.released", {"ship": ship_words(params["released"]), "at": params["at"]})
        elif params.get("debris"):
            left = Message("hx.destroyed.debris", {"reserve": Count(int(params.get("reserve", 0)), "hx.count.reserve")})
        else:
            left = Message("hx.destroyed.no_debris")
        # the participle agrees with the ship's type in French ("Patrouille bleue 1 est détruite")
        return {"left": left, "destroyed": Message(f"hx.destroyed.word.{params.get('type', 'fighter')}")}
    if kind == "recycled":
        indirect = params.get("access") == "indirect"
        return {"step": Message("hx.recycled.step", {"to": params.get("to")}) if indirect else ""}
    if kind == "turn_ended":
        return {"ap": Message("hx.turn_ended.ap", {"ap": params["ap"]}) if params.get("ap") is not None else ""}
    if kind == "started":
        return {"drawn": Message("hx.started.drawn") if params.get("drawn") else ""}
    if kind == "game_over":
        if params.get("winner") in SIDES:
            outcome = Message("hx.outcome.win", {"winner": Message(f"word.side.{params['winner']}")})
        else:
            outcome = Message("hx.outcome.draw")
        return {"outcome": outcome}
    return {}


def turn_text(turn: Turn, language: str) -> str:
    """A turn in the order language as a reader of `language` writes it (``tourne G2 NO; deplace G3
    G4``): the verbs and directions of the catalog, which the order's parser reads in both languages."""
    words = catalog(language)
    return "; ".join(" ".join([words[f"hx.order.verb.{action.verb}"], cell_name(action.at),
                               *([cell_name(action.to)] if action.to is not None else []),
                               *([words[f"word.choice.direction.{action.direction.name.lower()}"]]
                                 if action.direction is not None else [])])
                     for action in turn.actions)


def ship_number(ident: Any) -> str | None:
    """The number a ship's name carries ("Red fighter 2": 2), drawn beside it on the board; None for
    the admiral (one a side, named without one) and for a ship a setup named freely."""
    match = _STANDARD_ID.fullmatch(str(ident))
    return match.group(3) if match is not None and match.group(2) != "admiral" else None


def last_marks(events: Iterable[Event], view: Mapping[str, Any]) -> list[Mark]:
    """What the board draws of a turn, from its events (renders/hexmarks.py): a move's arrow from
    where it left to where it arrived (dashed for a teleport, never along the wrapped path), a
    shot's tracer to its target, a ram's impact, each destroyed ship ghosted where it stood, a turned
    ship's old heading, a recycled debris where it lay. `view` (after the turn) says what a turned
    ship is and which way a destroyed one faced; the other events say it themselves."""
    from renders.hexmarks import GHOST, JUMP, MOVE, RAM, SHOT, TURN, Mark

    marks: list[Mark] = []
    for event in events:
        p = event.params
        if event.kind == "moved":
            marks.append(Mark(JUMP if p.get("teleport") else MOVE, (p["from"], p["to"])))
        elif event.kind in ("boarded", "left"):
            marks.append(Mark(MOVE, (p["from"], p["at"] if event.kind == "boarded" else p["to"])))
        elif event.kind == "rotated":
            ship = view.get("ships", {}).get(p["ship"], {})
            marks.append(Mark(TURN, (p["at"],), side=str(ship.get("side", "")), piece=str(ship.get("type", "")),
                              facings=(p["from"], p["to"])))
        elif event.kind == "fired":
            marks.append(Mark(SHOT, (p["at"], p["line"][-1])))
        elif event.kind == "rammed":
            marks.append(Mark(RAM, (p["at"], p["target_at"])))
        elif event.kind == "destroyed":  # ghosted as it stood: the view keeps a dead ship's facing
            facing = view.get("ships", {}).get(p["ship"], {}).get("facing")
            marks.append(Mark(GHOST, (p["at"],), side=p["side"], piece=p["type"],
                              facings=(facing,) if facing else ()))
        elif event.kind == "recycled":
            marks.append(Mark(GHOST, (p["debris"],), side=_side_of(view, p["ship"]), piece="debris"))
            if p["to"] != p["from"]:
                marks.append(Mark(MOVE, (p["from"], p["to"])))
    return marks


def _side_of(view: Mapping[str, Any], ident: str) -> str:
    return str(view.get("ships", {}).get(ident, {}).get("side", SIDES[0]))


#: events a caption tells without calling them the last move: the game beginning or ending by itself
_NO_MOVE = ("started", "game_over")
#: events a board's caption leaves out: bookkeeping, not something that happened on the board
_UNTOLD = ("turn_ended", "joined", "player_left", "draw_offered", "draw_declined", "draw_offer_lapsed")


def caption(events: Sequence[Event], language: str) -> list[str]:
    """The last action in words under the board: what the channel read of it, as one paragraph
    (wrapped by the render, never cut), "Last move:" first unless the game only began or ended
    (a draw agreed, a resignation); empty when nothing happened on the board."""
    from bot.games.picture_text import plain

    said = [plain(translate(f"event.hexarena.{event.kind}", language, event_words(event.kind, event.params)))
            for event in events if event.kind not in _UNTOLD]
    if not said:
        return []
    text = " ".join(said)
    acted = any(event.kind not in _NO_MOVE for event in events if event.kind not in _UNTOLD)
    return [translate("hx.picture.last", language, {"text": text}) if acted else text]


#: the catalog key of each word the board draws (renders/hexarena/style.py's LABELS) where it is not
#: ``hx.picture.<label>``: the sides, ship types, variants and reasons as every other line words them
_PICTURE_KEYS = {"red": "word.side.red", "blue": "word.side.blue",
                 **{kind: f"hx.type.{kind}" for kind in ("admiral", "fighter", "cargo", "patrol")},
                 **{name: f"word.choice.variant.{name}" for name in ("blitz", "alpha", "omega")}}


def picture_labels(language: str) -> dict[str, str]:
    """Every word the board draws, from the catalog of `language` (``hx.picture.*``, the sides, the
    reasons a game ends): the render draws nothing else."""
    from renders.hexarena.style import LABELS

    words = catalog(language)
    return {label: words[_PICTURE_KEYS.get(label) or _reason_key(label) or f"hx.picture.{label}"] for label in LABELS}


def _reason_key(label: str) -> str | None:
    return f"hx.reason.{label.removeprefix('reason.')}" if label.startswith("reason.") else None


def _board(rules: GameRules, state: Any, language: str, name: str = "",
           events: Sequence[Event] = ()) -> list[Attachment]:
    """The board in `language`, the last action drawn and told from `events` (none: the board as
    it stands); its ships numbered as their names are."""
    from renders.hexarena.board import render_board  # the renders are imported only when drawn

    title = translate("hx.picture.title_named", language, {"name": name}) if name else \
        translate("hx.picture.title", language)
    labels = picture_labels(language)
    view = rules.view(state)
    numbers = {ident: number for ident in view["ships"] if (number := ship_number(ident)) is not None}
    return [Attachment("hexarena.png", render_board(view, title=title, marks=last_marks(events, view),
                                                    caption=caption(events, language), numbers=numbers,
                                                    labels=labels))]


def admiral_cell(view: Mapping[str, Any], side: str) -> str | None:
    """Where a side's admiral is (HA-13): its own cell, or its cargo's."""
    for ship in view["ships"].values():
        if ship["side"] == side and ship["type"] == "admiral" and ship["alive"]:
            if ship["carried_by"] is not None:
                return view["ships"][ship["carried_by"]]["at"]
            return ship["at"]
    return None


def base_distance(cell: str | None, side: str) -> int | None:
    """Steps from `cell` to the nearest cell of `side`'s enemy base."""
    if cell is None:
        return None
    at = BOARD.parse(cell)
    return min(at.distance(target) for target in BASE[other(side)])


def _admiral_words(view: Mapping[str, Any], side: str) -> Any:
    cell = admiral_cell(view, side)
    if cell is None:
        return Message("word.none")
    carried = any(s["side"] == side and s["type"] == "admiral" and s["alive"] and s["carried_by"]
                  for s in view["ships"].values())
    return Message("hx.admiral.carried" if carried else "hx.admiral.at", {"at": cell})


class HexArenaPresenter(Presenter):
    kind = "hexarena"
    create_options = (Option("variant", choices=VARIANTS),)
    join_options = (Option("side", choices=SIDES),)
    # cells and these directions read the same in English and in French
    examples = {"hx new": {"name": "Arena"}, "hx order": {"text": "rotate G2 NE"},
                "hx move": {"cell": "G3", "to": "G10"}, "hx rotate": {"cell": "G2", "direction": "NE"},
                "hx ram": {"cell": "E10", "direction": "SE"}, "hx board": {"cell": "G1", "to": "F2"},
                "hx leave": {"cell": "F2", "to": "F3"}, "hx recycle": {"cell": "G1", "debris": "G2"},
                "hx fire": {"cell": "G2"}}

    def create_document(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A lobby (two players join, then a GM starts) in the variant asked for (HA-15..HA-17)."""
        return {"phase": "setup", "variant": options.get("variant", "base")}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        return [Message(f"event.{rules.name}.{event.kind}", event_words(event.kind, event.params)) for event in events]

    history_events = True  # a turn reads by its ships ("Red fighter 1"), which only its events name

    def history_line(self, rules: GameRules, entry: LogRecord, events: Sequence[Event], author: Message) -> Message:
        """A turn as what each action did, in the past, naming its author; anything else in the
        shared words, with the computer's side (an author, a clock run out) named as it reads."""
        author = history.author_words(entry, author)
        line = history.order_line(entry, events, author, lambda evs: self.describe(rules, evs))
        if line is not None:
            return line
        said = super().history_line(rules, entry, events, author)
        return Message(said.key, {**said.params, **{key: word_value(key, value) for key, value in said.params.items()
                                                    if key == "actor" and value in SIDES}})

    def order_suggestions(self, rules: GameRules, orders: Iterable[Any], language: str, typed: str) -> Iterable[str]:
        """What ``/hx order`` suggests: the legal turns in the reader's order words, those starting
        with what was typed (case aside)."""
        wanted = typed.strip().lower()
        return (text for text in (turn_text(turn, language) for turn in orders) if text.lower().startswith(wanted))

    def refusal_params(self, err: OrderError) -> dict[str, Any]:
        """Ships, sides, types, actions and directions in a refusal in words ("Red fighter 2", not
        ``red_fighter2``; ``NO`` for a French reader's north-west)."""
        worded = {key: word_value(key, value) for key, value in err.params.items() if key in _REFUSAL_WORDS}
        return {**worded, **{key: history.direction(value) for key, value in err.params.items()
                             if key in _REFUSAL_DIRECTIONS and isinstance(value, str)}}

    def images_for(self, rules: GameRules, state: Any, events: Sequence[Event], scene: Scene) -> list[Attachment]:
        """The board after a turn, the start or the end, in the scene's language, the turn's cells outlined."""
        if not any(event.kind in _BOARD_EVENTS for event in events):
            return []
        return _board(rules, state, scene.language, scene.name, events)

    def board_for(self, rules: GameRules, state: Any, scene: Scene, around: str | None = None) -> list[Attachment]:
        """``/game board``: the board with the last turn drawn and told, as its post showed it (its alt
        text says it too)."""
        if around is not None:
            return super().board_for(rules, state, scene, around)
        events = last_action(scene, _BOARD_EVENTS)
        return list(self.described(_board(rules, state, scene.language, scene.name, events), rules, state, scene, events))

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        return self.seated_sheet(rules, state, actor, language, viewer, {})

    def seated_sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience,
                     seats: Mapping[str, int]) -> Reply:
        """A side's fleet: its player (as the status names them), the admiral and how far it is from
        the enemy base, each ship afloat, the graveyard and the shared debris reserve; with the board
        as it stands, its ships numbered as the lines name them (no cell outlined: the outline means
        the last move)."""
        view = rules.view(state)
        side = actor
        lines = [Message("hx.sheet.header", {"mark": SIDE_MARKS[side], "side": Message(f"word.side.{side}"),
                                             "player": seated_player(view["players"], side, seats)
                                             or Message("hx.nobody")})]
        admiral = admiral_cell(view, side)
        lines.append(Message("hx.sheet.admiral", {"where": _admiral_words(view, side),
                                                  "distance": base_distance(admiral, side)
                                                  if admiral is not None else Message("word.none")}))
        for ident, ship in view["ships"].items():
            if ship["side"] != side or not ship["alive"] or ship["type"] == "admiral":
                continue
            carries = any(s["carried_by"] == ident and s["alive"] for s in view["ships"].values())
            lines.append(Message("hx.sheet.ship", {
                "ship": ship_words(ident), "at": ship["at"],
                "facing": Message("hx.sheet.facing", {"facing": history.direction(ship["facing"])})
                if ship["facing"] else "",
                "cargo": Message("hx.sheet.carries") if carries else ""}))
        dead = view["graveyard"][side]
        lines.append(Message("hx.sheet.graveyard", {"count": len(dead), "ships": Listing(
            tuple(Message("hx.sheet.dead", {"ship": ship_words(i)}) for i in dead), separator=" ")}))
        lines.append(Message("hx.sheet.reserve", {"reserve": view["debris_reserve"], "board": len(view["debris"])}))
        return Reply(tuple(lines), files=tuple(_board(rules, state, language)))

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        return self.seated_status_lines(rules, state, {})

    def seated_status_lines(self, rules: GameRules, state: Any, seats: Mapping[str, int]) -> list[Message]:
        """Each side: its player (the member a GM seated there, else as they joined), ships afloat and
        lost, its admiral, and who is to move; then the debris and the variant; and a warning when the
        position has stood twice (HA-18)."""
        view = rules.view(state)
        lines = []
        for side in SIDES:
            afloat = sum(1 for s in view["ships"].values() if s["side"] == side and s["alive"])
            lines.append(Message("hx.status.side", {
                "mark": SIDE_MARKS[side], "side": Message(f"word.side.{side}"),
                "player": seated_player(view["players"], side, seats) or Message("hx.nobody"),
                "afloat": Count(afloat, "hx.count.afloat"),
                "lost": Count(len(view["graveyard"][side]), "hx.count.lost"), "admiral": _admiral_words(view, side),
                "move": Message("hx.status.to_move") if view.get("to_move") == side and view["status"] == "running"
                else ""}))
        # Blitz, Alpha and Omega are names, the same in every language; the base game is not
        variants = Listing(tuple(Message(f"word.choice.variant.{name}") for name in view["variants"]),
                           separator=" + ") if view["variants"] else Message("hx.variant.base")
        lines.append(Message("hx.status.arena", {"board": len(view["debris"]), "reserve": view["debris_reserve"],
                                                 "variant": variants}))
        if view["status"] == "running" and view.get("repetition", 0) >= 2:  # HA-18: once more draws it
            lines.append(Message("hx.status.repetition"))
        return lines


HEXARENA_PRESENTER = register_presenter(HexArenaPresenter())
