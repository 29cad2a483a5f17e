"""`/gm export` and `/gm import` of a long game (issue 14), on both backends: the file has one line
per log entry as the encoder writes it, with its author; an import gives the same log, times and
state back; and each field of each entry is checked, a fault refused with where it is and nothing
created."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.service import Attachment, Context, GameService
from bot.service.export_doc import collector_paused
from bot.store import GameRecord, NewEntry, Store
from engine import registry

GUILD, CHANNEL = 3, 40
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ELSEWHERE = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 1, manage_server=True)
START = datetime(2024, 3, 4, 12, 0, tzinfo=UTC)


@pytest.fixture
def svc(store: Store) -> GameService:
    return GameService(store)


def _long_game(store: Store, orders: int) -> GameRecord:
    """A running tally game as its commands would have left it: two joins, orders of both players,
    every 25 entries a GM's bookkeeping entry with words JSON escapes, and an undo of an order."""
    log = [NewEntry("join", "Ann", 2, {"id": "Ann"}, START), NewEntry("join", "Bob", 3, {"id": "Bob"}, START)]
    for index in range(orders):
        when = START + timedelta(minutes=index, microseconds=index % 7)
        log.append(NewEntry("order", ("Ann", "Bob")[index % 2], 2 + index % 2, {"text": ("add 1", "ajoute 2")[index % 2]},
                            when))
        if index % 25 == 24:
            log.append(NewEntry("pause", None, 1, {"reason": "Pause café ☕ «l'Étoile»\n\"2\"", "at": [index, {"n": None}]},
                                when))
            log.append(NewEntry("undo", None, 1, {"seqs": [len(log) - 1]}, when))  # the order before the pause
    rules = registry.get("tally")
    state = rules.setup({"goal": 10**9})
    undone = {seq for entry in log if entry.kind == "undo" for seq in entry.payload["seqs"]}
    for seq, entry in enumerate(log, start=1):
        if entry.kind in rules.input_kinds and seq not in undone:
            state = rules.apply_input(state, entry.kind, entry.actor, entry.payload).state
    return store.create_game(kind="tally", name="Long", guild_id=GUILD, channel_id=CHANNEL, setup={"goal": 10**9},
                             state=rules.to_json(state), seed=5, created_by=1, status="running", entries=log,
                             seats=[(2, "Ann", False), (3, "Bob", True)])


def _export(svc: GameService) -> bytes:
    reply = svc.handle(GM, "gm export", {})
    assert reply.ok and [m.key for m in reply.messages] == ["gm.exported"], reply.messages
    return reply.files[0].data


def test_a_long_game_exports_one_line_per_entry_and_imports_back_the_same(svc: GameService) -> None:
    game = _long_game(svc.store, 300)
    data = _export(svc)
    document = json.loads(data)
    lines = data.decode().splitlines()
    opening = lines.index(' "log": [')
    assert lines[opening + 1:opening + 1 + len(document["log"])] == [
        "  " + json.dumps(entry, ensure_ascii=False, sort_keys=True) + ("," if seq < len(document["log"]) else "")
        for seq, entry in enumerate(document["log"], start=1)]
    original = svc.store.log(game.id)
    assert [(e["seq"], e["kind"], e["actor"], e["user"], e["payload"], e["time"]) for e in document["log"]] == [
        (e.seq, e.kind, e.actor, e.user_id, e.payload, e.created_at.isoformat()) for e in original]
    authors = {(e["kind"], json.dumps(e["author"], sort_keys=True)) for e in document["log"]}
    assert authors == {("join", '{"actor": "Ann", "role": "player", "user": 2}'),
                       ("join", '{"actor": "Bob", "role": "player", "user": 3}'),
                       ("order", '{"actor": "Ann", "role": "player", "user": 2}'),
                       ("order", '{"actor": "Bob", "role": "player", "user": 3}'),
                       ("pause", '{"role": "gm", "user": 1}'), ("undo", '{"role": "gm", "user": 1}')}

    imported = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("long.json", data)})
    assert imported.ok and imported.messages[0].key == "gm.imported", imported.messages
    copy = svc.store.game_in_channel(GUILD, CHANNEL + 1)
    assert (copy.state, copy.status, copy.setup, copy.seed) == (game.state, "running", game.setup, game.seed)
    again = svc.store.log(copy.id)
    assert [(e.seq, e.kind, e.actor, e.user_id, e.payload, e.created_at) for e in again[:-1]] == [
        (e.seq, e.kind, e.actor, e.user_id, e.payload, e.created_at) for e in original]
    assert again[-1].kind == "import"
    assert [(s.user_id, s.actor, s.mute_pings) for s in svc.store.seats(copy.id)] == [(2, "Ann", False), (3, "Bob", True)]


def _entry(index: int, **changes: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(document: dict[str, Any]) -> None:
        document["log"][index].update(changes)
    return mutate


def _drop(index: int, field: str) -> Callable[[dict[str, Any]], None]:
    return lambda document: document["log"][index].pop(field)


def _replace_entry(index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda document: document["log"].__setitem__(index, value)


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (_replace_entry(7, "order"), "log[7]"),
        (_entry(7, seq=9), "log[7].seq"),
        (_entry(7, seq=True), "log[7].seq"),
        (_entry(7, actor="<@&42>"), "log[7].actor"),
        (_entry(7, actor=5), "log[7].actor"),
        (_entry(7, user="2"), "log[7].user"),
        (_entry(7, user=2**70), "log[7].user"),
        (_drop(7, "time"), "log[7].time"),
        (_entry(7, time="2024-03-04T12:00:00"), "log[7].time"),  # no zone: not a time the bot wrote
        (_entry(7, time="soon"), "log[7].time"),
        (_entry(7, payload=[1]), "log[7].payload"),
        (_entry(7, payload={"text": _deep(20)}), "log[7].payload.text[0]"),
        (_entry(7, kind=""), "log[7].kind"),
        (_entry(7, kind=3), "log[7].kind"),
        (_entry(7, payload={"text": "add 9"}), "log[7]"),  # refused by the replay, not by the reader
    ],
)
def test_each_field_of_a_log_entry_is_checked_and_a_fault_creates_nothing(
        svc: GameService, mutate: Callable[[dict[str, Any]], None], where: str) -> None:
    _long_game(svc.store, 30)
    document = json.loads(_export(svc))
    mutate(document)
    reply = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("bad.json", json.dumps(document).encode())})
    assert [m.key for m in reply.messages] in (["error.bad_export"], ["error.export_replay"])
    assert reply.messages[0].params["where"].startswith(where), reply.messages[0].params
    assert [game.channel_id for game in svc.store.list_games()] == [CHANNEL]


def test_the_collector_is_held_off_while_a_whole_log_is_built_and_runs_again_after(svc: GameService) -> None:
    """The cyclic collector would walk the log's records again at each of its passes while they pile
    up: an export and an import run without it, and leave it running, refused or not."""
    _long_game(svc.store, 30)
    seen: list[bool] = []
    reads = svc.store.log

    def spied(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return reads(*args, **kwargs)

    svc.store.log = spied  # type: ignore[method-assign]
    data = _export(svc)
    assert seen == [False] and gc.isenabled()
    refused = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("bad.json", data.replace(b'"add 1"', b'"add 9"'))})
    assert [m.key for m in refused.messages] == ["error.export_replay"] and gc.isenabled()


def test_the_collector_runs_again_only_when_the_last_holder_ends_and_only_if_it_ran_before() -> None:
    assert gc.isenabled()
    with collector_paused():
        with collector_paused():  # another thread's export, say
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()  # whoever turned it off keeps it off
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
