"""The web companion's routes, and the security around every answer.

Read-only: GET (and HEAD) on four kinds of path, anything else refused. ``/g/<token>`` is a game's
page, ``/g/<token>/board.png`` its board, ``/g/<token>/events`` its event stream (Server-Sent
Events: the game's version at once, then at each change), ``/static/…`` the page's style and
script. A token that opens no page, and any other path, get a plain 404; a parameter that is not
one the path takes, or not a value it takes, a plain 400; nothing a request sends reaches the
database but the token's lookup. Every answer carries a strict Content-Security-Policy (the page's
own style, script and images only, never framed), ``nosniff`` and no referrer; each client address
has its rate limit (429 past it).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from aiohttp import web

from bot.i18n import LANGUAGES
from bot.service.core import GameService
from bot.store.repo import GameRecord
from bot.store.web_links import TOKEN_PATTERN, game_of_token
from bot.web.limits import RateLimit
from bot.web.live import ChangeHub, PostgresListener
from bot.web.page import MAX_PAGE, accepted_language, page_html
from bot.web.pictures import STORIES, Pictures, stories_of

log = logging.getLogger("spacechess.web")

HERE = Path(__file__).parent
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
#: seconds between two keep-alive comments of an idle event stream (each also re-checks the link)
HEARTBEAT_SECONDS = 15.0

SERVICE = web.AppKey("service", GameService)
LIMIT = web.AppKey("limit", RateLimit)
PICTURES = web.AppKey("pictures", Pictures)
HUB = web.AppKey("hub", ChangeHub)
HEARTBEAT = web.AppKey("heartbeat", float)
DRAWING = web.AppKey("drawing", ThreadPoolExecutor)
#: threads drawing pictures at once (each drawing holds one for its whole length)
DRAWING_THREADS = 2
_DIGITS = re.compile(r"[0-9]{1,9}")


def plain(status: int) -> web.Response:
    """A bare answer for a refusal: its status and reason, no trace, no page."""
    return web.Response(status=status, text=f"{status} {_REASONS.get(status, 'Error')}\n", content_type="text/plain")


_REASONS = {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 429: "Too Many Requests",
            500: "Internal Server Error"}


@web.middleware
async def guarded(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                  ) -> web.StreamResponse:
    """The rate limit, the methods, and every failure as a plain status (never a trace)."""
    if not request.app[LIMIT].allow(request.remote):
        return plain(429)
    if request.method not in ("GET", "HEAD"):
        refused = plain(405)
        refused.headers["Allow"] = "GET, HEAD"
        return refused
    try:
        return await handler(request)
    except web.HTTPException as exc:
        return plain(exc.status if exc.status in _REASONS else 404)
    except Exception:  # noqa: BLE001 - logged here; the client gets a bare 500, never the trace
        route = request.match_info.route.resource
        # the route's pattern, not the path: a link's token never reaches the log
        log.exception("web companion: %s %s failed", request.method, route.canonical if route else "?")
        return plain(500)


async def _secured(request: web.Request, response: web.StreamResponse) -> None:
    """Just before any answer's headers go (pages, images, streams, refusals): the security headers."""
    response.headers.update(SECURITY_HEADERS)
    response.headers["Server"] = "spacechess"  # not which server library, at which version


def _query(request: web.Request, allowed: Mapping[str, Callable[[str], bool]]) -> dict[str, str]:
    """The request's parameters, each one the path takes, once, with a value it takes; else 400."""
    query = request.rel_url.query
    values: dict[str, str] = {}
    for name in query:
        check = allowed.get(name)
        if check is None or name in values or len(query.getall(name)) > 1 or not check(query[name]):
            raise web.HTTPBadRequest()
        values[name] = query[name]
    return values


def _page_number(text: str) -> bool:
    return bool(_DIGITS.fullmatch(text)) and 1 <= int(text) <= MAX_PAGE


def _language(text: str) -> bool:
    return text in LANGUAGES


async def _game(request: web.Request) -> GameRecord:
    """The game the path's token opens (a token of the wrong shape never matched the route)."""
    token = request.match_info["token"]
    svc = request.app[SERVICE]

    def lookup() -> GameRecord | None:
        game_id = game_of_token(svc.store, token)
        return svc.store.get_game(game_id) if game_id is not None else None

    game = await asyncio.to_thread(lookup)
    if game is None:
        raise web.HTTPNotFound()
    return game


async def page(request: web.Request) -> web.Response:
    query = _query(request, {"page": _page_number, "lang": _language})
    game = await _game(request)
    language = query.get("lang") or accepted_language(request.headers.get("Accept-Language"))
    html = await asyncio.to_thread(page_html, request.app[SERVICE], game, language, int(query.get("page", "1")),
                                   f"/g/{request.match_info['token']}", "lang" in query, request.app[PICTURES])
    return web.Response(text=html, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-store", "Vary": "Accept-Language"})


def _picture(what: str) -> Callable[[web.Request], Awaitable[web.Response]]:
    """The route of the picture `what` (the board, a story's): drawn when first asked, then kept."""

    async def serve(request: web.Request) -> web.Response:
        query = _query(request, {"lang": _language, "v": lambda text: bool(_DIGITS.fullmatch(text))})
        game = await _game(request)
        if what != "board" and what not in stories_of(game.kind):
            raise web.HTTPNotFound()
        language = query.get("lang") or accepted_language(request.headers.get("Accept-Language"))
        # on the drawing threads: a replay drawn for seconds never holds up the pages' reads
        drawn = await asyncio.get_running_loop().run_in_executor(
            request.app[DRAWING], request.app[PICTURES].of, request.app[SERVICE], game, language, what)
        if drawn is None:
            raise web.HTTPNotFound()
        # an address naming its version never changes: a browser may keep it (privately: the link is secret)
        cache = "private, max-age=86400, immutable" if query.get("v") == str(game.version) else "no-store"
        return web.Response(body=drawn.data, content_type=drawn.content_type, headers={"Cache-Control": cache})

    return serve


async def events(request: web.Request) -> web.StreamResponse:
    """The game's version now, then each new one as it is committed (``event: version``); a
    keep-alive comment when idle. The stream ends when its link is revoked."""
    _query(request, {})
    game = await _game(request)
    hub, svc = request.app[HUB], request.app[SERVICE]
    token = request.match_info["token"]
    stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                         "X-Accel-Buffering": "no"})
    await stream.prepare(request)

    def current() -> int | None:
        game_id = game_of_token(svc.store, token)
        found = svc.store.get_game(game_id) if game_id == game.id else None
        return found.version if found is not None else None

    sent: int | None = None
    try:
        with hub.watching(game.id) as woke:
            while True:
                woke.clear()  # before the read: a change committed from now on wakes the next wait
                version = await hub.read(game.id, token, current, hub.stamp(game.id))
                if version is None:
                    break
                if version != sent:
                    await stream.write(f"event: version\ndata: {version}\n\n".encode())
                    sent = version
                try:
                    await asyncio.wait_for(woke.wait(), request.app[HEARTBEAT])
                except TimeoutError:
                    await stream.write(b": keep-alive\n\n")
    except ConnectionError:
        return stream  # the reader left: nothing more to send
    return stream


def _static(name: str) -> Callable[[web.Request], Awaitable[web.Response]]:
    data = (HERE / "static" / name).read_bytes()
    content_type = STATIC_TYPES[Path(name).suffix]

    async def serve(request: web.Request) -> web.Response:
        _query(request, {})
        return web.Response(body=data, content_type=content_type, charset="utf-8",
                            headers={"Cache-Control": "public, max-age=3600"})

    return serve


def make_app(svc: GameService, *, limit: RateLimit | None = None, heartbeat: float = HEARTBEAT_SECONDS,
             listen_postgres: bool = True) -> web.Application:
    """The companion over `svc`'s store; its change hub listens from start-up to clean-up (on
    PostgreSQL, to the other processes' commits too, unless `listen_postgres` is off)."""
    app = web.Application(middlewares=[guarded], handler_args={"max_field_size": 8190})
    app[SERVICE] = svc
    app[LIMIT] = limit or RateLimit()
    app[PICTURES] = Pictures()
    app[HEARTBEAT] = heartbeat
    token = "{token:" + TOKEN_PATTERN + "}"
    app.router.add_get(f"/g/{token}", page)
    for what, suffix in {"board": "png", **STORIES}.items():
        app.router.add_get(f"/g/{token}/{what}.{suffix}", _picture(what))
    app.router.add_get(f"/g/{token}/events", events, allow_head=False)  # a stream has no head
    for name in ("web.css", "live.js", "icon.svg"):
        app.router.add_get(f"/static/{name}", _static(name))
    app.on_response_prepare.append(_secured)
    app.cleanup_ctx.append(_hub(listen_postgres))
    return app


def _hub(listen_postgres: bool) -> Callable[[web.Application], AsyncIterator[None]]:
    """The change hub and the drawing threads, from start-up to clean-up: the hub fed by the store's
    commits in this process and, on PostgreSQL, by the other processes' (LISTEN)."""

    async def running(app: web.Application) -> AsyncIterator[None]:
        store = app[SERVICE].store
        app[DRAWING] = ThreadPoolExecutor(DRAWING_THREADS, thread_name_prefix="web-draw")
        hub = ChangeHub(asyncio.get_running_loop())
        app[HUB] = hub
        store.add_change_listener(hub.changed)
        listener = None
        if listen_postgres and store.dialect == "postgresql":
            url = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            listener = PostgresListener(url, hub.changed)
            listener.start()
        try:
            yield
        finally:
            store.remove_change_listener(hub.changed)
            app[DRAWING].shutdown(wait=False, cancel_futures=True)
            if listener is not None:
                listener.stop()

    return running
