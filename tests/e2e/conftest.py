"""One fake Discord and one real bot process per test module; one channel (one game) per test.

Starting the process is the slow part (about a second), so tests that only play share it and
stay independent by playing in their own channel. Tests that kill or fault the bot start their own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.discord_shapes import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.campaign import Campaign
from tests.e2e.fdj_file import FdjFile
from tests.e2e.table import Table
from tests.fake_discord.clock import Clock
from tests.fake_discord.payloads import Member
from tests.fake_discord.server import FakeDiscord


@contextmanager
def checked_fake(shards: int = 1, *, clock: Clock = time.time) -> Iterator[FakeDiscord]:
    """A fake Discord whose every answer, once the test is done, must have been valid by the spec."""
    with FakeDiscord(shards=shards, clock=clock) as server:
        yield server
    assert server.invalid_answers == [], "the fake answered outside Discord's spec:\n" + "\n".join(
        server.invalid_answers[:5])


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    with checked_fake() as server:
        yield server


@pytest.fixture(scope="module")
def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    with BotProcess(fake, write_config(tmp_path_factory.mktemp("bot"), fake)) as process:
        yield process


@pytest.fixture
def table(fake: FakeDiscord, bot: BotProcess, request: pytest.FixtureRequest) -> Table:
    return Table(fake, bot, fake.add_channel(request.node.name[:90]))


def add_gm(fake: FakeDiscord) -> Member:
    """A member with the Manage Server permission: a game master everywhere on the server."""
    return fake.add_member("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)


@pytest.fixture
def gm(fake: FakeDiscord) -> Member:
    return add_gm(fake)


@pytest.fixture
def own_bot(tmp_path: Path) -> Iterator[BotProcess]:
    """A fake and a bot of this test's own, for tests that break them."""
    with checked_fake() as server, BotProcess(server, write_config(tmp_path, server)) as process:
        yield process


#: The shortest status delay the config accepts: the pinned message follows a change within a second.
STATUS_DEBOUNCE = 1.0
#: a campaign's one process holds a post it sends this long (a restart after a crash waits for it)
OUTBOX_LEASE = 2.0


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[Campaign]:
    """The draw scheduler's file source starts with FDJ's newest real row, older than any game."""
    fdj = FdjFile(tmp_path / "loto.csv")
    fdj.create()
    with checked_fake() as server:
        config = write_config(tmp_path, server, draws_file=fdj.path, status_debounce=STATUS_DEBOUNCE,
                              outbox_lease=OUTBOX_LEASE)
        with BotProcess(server, config) as process:
            yield Campaign(process, fdj, Table(server, process, server.add_channel("campaign")), add_gm(server))
