"""How an open page learns that its game changed: a hub of event streams woken by the commits.

Every commit that changes a game tells the store's change listeners of this process once it is
committed (`Store.add_change_listener`); on PostgreSQL it also sends the game's id with NOTIFY,
which PostgreSQL delivers at the commit to every listening connection, so a change made by another
bot process reaches the pages served here too (`PostgresListener`). SQLite serves one process:
the in-process listener is all it needs. The page polls nothing: its event stream (`bot.web.app`)
sleeps until the hub wakes it, then reads the game's version once.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from bot.store.repo import CHANGE_CHANNEL

log = logging.getLogger("spacechess.web")
T = TypeVar("T")


class ChangeHub:
    """The open event streams, by game; `changed` may be called from any thread. The streams woken
    by one change share one read of the game (`read`), however many pages are open."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._streams: dict[int, set[asyncio.Event]] = {}
        #: changes heard, by game, and of every game at once (a lost connection): see `stamp`
        self._changes: dict[int, int] = {}
        self._everything = 0
        self._reads: dict[Hashable, tuple[int, asyncio.Future[Any]]] = {}

    def changed(self, game_id: int | None) -> None:
        """`game_id` changed (None: any game may have, e.g. after a lost connection): wake its streams."""
        try:
            self._loop.call_soon_threadsafe(self._wake, game_id)
        except RuntimeError:  # the loop is closed: the server stopped, no stream is left to wake
            return

    def _wake(self, game_id: int | None) -> None:
        if game_id is None:
            self._everything += 1
        else:
            self._changes[game_id] = self._changes.get(game_id, 0) + 1
        woken = self._streams.values() if game_id is None else (self._streams.get(game_id, ()),)
        for events in woken:
            for event in events:
                event.set()

    @contextmanager
    def watching(self, game_id: int) -> Iterator[asyncio.Event]:
        """An event set at each change of `game_id` while the block runs (the caller clears it)."""
        event = asyncio.Event()
        self._streams.setdefault(game_id, set()).add(event)
        try:
            yield event
        finally:
            streams = self._streams.get(game_id)
            if streams is not None:
                streams.discard(event)
                if not streams:
                    del self._streams[game_id]

    def stamp(self, game_id: int) -> int:
        """How many changes of `game_id` were heard so far (on the loop: it grows with each wake)."""
        return self._everything + self._changes.get(game_id, 0)

    async def read(self, game_id: int, key: Hashable, reader: Callable[[], T], seen: int) -> T:
        """`reader()` on a worker thread, or the result of the same read already running when it
        started after every change the caller had heard of (`seen`, its `stamp`): a read that started
        earlier might miss one, so the caller gets a read of its own."""
        running = self._reads.get(key)
        if running is not None and running[0] >= seen:
            return await asyncio.shield(running[1])
        future = asyncio.ensure_future(asyncio.to_thread(reader))
        self._reads[key] = (self.stamp(game_id), future)

        def done(finished: asyncio.Future[Any]) -> None:
            if key in self._reads and self._reads[key][1] is finished:
                del self._reads[key]

        future.add_done_callback(done)
        return await asyncio.shield(future)

    def open_streams(self) -> int:
        return sum(len(events) for events in self._streams.values())


class PostgresListener(threading.Thread):
    """LISTEN on the games' change channel, each notification handed to `on_change(game_id)`; after a
    lost connection, `on_change(None)` (changes may have been missed) once it is listening again."""

    def __init__(self, libpq_url: str, on_change: Callable[[int | None], None], *, poll_seconds: float = 0.5) -> None:
        super().__init__(name="web-listen", daemon=True)
        self._url = libpq_url
        self._on_change = on_change
        self._poll = poll_seconds
        self._stopping = threading.Event()
        self.listening = threading.Event()

    def stop(self) -> None:
        self._stopping.set()

    def run(self) -> None:
        import psycopg

        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANGE_CHANNEL}")
                    if self.listening.is_set():  # a reconnection: what happened meanwhile is unknown
                        self._on_change(None)
                    self.listening.set()
                    while not self._stopping.is_set():
                        for note in connection.notifies(timeout=self._poll):
                            if note.payload.isdigit():
                                self._on_change(int(note.payload))
            except psycopg.Error:
                log.warning("web companion: lost its PostgreSQL LISTEN connection; reconnecting", exc_info=True)
                self._stopping.wait(1.0)
