"""Interactions run their service calls on threads of their own (issue 28, point 2): a draw's fan-out
drawing boards in asyncio's default thread pool (the outbox, the status messages) never makes an
answer wait for a thread."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from tests.bot.discord.harness import BotHarness
from tests.bot.discord.lobby import GM, accepted, run


async def test_a_command_is_answered_while_the_default_thread_pool_is_taken(harness: BotHarness) -> None:
    loop = asyncio.get_running_loop()
    taken, release = ThreadPoolExecutor(1), threading.Event()
    loop.set_default_executor(taken)
    drawing = loop.run_in_executor(None, release.wait)  # the pool's one thread, busy until released
    try:
        # a guard against a hang, not a timing: on the default pool the answer would never come
        answered = await asyncio.wait_for(run(harness, GM, "sc new", name="Orion"), timeout=10)
        accepted(answered)
        assert not drawing.done(), "answered while the default pool was still taken"
    finally:
        release.set()
        await drawing
        loop.set_default_executor(ThreadPoolExecutor())
        taken.shutdown()
