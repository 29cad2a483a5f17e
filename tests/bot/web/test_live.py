"""Live pages: a commit tells the store's listeners once committed (never a rolled-back one), the
event stream sends the game's new version at each change, a revoked link ends it; on PostgreSQL a
commit reaches another process's pages through LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import threading

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameService
from bot.store import GameRecord, NewEntry, StaleWrite, Store
from bot.store.repo import CHANGE_CHANNEL
from bot.web.app import make_app
from bot.web.limits import RateLimit
from bot.web.live import ChangeHub, PostgresListener
from tests.bot.web.conftest import ANN, GM

#: how long a test waits for what must come (a safeguard against a hang, not a measured time)
PATIENCE = 10.0


async def next_version(stream: ClientResponse) -> int:
    """The next ``event: version`` of the stream (keep-alive comments skipped)."""
    while True:
        block = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), PATIENCE)
        lines = block.decode().splitlines()
        if lines and lines[0] == "event: version":
            return int(lines[1].removeprefix("data: "))


def test_listeners_hear_committed_changes_only(svc: GameService, game: GameRecord) -> None:
    heard: list[int] = []
    svc.store.add_change_listener(heard.append)
    try:
        assert svc.handle(ANN, "sb orders", {"turn": "right"}).ok
        assert heard == [game.id]
        with pytest.raises(StaleWrite):  # refused by its version: rolled back, nobody told
            svc.store.commit(game.id, game.version, state=game.state, entries=[NewEntry("note", None, 1, {})])
        assert heard == [game.id]
        other = Store(svc.store.engine.url.render_as_string(hide_password=False), migrate=False)
        try:  # another Store of this process on the same database (the `run` companion's own): heard too
            fresh = other.get_game(game.id)
            other.commit(game.id, fresh.version, state=fresh.state, entries=[NewEntry("note", None, 1, {})])
        finally:
            other.close()
        assert heard == [game.id, game.id]
    finally:
        svc.store.remove_change_listener(heard.append)


def test_a_change_inside_a_locked_game_is_told_when_the_lock_commits(svc: GameService, game: GameRecord) -> None:
    """The retry path of a stale write commits inside `locked_game`: its listeners hear of it only
    once that transaction commits, never while a reader could still find the old version."""
    heard: list[int] = []
    svc.store.add_change_listener(heard.append)
    try:
        with svc.store.locked_game(game.id) as fresh:
            svc.store.commit(game.id, fresh.version, state=fresh.state, entries=[NewEntry("note", None, 1, {})])
            assert heard == []
        assert heard == [game.id]
        with pytest.raises(RuntimeError), svc.store.locked_game(game.id) as fresh:  # rolled back: not told
            svc.store.commit(game.id, fresh.version, state=fresh.state, entries=[NewEntry("note", None, 1, {})])
            raise RuntimeError("the block fails after its commit")
        assert heard == [game.id]
    finally:
        svc.store.remove_change_listener(heard.append)


async def test_the_stream_sends_each_new_version(token: str, svc: GameService) -> None:
    # keep-alives an hour apart: only the commit's notification can wake the stream in this test
    app = make_app(svc, limit=RateLimit(rate=1000.0, burst=1000), heartbeat=3600.0)
    async with TestClient(TestServer(app)) as client, client.get(f"/g/{token}/events") as stream:
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        first = await next_version(stream)
        assert first == svc.store.game_in_channel(10, 100).version
        assert svc.handle(ANN, "sb orders", {"turn": "right"}).ok  # a move through the service
        assert await next_version(stream) == first + 1
        assert svc.handle(GM, "gm pause", {}).ok
        assert await next_version(stream) == first + 2


async def test_a_revoked_link_ends_its_stream(client: TestClient, token: str, svc: GameService) -> None:
    async with client.get(f"/g/{token}/events") as stream:
        await next_version(stream)
        svc.handle(GM, "gm web", {"action": "off"})  # no game change: the next keep-alive finds it gone
        rest = await asyncio.wait_for(stream.content.read(), PATIENCE)
        assert b"event: version" not in rest and stream.content.at_eof()


async def test_the_hub_wakes_only_the_streams_of_the_changed_game() -> None:
    hub = ChangeHub(asyncio.get_running_loop())
    with hub.watching(1) as one, hub.watching(2) as two:
        assert hub.open_streams() == 2
        await asyncio.to_thread(hub.changed, 1)  # from another thread, as a commit does
        await asyncio.wait_for(one.wait(), PATIENCE)
        assert not two.is_set()
        hub.changed(None)  # a lost connection: everyone looks again
        await asyncio.wait_for(two.wait(), PATIENCE)
    assert hub.open_streams() == 0


async def test_streams_woken_by_one_change_share_one_read_but_never_an_older_one() -> None:
    hub = ChangeHub(asyncio.get_running_loop())
    reads: list[int] = []
    gate = threading.Event()

    def reader() -> int:
        reads.append(len(reads))
        gate.wait(PATIENCE)
        return len(reads)

    with hub.watching(1):
        seen = hub.stamp(1)
        first = asyncio.ensure_future(hub.read(1, "token", reader, seen))
        second = asyncio.ensure_future(hub.read(1, "token", reader, seen))  # woken by the same change
        await asyncio.sleep(0.05)
        hub.changed(1)  # a change while that read runs: whoever heard it needs a read of its own
        await asyncio.sleep(0)
        third = asyncio.ensure_future(hub.read(1, "token", reader, hub.stamp(1)))
        await asyncio.sleep(0.05)
        gate.set()
        results = await asyncio.wait_for(asyncio.gather(first, second, third), PATIENCE)
    assert len(reads) == 2 and results[0] == results[1]


@pytest.mark.postgres
def test_on_postgresql_a_commit_reaches_a_listening_connection(postgres_url: str, request: pytest.FixtureRequest
                                                              ) -> None:
    """Another process's commit arrives by NOTIFY: the listener runs on a connection of its own."""
    from tests.bot.conftest import _migrated

    store = Store(_migrated(postgres_url, request))
    heard: list[int | None] = []
    arrived = threading.Event()

    def on_change(game_id: int | None) -> None:
        heard.append(game_id)
        arrived.set()

    listener = PostgresListener(store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False),
                                on_change, poll_seconds=0.1)
    listener.start()
    try:
        assert listener.listening.wait(PATIENCE)
        game = store.create_game(kind="spaceblast", name="N", guild_id=1, channel_id=2, setup={}, state={},
                                 seed=1, created_by=1)
        assert arrived.wait(PATIENCE)
        assert heard == [game.id] and CHANGE_CHANNEL == "spacechess_games"
    finally:
        listener.stop()
        listener.join(PATIENCE)
        store.close()
