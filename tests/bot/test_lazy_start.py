"""The console shows its prompt before it loads the store and the games (issue 14: first prompt
<= 300 ms): what the prompt needs imports no SQLAlchemy, Pillow or game, the service opens on a thread
behind it, and the first command still works, or fails as it would have, once that thread is done.

Not timed (benchmarks/bench_flat_costs.py --only start measures): each test runs `spacechess console`
in a fresh process, where `sys.modules` says what the prompt cost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[2]

#: what the prompt must not wait for: the database layer, drawing, Discord, the network, every game
HEAVY = ("sqlalchemy", "alembic", "sqlmodel", "PIL", "discord", "requests", "bot.store.repo", "bot.service.core",
         "bot.games.spacechess", "bot.games.spaceblast", "engine.spacechess", "engine.spaceblast", "engine.arkeon",
         "engine.hexarena", "renders")

#: `spacechess console` whose service may open only once the prompt is shown: the first `input()`
#: prints what is loaded then and opens the gate (a console opening its service before the prompt
#: would wait at the gate and fail)
PROBE = f"""
import builtins, sys, threading
import bot.app

gate = threading.Event()
open_service = bot.app.open_service

def open_after_the_prompt(settings):
    if not gate.wait(timeout=20):
        raise RuntimeError("the console opened its service before showing its prompt")
    return open_service(settings)

typed = builtins.input

def first_input(prompt):
    print("loaded at the prompt:", [m for m in {HEAVY!r} if m in sys.modules], flush=True)
    builtins.input = typed
    gate.set()
    return typed(prompt)

bot.app.open_service = open_after_the_prompt
builtins.input = first_input
from bot.cli import main
sys.exit(main(sys.argv[1:]))
"""


def console(tmp_path: Path, typed: str, database: str, *args: str, probe: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONPATH": str(ROOT)}
    for variable in ("SPACECHESS_CONFIG", "SPACECHESS_DATABASE_URL"):
        env.pop(variable, None)
    if database:
        env["SPACECHESS_DATABASE_URL"] = database
    command = ["-c", PROBE] if probe else ["-m", "bot.cli"]
    return subprocess.run([sys.executable, *command, "console", "--lang", "en", "--out", str(tmp_path / "out"), *args],
                          cwd=tmp_path, env=env, input=typed, capture_output=True,
                          text=True, timeout=120)


def test_the_prompt_comes_before_the_store_and_the_games_and_the_first_command_works(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"  # a relative SQLite path, resolved next to the file without SQLAlchemy
    config.write_text('[database]\nurl = "sqlite:///data/bot.sqlite"\n', encoding="utf-8")
    (tmp_path / "data").mkdir()
    done = console(tmp_path, "/game info\nin #orion /sc new name:Orion\n", "", "--config", str(config))
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert "loaded at the prompt: []" in lines
    assert "[#general @gm] ! There is no game in this channel." in done.stdout
    assert "Game **Orion** (spacechess) created in this channel (#1).\n[#orion @gm] " in done.stdout
    assert (tmp_path / "data" / "bot.sqlite").exists()


def test_a_database_that_cannot_open_ends_the_session_shown_its_prompt(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'no such folder' / 'bot.sqlite'}"
    for typed in ("/game info\n", ""):  # a line typed, or none before Ctrl-D: the failure is said either way
        done = console(tmp_path, typed, missing, probe=False)
        assert done.returncode == 1
        assert done.stdout.startswith("Space Chess console") and "[#general @gm] " in done.stdout
        assert "There is no game" not in done.stdout
        assert done.stderr.strip() == (f"spacechess: cannot use the database {missing}: unable to open database file "
                                       "(its folder must exist and be writable)")


@pytest.mark.parametrize("url", [
    "sqlite:///bot.sqlite", "sqlite:///data/b%20c.sqlite?timeout=3", "sqlite+pysqlite:///a b+c.db",
    "sqlite:////srv/bot.sqlite", "sqlite://", "sqlite:///:memory:", "sqlite:///file:bot.db?uri=true",
    "postgresql://bot:secret@db:5432/spacechess", "postgresql+psycopg://bot@db/spacechess",
])
def test_the_config_reads_database_urls_as_sqlalchemy_does(tmp_path: Path, url: str) -> None:
    """The config reads its URLs without SQLAlchemy (its import alone is the prompt's budget): a
    relative SQLite path still lands next to the config file, every other URL as it was written."""
    from sqlalchemy.engine import make_url

    path = tmp_path / "config.toml"
    path.write_text(f'[database]\nurl = "{url}"\n', encoding="utf-8")
    parsed = make_url(url)
    database = parsed.database or ""
    moved = (parsed.get_backend_name() == "sqlite" and database not in ("", ":memory:")
             and not database.startswith("file:") and not Path(database).is_absolute())
    expected = parsed.set(database=str((tmp_path / database).resolve())).render_as_string(hide_password=False)
    assert load_settings(path, env={}).database.url == (expected if moved else url)


@pytest.mark.parametrize(("url", "reason"), [
    ("spacechess.sqlite", "not a database URL"), ("mysql://root@db/bot", "not 'mysql'"),
])
def test_what_is_no_sqlite_or_postgresql_url_is_refused_at_load(tmp_path: Path, url: str, reason: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[database]\nurl = "{url}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_settings(path, env={})
    assert refused.value.key == "database.url" and reason in refused.value.reason
