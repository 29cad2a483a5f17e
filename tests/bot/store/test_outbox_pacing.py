"""The sender's pace during a fan-out (issue 28, point 2): a post is leased and its board drawn only
once the rate limiter lets it go, a few at a time, and the status messages' edits (`after_posts`)
wait while due posts are being sent."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

from bot.outbox import DRAWING_SLOTS, Failure, OutboxSender, RateLimiter, encode_reply
from bot.service.replies import Message, Reply
from bot.store import GameRecord, Store
from bot.store import outbox as rows
from bot.store.outbox import NewPost

MakeGame = Callable[..., GameRecord]
CHANNELS = 12


class GatedLimiter(RateLimiter):
    """A limiter whose tokens the test hands out one by one."""

    def __init__(self) -> None:
        super().__init__(1000.0)
        self.tokens = asyncio.Semaphore(0)
        self.granted = 0

    async def _take(self) -> None:
        await self.tokens.acquire()
        self.granted += 1


def due_posts(store: Store, game: GameRecord) -> None:
    rows.enqueue(store, [NewPost(channel_id=100 + n, kind="turn_post", game_id=game.id,
                                 payload=encode_reply(Reply((Message(f"post{n}"),)))) for n in range(CHANNELS)])


def make_sender(store: Store, limiter: RateLimiter, drawn: list[int], sent: list[int],
                busy: list[int]) -> OutboxSender[Any]:
    async def render(record: rows.OutboxRecord) -> list[str]:
        drawn.append(record.id)
        busy[0] += 1
        busy[1] = max(busy[1], busy[0])
        await asyncio.sleep(0.005)  # drawing takes a while: renders would overlap if nothing held them
        busy[0] -= 1
        return ["part"]

    async def send_part(record: rows.OutboxRecord, index: int, part: str) -> int:
        sent.append(record.id)
        return 1000 + record.id

    return OutboxSender(store, render=render, send_part=send_part, classify=lambda _err: Failure(),
                        limiter=limiter, clock=lambda: dt.datetime.now(dt.UTC))


async def settle() -> None:
    """Time for what should not happen to show (the lanes' database calls run in threads)."""
    for _ in range(50):
        await asyncio.sleep(0.01)


async def until(condition: Callable[[], bool], what: str) -> None:
    """Back as soon as `condition` holds: however loaded the machine, the test waits for the sender,
    never for a fixed time."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"still not {what} after 10 s")


def test_boards_are_drawn_only_as_the_limiter_lets_each_post_go(sqlite_store: Store, make_game: MakeGame) -> None:
    due_posts(sqlite_store, make_game(sqlite_store))
    drawn: list[int] = []
    sent: list[int] = []
    busy = [0, 0]

    async def run() -> None:
        limiter = GatedLimiter()
        drain = asyncio.create_task(make_sender(sqlite_store, limiter, drawn, sent, busy).drain())
        await settle()
        assert drawn == [], "every lane waits for its turn at the limiter before its board is drawn"
        for _ in range(3):
            limiter.tokens.release()
        await until(lambda: len(sent) == 3, "three posts sent")
        await settle()
        assert len(drawn) == 3 and len(sent) == 3, "three turns: three boards drawn and sent, not all of them"
        for _ in range(CHANNELS - 3):
            limiter.tokens.release()
        assert await drain is None
        assert limiter.granted == CHANNELS

    asyncio.run(run())
    assert sorted(sent) == sorted(drawn) and len(set(sent)) == CHANNELS
    assert busy[1] <= DRAWING_SLOTS, "a few boards drawn at once, never every due post's"
    assert rows.unsent(sqlite_store) == []


def test_status_edits_wait_while_posts_are_sent(sqlite_store: Store, make_game: MakeGame) -> None:
    due_posts(sqlite_store, make_game(sqlite_store))
    drawn: list[int] = []
    sent: list[int] = []
    seen_at_status: list[int] = []

    async def run() -> None:
        limiter = GatedLimiter()
        sender = make_sender(sqlite_store, limiter, drawn, sent, [0, 0])

        async def status_edit() -> None:
            await limiter.acquire(after_posts=True)
            seen_at_status.append(len(sent))

        drain = asyncio.create_task(sender.drain())
        limiter.tokens.release()
        await until(lambda: len(sent) == 1, "a first post sent")  # the lanes are under way, waiting for turns
        assert limiter._posting > 0
        edit = asyncio.create_task(status_edit())
        for _ in range(CHANNELS):  # every post's turn, and one for the edit
            limiter.tokens.release()
        await drain
        await edit

    asyncio.run(run())
    assert seen_at_status == [CHANNELS], "the status edit went after every due post, not between them"


def test_an_edit_goes_at_once_when_no_post_is_being_sent() -> None:
    async def run() -> None:
        limiter = RateLimiter(1000.0)
        await asyncio.wait_for(limiter.acquire(after_posts=True), timeout=5)
        with limiter.posting():
            waiting = asyncio.create_task(limiter.acquire(after_posts=True))
            await limiter.acquire()  # a post's turn is not held up
            await asyncio.sleep(0.01)
            assert not waiting.done()
        await asyncio.wait_for(waiting, timeout=5)

    asyncio.run(run())
