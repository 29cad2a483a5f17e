"""A throwaway PostgreSQL 15 cluster of a test's own, which the test may stop, start and make hang.

The shared test server (SPACECHESS_TEST_DATABASE_URL) serves every test at once: restarting it would
break the others. A test that restarts its database starts this one instead, from the binaries
`.ci/run` uses (initdb refuses to run as root: there it runs as an unprivileged system user, as
`.ci/run` does). Durability is on (`synchronous_commit`): a commit is what a restart must keep.

`hold_commits` makes every commit wait for a synchronous standby that never comes: the commit is
written to the server's log, then the backend waits. A restart in that wait keeps the transaction
(recovery replays it) while its client is told the connection failed — the ambiguous commit a real
restart makes, at a moment the test chooses.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PG_BIN = Path(os.environ.get("SPACECHESS_PG_BIN", "/usr/lib/postgresql/15/bin"))
#: the unprivileged user `.ci/run` runs PostgreSQL as, when it exists; else Debian's `nobody`
SYSTEM_USERS = ("spacechess-ci", "nobody")
TIMEOUT = 60


def missing_binaries() -> str | None:
    """Why no cluster can be started here (None: it can)."""
    for tool in ("initdb", "pg_ctl", "postgres"):
        if not os.access(PG_BIN / tool, os.X_OK):
            return f"no PostgreSQL binaries in {PG_BIN} ({tool} missing): install postgresql-15 to run this test"
    return None


def _system_user() -> str | None:
    if os.getuid() != 0:
        return None
    for name in SYSTEM_USERS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError(f"running as root without any of the users {SYSTEM_USERS} to run PostgreSQL as")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """`start` it, use `url`, `stop` and `start` it again at will; `close` removes it."""

    def __init__(self) -> None:
        self.user = _system_user()
        self.folder = Path(tempfile.mkdtemp(prefix="spacechess-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        if self.user is not None:
            shutil.chown(self.folder, self.user)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        command = [str(PG_BIN / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=TIMEOUT, check=False)
        if done.returncode != 0:
            log = self.folder / "server.log"
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}"
                               + (log.read_text(errors="replace")[-3000:] if log.exists() else ""))

    def start(self) -> None:
        """Start the server (its data made at the first start)."""
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                      "--no-sync")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c max_connections=50"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options, "-w",
                  "-t", str(TIMEOUT), "start")

    def stop(self) -> None:
        """A fast shutdown, as a restart by its administrator: every connection is cut."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", str(TIMEOUT), "stop")

    def sql(self, statement: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            cursor = connection.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def hold_commits(self, held: bool) -> None:
        """From now on (`held`), every commit waits for a standby that does not exist; `held` False takes
        the setting back for the next start only (the commits waiting now keep waiting)."""
        if held:
            self.sql("ALTER SYSTEM SET synchronous_standby_names = 'absent_standby'")
            self.sql("SELECT pg_reload_conf()")
        else:
            self.sql("ALTER SYSTEM RESET synchronous_standby_names")

    def waiting_commits(self) -> int:
        """How many commits wait for the absent standby now."""
        return self.sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")[0][0]

    def close(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
