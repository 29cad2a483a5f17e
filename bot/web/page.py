"""What a game's web page shows: exactly what a spectator on Discord may read, in one language.

The board is `/game board`'s picture with its alt text, the status `/game status`'s lines, the
history `/game history`'s pages as a member who neither plays nor GMs the game reads them (`Reader()`:
a sealed order shows who gave it and when, never what it says, until its reveal). Everything goes
through the same presenters and the same secrecy path as the Discord side, so the page can show
nothing a spectator could not already read in the channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from bot.i18n import LANGUAGES, translate
from bot.service.core import GameService
from bot.service.secrecy import Reader
from bot.service.status import status_messages
from bot.service.views import history_lines
from bot.store.repo import GameRecord
from bot.web.pictures import STORIES, Pictures, stories_of
from bot.web.text import html_message

DEFAULT_LANGUAGE = "fr"  # French is the bot's first language
#: the highest history page a link may ask for (as `/game history`'s option)
MAX_PAGE = 10_000


def accepted_language(header: str | None) -> str:
    """The reader's language from the browser's Accept-Language (``en-GB,en;q=0.9,fr;q=0.5``): the
    one of ours it prefers most, else French."""
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        language = tag.strip().lower().split("-")[0]
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        quality -= position * 1e-6  # equal weights: the first written wins
        if language in LANGUAGES and quality > best_q:
            best, best_q = language, quality
    return best


@dataclass(frozen=True)
class GamePage:
    game_id: int
    version: int
    name: str
    kind: str
    language: str
    status: tuple[Markup, ...]
    history: tuple[Markup, ...]
    page: int
    pages: int
    board_alt: str
    #: what else the game draws of its story (``recap``: charts, ``replay``: an animation), as links
    stories: tuple[str, ...] = ()


def game_page(svc: GameService, game: GameRecord, language: str, page: int, pictures: Pictures) -> GamePage:
    """The page of `game` for a spectator reading `language`, its history at `page` (clamped), its
    board's alt text from `pictures`."""
    now = svc.clock()
    status = tuple(html_message(m, language, now) for m in status_messages(svc, game, now))
    lines, page, pages = history_lines(svc, game, Reader(), page)
    return GamePage(game.id, game.version, game.name, game.kind, language, status,
                    tuple(html_message(m, language, now) for m in lines), page, pages, board_alt(pictures, svc, game, language),
                    stories_of(game.kind))


def board_alt(pictures: Pictures, svc: GameService, game: GameRecord, language: str) -> str:
    """The board's alt text: the picture's own, as the browser will get it (`Pictures` keeps it, by
    game, version and language, for the image request that follows), so the page and Discord never
    describe a board two ways."""
    picture = pictures.of(svc, game, language)
    return picture.alt if picture is not None else game.name


def words(language: str) -> dict[str, str]:
    """The page's own words (``web.*``) in `language`, for the template."""
    keys = ("board", "status", "history", "history.none", "newer", "older", "pages", "language", "live", "footer",
            "story", "recap", "replay")
    return {key.replace(".", "_"): translate(f"web.{key}", language) for key in keys}


_TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                         autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)


def _href(path: str, **params: object) -> str:
    query = "&".join(f"{name}={value}" for name, value in params.items() if value is not None)
    return f"{path}?{query}" if query else path


def page_html(svc: GameService, game: GameRecord, language: str, page: int, base: str, chosen: bool = False,
              pictures: Pictures | None = None) -> str:
    """The whole page of `game` (`game_page`) as HTML, its links under `base` (``/g/<token>``); a
    language the reader `chosen` sticks to the history's links."""
    shown = game_page(svc, game, language, page, pictures if pictures is not None else Pictures())
    other = next(code for code in LANGUAGES if code != language)
    kept = language if chosen else None
    return _TEMPLATES.get_template("game_page.html").render(
        p=shown, w=words(language),
        page_words=translate("web.page", language, {"page": shown.page, "pages": shown.pages}),
        board_url=_href(f"{base}/board.png", lang=language, v=shown.version),
        story_urls={what: _href(f"{base}/{what}.{STORIES[what]}", lang=language, v=shown.version)
                    for what in shown.stories},
        events_url=f"{base}/events",
        newer_url=_href(base, page=shown.page - 1, lang=kept) if shown.page > 1 else None,
        older_url=_href(base, page=shown.page + 1, lang=kept) if shown.page < shown.pages else None,
        other_language=other, other_language_name=translate(f"word.choice.language.{other}", other),
        other_url=_href(base, page=shown.page if shown.page > 1 else None, lang=other),
    )
