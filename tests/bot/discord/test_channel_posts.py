"""The bot's own posts in a game channel: turn posts and GM alerts from the scheduler's thread, and
the pinned status message, posted once, pinned, then edited in place and debounced."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

import bot.outbox
from bot.outbox import RateLimiter, post_of
from bot.service import Context, GameService, Message, Reply
from bot.store import outbox as rows
from tests.bot.discord.harness import PNG_SIGNATURE, BotHarness, Call, DiscordRecorder
from tests.bot.discord.lobby import ANN, GM, accepted, run, running
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID

GM_CONTEXT = Context(user_id=GM.id, user_name=GM.name, guild_id=GUILD_ID, channel_id=CHANNEL_ID, manage_server=True)


async def until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait for something the bot does in the background."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


def channel_calls(recorder: DiscordRecorder, method: str, contains: str = "") -> list[Call]:
    return [c for c in recorder.calls if c.method == method and c.path.startswith(f"/channels/{CHANNEL_ID}/")
            and contains in c.path]


async def test_a_turn_post_from_the_scheduler_thread_lands_in_the_game_channel(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService
) -> None:
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    board = service.handle(GM_CONTEXT, "game board", {}).files
    reply = Reply((Message("game.board", {"name": "Orion", "turn": 1}),), files=board, mentions=(GM.id,))
    thread = threading.Thread(target=harness.bot.on_turn_post, args=(game, reply))
    thread.start()
    thread.join()
    await asyncio.sleep(0.2)
    assert channel_calls(recorder, "POST", "/messages") == [], "the outbox is sent once connected only"
    # not held until READY, which discord.py sends 2 s after the servers' stream
    await harness.bot.on_connect()
    await until(lambda: channel_calls(recorder, "POST", "/messages") != [])
    post = channel_calls(recorder, "POST", "/messages")[0]
    assert post.files[0][1].startswith(PNG_SIGNATURE)
    assert post.message["allowed_mentions"]["users"] == [GM.id]
    assert post.message["allowed_mentions"]["parse"] == []


async def test_a_gm_alert_pings_the_gm_role_only(harness: BotHarness, recorder: DiscordRecorder,
                                                 service: GameService) -> None:
    await running(harness)
    service.store.set_guild_settings(GUILD_ID, gm_role_id=4242)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    await harness.bot.on_ready()
    await asyncio.to_thread(harness.bot.on_gm_alert, game, Reply((Message("game.info.no_players"),)))
    await until(lambda: channel_calls(recorder, "POST", "/messages") != [])
    post = channel_calls(recorder, "POST", "/messages")[0]
    assert post.message["content"].startswith("<@&4242>")
    assert post.message["allowed_mentions"]["roles"] == [4242]
    assert post.message["allowed_mentions"]["parse"] == []


async def test_the_status_message_is_posted_pinned_then_edited_in_place(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService
) -> None:
    harness.bot.status_board.debounce_seconds = 0.05
    await running(harness)
    await until(lambda: channel_calls(recorder, "PUT", "/pins/") != [])
    [post] = channel_calls(recorder, "POST", "/messages")
    assert "Orion" in post.message["content"] and post.message["allowed_mentions"]["parse"] == []
    [pin] = channel_calls(recorder, "PUT", "/pins/")
    message_id = int(pin.path.rsplit("/", 1)[1])
    assert recorder.messages[message_id]["pinned"]
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert service.store.status_message(game.id) == message_id
    # two changes within one debounce period: one edit of the same message, and no new post
    await asyncio.sleep(0.3)  # the lobby's own refreshes settle
    edits_before = len(channel_calls(recorder, "PATCH", f"/messages/{message_id}"))
    harness.bot.status_board.debounce_seconds = 1.0
    await run(harness, GM, "sc set", character="Cid", ap=7, reason="test")
    await run(harness, GM, "sc set", character="Cid", ap=8, reason="test")
    await until(lambda: len(channel_calls(recorder, "PATCH", f"/messages/{message_id}")) > edits_before)
    await asyncio.sleep(0.2)
    [edit] = channel_calls(recorder, "PATCH", f"/messages/{message_id}")[edits_before:]
    assert "· 8 AP ·" in edit.message["content"]  # the server language: English on this test server
    assert len(channel_calls(recorder, "POST", "/messages")) == 1


class CountingLimiter(RateLimiter):
    """A limiter that lets everything through at once and counts who asked."""

    def __init__(self) -> None:
        super().__init__(1000.0, burst=1000)
        self.taken = 0

    async def acquire(self, *, after_posts: bool = False) -> None:
        self.taken += 1
        await super().acquire(after_posts=after_posts)


async def test_every_status_request_waits_its_turn_at_the_boards_rate_limiter(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService
) -> None:
    """After a draw every game's status message is due at once: each post, edit and pin goes through
    the board's limiter, so the bot stays under Discord's rate instead of being answered 429."""
    counting = CountingLimiter()
    harness.bot.status_board.limiter = counting
    harness.bot.status_board.debounce_seconds = 0.05
    await running(harness)
    await until(lambda: channel_calls(recorder, "PUT", "/pins/") != [])
    await asyncio.sleep(0.3)  # the lobby's own refreshes settle
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    message_id = service.store.status_message(game.id)
    made = [call for call in channel_calls(recorder, "POST", "/messages") if call.sent["id"] == str(message_id)]
    edits = channel_calls(recorder, "PATCH", f"/messages/{message_id}")
    pins = channel_calls(recorder, "PUT", "/pins/")
    assert len(made) == 1 and len(pins) == 1
    assert counting.taken == len(made) + len(edits) + len(pins)


async def test_a_command_wakes_the_outbox_after_its_answer_only_when_it_wrote_a_post(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading every lane's head after every answer cost a quarter of an order's CPU (issue 28): the
    sender looks only when the command wrote a post — in the service's thread, seen through the
    context the adapter gave it — and then at once, the post after the answer."""
    await running(harness)
    await harness.bot.on_connect()
    sender = harness.bot.poster.sender
    await until(lambda: rows.unsent(service.store) == [])
    looks: list[int] = []
    read_heads = rows.heads
    monkeypatch.setattr(rows, "heads", lambda store, **kw: looks.append(1) or read_heads(store, **kw))
    monkeypatch.setattr(bot.outbox, "IDLE_LOOK_SECONDS", 3600.0)  # from now on only a wake-up looks
    await sender.close()
    sender.start()
    await until(lambda: len(looks) >= 2)  # its first pass: nothing due, then asleep
    await asyncio.sleep(0.1)
    settled = len(looks)
    accepted(await run(harness, ANN, "game board"))
    assert (await run(harness, ANN, "sc order", text="move Z99")).refused
    await asyncio.sleep(0.2)
    assert len(looks) == settled, "a command that wrote no post made the sender read the outbox"

    handle, game = service.handle, service.store.game_in_channel(GUILD_ID, CHANNEL_ID)

    def handle_and_post(*args: object, **kwargs: object) -> Reply:
        reply = handle(*args, **kwargs)  # type: ignore[arg-type]
        rows.enqueue(service.store, [post_of(game, Reply.say("game.info.no_players"))])
        return reply

    monkeypatch.setattr(service, "handle", handle_and_post)
    before = len(recorder.calls)
    exchange = accepted(await run(harness, ANN, "game board"))
    await until(lambda: channel_calls(recorder, "POST", "/messages")[-1:] != []
                and recorder.calls.index(channel_calls(recorder, "POST", "/messages")[-1]) >= before)
    answer = recorder.calls.index(exchange.messages[0])
    assert recorder.calls.index(channel_calls(recorder, "POST", "/messages")[-1]) > answer, "the post went first"
    await until(lambda: rows.unsent(service.store) == [])  # marked sent once Discord answered
