"""Fixtures for the in-process adapter tests: a recorder over Discord's REST API and a logged-in bot."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.service import GameService
from bot.store import Store
from tests.bot.discord.harness import BotHarness, DiscordRecorder
from tests.bot.discord.lobby import GM_ROLE


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[DiscordRecorder]:
    """Every webhook request (interaction responses, followups, @original) goes to the recorder; once
    the test is done, every answer the fake Discord gave must have been valid by the spec."""
    recording = DiscordRecorder()
    monkeypatch.setattr(AsyncWebhookAdapter, "request", recording.webhook_request)
    yield recording
    invalid = recording.core.invalid_answers
    assert invalid == [], "the fake answered outside Discord's spec:\n" + "\n".join(invalid[:5])


@pytest.fixture
def service(sqlite_store: Store) -> GameService:
    """An English-speaking server's bot (public replies follow the server's language: most members
    here have English clients too)."""
    return GameService(sqlite_store, seed_source=lambda: 99, default_language="en")


@pytest.fixture
async def harness(service: GameService, recorder: DiscordRecorder) -> AsyncIterator[BotHarness]:
    async with BotHarness(service, recorder, roles=(GM_ROLE,)) as running:  # the server's roles, as GUILD_CREATE
        running.bot.direct_reply_seconds = 60.0  # answer directly: deferral has tests of its own
        yield running
