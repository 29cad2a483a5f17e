"""No stack trace from the `spacechess` command (issue 9 point 14): a database that cannot be reached
or written, an unwritable log file, no network, a closed pipe or a full disk end with one line on
stderr and a non-zero status; `--debug` shows the trace.

The command runs as a real process where the failure is the process's own (pipes, tracebacks at exit).
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from bot.store.draws import save_draws
from draws import Draw

ROOT = Path(__file__).resolve().parents[2]
#: a log record (bot.app's format): the only other lines a failing command may have written
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")


def cli(tmp_path: Path, *args: str, database: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SPACECHESS_")}
    env["PYTHONPATH"] = str(ROOT)
    if database is not None:
        env["SPACECHESS_DATABASE_URL"] = database
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=180, check=False)


def one_line_failure(returncode: int, stderr: str, *fragments: str) -> str:
    """The failure's line, after checking it is the only thing said besides log records."""
    assert returncode != 0
    assert "Traceback" not in stderr, stderr
    lines = stderr.splitlines()
    assert lines and lines[-1].startswith("spacechess: "), stderr
    assert [line for line in lines[:-1] if not LOG_LINE.match(line)] == [], stderr
    for fragment in fragments:
        assert fragment in lines[-1]
    return lines[-1]


def test_an_unreachable_postgresql_server(tmp_path):
    pytest.importorskip("psycopg")
    done = cli(tmp_path, "draws", "list", database="postgresql://bot:secret@127.0.0.1:1/games")
    line = one_line_failure(done.returncode, done.stderr, "cannot use the database", "127.0.0.1:1",
                            "Connection refused")
    assert "secret" not in line


def test_a_sqlite_file_in_a_missing_folder(tmp_path):
    url = f"sqlite:///{tmp_path / 'missing' / 'bot.sqlite'}"
    done = cli(tmp_path, "db", "upgrade", database=url)
    one_line_failure(done.returncode, done.stderr, url, "unable to open database file", "folder must exist")


def test_a_read_only_database(tmp_path):
    assert cli(tmp_path, "db", "upgrade", database=f"sqlite:///{tmp_path / 'bot.sqlite'}").returncode == 0
    script = tmp_path / "script.txt"
    script.write_text("/sc new name:Orion\n", encoding="utf-8")
    read_only = f"sqlite:///file:{tmp_path / 'bot.sqlite'}?mode=ro&uri=true"  # root ignores chmod: ask SQLite
    done = cli(tmp_path, "console", "--script", str(script), database=read_only)
    one_line_failure(done.returncode, done.stderr, "readonly database", "read-only")


def test_an_unwritable_log_file(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[logging]\nfile = "{tmp_path / "missing" / "bot.log"}"\n', encoding="utf-8")
    done = cli(tmp_path, "draws", "list", "--config", str(config), database=f"sqlite:///{tmp_path / 'b.sqlite'}")
    one_line_failure(done.returncode, done.stderr, "cannot write the log file", "logging.file",
                     "No such file or directory")


def test_run_without_a_reachable_discord(tmp_path):
    """Nothing listens on port 1: what a machine without network meets, without waiting for DNS."""
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ntoken = "abc"\napi_base = "http://127.0.0.1:1/api/v10"\n', encoding="utf-8")
    done = cli(tmp_path, "run", "--config", str(config), database=f"sqlite:///{tmp_path / 'b.sqlite'}")
    one_line_failure(done.returncode, done.stderr, "cannot reach Discord", "127.0.0.1:1")
    traced = cli(tmp_path, "--debug", "run", "--config", str(config), database=f"sqlite:///{tmp_path / 'b.sqlite'}")
    assert traced.returncode == done.returncode and "Traceback" in traced.stderr
    assert traced.stderr.splitlines()[-1] == done.stderr.splitlines()[-1]


def test_a_closed_pipe(tmp_path):
    """`spacechess draws list | head -3`: the reader leaves after a few lines, with far more than a pipe
    holds still to come (the write that fails, and Python's last flush at exit, must both stay quiet)."""
    url = f"sqlite:///{tmp_path / 'draws.sqlite'}"
    store = Store(url)
    try:
        first = dt.date(1990, 1, 1)
        save_draws(store, [Draw(first + dt.timedelta(days=n), 1, (1, 2, 3, 4, 5)) for n in range(4000)])
    finally:
        store.close()
    env = {key: value for key, value in os.environ.items() if not key.startswith("SPACECHESS_")}
    env.update(PYTHONPATH=str(ROOT), SPACECHESS_DATABASE_URL=url)
    with subprocess.Popen([sys.executable, "-m", "bot.cli", "draws", "list"], cwd=tmp_path, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None and process.stderr is not None
        head = [process.stdout.readline() for _ in range(3)]
        process.stdout.close()
        stderr = process.stderr.read()
        returncode = process.wait(timeout=180)
    assert head[0].startswith("1990-01-01 #1 1 2 3 4 5")
    one_line_failure(returncode, stderr, "the output was closed before the end")


def test_a_full_disk_during_a_console_script(tmp_path, monkeypatch, capsys):
    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SPACECHESS_CONFIG", raising=False)
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", f"sqlite:///{tmp_path / 'bot.sqlite'}")
    monkeypatch.setattr(Store, "commit", full)
    script = tmp_path / "script.txt"
    script.write_text("/sc new name:Orion\nas ann /sc join name:Ann team:1 role:general\n",
                      encoding="utf-8")
    status = main(["console", "--script", str(script), "--lang", "en"])
    err = capsys.readouterr().err
    one_line_failure(status, err, "no space left on device")


# -- issue 23.11: a read-only SQLite file (WAL) or folder ------------------------------------------

@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder of its own for the files whose modes the command meets (`as_reader`)."""
    with tempfile.TemporaryDirectory(prefix="spacechess-ro-") as name:
        top = Path(name)
        top.chmod(0o755)
        folder = top / "data"
        folder.mkdir()
        try:
            yield folder
        finally:
            folder.chmod(0o755)  # so that the clean-up may delete what is inside


def as_reader(folder: Path, *args: str, database: str) -> subprocess.CompletedProcess[str]:
    """The command run by a user for whom file modes count: as root (who ignores them), without the
    capabilities that let root ignore them, so the checkout stays readable wherever it is."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SPACECHESS_")}
    env.update(PYTHONPATH=str(ROOT), SPACECHESS_DATABASE_URL=database, HOME=str(folder.parent))
    command = [sys.executable, "-m", "bot.cli", *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv (util-linux): no user for whom file modes count")
        command = [setpriv, "--bounding-set=-all", "--inh-caps=-all", *command]
    return subprocess.run(command, cwd=folder.parent, env=env, capture_output=True, text=True, timeout=180,
                          check=False)


def stored_database(folder: Path) -> tuple[str, Path]:
    path = folder / "bot.sqlite"
    store = Store(f"sqlite:///{path}")
    try:
        save_draws(store, [Draw(dt.date(2024, 3, 4), 1, (1, 2, 3, 4, 5)), Draw(dt.date(2024, 3, 6), 1, (6, 7, 8, 9, 10))])
    finally:
        store.close()
    return f"sqlite:///{path}", path


#: (file mode, folder mode) of each case: the file read-only (in a writable folder, or in a read-only
#: one as another user's database usually is), or the file writable in a read-only folder
MODES = {"file": (0o444, 0o777), "file_and_folder": (0o444, 0o555), "folder": (0o666, 0o555)}


def make_read_only(url_path: Path, case: str) -> None:
    file_mode, folder_mode = MODES[case]
    url_path.chmod(file_mode)
    url_path.parent.chmod(folder_mode)


@pytest.mark.parametrize("case", MODES)
def test_draws_list_reads_a_read_only_database(shared_folder: Path, case: str) -> None:
    """WAL readers write the -shm index next to the file: a read-only folder refused even `draws list`.
    Now it is read as it is, and the database file is left as it was."""
    url, path = stored_database(shared_folder)
    make_read_only(path, case)
    before = path.read_bytes()
    done = as_reader(shared_folder, "draws", "list", database=url)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == ["2024-03-04 #1 1 2 3 4 5 (fdj)", "2024-03-06 #1 6 7 8 9 10 (fdj)"]
    assert path.read_bytes() == before


@pytest.mark.parametrize(("case", "reason"), [
    ("file", "the file {path} is read-only for this user: make it writable, or run the command as its owner"),
    ("folder", "the folder {folder} is not writable by this user, and SQLite writes bot.sqlite-wal and "
               "bot.sqlite-shm next to the database: make the folder writable, or run the command as its owner"),
], ids=["file", "folder"])
def test_a_write_says_which_of_the_file_or_its_folder_is_read_only_and_how_to_fix_it(
        shared_folder: Path, case: str, reason: str) -> None:
    url, path = stored_database(shared_folder)
    script = shared_folder.parent / "script.txt"
    script.write_text("/sc new name:Orion\n", encoding="utf-8")
    make_read_only(path, case)
    before = path.read_bytes()
    done = as_reader(shared_folder, "console", "--script", str(script), database=url)
    line = one_line_failure(done.returncode, done.stderr, f"cannot use the database {url}")
    assert line.endswith(f"({reason.format(path=path, folder=shared_folder)})"), line
    assert path.read_bytes() == before  # (SQLite may have made its -shm index beside it: no data)


def test_a_read_only_folder_whose_log_holds_changes_is_refused_in_one_line(shared_folder: Path) -> None:
    """Without its -shm index, a write-ahead log still holding changes cannot be read from a read-only
    folder: reading the file alone would show the database as it was before them."""
    url, path = stored_database(shared_folder)
    elsewhere = shared_folder.parent / "live.sqlite"
    writer = sqlite3.connect(elsewhere)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("CREATE TABLE t (x)")
        writer.commit()
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("INSERT INTO t VALUES (1)")
        writer.commit()
        path.write_bytes(elsewhere.read_bytes())
        (shared_folder / f"{path.name}-wal").write_bytes(Path(f"{elsewhere}-wal").read_bytes())
    finally:
        writer.close()
    shared_folder.chmod(0o555)
    done = as_reader(shared_folder, "draws", "list", database=url)
    line = one_line_failure(done.returncode, done.stderr, f"cannot use the database {url}")
    assert line.endswith(f"the folder {shared_folder} is not writable by this user and {path.name}-wal holds "
                         "changes not yet in the database file, which cannot be read without writing there: "
                         "make the folder writable, or run the command as its owner")
