"""Issue 9, game state: ended is final, an export holds everything a game needs, undoing a leave gives
the seat back, and a GM correction during a pause keeps the game paused."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import update

from bot.service import Attachment, Context
from bot.store.draws import applied_evenings
from bot.store.models import GameRow
from tests.bot.discord.lobby import last_evening
from tests.bot.service.test_spacechess_commands import (
    CHANNEL,
    CID,
    GM,
    GUILD,
    game,
    keys,
    lobby,
    ok,
    svc,  # noqa: F401 — the Space Chess service fixture
)

ELSEWHERE = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 10, manage_server=True)


def snapshot(service):
    current = game(service)
    return current, service.store.log(current.id), service.store.seats(current.id)


def started(service):
    lobby(service)
    ok(service.handle(GM, "gm start", {}))
    return service


def confirmed(service, ctx, path, **options):
    ask = service.handle(ctx, path, options)
    assert ask.buttons, ask.messages
    return service.handle(ctx, path, dict(ask.buttons[0].options))


# -- 5. ended is final --------------------------------------------------------------------------------

def test_an_ended_game_takes_no_change_and_stays_finished(svc):  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "sc set", {"character": "Cid", "ap": 5, "reason": "test"}))
    ended = ok(confirmed(svc, GM, "gm end"))
    assert [f.filename for f in ended.files] == ["recap.png"]  # the recap a game ended by its rules posts
    before = snapshot(svc)
    assert before[0].status == "finished"
    refusals = {
        "gm undo": {},
        "sc set": {"character": "Cid", "hp": 3, "reason": "fix"},
        "sc pickup": {"cell": "M10", "kind": "ap", "amount": 2},
        "gm kick": {"user": CID.user_id},
        "gm replace": {"character": "Cid", "user": 99},
        "gm draw": {"numbers": "1 2 3 4 5", "date": "2024-03-06"},
    }
    for path, options in refusals.items():
        assert keys(svc.handle(GM, path, options)) == ["error.game_over"], path
    assert keys(svc.handle(CID, "sc order", {"text": "move L3"})) == ["error.game_over"]
    assert snapshot(svc) == before


# -- 6. export and import ---------------------------------------------------------------------------

def test_an_export_round_trip_keeps_options_status_seats_history_and_draws(svc):  # noqa: F811
    started(svc)
    with svc.store.engine.begin() as connection:  # as /sc new draws:manual limit_draws:40 stores them
        connection.execute(update(GameRow).where(GameRow.id == game(svc).id)
                           .values(options={"draws": "manual", "limit_draws": 40}))
    ok(confirmed(svc, GM, "gm draw", numbers="29 33 36 40 41", date=last_evening()))
    ok(svc.handle(GM, "gm pause", {}))
    original = game(svc)
    exported = ok(svc.handle(GM, "gm export", {})).files[0].data
    imported = ok(svc.handle(ELSEWHERE, "gm import", {"file": Attachment("orion.json", exported)}))
    assert imported.messages[0].key == "gm.imported"
    copy = svc.store.game_in_channel(GUILD, CHANNEL + 10)
    assert (copy.status, copy.options, copy.state, copy.setup, copy.seed) == (
        "paused", {"draws": "manual", "limit_draws": 40}, original.state, original.setup, original.seed)
    assert [(s.user_id, s.actor) for s in svc.store.seats(copy.id)] == [
        (s.user_id, s.actor) for s in svc.store.seats(original.id)]
    history = [(e.kind, e.actor, e.user_id, e.payload, e.created_at) for e in svc.store.log(copy.id)]
    assert history[:-1] == [(e.kind, e.actor, e.user_id, e.payload, e.created_at)
                            for e in svc.store.log(original.id)]
    assert history[-1][0] == "import"
    evenings = applied_evenings(svc.store, copy.id)
    assert evenings == applied_evenings(svc.store, original.id) and len(evenings) == 1


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d.update(format=99), "format"),
        (lambda d: d.pop("game"), "game"),
        (lambda d: d.update(log={"a": 1}), "log"),
        (lambda d: d["log"][2].update(seq="three"), "log[2].seq"),
        (lambda d: d["log"][0].update(time="yesterday"), "log[0].time"),
        (lambda d: d["game"].update(seed=2**70), "game.seed"),
        (lambda d: d["game"].update(name="<@&42>"), "game.name"),
        (lambda d: d["game"].update(status="revived"), "game.status"),
        (lambda d: d["game"]["options"].update(draws="often"), "game.options.draws"),
        (lambda d: d["seats"][0].update(actor="Nobody"), "seats[0].actor"),
        (lambda d: d["seats"].append(dict(d["seats"][0])), "seats"),
        # refused by the replay: the first equip, entry 6 (issue 23.7)
        (lambda d: next(e for e in d["log"] if e["kind"] == "equip")["payload"].update(id="Nobody"), "log[5]"),
    ],
)
def test_a_bad_export_is_refused_with_where_and_nothing_is_created(svc, mutate, where):  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "gm pause", {}))
    doc = json.loads(ok(svc.handle(GM, "gm export", {})).files[0].data)
    mutate(doc)
    reply = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("bad.json", json.dumps(doc).encode())})
    assert keys(reply) in (["error.bad_export"], ["error.export_replay"])
    assert reply.messages[0].params["where"] == where
    assert svc.store.game_in_channel(GUILD, CHANNEL + 10) is None


def test_a_file_that_is_not_an_export_is_refused_in_words(svc):  # noqa: F811
    from bot.i18n import translate

    for data in (b"\xff\xfe", b"{nope", b"[1, 2]", b"{}"):
        reply = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("x.json", data)})
        assert keys(reply) == ["error.bad_export"]
        text = translate(reply.messages[0].key, "en", reply.messages[0].params)
        assert "export." not in text and "'" not in text.split(":", 1)[1], text
    assert svc.store.game_in_channel(GUILD, CHANNEL + 10) is None


# -- 7. undoing a leave ------------------------------------------------------------------------------

def test_undoing_a_leave_gives_the_seat_back(svc):  # noqa: F811
    lobby(svc)
    ok(svc.handle(CID, "game leave", {}))
    assert svc.store.seat_of_user(game(svc).id, CID.user_id) is None
    ok(confirmed(svc, GM, "gm undo"))
    seat = svc.store.seat_of_user(game(svc).id, CID.user_id)
    assert seat is not None and seat.actor == "Cid"
    ok(svc.handle(CID, "sc deploy", {"cell": "L1"}))  # Cid plays their character again


def test_undoing_a_leave_frees_a_newer_seat_in_the_same_undo(svc):  # noqa: F811
    lobby(svc)
    ok(svc.handle(CID, "game leave", {}))
    ok(svc.handle(CID, "sc join", {"name": "Cy", "team": "1", "role": "soldier"}))
    ok(confirmed(svc, GM, "gm undo", n=2))  # the new join and the leave: Cid is Cid again
    assert [(s.user_id, s.actor) for s in svc.store.seats(game(svc).id) if s.user_id == CID.user_id] == [
        (CID.user_id, "Cid")]


def test_undoing_a_leave_is_refused_when_the_member_holds_another_seat(svc):  # noqa: F811
    lobby(svc)
    ok(svc.handle(CID, "game leave", {}))
    ok(svc.handle(GM, "gm replace", {"character": "Dee", "user": CID.user_id}))
    before = snapshot(svc)
    refused = confirmed(svc, GM, "gm undo")
    assert keys(refused) == ["error.undo_seat_taken"]
    assert refused.messages[0].params == {"user": CID.user_id, "name": "Cid", "other": "Dee"}
    assert snapshot(svc) == before


# -- 8. a correction during a pause ------------------------------------------------------------------

def test_gm_set_during_a_pause_keeps_the_game_paused(svc):  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "gm pause", {}))
    ok(svc.handle(GM, "sc set", {"character": "Cid", "ap": 4, "reason": "lost AP"}))
    assert game(svc).status == "paused"
    assert keys(svc.handle(CID, "sc move", {"to": "L3"})) == ["error.game_paused"]
