"""A SpaceBlast game in the middle of a turn (Ann's orders sealed), and the web companion over it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import Context, GameService
from bot.service.web_links import serve_links
from bot.store import GameRecord, Store
from bot.store.web_links import link_of
from bot.web.app import make_app
from bot.web.limits import RateLimit

GUILD, CHANNEL = 10, 100
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=10, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=11, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)
EVE = Context(user_id=99, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)
BASE = "https://games.example.org"
#: Ann's sealed order as each language words it: never on a page before the reveal
SEALED_WORDS = ("left missile", "gauche missile")


def spaceblast_game(svc: GameService) -> GameRecord:
    """Nebula, started, Ann's orders given (sealed), Bob's not yet."""
    assert svc.handle(GM, "sb new", {"name": "Nebula", "radius": 5}).ok
    for member, name in ((ANN, "Ann"), (BOB, "Bob")):
        assert svc.handle(member, "sb join", {"name": name}).ok
    assert svc.handle(GM, "gm start", {}).ok
    assert svc.handle(ANN, "sb orders", {"turn": "left", "missile": 1}).ok
    return svc.store.game_in_channel(GUILD, CHANNEL)


@pytest.fixture
def links() -> Iterator[str]:
    """The companion is on, its links start with BASE (as `WebServer.start` says)."""
    serve_links(BASE)
    yield BASE
    serve_links(None)


@pytest.fixture
def svc(sqlite_store: Store) -> GameService:
    return GameService(sqlite_store, seed_source=lambda: 2024)


@pytest.fixture
def game(svc: GameService) -> GameRecord:
    return spaceblast_game(svc)


@pytest.fixture
def token(svc: GameService, game: GameRecord, links: str) -> str:
    reply = svc.handle(GM, "gm web", {})
    assert reply.ok, reply.messages
    found = link_of(svc.store, game.id)
    assert found is not None
    return found


@pytest.fixture
async def client(svc: GameService) -> AsyncIterator[TestClient]:
    app = make_app(svc, limit=RateLimit(rate=1000.0, burst=1000), heartbeat=0.2)
    async with TestClient(TestServer(app)) as test_client:
        yield test_client
