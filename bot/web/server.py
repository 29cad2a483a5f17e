"""The web companion inside the bot process: an aiohttp server on a thread and event loop of its own.

`spacechess run` and `spacechess console` start it when ``[web] enabled = true``: the Discord
client's loop (or the console's prompt) is left alone, and the pages read the store as the
commands do, from worker threads. Starting it tells `/gm web` the address its links start with.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from aiohttp import web

from bot.service.core import GameService
from bot.service.web_links import serve_links
from bot.web.app import make_app

log = logging.getLogger("spacechess.web")


class WebServer:
    """`make_app(service)` served at `host`:`port` until `stop`; `port` 0 takes a free one (`port`
    then says which, once started)."""

    def __init__(self, service: GameService, host: str, port: int, *, base_url: str = "",
                 app: web.Application | None = None) -> None:
        self.service = service
        self.host = host
        self.port = port
        self.base_url = base_url
        self._app = app or make_app(service)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="web", daemon=True)
        self._runner: web.AppRunner | None = None

    def start(self) -> WebServer:
        """Listening when it returns (an address in use fails here, as an OSError)."""
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        except BaseException:
            self.stop()  # its thread and loop go with it: nothing is left half started
            raise
        base = self.base_url or f"http://{self.host}:{self.port}"
        serve_links(base)
        log.info("web companion serving on %s:%s (links: %s/g/...)", self.host, self.port, base)
        return self

    async def _start(self) -> None:
        self._runner = web.AppRunner(self._app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = self._runner.addresses[0][1]

    def stop(self) -> None:
        serve_links(None)
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
