"""The words around a Space Chess picture: its caption and map key in the reader's language.

The renders take finished strings (they know no catalog); this module makes them from the scene
(the game's name, the language, what comes next), the public view and the events that led to the
picture, so that a board read days later still says which game, which turn, what just happened,
what comes next and, once it is over, who won.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from bot.games.picture_text import plain
from bot.games.spacechess.words import ending
from bot.i18n import catalog, translate
from bot.service.replies import Message
from bot.service.scene import Scene
from engine.core.protocol import Event
from renders.spacechess.board import LEGEND_LABELS, Caption

#: events that are bookkeeping rather than something that happened on the board, and the game's end,
#: which has a line of its own (`ended`)
_QUIET = ("joined", "left", "equipped", "game_over")


def words(key: str, language: str, **params: Any) -> str:
    return plain(translate(key, language, params))


def picture_labels(language: str) -> Mapping[str, str]:
    """The renders' `labels`: rules identifiers (``label.*``, as on the sheet) and the map key's words.

    Found by reading the whole catalog (~0.5 ms), so made once per language: a catalog only grows
    (games add their words, none is replaced), so its size tells whether the labels are still it."""
    return _labels(language, len(catalog(language)))


@lru_cache(maxsize=8)
def _labels(language: str, size: int) -> Mapping[str, str]:
    words = catalog(language)
    found = {key.removeprefix("label."): text for key, text in words.items() if key.startswith("label.")}
    for word in LEGEND_LABELS:
        if f"game.picture.legend.{word}" in words:
            found[word] = words[f"game.picture.legend.{word}"]
    return MappingProxyType(found)


def happened(events: Sequence[Event], language: str, describe: Callable[[Sequence[Event]], list[Message]]) -> str:
    """What just happened, in a line: the draw's numbers, or the action's messages one after another."""
    for event in events:
        if event.kind == "draw_award":
            numbers = " ".join(str(n) for n in event.params.get("numbers", ()))
            bonus = event.params.get("bonus")
            if bonus is None:
                return words("game.picture.draw", language, numbers=numbers)
            return words("game.picture.draw_bonus", language, numbers=numbers, bonus=bonus)
    shown = [e for e in events if e.kind not in _QUIET]
    text = " ".join(plain(translate(m.key, language, m.params)) for m in describe(shown))
    return words("game.picture.last", language, text=text) if text else ""


def gm_ended(scene: Scene, view: Mapping[str, Any]) -> bool:
    """Whether a game master ended the game before its rules did (`/gm end`)."""
    return scene.status == "finished" and view.get("status") != "finished"


def banner(view: Mapping[str, Any], language: str, scene: Scene | None = None) -> tuple[str, int | None]:
    """The finished game's banner and its team: "Team 1 wins", a draw (no team), a game master's end
    or a pause (no team either: grey)."""
    if scene is not None and gm_ended(scene, view):
        return words("game.picture.gm_ended", language), None
    if scene is not None and scene.status == "paused":
        return words("game.picture.paused", language), None
    if view.get("status") != "finished":
        return "", None
    winner = view.get("winner")
    if winner in (1, 2):
        return words("game.picture.wins", language, team=winner), int(winner)
    return words("game.picture.draw_game", language), None


def ended(scene: Scene, view: Mapping[str, Any], events: Sequence[Event]) -> str:
    """How a finished game ended, in a line under its banner: by a game master (at which turn, nobody
    winning), by the time limit (after which draw, on which HP totals: SC-31) or by its rules (why:
    a general down, no soldier left, a back row reached); "" for a game under way. The reason is the
    game-over event's, among `events` or else in the history."""
    language = scene.language
    if gm_ended(scene, view):
        return words("game.picture.end.gm", language, turn=view.get("turn", 0))
    if view.get("status") != "finished":
        return ""
    over = next((e for e in reversed(events) if e.kind == "game_over"), None)
    if over is None and scene.history is not None:
        over = next((e for step in reversed(scene.history()) for e in reversed(step.events) if e.kind == "game_over"),
                    None)
    if over is None:
        return ""
    totals = over.params.get("totals") or {}
    if totals:
        return words("game.picture.end.time_limit", language, turn=view.get("turn", 0), one=totals.get("1"),
                     two=totals.get("2"))
    reasons = ending(over.params.get("winner"), over.params.get("reasons") or ())["reasons"]
    return words("game.picture.end.rules", language, reasons=reasons)


def caption(scene: Scene, view: Mapping[str, Any], events: Sequence[Event],
            describe: Callable[[Sequence[Event]], list[Message]], *, subject: str = "", note: str = "",
            with_next: bool = True) -> Caption:
    """The caption of a board: title (the game, and the picture's `subject` if any), turn, what
    happened (`events`, else the history's last eventful step), what comes next, the banner."""
    language = scene.language
    title = words("game.picture.title", language, name=scene.name)
    if subject:
        title = f"{title} · {subject}"
    lines = [words("game.picture.turn", language, turn=view.get("turn", 0))]
    if not events and scene.history is not None:
        events = next((step.events for step in reversed(scene.history()) if step.events), ())
    last = happened(events, language, describe)
    if last:
        lines.append(last)
    if with_next and scene.next and view.get("status") == "running":
        lines.append(scene.next[:1].upper() + scene.next[1:])
    if end := ended(scene, view, events):
        lines.append(end)
    text, team = banner(view, language, scene)
    return Caption(title=title, lines=tuple(lines), banner=text, banner_team=team, note=note)
