"""Space Chess player commands: loadout, deployment and every order as its own slash command.

Each order command only builds the order text of the game's language and goes through the same
path as ``/sc order`` (so the log holds the text a person could have typed); moves worth 3 AP or
more are previewed with a confirmation button first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.games.spacechess import SPACECHESS_PRESENTER, labelled
from bot.games.spacechess.boards import move_preview
from bot.i18n import Listing
from bot.service.commands import SETUP_MAX_BYTES, Option, choice_named, command, completer
from bot.service.confirm import confirmation, confirmed
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.orders import require_running
from bot.service.replies import Attachment, Button, Choice, Message, Reply, Select, ServiceError, Visibility
from bot.service.scene import scene_of
from bot.store.repo import GameRecord
from engine import registry
from engine.core.names import NAME_MAX
from engine.spacechess import legal
from engine.spacechess.ruleset import (
    ABILITIES,
    ARMOURS,
    GRADES,
    ITEMS,
    PICKUP_ONLY_ITEMS,
    PICKUP_ONLY_WEAPONS,
    POWERS,
    WEAPONS,
)

KIND = SPACECHESS_PRESENTER.kind
CONFIRM_COST = 3  # a move costing this much AP or more asks for a confirmation
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
LOADOUT_WEAPONS = tuple(w for w in WEAPONS if w != "chainsword")
PICKUP_DROPS = tuple(i for i in ITEMS if i != "grade") + LOADOUT_WEAPONS


def sc_game(svc: GameService, ctx: Context) -> GameRecord:
    """This channel's game, which must be Space Chess for a /sc command."""
    game = svc.channel_game(ctx)
    if game.kind != KIND:
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    return game


def seat(svc: GameService, ctx: Context) -> tuple[GameRecord, str]:
    """This channel's Space Chess game and the caller's character."""
    game = sc_game(svc, ctx)
    return game, svc.actor_of(ctx, game)


def play(svc: GameService, ctx: Context, text: str) -> Reply:
    game, actor = seat(svc, ctx)
    applied = svc.apply_input(ctx, game, "order", actor, {"text": text}, check=require_running)
    return svc.describe(applied, ctx)


def setup_input(svc: GameService, ctx: Context, kind: str, payload: dict[str, Any]) -> Reply:
    game, actor = seat(svc, ctx)
    applied = svc.apply_input(ctx, game, kind, actor, {"id": actor, **payload})
    return svc.describe(applied, ctx)


@command(
    "sc equip",
    Option("card1", "integer", required=True, min_value=1, max_value=7),
    Option("card2", "integer", required=True, min_value=1, max_value=7),
    Option("weapon", choices=LOADOUT_WEAPONS),
    Option("armour", choices=ARMOURS),
    Option("item1", choices=ITEMS),
    Option("item2", choices=ITEMS),
    Option("ability", choices=ABILITIES),
    Option("grade", choices=GRADES),
)
def sc_equip(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """SC-6/7: a soldier chooses everything, a general only the two cards; editable until the start."""
    payload: dict[str, Any] = {"cards": [opts["card1"], opts["card2"]]}
    for key in ("weapon", "armour", "ability", "grade"):
        if key in opts:
            payload[key] = opts[key]
    items = [opts[k] for k in ("item1", "item2") if k in opts]
    if items:
        payload["items"] = items
    return setup_input(svc, ctx, "equip", payload)


@command("sc deploy", Option("cell", required=True, max_length=8, holds="cell"))
def sc_deploy(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    return setup_input(svc, ctx, "deploy", {"at": opts["cell"]})


@command("sc move", Option("to", required=True, max_length=8, autocomplete=True, holds="cell"),
         Option("drop", choices=PICKUP_DROPS),
         Option("confirm", "integer"))
def sc_move(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A move; `drop` names the item (or weapon) left behind to take a pickup at the end (SC-33)."""
    game, actor = seat(svc, ctx)
    text = f"move {opts['to']}" + (f" drop {opts['drop']}" if "drop" in opts else "")
    if "confirm" in opts:
        if opts["confirm"] != game.version:
            raise ServiceError("error.stale_confirmation")
        return play(svc, ctx, text)
    require_running(game)
    rules = registry.get(KIND)
    preview = rules.apply_input(rules.from_json(game.state), "order", actor, {"text": text})
    moved = next(e for e in preview.events if e.kind == "moved")
    if moved.params["cost"] < CONFIRM_COST:
        return play(svc, ctx, text)
    button = Button(Message("button.confirm_move", {"cost": moved.params["cost"]}), "sc move",
                    {**opts, "confirm": game.version})
    message = Message("sc.move.preview", {"path": moved.params["path"], "cost": moved.params["cost"],
                                          "to": moved.params["to"]})
    path = (moved.params["from"], *moved.params["path"])
    state, scene = rules.from_json(game.state), scene_of(svc, game, svc.language(ctx))
    picture = move_preview(rules, state, scene, path, moved.params["cost"])
    shows = Message("sc.alt.move_preview", {"id": actor, "to": moved.params["to"], "path": moved.params["path"],
                                            "cost": moved.params["cost"]})
    return Reply((message,), visibility=Visibility.PRIVATE, buttons=(button,),
                 files=SPACECHESS_PRESENTER.shown_as((picture,), rules, state, scene, shows))


@command("sc shoot", Option("target", required=True, autocomplete=True, max_length=NAME_MAX, holds="name"))
def sc_shoot(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    return play(svc, ctx, f"shoot {opts['target']}")


@completer("sc shoot", "target")
def complete_targets(svc: GameService, ctx: Context, current: str) -> list[str]:
    """Characters the caller can shoot right now (the engine's legal shots), so the menu offers
    nothing the order would refuse."""
    game, actor = seat(svc, ctx)
    return legal.shot_targets(registry.get(KIND).from_json(game.state), actor)


@completer("sc move", "to")
def complete_moves(svc: GameService, ctx: Context, current: str) -> list[str]:
    """The cells the caller can move to now (the engine's legal moves), cheapest first."""
    game, actor = seat(svc, ctx)
    costs = legal.reach(registry.get(KIND).from_json(game.state), actor)
    return sorted(costs, key=lambda cell: (costs[cell], cell))


@command("sc grenade", Option("cell", required=True, max_length=8, holds="cell"))
def sc_grenade(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    return play(svc, ctx, f"grenade {opts['cell']}")


@command("sc ability", Option("ability", required=True, choices=ABILITIES),
         Option("target", max_length=NAME_MAX, holds="name"))
def sc_ability(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    if opts["ability"] == "friendship":
        if "target" not in opts:
            raise ServiceError("error.missing_option", option="target")
        return play(svc, ctx, f"friendship {opts['target']}")
    return play(svc, ctx, opts["ability"])


#: what each general power needs besides its name (SC-26)
POWER_NEEDS = {
    "airstrike": ("cell", "direction"),
    "encourage": (),
    "hack": (),
    "intimidate": ("target", "cell"),
    "heal": ("target",),
    "teleport": ("target", "cell"),
}


@command(
    "sc power",
    Option("power", required=True, choices=POWERS),
    Option("target", max_length=NAME_MAX, holds="name"),
    Option("cell", max_length=8, holds="cell"),
    Option("direction", choices=DIRECTIONS),
)
def sc_power(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    needs = POWER_NEEDS[opts["power"]]
    missing = [name for name in needs if name not in opts]
    if missing:
        raise ServiceError("error.missing_option", option=missing)
    return play(svc, ctx, " ".join([opts["power"], *(str(opts[name]) for name in needs)]))


# -- the loadout form: select menus instead of typed options ------------------------------------
#: the grade item is chosen with its rank in the items menu
GRADE_CHOICES = tuple(f"grade-{grade}" for grade in GRADES)
ITEM_CHOICES = tuple(i for i in ITEMS if i != "grade" and i not in PICKUP_ONLY_ITEMS) + GRADE_CHOICES
SOLDIER_PARTS = ("weapon", "armour", "items", "ability", "cards")


@command(
    "sc loadout",
    Option("weapon", choices=LOADOUT_WEAPONS),
    Option("armour", choices=ARMOURS),
    Option("items", max_length=60),
    Option("ability", choices=ABILITIES),
    Option("cards", max_length=10),
)
def sc_loadout(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """SC-6/7 with select menus: each pick redraws the form (carrying the picks so far in its menus);
    the last missing part equips the character."""
    game, actor = seat(svc, ctx)
    role = registry.get(KIND).view(registry.get(KIND).from_json(game.state))["characters"][actor]["role"]
    parts = ("cards",) if role == "general" else SOLDIER_PARTS
    cards = _numbers(opts["cards"]) if opts.get("cards") else None  # each pick is checked when made
    items, grade = _items(opts["items"]) if opts.get("items") else ([], None)
    if any(not opts.get(part) for part in parts):
        return _loadout_form(opts, parts, actor)
    payload: dict[str, Any] = {"cards": cards}
    if role != "general":
        payload.update(weapon=opts["weapon"], armour=opts["armour"], ability=opts["ability"], items=items)
        if grade is not None:
            payload["grade"] = grade
    reply = setup_input(svc, ctx, "equip", payload)
    return Reply(reply.messages, files=reply.files, update=True)


def _numbers(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ServiceError("error.option_not_integer", option="cards", value=text) from None


def _items(text: str) -> tuple[list[str], str | None]:
    """Items picked in the menu: ``grade-colonel`` is the grade item at that rank. Typed values are held
    to the menu's own choices (the form carries them in its menus' custom ids), named as any choice
    is (``viseur``, ``lunette de visée``); a refusal lists them in the reader's words."""
    items, grades = [], []
    for typed in (part.strip() for part in text.split(",") if part.strip()):
        value = choice_named(ITEM_CHOICES, typed)
        if value is None:
            choices = Listing(tuple(_choice_label("items", choice) for choice in ITEM_CHOICES))
            raise ServiceError("error.option_bad_choice", option="items", value=typed, choices=choices)
        if value.startswith("grade-"):
            grades.append(value.removeprefix("grade-"))
            value = "grade"
        items.append(value)
    if len(grades) > 1:
        raise ServiceError("error.one_grade")
    return items, grades[0] if grades else None


def _loadout_form(opts: dict[str, Any], parts: tuple[str, ...], actor: str) -> Reply:
    menus = {
        "weapon": (tuple(w for w in LOADOUT_WEAPONS if w not in PICKUP_ONLY_WEAPONS), 1),
        "armour": (ARMOURS, 1),
        "items": (ITEM_CHOICES, 2),
        "ability": (ABILITIES, 1),
        "cards": (tuple(str(k) for k in range(1, 8)), 2),
    }
    selects = []
    for part in parts:
        values, count = menus[part]
        choices = tuple(Choice(_choice_label(part, v), v) for v in values)
        selects.append(Select(Message(f"sc.loadout.pick.{part}"), "sc loadout", part, choices,
                              options={k: v for k, v in opts.items() if k != part}, min_values=count,
                              max_values=count))
    picked = {part: opts.get(part) for part in parts}
    if picked.get("items"):  # the menu's picks so far, one label each
        picked["items"] = [part.strip() for part in picked["items"].split(",") if part.strip()]
    if picked.get("cards"):
        picked["cards"] = Listing(tuple(part.strip() for part in picked["cards"].split(",") if part.strip()),
                                  conjunction=True)
    chosen = labelled(picked)
    form = "sc.loadout.form" if parts == SOLDIER_PARTS else "sc.loadout.form.general"  # a general picks cards only
    return Reply((Message(form, {"id": actor, **chosen}),), selects=tuple(selects),
                 visibility=Visibility.PRIVATE, update=True)


def _choice_label(part: str, value: str) -> Message:
    if part == "cards":
        return Message("sc.loadout.card", {"card": value, "low": 7 * int(value) - 6, "high": 7 * int(value)})
    if value.startswith("grade-"):
        return Message("sc.loadout.grade", {"grade": Message(f"label.{value.removeprefix('grade-')}")})
    return Message(f"label.{value}")


@command(
    "sc set",
    Option("character", required=True, max_length=NAME_MAX, holds="name"),
    Option("reason", required=True, max_length=200),
    # no bounds of their own: the rules' (0 to the character's max_hp, 0 to the game's AP cap) are
    # the only ones, so a refusal always names the real limit
    Option("hp", "integer"),
    Option("ap", "integer"),
    Option("cell", max_length=8, holds="cell"),
    Option("confirm", "integer"),
    gm_only=True,
)
def sc_set(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A GM correction (HP, AP, position), validated by the rules and logged with its reason. One
    that kills a character or ends the game (a general at 0 HP, one moved to sudden death) asks
    first, as `/gm end` does: the rules play it on a copy to tell."""
    game = sc_game(svc, ctx)
    changes = {key: opts[key] for key in ("hp", "ap") if key in opts}
    if "cell" in opts:
        changes["at"] = opts["cell"]
    if not changes:
        raise ServiceError("error.missing_any_option", options=Listing(("hp", "ap", "cell")))
    payload = {"id": opts["character"], **changes, "reason": opts["reason"]}
    rules = registry.get(game.kind)
    preview = rules.apply_input(rules.from_json(game.state), "gm_set", None, payload)
    dies = [str(e.params["id"]) for e in preview.events if e.kind == "died"]
    ends = rules.result(preview.state).finished
    if (dies or ends) and not confirmed(game, opts):
        shown = {k: v for k, v in opts.items() if k != "confirm"}
        key = "fatal_set_ends" if ends else "fatal_set"
        return confirmation(game, key, "sc set", shown, name=opts["character"], dead=Listing(tuple(dies), conjunction=True))
    return svc.describe(svc.apply_input(ctx, game, "gm_set", None, payload, stale="error.stale_confirmation"
                                        if "confirm" in opts else None), ctx)


@command(
    "sc pickup",
    Option("cell", required=True, max_length=8, holds="cell"),
    Option("kind", required=True, choices=("item", "weapon", "ap", "hp")),
    Option("name", max_length=32),
    Option("amount", "integer", min_value=1, max_value=99),
    gm_only=True,
)
def sc_pickup(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = sc_game(svc, ctx)
    payload: dict[str, Any] = {"at": opts["cell"], "kind": opts["kind"]}
    if opts["kind"] in ("item", "weapon"):
        if "name" not in opts:
            raise ServiceError("error.missing_option", option="name")
        # as the guides write it ("heavy bolter", "jet pack") or as the rules do (heavy_bolter)
        payload[opts["kind"]] = choice_named((*ITEMS, *WEAPONS), opts["name"]) or opts["name"].lower()
    else:
        if "amount" not in opts:
            raise ServiceError("error.missing_option", option="amount")
        payload["amount"] = opts["amount"]
    return svc.describe(svc.apply_input(ctx, game, "pickup", None, payload), ctx)


@command("sc map", Option("file", "attachment", required=True, max_bytes=SETUP_MAX_BYTES), gm_only=True)
def sc_map(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Load another map (SC-34 text file) before the start; everything done so far is replayed on it,
    so a deployment that no longer fits is refused with its reason and nothing changes."""
    game = sc_game(svc, ctx)
    if game.status != "setup":
        raise ServiceError("error.setup_only")
    file: Attachment = opts["file"]
    try:
        text = file.data.decode("utf-8")
    except UnicodeDecodeError:
        raise ServiceError("error.bad_map_file", file=file.filename) from None
    setup = {**game.setup, "map": text}
    rules = registry.get(game.kind)
    state = svc.replay(replace(game, setup=setup), svc.store.log(game.id))
    svc.apply_input(ctx, game, "map", None, {"file": file.filename}, state=lambda _g: state, setup=setup,
                    stale="error.conflict")
    view = rules.view(state)
    picture = SPACECHESS_PRESENTER.board_for(rules, state, scene_of(svc, game, svc.language(ctx)))
    return Reply((Message("gm.map_loaded", {"file": file.filename, "width": view.get("width"),
                                            "height": view.get("height")}),), files=tuple(picture))


@command("sc reach", Option("character", required=True, max_length=NAME_MAX, holds="name"))
def sc_reach(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The board with the cells a character can move to now and their AP cost."""
    game = sc_game(svc, ctx)
    rules = registry.get(KIND)
    state = rules.from_json(game.state)
    scene = scene_of(svc, game, svc.channel_language(ctx))
    files = SPACECHESS_PRESENTER.reach_board(rules, state, scene, opts["character"])
    return Reply((Message("game.board.reach", {"name": game.name, "turn": state.turn,
                                               "character": opts["character"]}),), files=tuple(files))


@command("sc line", Option("shooter", required=True, max_length=NAME_MAX, holds="name"),
         Option("target", required=True, max_length=NAME_MAX, holds="name"))
def sc_line(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The exact line of fire between two characters and what blocks it (SC-21/SC-22)."""
    game = sc_game(svc, ctx)
    rules = registry.get(KIND)
    state = rules.from_json(game.state)
    scene = scene_of(svc, game, svc.channel_language(ctx))
    report = SPACECHESS_PRESENTER.line_board(rules, state, scene, opts["shooter"], opts["target"])
    return replace(report, messages=(Message("game.board", {"name": game.name, "turn": state.turn}),
                                     *report.messages))
