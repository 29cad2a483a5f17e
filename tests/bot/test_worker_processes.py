"""A worker process ends with the bot process that spawned it, however the bot ended (bot/worker_processes.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.botproc import bot_env

#: a "bot" that starts a pool, has its worker run one task, says the worker's pid, then waits to be killed
POOL_OWNER = """
import os, sys, time
from bot.worker_processes import spawned_pool

pool = spawned_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Running, not merely a zombie waiting for its reaper (which, in a container, may never come)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_a_worker_ends_when_its_bot_is_killed() -> None:
    owner = subprocess.Popen([sys.executable, "-c", POOL_OWNER], stdout=subprocess.PIPE, env=bot_env(), text=True)
    try:
        assert owner.stdout is not None
        worker = int(owner.stdout.readline())
        assert alive(worker)
        os.kill(owner.pid, signal.SIGKILL)  # no shutdown of the pool: a crash
        owner.wait(10)
        for _ in range(200):  # the worker notices at once; the loop only waits for the machine
            if not alive(worker):
                break
            time.sleep(0.05)
        assert not alive(worker), "the worker outlived the process that spawned it"
    finally:
        owner.kill()
        owner.wait(10)
