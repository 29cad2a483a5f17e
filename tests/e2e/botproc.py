"""The real `spacechess run` process, pointed at a fake Discord, started and killed by tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.fake_discord.server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
#: Environment variables of the bot that must not leak from the developer's shell into a test.
_BOT_ENV = ("SPACECHESS_TOKEN", "SPACECHESS_DATABASE_URL", "SPACECHESS_CONFIG")


def write_config(folder: Path, fake: FakeDiscord, *, guild_sync: bool = False) -> Path:
    """A config whose database is a SQLite file in `folder` and whose Discord is `fake`; with
    `guild_sync` the commands are synced to the fake's server instead of globally."""
    config = folder / "config.toml"
    guild_ids = [fake.guild.id] if guild_sync else []
    config.write_text(
        f"""
[bot]
token = "fake-token"
language = "fr"
guild_ids = {guild_ids}
api_base = "{fake.api_base}"
gateway_url = "{fake.gateway_url}"

[database]
url = "sqlite:///bot.sqlite"

[draws]
source = "manual"
""",
        encoding="utf-8",
    )
    return config


class BotProcess:
    """One bot process at a time on a config; `start` again after `kill` restarts it on the same database."""

    def __init__(self, fake: FakeDiscord, config: Path) -> None:
        self.fake = fake
        self.config = config
        self.log_path = config.parent / "bot.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        """Launch and wait until the bot identified on the fake gateway (its commands are synced by then)."""
        identified = len(self.fake.identifies)
        env = {k: v for k, v in os.environ.items() if k not in _BOT_ENV}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts} ---\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "run", "--config", str(self.config)],
                cwd=self.config.parent, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        proc = self.proc
        threading.Thread(target=lambda: (proc.wait(), self.fake.poke()), daemon=True).start()
        self.fake.wait_until(lambda: len(self.fake.identifies) > identified, timeout=START_TIMEOUT,
                             what="IDENTIFY from the bot", abort=self.died)

    def died(self) -> str | None:
        """Why waiting is pointless: the process ended (with its log), else None."""
        if self.proc is None or self.proc.poll() is None:
            return None
        return f"the bot process exited with {self.proc.returncode}; its log:\n{self.log_tail()}"

    def log_tail(self, lines: int = 60) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL: no clean-up, no goodbye to the gateway, exactly like a crash or an OOM kill."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.fake.wait_until(lambda: not self.fake.connected, timeout=10, what="gateway disconnection")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
