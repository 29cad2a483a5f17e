"""`spacechess db backup` / `db restore` (issue 14, point 4): a round trip while a game is being played,
on SQLite (the online backup API) and PostgreSQL (a JSON-lines dump read in one snapshot)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.backup import BackupError, backup, restore
from bot.cli import main
from bot.service import Attachment, Context, GameService
from bot.store import Store
from engine import registry
from tests.bot.conftest import _libpq

GUILD, CHANNEL = 5, 6
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
PLAYERS = [Context(user_id=user, user_name=f"p{user}", guild_id=GUILD, channel_id=CHANNEL) for user in (2, 3)]


@pytest.fixture
def target_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A second, empty database on the same backend: where the backup is restored."""
    if make_url(database_url).get_backend_name() == "sqlite":
        yield f"sqlite:///{tmp_path / 'restored.sqlite'}"
        return
    import psycopg

    name = f"spacechess_restore_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_libpq(database_url), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(database_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(_libpq(database_url), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _playing(store: Store) -> GameService:
    svc = GameService(store)
    setup = Attachment("setup.toml", b"goal = 1000000\n")  # nobody wins while the test plays
    assert svc.handle(GM, "tl new", {"name": "Backup", "setup": setup}).ok
    for player in PLAYERS:
        assert svc.handle(player, "tl join", {"name": player.user_name.upper()}).ok
    return svc


def _consistent(store: Store) -> int:
    """Every game's snapshot is the replay of its log (no half commit), seqs without gaps; its log size."""
    [game] = store.list_games()
    log = store.log(game.id)
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
    rules = registry.get(game.kind)
    replayed = GameService(store).replay(game, log)
    assert rules.to_json(replayed) == game.state
    return len(log)


def test_a_backup_taken_while_orders_land_restores_a_consistent_database(store: Store, target_url: str,
                                                                         tmp_path: Path) -> None:
    svc = _playing(store)
    stop, landed = threading.Event(), []

    def play() -> None:  # players keep ordering (small tallies: the game never ends) during the backup
        while not stop.is_set():
            for player in PLAYERS:
                assert svc.handle(player, "tl order", {"text": "add 1"}).ok
                landed.append(player.user_id)

    thread = threading.Thread(target=play)
    thread.start()
    try:
        while len(landed) < 6:
            threading.Event().wait(0.01)
        file = tmp_path / "backup.bin"
        assert backup(store.engine.url.render_as_string(hide_password=False), file) == 1
        at_backup = len(landed)
    finally:
        stop.set()
        thread.join()

    assert restore(target_url, file) == 1
    restored = Store(target_url)
    try:
        entries = _consistent(restored)
        assert entries >= 3 + 6  # creation, two joins, and the orders already landed
        assert entries <= 3 + at_backup + 2  # nothing from after the backup (an order or two in flight)
        [game] = restored.list_games()
        assert restored.seats(game.id) == store.seats(game.id)
        # the restored database goes on: a new game takes a new id, orders land on the restored one
        again = GameService(restored)
        assert again.handle(PLAYERS[0], "tl order", {"text": "add 1"}).ok
        other = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 1, manage_server=True)
        assert again.handle(other, "tl new", {"name": "After"}).ok
        assert restored.game_in_channel(GUILD, CHANNEL + 1).id > game.id
    finally:
        restored.close()


def test_a_restore_over_games_is_refused_unless_forced(store: Store, target_url: str, tmp_path: Path) -> None:
    _playing(store)
    file = tmp_path / "backup.bin"
    backup(store.engine.url.render_as_string(hide_password=False), file)
    restore(target_url, file)
    kept = Store(target_url)
    try:
        assert GameService(kept).handle(PLAYERS[0], "tl order", {"text": "add 2"}).ok
        before = kept.log(kept.list_games()[0].id)
        with pytest.raises(BackupError) as refused:
            restore(target_url, file)
        assert refused.value.key == "console.backup.not_empty"
        assert kept.log(kept.list_games()[0].id) == before  # untouched
        assert restore(target_url, file, force=True) == 1
        assert len(kept.log(kept.list_games()[0].id)) == len(before) - 1  # the backup's state again
    finally:
        kept.close()


def test_the_cli_says_what_it_did_and_why_it_refuses(sqlite_url: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    opened = Store(sqlite_url)
    _playing(opened)
    opened.close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SPACECHESS_CONFIG", raising=False)
    (tmp_path / "config.toml").write_text('[bot]\nlanguage = "en"\n', encoding="utf-8")
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", sqlite_url)
    file = tmp_path / "copy.sqlite"
    assert main(["db", "backup", str(file)]) == 0
    assert capsys.readouterr().out.strip() == f"Backup written to {file}: 1 game(s)."
    assert main(["db", "restore", str(file)]) == 1
    assert "The database is not empty (table games has rows)" in capsys.readouterr().err
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n", encoding="utf-8")
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", f"sqlite:///{tmp_path / 'empty.sqlite'}")
    assert main(["db", "restore", str(junk)]) == 1
    assert "is not a Space Chess backup" in capsys.readouterr().err
