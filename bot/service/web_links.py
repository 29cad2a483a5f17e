"""`/gm web`: the secret link of the game's read-only web page (`bot.web`), for a GM to share.

`/gm web` gives the game's link (made the first time), ``action:new`` replaces it (whoever had the
old one loses the page), ``action:off`` closes the page. The link's address starts with what the
process serving the pages says (`serve_links`, called when the companion starts): a bot without
the companion says so instead of handing out a link nothing answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply, ServiceError, Visibility
from bot.store.web_links import issue_link, link_of, revoke_link

ACTIONS = ("show", "new", "off")


@dataclass
class _Companion:
    #: what every link starts with (``https://games.example.org``); None: no page is served here
    base_url: str | None = None


_COMPANION = _Companion()


def serve_links(base_url: str | None) -> None:
    """The web companion of this process serves pages at `base_url` (None: it stopped)."""
    _COMPANION.base_url = base_url.rstrip("/") if base_url else None


def page_url(base_url: str, token: str) -> str:
    return f"{base_url}/g/{token}"


@command("gm web", Option("action", choices=ACTIONS), gm_only=True)
def gm_web(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The game's web link, privately: the GM chooses whom to give it."""
    game = svc.channel_game(ctx)
    action = opts.get("action", "show")
    if action == "off":  # closing a page is safe with the companion off too
        key = "gm.web.off" if revoke_link(svc.store, game.id) else "gm.web.none"
        return Reply((Message(key, {"name": game.name}),), visibility=Visibility.PRIVATE)
    base = _COMPANION.base_url
    if base is None:
        raise ServiceError("error.web_disabled")
    token = link_of(svc.store, game.id)
    renewed = action == "new" and token is not None
    if token is None or renewed:
        token = issue_link(svc.store, game.id, ctx.user_id)
    key = "gm.web.renewed" if renewed else "gm.web.link"
    return Reply((Message(key, {"name": game.name, "url": page_url(base, token)}),), visibility=Visibility.PRIVATE)
