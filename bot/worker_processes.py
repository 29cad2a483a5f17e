"""Worker processes that end with the bot.

The computers' searches and, optionally, the posts' boards run in processes of their own, spawned by
`concurrent.futures`. Such a worker waits for its next task on a queue whose writing end it holds
itself, so when the bot process dies without shutting the pool down (killed, out of memory, a
deploy's SIGKILL) the worker never learns it: it stayed, idle, for ever — one more at each crash.
Each worker here watches its parent's sentinel and ends at once when the parent is gone.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor


def spawned_pool(workers: int, initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """A pool of `workers` processes started afresh (spawned: no copy of the event loop's threads),
    each running `initializer` first (a warm-up) and ending with the process that made the pool."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(initializer,))


def _start_worker(initializer: Callable[[], None] | None) -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), name="parent-watch", daemon=True).start()
    if initializer is not None:
        initializer()


def _end_with(sentinel: int) -> None:
    """Wait for the parent to end, then end this worker (its task, if any, is nobody's any more)."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)
