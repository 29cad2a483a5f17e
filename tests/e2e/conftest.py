"""One fake Discord and one real bot process per test module; one channel (one game) per test.

Starting the process is the slow part (about a second), so tests that only play share it and
stay independent by playing in their own channel. Tests that kill or fault the bot start their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.table import Table
from tests.fake_discord.payloads import MANAGE_GUILD, MEMBER, Member
from tests.fake_discord.server import FakeDiscord


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    with FakeDiscord() as server:
        yield server


@pytest.fixture(scope="module")
def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    process = BotProcess(fake, write_config(tmp_path_factory.mktemp("bot"), fake))
    try:
        process.start()
        yield process
    finally:
        process.stop()


@pytest.fixture
def table(fake: FakeDiscord, bot: BotProcess, request: pytest.FixtureRequest) -> Table:
    return Table(fake, bot, fake.add_channel(request.node.name[:90]))


@pytest.fixture
def gm(fake: FakeDiscord) -> Member:
    """A member with the Manage Server permission: a game master everywhere on the server."""
    return fake.add_member("gm", permissions=MEMBER | MANAGE_GUILD)


@pytest.fixture
def own_bot(tmp_path: Path) -> Iterator[BotProcess]:
    """A fake and a bot of this test's own, for tests that break them."""
    with FakeDiscord() as server:
        process = BotProcess(server, write_config(tmp_path, server))
        try:
            process.start()
            yield process
        finally:
            process.stop()
