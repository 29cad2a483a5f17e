"""The pictures a game's page shows or links to, drawn by the game's presenter as Discord gets them:
the board (`/game board`'s), and where the game draws them, the recap's charts (`/game recap`) and
the replay's animation (`/game replay`) — all public, as their commands' are.

Each is drawn when a browser first asks for it, then kept by game, version and language (the many
readers of one game cost one drawing per change), within a memory budget: a replay weighs up to
8 MiB.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.games import Presenter, is_picture, presenter_for
from bot.i18n import alt_text
from bot.service.core import GameService
from bot.service.replies import Attachment
from bot.service.scene import scene_of
from bot.store.repo import GameRecord
from engine import registry

#: the story pictures a page links to, with their file type
STORIES = {"recap": "png", "replay": "gif"}
CONTENT_TYPES = {"png": "image/png", "gif": "image/gif"}


@dataclass(frozen=True)
class Picture:
    data: bytes
    content_type: str
    alt: str


def stories_of(kind: str) -> tuple[str, ...]:
    """The story pictures the game's presenter draws (a presenter without its own draws none)."""
    presenter = type(presenter_for(kind))
    return tuple(what for what in STORIES if getattr(presenter, what) is not getattr(Presenter, what))


def _board(svc: GameService, game: GameRecord, language: str) -> tuple[Attachment, ...]:
    """`/game board`'s picture (the public one, no close-up), described as the channel's is."""
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    presenter = presenter_for(game.kind)
    scene = scene_of(svc, game, language)
    return presenter.described(presenter.board_for(rules, state, scene), rules, state, scene)


def _recap(svc: GameService, game: GameRecord, language: str) -> tuple[Attachment, ...]:
    return presenter_for(game.kind).recap(registry.get(game.kind), scene_of(svc, game, language)).files


def _replay(svc: GameService, game: GameRecord, language: str) -> tuple[Attachment, ...]:
    return presenter_for(game.kind).replay(registry.get(game.kind), scene_of(svc, game, language)).files


_DRAWERS: dict[str, tuple[str, Callable[[GameService, GameRecord, str], tuple[Attachment, ...]]]] = {
    "board": ("png", _board), "recap": ("png", _recap), "replay": ("gif", _replay)}


def draw(svc: GameService, game: GameRecord, language: str, what: str) -> Picture | None:
    """The picture `what` of `game` for a reader of `language`; None where the game draws none."""
    suffix, drawer = _DRAWERS[what]
    picture = next((f for f in drawer(svc, game, language) if is_picture(f) and f.filename.endswith("." + suffix)),
                   None)
    if picture is None:
        return None
    return Picture(picture.data, CONTENT_TYPES[suffix],
                   alt_text(picture.description, language) if picture.description else game.name)


class Pictures:
    """The pictures drawn lately, by game, version, language and kind, within `max_bytes`."""

    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        self._max = max_bytes
        self._lock = threading.Lock()
        self._drawn: OrderedDict[tuple[int, int, str, str], Picture | None] = OrderedDict()
        self._bytes = 0

    def of(self, svc: GameService, game: GameRecord, language: str, what: str = "board") -> Picture | None:
        key = (game.id, game.version, language, what)
        with self._lock:
            if key in self._drawn:
                self._drawn.move_to_end(key)
                return self._drawn[key]
        picture = draw(svc, game, language, what)
        with self._lock:
            if key not in self._drawn:
                self._drawn[key] = picture
                self._bytes += len(picture.data) if picture else 0
            while self._bytes > self._max and len(self._drawn) > 1:
                _, dropped = self._drawn.popitem(last=False)
                self._bytes -= len(dropped.data) if dropped else 0
        return picture
