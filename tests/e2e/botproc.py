"""The real `spacechess run` process, pointed at a fake Discord, started and killed by tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from tests.fake_discord.server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
#: Environment variables of the bot that must not leak from the developer's shell into a test.
_BOT_ENV = ("SPACECHESS_TOKEN", "SPACECHESS_DATABASE_URL", "SPACECHESS_CONFIG")


def write_config(
    folder: Path, fake: FakeDiscord, *, guild_sync: bool = False, draws_file: Path | None = None,
    status_debounce: float | None = None, database_url: str | None = None, shard_count: int = 0,
    shard_ids: Sequence[int] = (), outbox_lease: float | None = None,
) -> Path:
    """A config whose database is a SQLite file in `folder` and whose Discord is `fake`; with
    `guild_sync` the commands are synced to the fake's server instead of globally. Draws are entered
    by hand unless `draws_file` names an FDJ file for the scheduler to read; `status_debounce` shortens
    the pinned status message's delay (the bot's default keeps it out of tests that count messages).
    `database_url` replaces the SQLite file (a PostgreSQL database shared by several processes), and
    `shard_count`/`shard_ids` make the process one shard of several; `outbox_lease` shortens how long a
    killed process's post waits for its restart."""
    config = folder / "config.toml"
    guild_ids = [fake.guild.id] if guild_sync else []
    debounce = "" if status_debounce is None else f"status_debounce_seconds = {status_debounce}\n"
    if outbox_lease is not None:
        debounce += f"outbox_lease_seconds = {outbox_lease}\n"
    draws = 'source = "manual"' if draws_file is None else f'source = "file"\nfile = "{draws_file.as_posix()}"'
    shards = f"shard_count = {shard_count}\nshard_ids = {list(shard_ids)}\n" if shard_count else ""
    config.write_text(
        f"""
[bot]
token = "fake-token"
language = "fr"
guild_ids = {guild_ids}
api_base = "{fake.api_base}"
gateway_url = "{fake.gateway_url}"
{debounce}{shards}
[database]
url = "{database_url or 'sqlite:///bot.sqlite'}"

[draws]
{draws}
""",
        encoding="utf-8",
    )
    return config


def bot_env() -> dict[str, str]:
    """This checkout's code, and none of the developer's bot settings."""
    env = {k: v for k, v in os.environ.items() if k not in _BOT_ENV}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


class BotProcess:
    """One bot process at a time on a config; `start` again after `kill` restarts it on the same database.
    As a context manager: started on entry, stopped on exit.

    The process's log lines are kept per run (and appended to ``bot.log``), and each line wakes the
    fake's waiters: a test can wait for something the bot only logs, such as a finished draw poll.
    """

    def __init__(self, fake: FakeDiscord, config: Path, *, shards: Sequence[int] = ()) -> None:
        """`shards`: the gateway shards the config gives this process (several processes on one
        fake: each start waits for its own shards' IDENTIFY, each kill for their disconnection)."""
        self.fake = fake
        self.config = config
        self.shards = tuple(shards)
        self.log_path = config.parent / "bot.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.runs: list[list[str]] = []

    def __enter__(self) -> BotProcess:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Launch and wait until the bot identified on the fake gateway (its commands are synced by then)."""
        identified = len(self.fake.identifies)
        lines: list[str] = []
        self.runs.append(lines)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run", "--config", str(self.config)],
            cwd=self.config.parent, env=bot_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        threading.Thread(target=self._follow, args=(self.proc, lines, len(self.runs)), daemon=True).start()
        def identified_all() -> bool:
            shards = {tuple(frame.get("shard") or (0, 1))[0] for frame in self.fake.identifies[identified:]}
            return bool(shards) and set(self.shards) <= shards

        self.fake.wait_until(identified_all, timeout=START_TIMEOUT, what="IDENTIFY from the bot", abort=self.died)

    def _follow(self, proc: subprocess.Popen[bytes], lines: list[str], run: int) -> None:
        assert proc.stdout is not None
        with self.log_path.open("ab") as log:
            log.write(f"--- start {run} ---\n".encode())
            for raw in proc.stdout:
                log.write(raw)
                log.flush()
                lines.append(raw.decode("utf-8", errors="replace").rstrip())
                self.fake.poke()
        proc.wait()
        self.fake.poke()

    def wait_for_log(self, text: str, *, timeout: float = START_TIMEOUT) -> str:
        """The first line of the current run that contains `text`, once the bot has logged it."""
        lines = self.runs[-1]
        return self.fake.wait_until(lambda: next((line for line in lines if text in line), None), timeout=timeout,
                                    what=f"a bot log line with {text!r}", abort=self.died)

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Another `spacechess` command on the same config (and database), run to its end."""
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *args, "--config", str(self.config)],
            cwd=self.config.parent, env=bot_env(), capture_output=True, text=True, timeout=START_TIMEOUT,
            check=False,
        )

    def died(self) -> str | None:
        """Why waiting is pointless: the process ended (with its log), else None."""
        if self.proc is None or self.proc.poll() is None:
            return None
        return f"the bot process exited with {self.proc.returncode}; its log:\n{self.log_tail()}"

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.runs[-1][-lines:]) if self.runs else ""

    def kill(self) -> None:
        """SIGKILL: no clean-up, no goodbye to the gateway, exactly like a crash or an OOM kill."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._wait_disconnected()

    def stop(self) -> None:
        """SIGTERM, and back once the fake has seen the gateway session end (an event sent to the
        server meanwhile would meet a socket the process no longer reads)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self._wait_disconnected()

    def _wait_disconnected(self) -> None:
        def gone() -> bool:
            if self.shards:
                return not set(self.shards) & set(self.fake.connected_shards())
            return not self.fake.connected

        self.fake.wait_until(gone, timeout=10, what="gateway disconnection")
