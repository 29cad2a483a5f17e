"""Costs that stay flat (issue 14, point 3), checked by what they do, never by timing: a history page
and an undo listing read the page, not the log, and read it as the whole log would; an order is one
connection checkout and a handful of statements reading the game once; a pass over every game reads
them in batches; `import bot.cli` and a start on a migrated database load no heavy library."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bot.service import Attachment, Context, GameService, ServiceError
from bot.service.export_doc import encode_export, read_export
from bot.service.logpage import history_page, undo_targets
from bot.service.replaying import effective_inputs
from bot.service.secrecy import sealed_seqs, undone_seqs
from bot.store import GameRecord, NewEntry, Store
from engine import registry

ROOT = Path(__file__).resolve().parents[3]


def _sealed_log() -> list[NewEntry]:
    """A sealed-bid game's log: joins, secret orders, reveals, bookkeeping and undos (of an order,
    of a reveal, of an undone-then-redone order), in an order that exercises every rule."""
    entries = [NewEntry("create", None, 1, {}), NewEntry("join", "Ann", 2, {"id": "Ann"}),
               NewEntry("join", "Bob", 3, {"id": "Bob"})]
    for turn in range(6):
        entries += [NewEntry("order", "Ann", 2, {"text": f"bid {turn}"}),
                    NewEntry("order", "Bob", 3, {"text": f"bid {turn + 1}"})]
        if turn == 2:
            entries.append(NewEntry("pause", None, 1, {}))
        entries.append(NewEntry("resolve", None, None, {}))
    entries.append(NewEntry("undo", None, 1, {"seqs": [len(entries)]}))  # the last reveal taken back
    entries += [NewEntry("order", "Ann", 2, {"text": "bid 9"}), NewEntry("undo", None, 1, {"seqs": [5, 6]})]
    return entries


def test_a_history_page_and_an_undo_listing_read_as_the_whole_log_would(sqlite_store: Store,
                                                                      make_game: Callable[..., GameRecord]) -> None:
    game = make_game(sqlite_store, kind="sealed", entries=_sealed_log())
    rules = registry.get("sealed")
    entries = sqlite_store.log(game.id)
    sealed, undone = sealed_seqs(rules, entries), undone_seqs(entries)
    assert sealed and undone  # the log has both, or this test proves nothing
    newest_first = entries[::-1]
    for page in range(1, 6):
        listing = history_page(sqlite_store, rules, game.id, page, 7)
        expected = newest_first[(min(page, 4) - 1) * 7: min(page, 4) * 7]
        assert (listing.page, listing.pages) == (min(page, 4), 4)
        assert list(listing.entries) == expected
        assert listing.sealed == sealed & {e.seq for e in expected}
        assert listing.undone == undone
    for count in (1, 2, 5, 50):
        targets, target_sealed = undo_targets(sqlite_store, rules, game.id, count)
        assert targets == effective_inputs(rules, entries)[-count:]
        assert target_sealed == sealed & {e.seq for e in targets}


def test_a_history_page_reads_the_page_not_the_log(sqlite_store: Store, make_game: Callable[..., GameRecord]) -> None:
    game = make_game(sqlite_store, kind="sealed", entries=_sealed_log() * 40)
    rows = _rows_read(sqlite_store)
    history_page(sqlite_store, registry.get("sealed"), game.id, 3, 10)
    # the page, the undo entries and the reveals: not the 1,000 bids
    assert 10 <= rows() <= 10 + 3 * 40 + 6 * 40 + 1


def _rows_read(store: Store) -> Callable[[], int]:
    """How many rows the store's reads returned from now on."""
    fetched = [0]
    original = store._fetch

    def fetch(query: Any) -> list[Any]:
        rows = original(query)
        fetched[0] += len(rows)
        return rows

    store._fetch = fetch  # type: ignore[method-assign]
    return lambda: fetched[0]


@pytest.fixture
def tally_service(store: Store) -> GameService:
    svc = GameService(store)
    gm = Context(user_id=1, user_name="gm", guild_id=3, channel_id=4, manage_server=True)
    setup = Attachment("setup.toml", b"goal = 1000000\n")
    assert svc.handle(gm, "tl new", {"name": "Counted", "setup": setup}).ok
    assert svc.handle(Context(user_id=2, user_name="ann", guild_id=3, channel_id=4), "tl join", {"name": "Ann"}).ok
    return svc


def test_an_order_is_one_checkout_and_a_few_statements_reading_the_game_once(tally_service: GameService) -> None:
    engine = tally_service.store.engine
    checkouts, statements = [], []
    listen = [(engine.pool, "checkout", lambda *a: checkouts.append(1)),
              (engine, "before_cursor_execute", lambda c, cur, sql, *a: statements.append(sql))]
    for target, name, fn in listen:
        event.listen(target, name, fn)
    try:
        reply = tally_service.handle(Context(user_id=2, user_name="ann", guild_id=3, channel_id=4),
                                     "tl order", {"text": "add 2"})
    finally:
        for target, name, fn in listen:
            event.remove(target, name, fn)
    assert reply.ok, reply.messages
    assert len(checkouts) == 1
    game_reads = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "FROM games" in s]
    assert len(game_reads) == 1, game_reads
    writes = [s for s in statements if s.lstrip().split()[0].upper() in ("UPDATE", "INSERT", "DELETE")]
    assert len(writes) == 2, writes  # the guarded UPDATE ... RETURNING and the numbered log INSERT
    assert len(statements) <= 8, statements


def test_a_pass_over_every_game_reads_them_in_batches(sqlite_store: Store, make_game: Callable[..., GameRecord]) -> None:
    made = [make_game(sqlite_store, channel_id=channel, status="running") for channel in range(7)]
    make_game(sqlite_store, channel_id=99, status="paused")
    batches = list(sqlite_store.iter_games(statuses=("running",), batch=3))
    assert [len(batch) for batch in batches] == [3, 3, 1]
    assert [game.id for batch in batches for game in batch] == [game.id for game in made]
    assert sqlite_store.list_games(statuses=("running",)) == [game for batch in batches for game in batch]


def test_an_export_reads_back_as_the_document_and_unstorable_files_are_still_refused() -> None:
    document = {"format": 2, "game": {"kind": "tally", "name": "É", "seed": 1, "status": "running", "options": {}},
                "seats": [], "setup": {"goal": 5}, "view": {"a": [1, 2]},
                "log": [{"seq": 1, "kind": "join", "actor": "Ann", "user": 2, "payload": {"id": "Ann"},
                         "time": "2024-03-04T12:00:00+00:00"}]}
    data = encode_export(document)
    assert json.loads(data) == document
    assert read_export(data, "ok.json").log[0].actor == "Ann"
    for bad, where in ((data.replace(b'"goal": 5', b'"goal": NaN'), "setup.goal"),
                       (data.replace(b'"goal": 5', b'"goal": 99999999999999999999'), "setup.goal"),
                       (data.replace(b'"goal": 5', b'"goal": ' + b"[" * 20 + b"]" * 20), "setup.goal")):
        with pytest.raises(ServiceError) as refused:
            read_export(bad, "bad.json")
        assert refused.value.key == "error.bad_export"
        assert refused.value.params["where"].startswith(where)


def test_the_command_line_loads_no_heavy_library_before_a_command_needs_it(sqlite_url: str) -> None:
    heavy = ("sqlalchemy", "pydantic", "alembic", "PIL", "discord", "sqlmodel")
    probe = f"import sys, bot.cli; print([m for m in {heavy!r} if m in sys.modules])"
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
    Store(sqlite_url).close()  # migrated once
    again = f"import sys; from bot.store import Store; Store({sqlite_url!r}).close(); print('alembic' in sys.modules)"
    started = subprocess.run([sys.executable, "-c", again], cwd=ROOT, capture_output=True, text=True, check=True)
    assert started.stdout.strip() == "False"  # a database at the head needs no migration machinery
