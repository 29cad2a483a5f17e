"""Applying stored draws to running Space Chess games: SC-13..SC-16 through the engine, and PRODUCT.md's
Storage model — each draw applied to each game exactly once, in draw order, whatever happens."""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import replace

import pytest
from sqlalchemy import update

from bot.games import presenter_for
from bot.i18n import Day
from bot.lottery.apply import DrawApplier, applier_for
from bot.outbox import Drawing, decode_reply
from bot.service import GameService, Message
from bot.service.scene import Scene
from bot.store import NewEntry, SeatRecord, Store
from bot.store.draws import applied_evenings, save_draws, started_at
from bot.store.models import GameRow, LogEntry
from bot.store.outbox import unsent
from engine import registry
from engine.core.protocol import Event
from tests.bot.draws.games import GUILD, RecordingHooks, draw, make_running_game


def draw_log(store: Store, game_id: int) -> list[str]:
    """The dates of the draws in a game's log, in log order."""
    return [entry.payload["draw"]["date"] for entry in store.log(game_id) if entry.kind == "draw"]


def ap(store: Store, game_id: int) -> dict[str, int]:
    game = store.get_game(game_id)
    assert game is not None
    rules = registry.get("spacechess")
    return {cid: c["ap"] for cid, c in rules.view(rules.from_json(game.state))["characters"].items()}


def test_sc13_the_evenings_first_draw_with_its_complementary_number(store: Store, service: GameService) -> None:
    """SC-13: the second draw of an evening (index 2) never counts; the old Loto's complementary is the bonus."""
    game = make_running_game(store)
    old_loto = draw("2024-03-06", (1, 2, 3, 4, 5, 6), complementary=8)  # g1 holds cards 1 and 4
    save_draws(store, [old_loto, draw("2024-03-06", (10, 11, 12, 13, 14, 15), index=2)])
    posts = DrawApplier(service).apply_all()
    assert [post.draw for post in posts] == [old_loto]
    entry = [e for e in store.log(game.id) if e.kind == "draw"][0]
    assert (entry.payload["numbers"], entry.payload["bonus"]) == ([1, 2, 3, 4, 5, 6], 8)
    # card 1 (1-7): six numbers; card 4 (22-28): nothing; the bonus 8 is card 2's -> 6 AP, capped at 9 anyway
    assert ap(store, game.id)["g1"] == 6
    assert ap(store, game.id)["s11"] == 2  # cards 2 (8-14) and 5: the bonus only, +2


def test_turn_post_shows_the_engine_breakdown_new_ap_and_board(store: Store, service: GameService) -> None:
    """SC-14: one line per character from the engine's own breakdown (hits per card, award, AP before → after)."""
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06", (3, 12, 19, 33, 45))])
    hooks = RecordingHooks()
    [post] = DrawApplier(service, hooks=hooks).apply_all()
    [(posted_in, delivered)] = hooks.posts
    assert (posted_in, delivered.messages, delivered.mentions) == (game.id, post.reply.messages, post.reply.mentions)
    keys = [m.key for m in post.reply.messages]
    assert keys[:2] == ["turn.title", "turn.draw"]
    assert post.reply.messages[1].params == {"date": Day(dt.date(2024, 3, 6)), "numbers": "3 12 19 33 45"}
    gains = {m.params["id"]: m.params for m in post.reply.messages if m.key == "turn.gain"}
    assert len(gains) == 14
    assert gains["s11"]["hits"] == "c2: 12 · c5: 33"  # s11 holds cards 2 and 5
    assert (gains["s11"]["before"], gains["s11"]["after"], gains["s11"]["award"]) == (0, 2, 2)
    assert {cid: row["after"] for cid, row in gains.items()} == ap(store, game.id)
    [board] = delivered.files  # drawn when the post is delivered: the pass keeps no picture
    assert board.filename == "board.png" and board.data.startswith(b"\x89PNG")
    assert post.reply.files == ()


def test_a_turn_posts_board_drawn_at_delivery_is_the_board_of_the_draw(store: Store, service: GameService) -> None:
    """The outboxed post keeps what draws its board (state and events of the draw), so the board drawn
    when it is sent, after the game has moved on, is the one the draw made."""
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06", (3, 12, 19, 33, 45))])
    undelivered = type("Undelivered", (), {"outbox_ready": lambda self: None})()
    DrawApplier(service, hooks=undelivered).apply_all()
    [row] = unsent(store)
    assert row.payload["files"] == [] and row.payload["drawing"]["kind"] == "spacechess"
    after_draw = store.get_game(game.id)
    rules = registry.get(game.kind)
    store.commit(game.id, after_draw.version, state=rules.to_json(rules.setup(game.setup, game.seed)), entries=[])
    [board] = decode_reply(row.payload).files
    drawing = Drawing.from_json(row.payload["drawing"])
    scene = Scene(drawing.name, drawing.language, drawing.next)
    events = [Event(e["kind"], e["params"]) for e in drawing.events]
    presenter, drawn = presenter_for(game.kind), rules.from_json(after_draw.state)
    expected = presenter.described(presenter.images_for(rules, drawn, events, scene), rules, drawn, scene, events)
    assert (board,) == expected  # its alt text too: said of the draw's state, not of the one stored since
    assert board.data != presenter_for(game.kind).board(rules, rules.setup(game.setup, game.seed))[0].data


@pytest.mark.parametrize(("policy", "pinged"), [("players", (4,)), ("all", (1, 3, 4)), ("none", ())])
def test_ping_policies_and_muted_players(store: Store, service: GameService, policy: str,
                                         pinged: tuple[int, ...]) -> None:
    """PRODUCT.md: "players" pings the players whose character gained AP, "all" every player, "none"
    nobody; a player who muted pings is never pinged."""
    game = make_running_game(store, seats=False)
    seats = [SeatRecord(game.id, 1, "g1"), SeatRecord(game.id, 2, "s11", mute_pings=True),
             SeatRecord(game.id, 3, "s12"), SeatRecord(game.id, 4, "s13")]
    store.commit(game.id, game.version, state=game.state, entries=[], seats_set=seats)
    store.set_guild_settings(GUILD, ping_policy=policy)
    # 12 hits card 2 (s11: cards 2 and 5), 43-46 card 7 (s13: cards 4 and 7); g1 and s12 gain nothing
    save_draws(store, [draw("2024-03-04", (12, 43, 44, 45, 46))])
    [post] = DrawApplier(service).apply_all()
    assert post.reply.mentions == pinged
    pings = [m for m in post.reply.messages if m.key == "turn.pings"]
    assert pings == ([Message("turn.pings", {"users": " ".join(f"<@{u}>" for u in pinged)})] if pinged else [])


@pytest.mark.parametrize(("policy", "pinged"), [("players", (3,)), ("all", (1, 3))])
def test_members_who_turned_pings_off_are_pinged_by_no_turn_post(store: Store, service: GameService, policy: str,
                                                                  pinged: tuple[int, ...]) -> None:
    """Issue 26, point 3: a member's own pings off (`/game settings pings:off`) holds in every game,
    whatever their seats say: two games of a batch, the same members."""
    games = [make_running_game(store, channel, seats=False) for channel in (21, 22)]
    for game in games:
        seats = [SeatRecord(game.id, 1, "g1"), SeatRecord(game.id, 2, "s11"),
                 SeatRecord(game.id, 3, "s12"), SeatRecord(game.id, 4, "s13")]
        store.commit(game.id, game.version, state=game.state, entries=[], seats_set=seats)
    store.set_guild_settings(GUILD, ping_policy=policy)
    store.set_member_settings(2, mute_pings=True)
    store.set_member_settings(4, mute_pings=True, language="en")
    store.set_member_settings(3, language="fr")  # a language of one's own mutes nothing
    # 12 hits card 2 (s11: cards 2 and 5), 43-46 card 7 (s13: cards 4 and 7), 17 card 3 (s12: cards 3 and 6)
    save_draws(store, [draw("2024-03-04", (12, 17, 43, 44, 45))])
    posts = DrawApplier(service).apply_all()
    assert len(posts) == 2
    for post in posts:
        assert post.reply.mentions == pinged
        pings = [m for m in post.reply.messages if m.key == "turn.pings"]
        assert pings == [Message("turn.pings", {"users": " ".join(f"<@{u}>" for u in pinged)})]


#: the commits a change tries before the pipeline gives up on it as a conflict (`GameService.apply_input`:
#: on the record read, then once more holding the game), each of which `interfere` can make stale
ATTEMPTS = 2


def interfere(store: Store, monkeypatch: pytest.MonkeyPatch, kind: str, *, times: int) -> None:
    """A busy game: the next `times` commits writing a `kind` entry each find that another write (a
    player's order) landed just before them, so they fail as stale."""
    original = store.commit
    left = [times]

    def busy_commit(game_id: int, expected_version: int, **kwargs: object) -> object:
        entries = kwargs.get("entries") or []
        if left[0] > 0 and any(e.kind == kind for e in entries):  # type: ignore[attr-defined]
            left[0] -= 1
            current = store.get_game(game_id)
            assert current is not None
            original(game_id, current.version, state=current.state, entries=[NewEntry("note", None, 7, {})])
        return original(game_id, expected_version, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "commit", busy_commit)


def test_the_same_draw_polled_twice_is_applied_once(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    applier = DrawApplier(service)
    assert len(applier.apply_all()) == 1
    assert save_draws(store, [draw("2024-03-06")]).new == 0
    assert applier.apply_all() == []
    assert draw_log(store, game.id) == ["2024-03-06"]
    assert applied_evenings(store, game.id) == [(dt.date(2024, 3, 6), 1)]


def test_draws_are_applied_in_draw_order_and_never_back_in_time(store: Store, service: GameService) -> None:
    """Stored out of order, applied in order; a draw stored late for an evening before the game's last one
    is skipped for good (a turn never goes back in time)."""
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-11"), draw("2024-03-06")])
    DrawApplier(service).apply_all()
    save_draws(store, [draw("2024-03-09")])
    assert DrawApplier(service).apply_all() == []
    assert draw_log(store, game.id) == ["2024-03-06", "2024-03-11"]


def test_only_draws_expected_after_the_game_started(store: Store, service: GameService) -> None:
    """The rule: a draw counts when its expected time (20:35 Paris) is after the game's start input, or
    its creation when it was created running."""
    created_running = make_running_game(store, 1, started=dt.datetime(2024, 3, 6, 19, 34, tzinfo=dt.UTC))
    after_the_draw = make_running_game(store, 2, started=dt.datetime(2024, 3, 6, 19, 36, tzinfo=dt.UTC))
    started_later = make_running_game(store, 3)
    store.commit(started_later.id, started_later.version, state=started_later.state,
                 entries=[NewEntry("start", None, 42, {})])
    with store.engine.begin() as connection:
        connection.execute(update(LogEntry).where(LogEntry.game_id == started_later.id, LogEntry.kind == "start")
                           .values(created_at=dt.datetime(2024, 3, 8, tzinfo=dt.UTC)))
    assert started_at(store, started_later) == dt.datetime(2024, 3, 8, tzinfo=dt.UTC)
    assert started_at(store, created_running) == dt.datetime(2024, 3, 6, 19, 34, tzinfo=dt.UTC)
    save_draws(store, [draw("2024-03-04"), draw("2024-03-06"), draw("2024-03-09")])
    DrawApplier(service).apply_all()
    assert draw_log(store, created_running.id) == ["2024-03-06", "2024-03-09"]  # 20:35 Paris = 19:35 UTC
    assert draw_log(store, after_the_draw.id) == ["2024-03-09"]
    assert draw_log(store, started_later.id) == ["2024-03-09"]


def test_paused_games_get_nothing_until_resumed_then_catch_up_in_order(store: Store, service: GameService) -> None:
    running, paused = make_running_game(store, 1), make_running_game(store, 2)
    paused = store.commit(paused.id, paused.version, state=paused.state, status="paused",
                          entries=[NewEntry("pause", None, 42, {})])
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09")])
    hooks = RecordingHooks()
    applier = DrawApplier(service, hooks=hooks)
    applier.apply_all()
    assert applier.catch_up(paused.id) == []
    assert (draw_log(store, running.id), draw_log(store, paused.id)) == (["2024-03-06", "2024-03-09"], [])
    store.commit(paused.id, paused.version, state=paused.state, status="running",
                 entries=[NewEntry("resume", None, 42, {})])
    posts = applier_for(service).catch_up(paused.id)
    assert [p.draw.date.isoformat() for p in posts] == ["2024-03-06", "2024-03-09"]
    assert draw_log(store, paused.id) == ["2024-03-06", "2024-03-09"]
    assert [game_id for game_id, _ in hooks.posts] == [running.id, running.id, paused.id, paused.id]


def test_a_manual_entry_stands_in_for_the_evenings_fdj_draw(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    manual = draw("2024-03-06", (1, 2, 3, 4, 5), source="manual", chance=None)
    save_draws(store, [manual])
    applier = DrawApplier(service)
    assert [p.draw for p in applier.apply_pending(game, [manual])] == [manual]
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09")])
    assert [p.draw.date.isoformat() for p in applier.apply_all()] == ["2024-03-09"]
    assert draw_log(store, game.id) == ["2024-03-06", "2024-03-09"]


def test_a_stale_version_is_retried_on_fresh_state(store: Store, service: GameService,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's order committed between the read and the draw's commit: the draw is re-applied on top."""
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    interfere(store, monkeypatch, "draw", times=1)
    [post] = DrawApplier(service).apply_all()
    assert [e.kind for e in store.log(game.id)][-2:] == ["note", "draw"]
    assert post.game.version == game.version + 2


def test_an_engine_refusal_writes_nothing_and_other_games_still_get_the_draw(store: Store, service: GameService
                                                                              ) -> None:
    """A game whose snapshot is already finished while its row says running: the engine refuses the draw
    (game_over); nothing is written for it and the next game is not held up."""
    broken, healthy = make_running_game(store, 1), make_running_game(store, 2)
    rules = registry.get("spacechess")
    finished_state = rules.to_json(replace(rules.from_json(broken.state), status="finished", winner=1))
    broken = store.commit(broken.id, broken.version, state=finished_state, entries=[])
    save_draws(store, [draw("2024-03-06")])
    posts = DrawApplier(service).apply_all()
    assert [p.game.id for p in posts] == [healthy.id]
    assert store.get_game(broken.id) == broken
    assert (draw_log(store, broken.id), applied_evenings(store, broken.id)) == ([], [])


def test_racing_threads_apply_each_draw_once(store: Store, service: GameService) -> None:
    """Four pollers at once (threads sharing one Store): every game gets each draw exactly once."""
    games = [make_running_game(store, channel, seats=False) for channel in range(1, 5)]
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09")])
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []
    posted: list[int] = []

    def poller() -> None:
        barrier.wait()
        try:
            posted.extend(post.game.id for post in DrawApplier(GameService(store)).apply_all())
        except BaseException as exc:  # noqa: BLE001 — collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=poller) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(posted) == sorted(game.id for game in games for _ in range(2))
    for game in games:
        assert draw_log(store, game.id) == ["2024-03-06", "2024-03-09"]


def test_gm_resume_applies_the_draws_missed_during_the_pause(store: Store, service: GameService) -> None:
    """/gm pause, two draws published, /gm resume: both applied in order, posted in the resume reply."""
    from bot.service import Context

    game = make_running_game(store, 7)
    gm = Context(user_id=42, user_name="gm", guild_id=GUILD, channel_id=7, manage_server=True)
    assert service.handle(gm, "gm pause", {}).ok
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09")])
    assert DrawApplier(service).apply_all() == []
    reply = service.handle(gm, "gm resume", {})
    keys = [m.key for m in reply.messages]
    assert keys[0] == "gm.resumed" and keys.count("turn.title") == 2
    assert reply.files and reply.files[0].data.startswith(b"\x89PNG")
    assert draw_log(store, game.id) == ["2024-03-06", "2024-03-09"]
    assert store.get_game(game.id).status == "running"


def test_sc31_the_draw_that_reaches_the_time_limit_ends_the_game_on_hp(store: Store, service: GameService) -> None:
    """SC-31 through the bot: a game created with limit_draws=2 is decided at its second draw."""
    game = make_running_game(store, 8)
    with store.engine.begin() as connection:
        connection.execute(update(GameRow).where(GameRow.id == game.id).values(options={"limit_draws": 2}))
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09"), draw("2024-03-11")])
    posts = DrawApplier(service).apply_all()
    assert [p.draw.date.isoformat() for p in posts] == ["2024-03-06", "2024-03-09"]
    final = store.get_game(game.id)
    assert final.status == "finished"
    assert [e.kind for e in store.log(game.id)][-1] == "limit_reached"
    assert "event.spacechess.game_over" in [m.key for m in posts[-1].reply.messages]
    assert draw_log(store, game.id) == ["2024-03-06", "2024-03-09"]  # nothing after the end


def test_the_draw_that_ends_a_game_pings_no_winner_who_turned_pings_off(store: Store, service: GameService) -> None:
    """SC-31's end through the bot: team 1 ahead on HP wins at the game's last draw; its players are
    named in the post, and pinged only if they let it (the same members play both games)."""
    ended = []
    for channel in (23, 24):
        game = make_running_game(store, channel, options={"limit_draws": 1})
        state = dict(game.state, state=dict(game.state["state"], characters=[
            dict(c, hp=1) if c["team"] == 2 else c for c in game.state["state"]["characters"]]))
        ended.append(store.commit(game.id, game.version, state=state, entries=[]))
    save_draws(store, [draw("2024-03-06", (12, 17, 43, 44, 45))])
    loud = DrawApplier(service).apply_pending(store.get_game(ended[0].id))[-1].reply
    assert "game.over.winners" in [m.key for m in loud.messages], [m.key for m in loud.messages]
    winners = {seat.user_id for seat in store.seats(ended[0].id) if seat.actor in ("g1", "s11", "s12", "s13")}
    assert winners <= set(loud.mentions)
    for user in winners:
        store.set_member_settings(user, mute_pings=True)
    quiet = DrawApplier(service).apply_pending(store.get_game(ended[1].id))[-1].reply
    assert "game.over.winners" in [m.key for m in quiet.messages]
    assert not winners & set(quiet.mentions) and set(quiet.mentions) == set(loud.mentions) - winners


def test_a_manual_game_ignores_the_automatic_draws(store: Store, service: GameService) -> None:
    game = make_running_game(store, 9)
    with store.engine.begin() as connection:
        connection.execute(update(GameRow).where(GameRow.id == game.id).values(options={"draws": "manual"}))
    save_draws(store, [draw("2024-03-06")])
    assert DrawApplier(service).apply_all() == []
    manual = draw("2024-03-09", (1, 2, 3, 4, 5), source="manual", chance=None)
    assert [p.draw for p in DrawApplier(service).apply_pending(store.get_game(game.id), [manual])] == [manual]


def test_a_draw_that_keeps_losing_the_race_is_retried_first_and_no_draw_is_lost(
        store: Store, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9.1: a busy game (a player's write landing during each attempt) must not lose a draw. The
    draw the pipeline gives up on stops the game's pass; the next poll applies it first, then the rest."""
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09"), draw("2024-03-11")])
    # the whole first pass, then the first attempt of the second (which lands holding the game)
    interfere(store, monkeypatch, "draw", times=ATTEMPTS + 1)
    applier = DrawApplier(service)
    assert applier.apply_all() == []
    assert draw_log(store, game.id) == []
    assert [d.date.isoformat() for d in applier.pending(store.get_game(game.id))] == [
        "2024-03-06", "2024-03-09", "2024-03-11"]
    posts = applier.apply_all()
    assert [p.draw.date.isoformat() for p in posts] == ["2024-03-06", "2024-03-09", "2024-03-11"]
    assert draw_log(store, game.id) == ["2024-03-06", "2024-03-09", "2024-03-11"]


def test_the_draw_that_reaches_a_time_limit_records_the_end_in_its_own_commit(
        store: Store, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """SC-31 with a busy game: the draw reaching the limit and the end it causes are one commit (with
    the turn post that shows the verdict), so a game is never left running on a draw past its limit:
    while that commit keeps losing the race, neither is written; then both are."""
    game = make_running_game(store, 8)
    with store.engine.begin() as connection:
        connection.execute(update(GameRow).where(GameRow.id == game.id).values(options={"limit_draws": 2}))
    save_draws(store, [draw("2024-03-06"), draw("2024-03-09"), draw("2024-03-11")])
    interfere(store, monkeypatch, "limit_reached", times=ATTEMPTS * 2)
    applier = DrawApplier(service)
    assert [p.draw.date.isoformat() for p in applier.apply_all()] == ["2024-03-06"]
    assert applier.apply_all() == []
    assert store.get_game(game.id).status == "running"
    assert draw_log(store, game.id) == ["2024-03-06"], "no draw past the limit without the end it caused"
    [last] = applier.apply_all()
    assert last.draw.date.isoformat() == "2024-03-09" and last.game.status == "finished"
    assert [e.kind for e in store.log(game.id) if e.kind in ("draw", "limit_reached")] == [
        "draw", "draw", "limit_reached"]
