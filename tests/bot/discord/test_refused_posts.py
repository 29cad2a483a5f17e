"""Issue 25 point 1: no post is lost without someone knowing. Each kind of refusal of a channel post,
through the real outbox sender (`ChannelPoster`) against the fake Discord: a transient one (401, 5xx)
is tried again and tells nobody; a fixable one (a missing permission, a locked thread, a file too
large) keeps the post and tells the game's GMs once what to fix; a final one (the channel deleted) gives
the post up and tells them — or, where even their alert cannot be posted, the log."""

from __future__ import annotations

import datetime as dt
import logging

import discord
import pytest

from bot.discord_adapter.posts import classify
from bot.outbox import FINAL, FIXABLE, GM_ALERT, TRANSIENT, OutboxSender, post_of
from bot.service import GameService, Message, Reply
from bot.store import outbox as rows
from bot.store.models import GameRow
from tests.bot.discord.harness import BotHarness, DiscordRecorder
from tests.bot.discord.lobby import GM, running
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID
from tests.bot.discord.test_channel_posts import GM_CONTEXT
from tests.discord_shapes import ALL_PERMISSIONS, ATTACH_FILES, SEND_MESSAGES
from tests.fake_discord.payloads import Member, User

TURN = "**Orion** — turn 77."


class Refusal:
    """The game's channel, its sender driven by hand on a clock of the test's."""

    def __init__(self, harness: BotHarness, recorder: DiscordRecorder, service: GameService) -> None:
        self.core, self.service = recorder.core, service
        self.game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
        self.channel = recorder.core.find_channel(CHANNEL_ID)
        self.now = dt.datetime.now(dt.UTC)
        self.sender: OutboxSender = harness.bot.poster.sender
        self.sender.clock = lambda: self.now

    def turn_post(self, *, image: bool = True) -> rows.OutboxRecord:
        board = self.service.handle(GM_CONTEXT, "game board", {}).files if image else ()
        reply = Reply((Message("game.board", {"name": "Orion", "turn": 77}),), files=board)
        rows.enqueue(self.service.store, [post_of(self.game, reply)])
        return rows.unsent(self.service.store)[-1]

    async def drain(self, later: dt.timedelta = dt.timedelta(minutes=10)) -> None:
        self.now += later  # every back-off is over
        await self.sender.drain()

    def post(self, post: rows.OutboxRecord) -> rows.OutboxRecord:
        found = rows.get_post(self.service.store, post.id)
        assert found is not None
        return found

    def messages(self, contains: str) -> list[dict]:
        return [m for m in self.core.channel_messages(self.channel) if contains in (m.get("content") or "")]

    @property
    def gm(self) -> Member:
        """The game's creator as a member of the server (Discord opens DMs with members only)."""
        member = Member(User(GM.id, GM.name))
        self.core.guild.members.append(member)
        return member

    def dms(self) -> list[rows.OutboxRecord]:
        return self.alerts(rows.DM)

    def alerts(self, kind: str = GM_ALERT) -> list[rows.OutboxRecord]:
        with self.service.store.engine.connect() as connection:
            table = rows.OutboxRow.__table__  # type: ignore[attr-defined]
            found = connection.execute(table.select().where(table.c.kind == kind)).all()
        return [rows.get_post(self.service.store, row.id) for row in found]  # type: ignore[misc]


@pytest.fixture
async def refusal(harness: BotHarness, recorder: DiscordRecorder, service: GameService) -> Refusal:
    await running(harness)
    return Refusal(harness, recorder, service)


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    response = type("Response", (), {"status": status, "reason": "refused", "headers": {}})()
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return kind(response, {"code": code, "message": "refused"})


@pytest.mark.parametrize(("status", "code", "kind", "cause"), [
    (429, 0, TRANSIENT, None), (500, 0, TRANSIENT, None), (503, 0, TRANSIENT, None), (401, 0, TRANSIENT, None),
    (403, 50013, FIXABLE, "missing_permissions"), (403, 50001, FIXABLE, "missing_access"),
    (400, 50083, FIXABLE, "thread_locked"), (413, 40005, FIXABLE, "file_too_large"),
    (404, 10003, FINAL, "unknown_channel"), (400, 50035, FINAL, None),
])
def test_each_refusal_is_classified(status: int, code: int, kind: str, cause: str | None) -> None:
    failure = classify(http_error(status, code))
    assert (failure.kind, failure.cause) == (kind, cause)
    assert classify(OSError("network")).kind == TRANSIENT


async def test_a_missing_permission_keeps_the_post_and_tells_the_gms_once(refusal: Refusal) -> None:
    refusal.core.set_bot_permissions(refusal.channel, ALL_PERMISSIONS & ~ATTACH_FILES)
    post = refusal.turn_post()
    await refusal.drain()
    kept = refusal.post(post)
    assert kept.sent_at is None and kept.refused == "missing_permissions" and kept.attempts == 1
    [alert] = refusal.messages("Discord refused a post of **Orion**")
    assert "**Attach Files**" in alert["content"]
    for _ in range(3):  # tried again, still refused: the GMs were told already
        await refusal.drain()
    assert refusal.post(post).attempts == 4 and refusal.post(post).sent_at is None
    assert len(refusal.messages("Discord refused a post")) == 1 and len(refusal.alerts()) == 1
    assert refusal.messages(TURN) == []
    refusal.core.set_bot_permissions(refusal.channel, ALL_PERMISSIONS)  # a moderator gives it back
    await refusal.drain()
    [turn] = refusal.messages(TURN)
    assert turn["attachments"], "the post as it was, with its image"
    assert refusal.post(post).sent_at is not None
    assert len(refusal.messages("Discord refused a post")) == 1


async def test_a_locked_thread_where_the_alert_is_refused_too_is_logged(
    refusal: Refusal, caplog: pytest.LogCaptureFixture
) -> None:
    route = rf"/channels/{CHANNEL_ID}/messages"
    refusal.core.fail("POST", route, status=400, code=50083, times=5)
    post = refusal.turn_post(image=False)
    with caplog.at_level(logging.ERROR, logger="spacechess.outbox"):
        await refusal.drain()
    assert refusal.post(post).sent_at is None and refusal.post(post).refused == "thread_locked"
    [alert] = refusal.alerts()
    assert alert.sent_at is not None and alert.last_error.startswith("gave up"), "an alert is not retried forever"
    assert [r for r in caplog.records if r.levelno == logging.ERROR and "cannot be posted" in r.getMessage()]
    await refusal.drain()
    assert len(refusal.alerts()) == 1, "told once per cause, not at every retry"


async def test_a_file_too_large_is_sent_again_without_its_images_saying_so(refusal: Refusal) -> None:
    refusal.core.set_upload_limit(100)
    post = refusal.turn_post()
    await refusal.drain()
    [turn] = refusal.messages(TURN)
    assert turn["attachments"] == []
    assert "images of this post were too large" in turn["content"]
    sent = refusal.post(post)
    assert sent.sent_at is not None and sent.refused == "file_too_large"
    [alert] = refusal.messages("its images are larger than this server allows")
    assert "**Orion**" in alert["content"]


async def test_a_deleted_channel_pauses_the_game_gives_its_posts_up_and_tells_its_creator_by_dm(
    refusal: Refusal, caplog: pytest.LogCaptureFixture
) -> None:
    gm = refusal.gm
    assert refusal.game.status == "running"
    refusal.core.delete_channel(refusal.channel)
    post, later = refusal.turn_post(), refusal.turn_post(image=False)
    with caplog.at_level(logging.ERROR, logger="spacechess.outbox"):
        await refusal.drain()
    for given_up in (refusal.post(post), refusal.post(later)):
        assert given_up.sent_at is not None and given_up.last_error.startswith("gave up")
    assert refusal.post(post).refused == "unknown_channel"
    game = refusal.service.store.get_game(refusal.game.id)
    assert game.status == "paused" and game.version == refusal.game.version + 1, "paused as by /gm pause"
    [told] = refusal.dms()
    assert told.sent_at is not None, "no GM log channel: the game's creator is told by direct message"
    assert told.payload[rows.RECIPIENT] == GM.id and "unknown_channel" in str(told.payload[rows.ABOUT_REFUSAL])
    [dm] = refusal.core.dm_messages(gm)
    assert "**Orion**" in dm["content"] and "`/gm move`" in dm["content"]


async def test_a_deleted_channel_with_nobody_to_tell_is_logged(refusal: Refusal, caplog: pytest.LogCaptureFixture) -> None:
    game = refusal.service.store.get_game(refusal.game.id)
    with refusal.service.store.engine.begin() as connection:  # a game nobody created (an import's, say)
        table = GameRow.__table__  # type: ignore[attr-defined]
        connection.execute(table.update().where(table.c.id == game.id).values(created_by=None))
    refusal.core.delete_channel(refusal.channel)
    refusal.turn_post()
    with caplog.at_level(logging.ERROR, logger="spacechess.outbox"):
        await refusal.drain()
    assert refusal.alerts() == [] and refusal.dms() == []
    assert [r for r in caplog.records if "no GM log channel" in r.getMessage()]


async def test_a_deleted_channel_is_told_in_the_gm_log_channel(refusal: Refusal) -> None:
    log_channel = refusal.core.add_channel("mj-journal")
    refusal.service.store.set_guild_settings(GUILD_ID, log_channel_id=log_channel.id)
    refusal.core.delete_channel(refusal.channel)
    refusal.turn_post()
    await refusal.drain()
    await refusal.drain()
    [alert] = refusal.alerts()  # once, for the game: not for each post given up
    assert alert.channel_id == log_channel.id and alert.sent_at is not None
    assert "unknown_channel" in str(alert.payload[rows.ABOUT_REFUSAL])
    [told] = refusal.core.channel_messages(log_channel)
    assert "**Orion**" in told["content"] and "`/mj déplacer`" in told["content"] and "pause" in told["content"]


async def test_an_alert_its_channel_refuses_goes_to_the_gm_log_channel(refusal: Refusal) -> None:
    """Send Messages taken away: the GMs' alert cannot be posted in the game's channel either."""
    log_channel = refusal.core.add_channel("mj-journal")
    refusal.service.store.set_guild_settings(GUILD_ID, log_channel_id=log_channel.id)
    refusal.core.set_bot_permissions(refusal.channel, ALL_PERMISSIONS & ~SEND_MESSAGES)
    post = refusal.turn_post(image=False)
    await refusal.drain()
    await refusal.drain()
    assert refusal.post(post).sent_at is None, "the post is kept for when the permission is back"
    [alert] = refusal.alerts()
    assert alert.channel_id == log_channel.id and alert.sent_at is not None
    [told] = refusal.core.channel_messages(log_channel)
    assert f"<#{CHANNEL_ID}>" in told["content"], "the log channel's reader is told which channel"


@pytest.mark.parametrize("status", [401, 502])
async def test_a_transient_refusal_is_tried_again_and_tells_nobody(refusal: Refusal, status: int) -> None:
    refusal.core.fail("POST", rf"/channels/{CHANNEL_ID}/messages", status=status, times=1)
    post = refusal.turn_post(image=False)
    await refusal.drain()
    kept = refusal.post(post)
    assert kept.sent_at is None and kept.refused is None and refusal.alerts() == []
    await refusal.drain()
    assert refusal.post(post).sent_at is not None and len(refusal.messages(TURN)) == 1
    assert refusal.alerts() == []
