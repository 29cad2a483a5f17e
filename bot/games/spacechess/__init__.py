"""Space Chess in the bot: new-game documents, joining, event messages and board images."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.games import Presenter, register_presenter
from bot.games.last_action import last_action
from bot.games.spacechess import boards, orderwords, words
from bot.games.spacechess.boards import overlay_for
from bot.games.spacechess.recap import recap_reply
from bot.games.spacechess.words import SC_EXAMPLES, label, labelled
from bot.i18n import Listing, catalog, translate
from bot.service.commands import Option
from bot.service.replies import Attachment, Embed, Message, Reply, Visibility
from engine.core.errors import OrderError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules
from engine.spacechess import legal
from engine.spacechess.combat import shot_limit
from engine.spacechess.powers import logistics_helper
from engine.spacechess.state import Character, GameState
from renders.spacechess.board import render_board
from renders.spacechess.sheet import render_sheet

if TYPE_CHECKING:
    from bot.service.progress import Progress
    from bot.service.scene import Scene
    from bot.store.repo import LogRecord

#: events after which the board is worth posting, and the overlay each draws
_OVERLAY_EVENTS = ("moved", "shot", "grenade", "airstrike", "power", "deployed", "started", "draw_award", "pickup_placed")


def board_png(rules: GameRules, state: GameState, events: Sequence[Event] = (), reach: Mapping[str, int] | None = None,
              title: str = "") -> bytes:
    """The bare board (a title, no caption): for callers that have no scene, such as tests."""
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


#: the board's team colours (team 1 blue circles, team 2 orange squares), in text and on sheet cards
TEAM_MARKS = {1: "🔵", 2: "🟧"}
TEAM_COLOURS = {1: 0x0072B2, 2: 0xE69F00}  # Okabe-Ito blue and orange
SHEET_FIELDS = ("team", "role", "hp", "max_hp", "ap", "at", "weapon", "armour", "items", "ability", "cards")


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
        """What the start waits for, per character; the order of a batch a refusal names, in the
        reader's words (the log, hence the engine, has it in the canonical language)."""
        params = _missing(err.params) if err.code == "not_ready" else {}
        field = str(err.params.get("field", "")).rpartition(".")[2].split("[")[0]
        if err.code == "bad_loadout" and _known(f"sc.field.{field}"):  # "items[1]": your items
            params["field"] = Message(f"sc.field.{field}")
        if isinstance(err.params.get("drop"), str):  # what a move would leave behind, as its label
            params["drop"] = label(err.params["drop"])
        if isinstance(err.params.get("batch_text"), str):
            params["batch_text"] = orderwords.canonical_message(err.params["batch_text"])
        return params

    def read_orders(self, rules: GameRules, text: str) -> str:
        return orderwords.read(text)

    def order_suggestions(self, rules: GameRules, orders: Iterable[Any], language: str, typed: str) -> Iterable[str]:
        return orderwords.suggestions(orders, language, typed)

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        messages: list[Message] = []
        for ev in events:
            kind, params = words.event_params(ev)
            messages.append(Message(f"event.spacechess.{kind}", params))
            if ev.kind == "draw_award":
                messages.extend(award_lines(ev.params.get("breakdown", ())))
            if ev.kind in ("power", "airstrike") and ev.params.get("helper"):  # SC-26: why it cost less
                messages.append(Message("sc.logistics.discount", {
                    "id": ev.params["id"], "helper": ev.params["helper"], "cost": ev.params.get("cost"),
                    "full": ev.params["full_cost"], "less": int(ev.params["full_cost"]) - int(ev.params.get("cost", 0))}))
        return messages

    # -- the log and the end in words (bot.games.spacechess.words)
    history_events = True  # "Ann moved L1 → L2 (3 AP)": the move's cells and cost are in its events
    examples = SC_EXAMPLES

    def history_line(self, rules: GameRules, entry: LogRecord, events: Sequence[Event], author: Message) -> Message:
        """An order as what it did (its events, in the past); a draw with who gained what; a loadout
        as gear; a correction as its values; anything else as every game words it."""
        return words.history_line(rules, entry, events, author, lambda evs: self.describe(rules, evs)) or \
            super().history_line(rules, entry, events, author)

    def side_name(self, rules: GameRules, side: str | int) -> Any:
        return words.team(side)

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        if not any(ev.kind in _OVERLAY_EVENTS for ev in events):
            return []
        return [Attachment("board.png", board_png(rules, state, events))]

    def board(self, rules: GameRules, state: Any) -> list[Attachment]:
        return [Attachment("board.png", board_png(rules, state))]

    # -- pictures with their context (bot.games.spacechess.boards) ----------------------------------
    def images_for(self, rules: GameRules, state: Any, events: Sequence[Event], scene: Scene) -> list[Attachment]:
        """The captioned board after an action or a draw; when the game ends, its recap too."""
        if not any(ev.kind in _OVERLAY_EVENTS for ev in events):
            return []
        files = [boards.board(rules, state, scene, self._describer(rules), events)]
        if any(ev.kind == "game_over" for ev in events) and scene.history is not None:
            files += self.recap(rules, scene).files
        return files

    def board_for(self, rules: GameRules, state: Any, scene: Scene, around: str | None = None) -> list[Attachment]:
        if around is not None:
            picture = boards.closeup(rules, state, scene, self._describer(rules), around)
            shows = Message("sc.alt.closeup", {"id": boards.character_on_board(state, around).id})
            return list(self.shown_as((picture,), rules, state, scene, shows))
        events = last_action(scene, _OVERLAY_EVENTS)
        return [boards.board(rules, state, scene, self._describer(rules), events)]

    def reach_board(self, rules: GameRules, state: Any, scene: Scene, name: str) -> list[Attachment]:
        """`/sc reach`: the board with where `name` can go and at what cost."""
        picture = boards.reach_board(rules, state, scene, self._describer(rules), name)
        return list(self.shown_as((picture,), rules, state, scene, Message("sc.alt.reach", {"id": name})))

    def line_board(self, rules: GameRules, state: Any, scene: Scene, shooter: str, target: str) -> Reply:
        """`/sc line` (SC-21/SC-22): the exact line, whatever the range or AP, and what blocks it."""
        picture, found = boards.line_board(rules, state, scene, self._describer(rules), shooter, target)
        key = "game.board.line_blocked" if found["blocked_at"] else "game.board.line_clear"
        shows = Message("sc.alt.line_blocked" if found["blocked_at"] else "sc.alt.line_clear", found)
        return Reply((Message(key, found),), files=self.shown_as((picture,), rules, state, scene, shows))

    def recap(self, rules: GameRules, scene: Scene) -> Reply:
        reply = recap_reply(rules, scene)
        shows = next((f.description for f in reply.files if f.description is not None), Message("alt.shows.recap"))
        return replace(reply, files=self._shown(reply.files, rules, scene, shows))

    def replay(self, rules: GameRules, scene: Scene, progress: Progress | None = None) -> Reply:
        made = boards.replay_gif(rules, scene, self._describer(rules), progress=progress)
        if made is None:
            return Reply((Message("game.replay.empty", {"name": scene.name}),), visibility=Visibility.PRIVATE)
        picture, held = made
        return Reply((Message("game.replay.done", {"name": scene.name, **held}),),
                     files=self._shown((picture,), rules, scene, Message("alt.shows.replay")))

    def _shown(self, files: Sequence[Attachment], rules: GameRules, scene: Scene,
               shows: Message) -> tuple[Attachment, ...]:
        """Charts or an animation of the history, their alt text saying so, then the game where it stands."""
        steps = scene.history() if scene.history is not None else ()
        return self.shown_as(files, rules, steps[-1].state if steps else None, scene, shows)

    def shown_as(self, files: Sequence[Attachment], rules: GameRules, state: Any, scene: Scene,
                 shows: Message) -> tuple[Attachment, ...]:
        """`files` with the alt text of a picture that is no plain board (a close-up, a reach, a line of
        fire, a move's path, charts): what it shows first (`shows`), then the game where it stands."""
        description = self.image_description(rules, state, scene, shows=shows)
        return tuple(replace(f, description=description) for f in files)

    def _describer(self, rules: GameRules) -> Any:
        return lambda events: self.describe(rules, events)

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        """The sheet's values in a line, and its card (the drawn sheet) framed in the team's colour."""
        data = rules.view(state)["characters"][actor]
        labels = {k.removeprefix("label."): v for k, v in catalog(language).items() if k.startswith("label.")}
        turn = [(translate(key, language, {}), translate(value.key, language, value.params))
                 for key, value in sheet_turn_rows(state, actor)]
        card = Attachment(f"sheet-{_file_safe(actor)}.png",
                          render_sheet(rules.view(state), actor, labels=labels, turn=turn))
        shown = labelled({k: data.get(k) for k in SHEET_FIELDS})
        if data.get("armour"):  # "medium armour", as the status and the loadout say it
            shown["armour"] = Message("sc.gear.armour", {"armour": shown["armour"]})
        line = Message("game.sheet", {"id": actor, **shown})
        card = replace(card, description=Message("alt.sheet", {"id": actor, "game": self.game_word(rules), "line": line}))
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
                    "weapon": label(data.get("weapon")),
                    "armour": Message("sc.gear.armour", {"armour": label(data["armour"])}) if data.get("armour") else None,
                    "items": Listing(tuple(label(str(item)) for item in data.get("items") or ())),
                }))
        return lines


#: abilities active from their use until the next draw, which their user skips (SC-25)
ACTIVE_ABILITIES = ("vehicle", "rage")


def sheet_turn_rows(state: GameState, actor: str) -> list[tuple[str, Message]]:
    """The sheet's rows for this turn, as (catalog key of the field, its value): the grade, the
    shots and the grenade left (SC-20, SC-23), the ability active until the next draw (SC-25)."""
    character = state.find(actor)
    if character is None or not character.alive:
        return []
    rows: list[tuple[str, Message]] = []
    if character.grade:
        rows.append(("sc.sheet.grade", Message(f"label.{character.grade}")))
    if character.weapon:
        limit = shot_limit(character, state)
        rows.append(("sc.sheet.shots_left", Message("sc.sheet.left", {"left": max(0, limit - character.shots_this_turn),
                                                                      "of": limit})))
    if "grenades" in character.items:
        limit = state.rules.item("grenades", "per_turn")
        rows.append(("sc.sheet.grenades_left",
                     Message("sc.sheet.left", {"left": max(0, limit - character.grenades_this_turn), "of": limit})))
    if character.ability_used in ACTIVE_ABILITIES:
        rows.append(("sc.sheet.active", Message("sc.sheet.active_value",
                                                {"ability": Message(f"label.{character.ability_used}")})))
    if (logistics := _logistics_row(state, character)) is not None:
        rows.append(("sc.sheet.logistics", logistics))
    return rows


def _logistics_row(state: GameState, character: Character) -> Message | None:
    """SC-26's discount where a player meets it: a general's sheet says whether a teammate holding the
    logistics tool stands next to them (so the powers cost less) or who could; the holder's sheet
    says what standing next to the general does. None for everyone else."""
    less = state.rules.item("logistics", "discount")
    if character.is_general:
        helper = logistics_helper(state, character)
        if helper is not None:
            return Message("sc.sheet.logistics_now", {"less": less, "helper": helper.id})
        holders = sorted(c.id for c in state.living() if c.team == character.team and c.has("logistics"))
        return Message("sc.sheet.logistics_near", {"less": less, "helper": holders[0]}) if holders else None
    if character.has("logistics") and state.general(character.team) is not None:
        return Message("sc.sheet.logistics_holder", {"less": less})
    return None


def _file_safe(name: str) -> str:
    """A name as an attachment file name: Discord rewrites spaces and other characters in file names,
    which would break the embed's ``attachment://`` link to the image."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name)


def reachable(state: GameState, character_id: str) -> dict[str, int]:
    """Every cell the character can move to with its AP now, and the AP it costs: the engine's legal
    moves, so the overlay never offers a cell the move would refuse. A name that is nobody on the
    board is an error here, not an empty overlay, so the asker learns the name is wrong."""
    mover = state.find(character_id)
    if mover is None or mover.at is None:
        raise OrderError("unknown_character", name=character_id)
    return legal.reach(state, mover.id)


SPACECHESS_PRESENTER = register_presenter(SpaceChessPresenter())
