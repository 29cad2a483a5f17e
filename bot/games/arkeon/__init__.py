"""Arkeon in the bot: a two-player game on 29 hex cells, one piece placed or swapped per turn,
against a friend or the computer, on a move clock. Presentation only: the rules are engine/arkeon."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games import Presenter, register_presenter, seated_player
from bot.games.hexarena.history import author_words
from bot.games.last_action import last_action
from bot.i18n import Count, Listing, catalog, translate
from bot.service.game_over import result_words
from bot.service.replies import Attachment, Message, Reply
from engine.arkeon.orders import Order, parse_orders
from engine.arkeon.pieces import cell_name
from engine.core.errors import OrderError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules

if TYPE_CHECKING:
    from bot.service.scene import Scene
    from bot.store.repo import LogRecord
    from renders.hexmarks import Mark

#: events after which the board is worth posting (a move, the start, the end)
_BOARD_EVENTS = ("placed", "swapped", "started", "game_over")
SIDE_MARKS = {"blue": "🔵", "red": "🔴"}


#: event parameters naming a side, a piece kind (``from``/``to`` are kinds in a swap only)
_SIDE_PARAMS = ("side", "to_move", "starter", "winner", "loser", "by")


def direction(name: str) -> Message:
    """A hex direction as the reader writes it (``NO`` for a French reader's north-west): the labels
    Discord shows for a direction, ``word.choice.direction.*``."""
    return Message(f"word.choice.direction.{name.lower()}")


def piece(kind: str, article: str) -> Message:
    """A piece kind with the article its sentence needs, agreed in the reader's language: ``a``
    ("une triple attaque"), ``the`` ("le pion basique"), or none (``kind``: "triple attaque")."""
    return Message(f"ak.{article}.{kind}")


def _sides(params: dict[str, Any]) -> None:
    for key in _SIDE_PARAMS:
        if isinstance(params.get(key), str) and params[key] in SIDE_MARKS:
            params[key] = Message(f"word.side.{params[key]}")


def worded(event: Event) -> dict[str, Any]:
    """An Arkeon event's parameters in words: sides (``word.side.blue``), pieces with the article
    their sentence takes (``ak.a.basic``, ``ak.the.triple``), directions, why a piece fell, the
    reason a game ended (``ak.reason.<reason>``)."""
    params = dict(event.params)
    kind = params.get("kind")
    if event.kind == "destroyed":
        cause = params.get("cause")
        attackers = Listing(tuple(params.get("by") or ()), conjunction=True)
        params["cause"] = Message(f"ak.cause.{cause}", {"by": attackers})
        params.pop("by", None)
    _sides(params)
    if event.kind == "placed":
        params["piece"] = piece(str(kind), "a")
    elif isinstance(kind, str):
        params["piece"] = piece(kind, "the")
    if event.kind == "swapped":
        params["from"], params["to"] = piece(str(params["from"]), "the"), piece(str(params["to"]), "a")
    if event.kind in ("placed", "swapped"):
        facing = params.get("facing")
        params["facing"] = Message("ak.facing", {"facing": direction(facing)}) if isinstance(facing, str) else ""
    if event.kind == "turned":
        params["from"], params["to"] = direction(str(params["from"])), direction(str(params["to"]))
        params["by"] = Message(f"ak.turner.{params['by']}")
    if isinstance(kind, str):
        params["kind"] = piece(kind, "kind")
    if "kinds" in params:
        params["kinds"] = Listing(tuple(piece(kind, "kind") for kind in params["kinds"]), conjunction=True)
    if event.kind == "game_over":
        params["why"] = Message(f"ak.reason.{params.get('reason')}")  # `reason` stays the engine's word
        if params.get("base"):  # a destroyed base says whose, where and from where (AK-15)
            params["why"] = Message("ak.reason.base_destroyed_at", {
                "loser": params["loser"], "base": params["base"],
                "by": Listing(tuple(params.get("by") or ()), conjunction=True)})
        params["result"] = result_words(params["winner"])
    if event.kind == "started" and isinstance(params.get("players"), dict):
        params["players"] = Listing(tuple(Message("ak.player", {"side": Message(f"word.side.{side}"), "name": name})
                                          for side, name in params["players"].items()), conjunction=True)
    return params


def order_text(order: Order, language: str) -> str:
    """An order as a reader of `language` writes it (``pose basique C3 NO``, ``echange C3 triple
    SE``): the catalog's order words, which the order's parser reads in both languages."""
    words = catalog(language)
    verb, kind, cell = words[f"ak.order.verb.{order.verb}"], words[f"ak.order.kind.{order.kind}"], cell_name(order.cell)
    facing = [words[f"word.choice.direction.{order.facing.name.lower()}"]] if order.facing is not None else []
    return " ".join([verb, kind, cell, *facing] if order.verb == "place" else [verb, cell, kind, *facing])


def picture_labels(language: str) -> dict[str, str]:
    """Every word the board draws, from the catalog of `language` (``ak.picture.*``, the sides, the
    pieces and the reasons a game ends): the render draws nothing else."""
    from renders.arkeon.style import KINDS, LABELS

    words = catalog(language)

    def key(label: str) -> str:
        if label in SIDE_MARKS:
            return f"word.side.{label}"
        if label in KINDS:
            return f"ak.kind.{label}"
        if label.startswith("reason."):
            return f"ak.{label}"
        return f"ak.picture.{label}"

    return {label: words[key(label)] for label in LABELS}


def last_marks(events: Iterable[Event]) -> tuple[list[str], list[Mark]]:
    """What the board draws of a move, from its events: the cell placed or swapped (outlined), and
    the marks of what else it did (renders/hexmarks.py): each push an arrow on the piece it moved (a
    base too), each turn the old attack marks beside the new, each attack a tracer
    from the attacker to the piece it took, each piece removed ghosted where it stood, and the attack
    on a destroyed base (AK-15) a tracer to that base, which the view still holds."""
    from renders.hexmarks import GHOST, PUSH, SHOT, TURN, Mark

    placed: list[str] = []
    marks: list[Mark] = []
    for event in events:
        p = event.params
        if event.kind in ("placed", "swapped"):
            placed.append(p["at"])
        elif event.kind == "pushed":
            marks.append(Mark(PUSH, (p["from"], p["to"])))
        elif event.kind == "turned":
            marks.append(Mark(TURN, (p["at"],), side=p["side"], piece=p["kind"], facings=(p["from"], p["to"])))
        elif event.kind == "destroyed":
            marks += [Mark(SHOT, (attacker, p["at"])) for attacker in p.get("by") or ()]
            marks.append(Mark(GHOST, (p["at"],), side=p["side"], piece=p["kind"]))
        elif event.kind == "game_over" and p.get("base"):  # the base stays drawn: the attack that won is marked
            marks += [Mark(SHOT, (attacker, p["base"])) for attacker in p.get("by") or ()]
    return placed, marks


#: events a caption tells without calling them the last move: the game beginning or ending by itself
_NO_MOVE = ("started", "game_over")
#: events a board's caption leaves out: bookkeeping, not something that happened on the board
_UNTOLD = ("joined", "left", "placement_done", "draw_offered", "draw_declined", "draw_offer_lapsed")


def caption(events: Sequence[Event], language: str) -> list[str]:
    """The move in words under the board, as the channel read it, in one paragraph (wrapped by the
    render, never cut), "Last move:" first unless the game only began or ended (a draw agreed, a
    resignation); empty when nothing happened on the board."""
    from bot.games.picture_text import plain

    said = [plain(translate(f"event.arkeon.{event.kind}", language, worded(event)))
            for event in events if event.kind not in _UNTOLD]
    if not said:
        return []
    text = " ".join(said)
    acted = any(event.kind not in _NO_MOVE for event in events if event.kind not in _UNTOLD)
    return [translate("ak.picture.last", language, {"text": text}) if acted else text]


def _board(rules: GameRules, state: Any, language: str, name: str = "",
           events: Sequence[Event] = ()) -> list[Attachment]:
    """The board in `language`, the move drawn and told from `events` (none: as it stands)."""
    from renders.arkeon.board import render_board  # the renders are imported only when drawn

    title = translate("ak.picture.title_named", language, {"name": name}) if name else \
        translate("ak.picture.title", language)
    placed, marks = last_marks(events)
    return [Attachment("arkeon.png", render_board(rules.view(state), title=title, highlight=placed, marks=marks,
                                                  caption=caption(events, language),
                                                  labels=picture_labels(language)))]


class ArkeonPresenter(Presenter):
    kind = "arkeon"

    def create_document(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"phase": "setup"}

    # the piece and the directions of the examples read the same in English and in French
    examples = {"ak new": {"name": "Duel"}, "ak join": {"name": "Ann"}, "ak challenge": {"level": "easy"},
                "ak place": {"kind": "triple", "cell": "C3", "direction": "E"},
                "ak swap": {"cell": "C3", "kind": "triple", "direction": "SE"},
                "ak order": {"text": "place basic C3 E"}}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        """Sides, pieces and endings in the reader's words ("Bleu pose un basique en C3")."""
        return [Message(f"event.arkeon.{event.kind}", worded(event)) for event in events]

    history_events = True  # a turn reads as what it did, in the reader's words, whatever words it was typed in

    def history_line(self, rules: GameRules, entry: LogRecord, events: Sequence[Event], author: Message) -> Message:
        """A turn as what it did ("**Ann** : Bleu pose un pion basique en C3 (vers NO)"); an undone
        turn as what it would have placed, read from its order text; anything else in the shared
        words, with the computer's side named as it reads."""
        author = author_words(entry, author)
        if entry.kind == "order":
            if events:
                return Message("history.arkeon.turn", {"author": author, "sentences": Listing(
                    tuple(self.describe(rules, events)), separator=" ")})
            try:
                orders = parse_orders(str(entry.payload.get("text", "")))
            except OrderError:
                orders = ()
            if orders:
                return Message("history.arkeon.turn", {"author": author, "sentences": Listing(tuple(
                    Message(f"history.arkeon.plan.{order.verb}", {
                        "piece": piece(order.kind, "a"), "at": cell_name(order.cell),
                        "facing": Message("ak.facing", {"facing": direction(order.facing.name)})
                        if order.facing is not None else ""}) for order in orders), separator=" ")})
        return super().history_line(rules, entry, events, author)

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        return self.seated_sheet(rules, state, actor, language, viewer, {})

    def seated_sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience,
                     seats: Mapping[str, int]) -> Reply:
        """A side's player (as the status names them), its reserve (its basic pieces, the advanced
        ones it may place) and the board as it stands, in the reader's language."""
        view = rules.view(state)
        line = _side_line(view, actor, seated_player(view.get("players", {}), actor, seats) or Message("ak.nobody"))
        return Reply((line,), files=tuple(_board(rules, state, language)))

    def order_suggestions(self, rules: GameRules, orders: Iterable[Any], language: str, typed: str) -> Iterable[str]:
        """What ``/ak order`` suggests: the legal orders in the reader's order words, those starting
        with what was typed (case aside)."""
        wanted = typed.strip().lower()
        return (text for text in (order_text(order, language) for order in orders) if text.lower().startswith(wanted))

    def refusal_params(self, err: OrderError) -> dict[str, Any]:
        """Sides and pieces in a refusal in words, with the article its sentence takes ("le pion
        basique en C3 ne peut pas devenir un pacificateur")."""
        params = {key: value for key, value in err.params.items() if key in _SIDE_PARAMS}
        _sides(params)
        if isinstance(err.params.get("missing"), list):  # the sides nobody plays yet
            params["missing"] = Listing(tuple(Message(f"word.side.{side}") for side in err.params["missing"]),
                                        conjunction=True)
        articles = {"kind": "kind", "from": "the", "to": "a"}
        return {**params, **{key: piece(value, articles[key]) for key, value in err.params.items()
                             if key in articles and isinstance(value, str)}}

    def images_for(self, rules: GameRules, state: Any, events: Sequence[Event], scene: Scene) -> list[Attachment]:
        """The board after a move, the start or the end, in the scene's language, the move outlined."""
        if not any(event.kind in _BOARD_EVENTS for event in events):
            return []
        return _board(rules, state, scene.language, scene.name, events)

    def board_for(self, rules: GameRules, state: Any, scene: Scene, around: str | None = None) -> list[Attachment]:
        """``/game board``: the board with the last move drawn and told, as its post showed it (its alt
        text says it too)."""
        if around is not None:
            return super().board_for(rules, state, scene, around)
        events = last_action(scene, _BOARD_EVENTS)
        return list(self.described(_board(rules, state, scene.language, scene.name, events), rules, state, scene, events))

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        return self.seated_status_lines(rules, state, {})

    def seated_status_lines(self, rules: GameRules, state: Any, seats: Mapping[str, int]) -> list[Message]:
        """Each side's line, its player named as the member a GM seated there (`/gm replace`; a game
        from a running position has no joins), else as they joined, else nobody."""
        view = rules.view(state)
        players = view.get("players", {})
        return [_side_line(view, side, seated_player(players, side, seats) or Message("ak.nobody")) for side in players]


def _side_line(view: Mapping[str, Any], side: str, player: Any) -> Message:
    """A side, its player, what its reserve holds and whether it is to move."""
    reserve = view["reserve"][side]
    return Message("ak.status.side", {
        "mark": SIDE_MARKS.get(side, ""), "side": Message(f"word.side.{side}"), "player": player,
        "basic": Count(int(reserve["basic"]), "ak.count.basic"),
        "advanced": Listing(tuple(piece(kind, "kind") for kind in reserve["advanced"]))
        if reserve["advanced"] else Message("ak.none_advanced"),
        "move": Message("ak.status.to_move") if view.get("to_move") == side else ""})


ARKEON_PRESENTER = register_presenter(ArkeonPresenter())
