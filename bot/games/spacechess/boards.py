"""Space Chess pictures as attachments: the captioned board, close-ups, the move preview, the replay.

The presenter (`bot.games.spacechess`) words events; this module turns a state, the events that
led to it and a `Scene` into images, choosing the overlay, the caption and the map key's words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.spacechess.pictures import caption, picture_labels, words
from bot.service.progress import Progress
from bot.service.replies import Attachment, Message
from bot.service.scene import Scene
from engine.core.errors import OrderError
from engine.core.protocol import Event, GameRules
from engine.core.squaregrid import format_cell
from engine.spacechess import legal
from engine.spacechess.movement import move_cost
from engine.spacechess.previews import line_of_fire_between
from engine.spacechess.state import GameState
from renders.gif import bounded_gif
from renders.hexmarks import GHOST, JUMP, MOVE, PUSH, SHOT, Mark
from renders.spacechess.board import Caption, Effect, Overlay, board_image, render_board
from renders.spacechess.closeup import PREVIEW_CELLS, PREVIEW_WIDTH, render_closeup

Describe = Callable[[Sequence[Event]], list[Message]]

#: Discord's attachment limit for a server without boosts: the replay must fit in it
ATTACHMENT_LIMIT = 8 * 1024 * 1024
#: the events after which the replay shows the board: each draw and each action on the board
REPLAY_EVENTS = ("draw_award", "started", "moved", "shot", "grenade", "airstrike", "power", "ability",
                 "friendship", "game_over", "gm_set")


#: what a power moves its target with: intimidation pushes it, teleport jumps it (SC-26)
_POWER_MARKS = {"intimidate": PUSH, "teleport": JUMP}


def overlay_for(events: Sequence[Event]) -> Overlay:
    """What lies under the last action's marks: the last move's path (the arrow says from → to,
    the path which cells it crossed), a grenade square or an air strike's cells. Shots are marks."""
    for ev in reversed(events):
        p = ev.params
        if ev.kind == "moved":
            return Overlay("move", path=(p["from"], *p["path"]))
        if ev.kind == "grenade":
            return Overlay("grenade", area=tuple(p["area"]))
        if ev.kind == "airstrike":
            return Overlay("airstrike", area=tuple(p["area"]))
    return Overlay("none")


def marks_for(events: Sequence[Event], view: Mapping[str, Any], language: str) -> tuple[tuple[Mark, ...],
                                                                                          tuple[Effect, ...]]:
    """The last action drawn from its events: each move an arrow from → to, each power that moves
    someone (intimidation, teleport) a dashed arrow on its target, each shot a tracer to its target,
    each death a ghost where it fell; the HP and AP it changed as words on the cells (a heal's
    "+5 HP", a batch's damage summed per victim, a pickup's gain)."""
    characters = view.get("characters", {})
    marks: list[Mark] = []
    healed: dict[str, int] = {}
    hurt: dict[str, int] = {}
    gained: dict[str, tuple[int, str]] = {}
    fell: dict[str, str] = {}
    for ev in events:
        p = ev.params
        if ev.kind == "moved":
            marks.append(Mark(MOVE, (p["from"], p["to"])))
        elif ev.kind == "shot":
            marks.append(Mark(SHOT, (p["from"], p["to"])))
        elif ev.kind == "power" and p.get("power") in _POWER_MARKS and p.get("from") and p.get("to"):
            marks.append(Mark(_POWER_MARKS[p["power"]], (p["from"], p["to"])))
        elif ev.kind == "power" and p.get("power") == "heal":
            healed[p["target"]] = healed.get(p["target"], 0) + int(p.get("healed", 0))
        elif ev.kind == "damaged" and p.get("amount"):
            hurt[p["id"]] = hurt.get(p["id"], 0) + int(p["amount"])
        elif ev.kind == "died":
            fell[p["id"]] = p["at"]
            marks.append(Mark(GHOST, (p["at"],)))
        elif ev.kind == "pickup_taken" and p.get("gained") and (p.get("pickup") or {}).get("kind") in ("ap", "hp"):
            gained[p["id"]] = (int(p["gained"]), p["pickup"]["kind"])

    def cell_of(who: str) -> str | None:
        return fell.get(who) or (characters.get(who) or {}).get("at")

    effects = [Effect(at, words("game.picture.mark.heal", language, n=n)) for who, n in healed.items()
               if (at := cell_of(who))]
    effects += [Effect(at, words("game.picture.mark.damage", language, n=n)) for who, n in hurt.items()
                if (at := cell_of(who))]
    effects += [Effect(at, words(f"game.picture.mark.gain_{kind}", language, n=n))
                for who, (n, kind) in gained.items() if (at := cell_of(who))]
    return tuple(marks), tuple(effects)


def character_on_board(state: GameState, name: str) -> Any:
    """A living character on the board, by name (any case or width, as `GameState.find`)."""
    character = state.find(name)
    if character is None:
        raise OrderError("unknown_character", name=name)
    if character.at is None:
        raise OrderError("dead", name=character.id)
    return character


def board(rules: GameRules, state: GameState, scene: Scene, describe: Describe,
          events: Sequence[Event] = ()) -> Attachment:
    """The whole board with its caption: after `events` (their overlay and marks, told in the caption)."""
    view = rules.view(state)
    marks, effects = marks_for(events, view, scene.language)
    png = render_board(view, state.game_map, overlay=overlay_for(events), marks=marks, effects=effects,
                       caption=caption(scene, view, events, describe), labels=picture_labels(scene.language))
    return Attachment("board.png", png)


def closeup(rules: GameRules, state: GameState, scene: Scene, describe: Describe, around: str) -> Attachment:
    """`/game board around:` — the cells around a character, drawn large."""
    who = character_on_board(state, around)
    view = rules.view(state)
    subject = words("game.picture.around", scene.language, name=who.id)
    png = render_closeup(view, state.game_map, [format_cell(who.at)],
                         caption=caption(scene, view, (), describe, subject=subject),
                         labels=picture_labels(scene.language))
    return Attachment("closeup.png", png)


def reach_board(rules: GameRules, state: GameState, scene: Scene, describe: Describe, name: str) -> Attachment:
    """Where a character can go and at what cost; when it cannot afford a single step, the picture
    says so (and what the cheapest step costs) rather than showing an empty overlay."""
    mover = state.find(name)
    if mover is None or mover.at is None:
        raise OrderError("unknown_character", name=name)
    costs = legal.reach(state, mover.id)
    note = ""
    if not costs:
        step = move_cost(mover, state.rules, 1)
        key = "game.picture.cheapest_step" if mover.ap < step else "game.picture.no_step"
        note = words(key, scene.language, name=mover.id, cost=step, ap=mover.ap)
    view = rules.view(state)
    subject = words("game.picture.reach", scene.language, name=mover.id)
    png = render_board(view, state.game_map, reach=costs,
                       caption=caption(scene, view, (), describe, subject=subject, note=note),
                       labels=picture_labels(scene.language))
    return Attachment("reach.png", png)


def line_board(rules: GameRules, state: GameState, scene: Scene, describe: Describe,
               shooter: str, target: str) -> tuple[Attachment, dict[str, Any]]:
    """The line of fire between two characters (SC-21/SC-22), bright up to what blocks it and
    dimmed beyond; with the engine's report of it."""
    first, second = character_on_board(state, shooter), character_on_board(state, target)
    found = line_of_fire_between(state, first.id, second.id)
    overlay = Overlay("shot", line=(format_cell(first.at), format_cell(second.at)), blocked_at=found["blocked_at"])
    view = rules.view(state)
    subject = words("game.picture.line", scene.language, shooter=first.id, target=second.id)
    png = render_board(view, state.game_map, overlay=overlay,
                       caption=caption(scene, view, (), describe, subject=subject),
                       labels=picture_labels(scene.language))
    return Attachment("line.png", png), {"shooter": first.id, "target": second.id, "blocked_at": found["blocked_at"]}


def move_preview(rules: GameRules, state: GameState, scene: Scene, path: Sequence[str], cost: int) -> Attachment:
    """A move's path before it is confirmed, on a small close-up of the cells it crosses."""
    view = rules.view(state)
    title = words("game.picture.preview", scene.language, to=path[-1], cost=cost)
    png = render_closeup(view, state.game_map, list(path), overlay=Overlay("move", path=tuple(path)),
                         caption=Caption(title=title), labels=picture_labels(scene.language), least=PREVIEW_CELLS,
                         width=PREVIEW_WIDTH)
    return Attachment("move-preview.png", png)


def replay_gif(rules: GameRules, scene: Scene, describe: Describe, limit: int = ATTACHMENT_LIMIT,
               progress: Progress | None = None) -> tuple[Attachment, Mapping[str, Any]] | None:
    """The game so far as a GIF: the board after each draw and each action, captioned; None before
    anything happened on the board. Returns the attachment and what it holds (frames, scale).
    Drawing the frames is the long part of a long game: `progress` hears each one (done, total)."""
    history = scene.history() if scene.history is not None else ()
    steps = [step for step in history if any(e.kind in REPLAY_EVENTS for e in step.events)]
    if not steps:
        return None
    labels = picture_labels(scene.language)
    frames = []
    for done, step in enumerate(steps, start=1):
        view = rules.view(step.state)
        marks, effects = marks_for(step.events, view, scene.language)
        image, _ = board_image(view, step.state.game_map, overlay=overlay_for(step.events), marks=marks, effects=effects,
                               caption=caption(scene, view, step.events, describe, with_next=False), labels=labels)
        frames.append(image)
        if progress is not None:
            progress(done, len(steps))
    data, kept, scale = bounded_gif(frames, limit)
    return Attachment("replay.gif", data), {"steps": len(steps), "frames": kept, "scale": round(scale * 100)}
