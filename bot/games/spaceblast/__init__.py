"""SpaceBlast in the bot: its new-game options, how a turn reads, the arena and the ship cards.

Orders are secret until the turn resolves (the engine seals them), so everything here draws from
public events and the public view; a ship's own orders and powers reach only its owner, through
`view_for` in its sheet and the private part of its order replies.

In the two-ships game (SB-15) a member's seat is a player commanding two ships: the engine's actor
is the player, so its sheet shows both ships, its status line its total, and its private replies
both ships' orders.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.games import Presenter, register_presenter
from bot.games.last_action import last_action
from bot.games.spaceblast import words
from bot.i18n import Count, Listing, translate
from bot.service.commands import Option
from bot.service.game_over import result_words
from bot.service.replies import Attachment, Button, Message, Reply
from engine.core.errors import OrderError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules

if TYPE_CHECKING:
    from bot.service.scene import Scene
    from bot.store.repo import LogRecord

#: events after which the arena is worth posting: a resolved turn, the start
_BOARD_EVENTS = ("revealed", "started")
#: not worded in the channel: that a ship gave orders (the status message shows it), and the moves
#: of ships and missiles (the turn's animation and the board show them), and the animation's frames
_QUIET_EVENTS = ("submitted", "frames", "moved", "missile_moved")
#: `new` options that switch a variant on, and the variant's name
VARIANT_OPTIONS = {"asteroids": "asteroids", "powers": "powers", "two_ships": "twoships"}
#: the resolution's phases the animation captions (``sb.picture.phase.<frame>``, SB-7..SB-12)
PHASES = ("reveal", "rotation", "mines", "movement", "missiles", "firing", "damage", "end")
#: the log entries whose payload is an order text, worded in the reader's order language
_ORDER_ENTRIES = ("history.spaceblast.order", "history.spaceblast.time_jump")


class SpaceBlastPresenter(Presenter):
    kind = "spaceblast"
    create_options = (
        Option("radius", "integer", min_value=4, max_value=9),
        Option("asteroids", "boolean"),
        Option("powers", "boolean"),
        Option("bigbang", choices=("off", "1", "3")),
        Option("two_ships", "boolean"),
    )

    def create_document(self, options: Mapping[str, Any]) -> dict[str, Any]:
        variants = [variant for option, variant in VARIANT_OPTIONS.items() if options.get(option)]
        bigbang = options.get("bigbang", "off")
        if bigbang != "off":
            variants.append("bigbang3" if bigbang == "3" else "bigbang")
        return {"radius": options.get("radius", 6), "variants": variants}

    # orders, turns and levels in the reader's words (``gauche missile``); a name both languages write
    examples = {"sb new": {"name": "Nova", "radius": "6"}, "sb join": {"name": "Ann"},
                "sb order": {"text": Message("sb.example.order")},
                "sb orders": {"turn": Message("word.choice.turn.left"), "missile": "1"},
                "sb timejump": {"text": Message("sb.example.timejump")},
                "sb challenge": {"level": Message("word.choice.level.easy")}}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        return [self._worded(event) for event in events if event.kind not in _QUIET_EVENTS]

    @staticmethod
    def _worded(event: Event) -> Message:
        """Each event in the reader's words (`words.event_words`: directions, tokens, powers, causes);
        the end's ranking as "Ann 7, Bob 3" and a drawn game as such, not as the engine's data."""
        if event.kind == "joined" and "ships" in event.params:  # a player with two ships (SB-15)
            return Message("event.spaceblast.joined.fleet", dict(event.params))
        if event.kind != "game_over":
            return Message(f"event.spaceblast.{event.kind}", words.event_words(event.kind, event.params))
        ranking = Listing(tuple(Message("sb.rank", {"who": line.get("ship") or line.get("player"),
                                                    "score": line.get("score")})
                                for line in event.params.get("ranking") or ()))
        winner = event.params.get("winner")
        return Message("event.spaceblast.game_over", {**event.params, "ranking": ranking,
                                                      "result": result_words(None if winner == "draw" else winner)})

    def order_buttons(self, rules: GameRules, state: Any, actor: str) -> tuple[Button, ...]:
        """Orders stay changeable until the deadline; "ready" says they are final (SB-19)."""
        return (Button(Message("button.sb_ready"), "sb ready"),)

    def order_suggestions(self, rules: GameRules, orders: Iterable[Any], language: str, typed: str) -> Iterable[str]:
        """What ``/sb order`` suggests: the legal orders in the reader's order words (``gauche
        missile``), those starting with what was typed (case aside)."""
        wanted = typed.strip().lower()
        return (text for text in (words.order_text(order, language) for order in orders)
                if text.lower().startswith(wanted))

    def refusal_params(self, err: OrderError) -> dict[str, Any]:
        """A time jump's refusal names the order it had and the powers played in the reader's words."""
        worded: dict[str, Any] = {}
        if "was" in err.params:
            worded["was"] = words.order_words(err.params["was"])
        if isinstance(err.params.get("powers"), list):
            worded["powers"] = words.powers(err.params["powers"])
        return worded

    def history_line(self, rules: GameRules, entry: LogRecord, events: Sequence[Event], author: Message) -> Message:
        """An order as the reader writes one (``gauche missile``), whatever language it was typed in."""
        said = super().history_line(rules, entry, events, author)
        if said.key in _ORDER_ENTRIES and "text" in said.params:
            return Message(said.key, {**said.params, "text": words.order_words(said.params["text"])})
        return said

    def images_for(self, rules: GameRules, state: Any, events: Sequence[Event], scene: Scene) -> list[Attachment]:
        """The arena after the start or a turn, and the turn's animation, in the scene's language."""
        if not any(event.kind in _BOARD_EVENTS for event in events):
            return []
        from renders.spaceblast.animation import render_turn_gif  # the renders are imported only when drawn

        view = rules.view(state)
        files = self._still(rules, state, scene, events)
        frames = next((event.params["views"] for event in events if event.kind == "frames"), None)
        if frames:  # one frame per phase, captioned with it (SB-7..SB-12), so none is merged away
            stories = _stories(events, {frame.get("frame"): frame for frame in frames}, scene.language)
            captioned = [{**frame, "caption": _caption(frame.get("frame"), scene.language),
                          **stories.get(frame.get("frame"), {})} for frame in frames]
            summary = _summary(events, scene.language)
            captioned[-1]["story"] = [*captioned[-1].get("story", ()), *summary]
            told = "; ".join(entry["text"] for entry in (*stories["reveal"]["story"], *summary))
            files.append(Attachment("resolution.gif", render_turn_gif(
                captioned, view["radius"], title=_title(scene.language, scene.name),
                labels=words.picture_labels(scene.language)),
                self.image_description(rules, state, scene, events, shows=Message("sb.alt.turn", {"story": told}))))
        return files

    def board_for(self, rules: GameRules, state: Any, scene: Scene, around: str | None = None) -> list[Attachment]:
        """``/game board``: the arena with the last turn drawn and told, as its post showed it (the
        history's last resolved turn: the orders given since are sealed, never drawn)."""
        if around is not None:
            return super().board_for(rules, state, scene, around)
        events = last_action(scene, _BOARD_EVENTS)
        return list(self.described(self._still(rules, state, scene, events), rules, state, scene, events))

    def _still(self, rules: GameRules, state: Any, scene: Scene, events: Sequence[Event]) -> list[Attachment]:
        """The still arena (``arena.png``), the turn `events` resolved drawn on it and told under
        it, its alt text telling the same; the arena as it stands where they resolved none."""
        marks, caption = _last_turn(events, scene.language)
        files = _arena(rules.view(state), scene.language, scene.name, marks, caption)
        if caption:
            files = [replace(file, description=self.image_description(
                rules, state, scene, events, shows=Message("sb.alt.board", {"story": caption[0]}))) for file in files]
        return files

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        """The card of each ship the actor commands (one, or a player's two, SB-15); powers and this
        turn's orders only for their owner (`view_for`)."""
        view = rules.view_for(state, viewer)
        ships = fleet_of(view, actor)
        lines, cards = [], []
        if ships != [actor]:
            total = view.get("players", {}).get(actor, {}).get("score", 0)
            lines.append(Message("sb.sheet.player", {"id": actor, "ships": ships, "score": total}))
        from renders.spaceblast.sheet import render_sheet  # the renders are imported only when drawn

        for ident in ships:
            ship, own = view["ships"][ident], view.get("fleet", {}).get(ident, {})
            line = Message("sb.sheet", {"id": ident, "hits": ship["hits"], "score": ship["score"],
                                        "turns": ship["turns"], "brakes": ship["brakes"],
                                        "missiles": ship["missiles"], "mines": ship["mines"]})
            cards.append(Attachment(f"ship-{ident}.png", render_sheet(
                view, ident, labels=words.picture_labels(language), powers=own.get("powers", ())),
                Message("alt.sheet", {"id": ident, "game": self.game_word(rules), "line": line})))
            lines.append(line)
            if "orders" in own:
                lines.append(Message("sb.sheet.orders", {"orders": words.order_words(own["orders"] or "none")}))
            if "jump" in own:  # a time jump's holder sees what everyone plays, and may change its own
                lines.append(Message("sb.sheet.jump", {"orders": words.orders_by_ship(own["jump"])}))
        return Reply(tuple(lines), files=tuple(cards))

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        """Each ship: score, hull, tokens left, and whether its orders are final this turn."""
        view = rules.view(state)
        waiting = set(rules.waiting_on(state))
        lines = [Message("sb.status.player", {"id": player, "score": entry["score"], "ships": entry["ships"]})
                 for player, entry in view.get("players", {}).items()]
        for ident, ship in view["ships"].items():
            if not ship["alive"]:
                key = "sb.status.disqualified" if ship.get("disqualified") else "sb.status.gone"
                lines.append(Message(key, {"id": ident, "score": ship["score"]}))
                continue
            lines.append(Message("sb.status.ship", {
                "id": ident, "score": ship["score"], "hits": ship["hits"], "at": ship["at"],
                "facing": words.direction(ship["facing"]),
                "turns": ship["turns"], "brakes": ship["brakes"], "missiles": ship["missiles"],
                "mines": ship["mines"],
                "ready": Message("sb.status.waiting" if ship.get("player", ident) in waiting else "sb.status.ready"),
            }))
        return lines


def fleet_of(view: Mapping[str, Any], actor: str) -> list[str]:
    """The ships `actor` commands in a public view: a player's (SB-15), or the ship itself."""
    return [ident for ident, ship in view["ships"].items() if ship.get("player") == actor] or [actor]


def _title(language: str, name: str = "") -> str:
    return translate("sb.picture.title_named", language, {"name": name}) if name else \
        translate("sb.picture.title", language)


def _caption(frame: Any, language: str) -> str:
    return translate(f"sb.picture.phase.{frame}", language) if frame in PHASES else ""


#: the phase each event kind belongs to, where the kind alone says it (resolution.PHASES' order)
_PHASE_OF = {"revealed": "reveal", "power_played": "reveal", "recovered": "reveal", "rotated": "rotation",
             "mine_laid": "mines", "slipped": "movement", "slip_blocked": "movement", "collision": "movement",
             "ram": "movement", "moved": "movement", "mine_hit": "movement", "asteroid_hit": "movement",
             "eliminated": "movement", "disqualified": "movement", "missile_moved": "missiles",
             "missile_removed": "missiles", "fired": "firing", "repaired": "damage"}
#: the phase of a missile's hit, by the `phase` it names
_HIT_PHASE = {"movement": "movement", "flight": "missiles", "firing": "firing"}
#: the events a phase's frame tells in words (``sb.picture.story.<kind>``), with the cell each marks
_TOLD = {"rotated": None, "mine_laid": "at", "collision": "cell", "ram": "cell", "mine_hit": "at",
         "missile_hit": "at", "shielded": None, "asteroid_hit": "at", "eliminated": "from", "disqualified": None,
         "fired": None, "destroyed": "at", "repaired": None, "missile_removed": "at"}


def _phase_of(event: Event, current: str) -> str:
    """The phase `event` happened in: the events come out in the phases' order (resolution.py), so
    a kind that several phases emit (a hit, a score, a mine armed) belongs to the phase going on."""
    named = _PHASE_OF.get(event.kind)
    if event.kind == "missile_hit":
        named = _HIT_PHASE.get(str(event.params.get("phase")))
    elif event.kind == "destroyed":
        named = "movement" if event.params.get("cause") == "asteroid" else "damage"
    return named if named is not None and PHASES.index(named) > PHASES.index(current) else current


def _stories(events: Sequence[Event], frames: Mapping[Any, Mapping[str, Any]],
             language: str) -> dict[str, dict[str, Any]]:
    """What each frame of the animation tells, by frame name: its ``story`` (the reveal lists each
    ship's orders after its glyph, SB-20; the other phases what they did: rotations, mines laid,
    collisions and rams naming both ships, hits, shields, an asteroid crash apart from leaving the
    arena) and the cells it ``highlight``s where that happened: a collision or a ram flashes the
    cell fought over and every ship in it, where the phase's view (`frames`, by name) has them; a
    missile its path. Its ``marks`` draw the same (`_marks`)."""
    told: dict[str, dict[str, Any]] = {"reveal": {"story": [{"ship": ship, "text": translate(
        "sb.picture.story.orders", language, {"ship": ship, "orders": words.tokens(list(given))})}
        for ship, given in _revealed(events).items()], "highlight": [], "marks": []}}
    phase = "reveal"
    for event in events:
        phase = _phase_of(event, phase)
        frame = told.setdefault(phase, {"story": [], "highlight": [], "marks": []})
        drawn = _marks(event, frames.get(phase, {}).get("ships", {}), frame["marks"])
        frame["marks"].extend(drawn)
        # the ship turned or shielded is found by its tinted cell too, as every other mark's
        frame["highlight"].extend(mark["at"] for mark in drawn if mark["kind"] in ("turn", "shield"))
        if event.kind == "missile_moved":  # a missile's trail, to where it hit or stopped
            frame["highlight"].extend(event.params.get("path") or ())
        crashed = event.kind == "destroyed" and event.params.get("cause") == "asteroid"  # its crash said it
        if event.kind not in _TOLD or crashed:
            continue
        params = words.event_words(event.kind, event.params)
        if event.kind == "collision":
            params["ships"] = Listing(tuple(event.params.get("ships") or ()), conjunction=True)
        frame["story"].append({"ship": event.params.get("ship"),
                               "text": translate(f"sb.picture.story.{event.kind}", language, params)})
        cell = event.params.get(_TOLD[event.kind] or "")
        if cell:
            frame["highlight"].append(cell)
        if event.kind in ("collision", "ram"):
            ships = frames.get(phase, {}).get("ships", {})
            involved = [*(event.params.get("ships") or ()), event.params.get("ship"), event.params.get("target")]
            frame["highlight"].extend(ships[ident]["at"] for ident in involved if ships.get(ident, {}).get("at"))
    return told


def _marks(event: Event, ships: Mapping[str, Any], made: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What `event` draws on its phase's frame (renders/spaceblast/marks.py), placed with the
    phase's view of the ships (`ships`: where each stands after the phase, and as it faces, gone
    ones too); a missile's hit or removal ends the flight just drawn (`made`, the frame's marks
    so far: the engine says a flight's end right after it)."""
    p = event.params

    def cell(ident: Any) -> Any:
        return ships.get(ident, {}).get("at")

    def ghost(kind: str, at: Any) -> dict[str, Any]:
        return {"kind": kind, "at": at, "ship": p.get("ship"), "facing": ships.get(p.get("ship"), {}).get("facing")}

    flight = made[-1] if made and made[-1]["kind"] == "missile" and made[-1]["end"] == "flying" else None
    if event.kind in ("moved", "slipped") and p.get("to"):  # off the arena: its `left_arena` mark's arrow
        step = next((mark for mark in made if mark["kind"] == "move" and mark["ship"] == p["ship"]), None)
        if step is not None and step["path"][-1] == p["from"]:  # its next step (turbo, after a slip)
            step["path"].append(p["to"])
            return []
        return [{"kind": "move", "ship": p["ship"], "path": [p["from"], p["to"]]}]
    if event.kind == "rotated" and cell(p["ship"]):
        return [{"kind": "turn", "at": cell(p["ship"]), "from": p["from"], "to": p["to"], "steps": p["steps"],
                 "ship": p["ship"]}]
    if event.kind == "mine_laid":
        return [{"kind": "mine_laid", "at": p["at"]}]
    if event.kind in ("collision", "ram"):
        involved = p.get("ships") or (p.get("ship"), p.get("target"))
        return [{"kind": "clash", "at": p["cell"], "ships": [cell(ident) for ident in involved if cell(ident)]}]
    if event.kind == "missile_moved":
        return [{"kind": "missile", "path": [p["from"], *(p.get("path") or ())], "facing": p["facing"],
                 "end": "flying"}]
    if event.kind in ("missile_hit", "missile_removed") and flight is not None:
        flight["end"] = "hit" if event.kind == "missile_hit" else str(p.get("reason"))
        return []
    if event.kind in ("missile_hit", "mine_hit"):  # a ship flew into it (SB-9): it blew up there
        return [{"kind": "burst", "at": p["at"]}]
    if event.kind == "shielded" and cell(p["ship"]):
        return [{"kind": "shield", "at": cell(p["ship"])}]
    if event.kind == "eliminated":
        return [ghost("left_arena", p["from"])]
    if event.kind == "asteroid_hit":
        return [ghost("crash", p["at"])]
    if event.kind == "destroyed" and p.get("cause") != "asteroid":  # a crash drew it already
        return [ghost("burst", p["at"])]
    return []


def _summary(events: Sequence[Event], language: str) -> list[dict[str, Any]]:
    """The turn summed up on its last frame: each ship's hits taken and points scored this turn
    (SB-12: every hit counts and scores, beyond the hull too), in the revealed order."""
    hits = Counter(event.params["ship"] for event in events if event.kind == "damaged")
    points: Counter[str] = Counter()
    for event in events:
        if event.kind == "scored":
            points[event.params["ship"]] += int(event.params.get("points") or 0)
    return [{"ship": ship, "text": translate("sb.picture.story.summary", language, {
        "ship": ship, "hits": Count(hits[ship], "sb.count.hits_taken"),
        "points": Count(points[ship], "sb.count.points_scored")})} for ship in _revealed(events)]


def _revealed(events: Sequence[Event]) -> dict[str, list[str]]:
    """The turn's orders, ``{ship: [tokens]}``, in seat order: every ship that was in play this turn."""
    found = next((event.params for event in events if event.kind == "revealed"), {})
    return dict(found.get("tokens") or {})


def _last_turn(events: Sequence[Event], language: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The turn `events` resolved, for the still arena: the marks of its phases (`_marks`: moves,
    rotations, mines laid, collisions and rams, missiles, explosions, shields, ships leaving and
    ghosts), a rotation's arc round the ship where the turn left it (the rotation phase comes
    first: its frame has the ship where it stood before it moved, the still board where it ended);
    and the caption saying them, phase by phase, each ship's move as the cells it went through
    ("Last turn: Ann moves G5 → G6. …"). The revealed orders are public (the GIF lists them); none
    of a turn not resolved is here. Nothing without a resolved turn."""
    views = next((event.params["views"] for event in events if event.kind == "frames"), None)
    if not views:
        return [], []
    told = _stories(events, {frame.get("frame"): frame for frame in views}, language)
    ended = views[-1].get("ships", {})
    marks, said = [], []
    for phase, frame in told.items():
        if phase == "reveal":
            continue
        marks.extend({**mark, "at": ended.get(mark["ship"], {}).get("at") or mark["at"]} if mark["kind"] == "turn"
                     else mark for mark in frame["marks"])
        said.extend(translate("sb.picture.story.moved", language, {"ship": mark["ship"], "path": " → ".join(mark["path"])})
                    for mark in frame["marks"] if mark["kind"] == "move")
        said.extend(entry["text"] for entry in frame["story"])
    if not said:
        return marks, []
    return marks, [translate("sb.picture.last", language, {"text": " ".join(f"{text}." for text in said)})]


def _arena(view: Mapping[str, Any], language: str, name: str = "", marks: Sequence[Mapping[str, Any]] = (),
           caption: Sequence[str] = ()) -> list[Attachment]:
    """The arena as a reader of `language` reads it, every word drawn from its catalog; `marks`
    and `caption` the last turn (`_last_turn`)."""
    from renders.spaceblast.board import render_board  # the renders are imported only when drawn

    return [Attachment("arena.png", render_board(view, view["radius"], title=_title(language, name),
                                                 labels=words.picture_labels(language), marks=marks,
                                                 told=caption))]


SPACEBLAST_PRESENTER = register_presenter(SpaceBlastPresenter())
