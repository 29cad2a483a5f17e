"""Turn drivers on the test games: the sealed game's deadline (resolve at the deadline or once all
are ready, reminders to those not ready, GM extend/force, pause) and the duel's move clock (half-time
reminder to the player to move, the GMs alerted or the game lost on time, GM extend/award).

Timers fire through the real `TimerRunner` with the drivers' real handlers, at chosen moments of a
clock the service shares (`fire_at` moves it), so the drivers plan from the moment they fire at.
"""

from __future__ import annotations

import datetime as dt

import pytest

from bot.drivers import timer_handlers
from bot.i18n import translate
from bot.service import Context, GameService, Reply
from bot.store.repo import GameRecord
from bot.store.timers import TimerRecord, game_timers
from bot.timers import TimerRunner
from tests.support.clock import NOW, Clock

GUILD, CHANNEL = 10, 80
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)


class Hooks:
    """The channel as the adapters see it: every post and GM alert, in order."""

    def __init__(self) -> None:
        self.posts: list[tuple[int, Reply]] = []
        self.alerts: list[tuple[int, Reply]] = []

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.posts.append((game.id, reply))

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self.alerts.append((game.id, reply))


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def timers(svc: GameService) -> dict[str, TimerRecord]:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    return {t.kind: t for t in game_timers(svc.store, game.id)}


def log_kinds(svc: GameService) -> list[tuple[str, int | None]]:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    return [(e.kind, e.user_id) for e in svc.store.log(game.id)]


@pytest.fixture
def hooks() -> Hooks:
    return Hooks()


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 3, clock=Clock())


def fire_at(svc: GameService, hooks: Hooks, moment: dt.datetime) -> list[str]:
    """Move the clock to `moment` and fire what is due then; the kinds fired."""
    svc.clock.now = moment  # type: ignore[attr-defined]
    return [t.kind for t in TimerRunner(svc.store, timer_handlers(svc, hooks), clock=svc.clock).run_due(moment)]


# -- deadline (the sealed bids game) ------------------------------------------------------------
@pytest.fixture
def sealed(svc: GameService) -> GameService:
    assert svc.handle(GM, "ts new", {"name": "Bids", "turn_hours": 24, "reminders": "6,1"}).ok
    assert svc.handle(ANN, "ts join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ts join", {"name": "Bob"}).ok
    return svc


def test_a_new_deadline_game_plans_its_deadline_and_reminders(sealed: GameService) -> None:
    planned = timers(sealed)
    assert sorted(planned) == ["deadline", "reminder1", "reminder2"]
    deadline = planned["deadline"].due_at
    assert deadline == NOW + dt.timedelta(hours=24)
    assert deadline - planned["reminder1"].due_at == dt.timedelta(hours=6)
    assert deadline - planned["reminder2"].due_at == dt.timedelta(hours=1)
    status = sealed.handle(BOB, "game status", {})
    assert keys(status)[0] == "status.header_next" and "status.next_deadline" in repr(status.messages[0])


def test_the_deadline_resolves_the_turn_once_with_the_default_for_missing_orders(sealed: GameService,
                                                                                  hooks: Hooks) -> None:
    sealed.handle(ANN, "ts order", {"text": "add 3"})  # Bob gives nothing: his bid counts 0
    deadline = timers(sealed)["deadline"]
    assert "deadline" in fire_at(sealed, hooks, deadline.due_at + dt.timedelta(seconds=1))
    assert log_kinds(sealed).count(("resolve", None)) == 1  # by the bot, not by a member
    [(_, post)] = [p for p in hooks.posts if "event.sealed.resolved" in keys(p[1])]
    assert post.messages[0].params["bids"] == {"Ann": 3, "Bob": 0}
    assert "deadline" not in fire_at(sealed, hooks, deadline.due_at + dt.timedelta(seconds=2))
    assert log_kinds(sealed).count(("resolve", None)) == 1
    nxt = timers(sealed)["deadline"]  # the next turn's deadline, a whole turn after the resolution
    assert nxt.generation > deadline.generation
    assert nxt.due_at == deadline.due_at + dt.timedelta(seconds=1) + dt.timedelta(hours=24)


def test_a_reminder_pings_only_the_seats_not_ready(sealed: GameService, hooks: Hooks) -> None:
    sealed.handle(ANN, "ts ready", {})
    reminder = timers(sealed)["reminder1"]
    fire_at(sealed, hooks, reminder.due_at)
    [(_, post)] = hooks.posts
    assert keys(post) == ["turn.deadline_reminder"] and post.mentions == (BOB.user_id,)
    fire_at(sealed, hooks, reminder.due_at)
    assert len(hooks.posts) == 1  # once


def test_the_turn_resolves_as_soon_as_every_seat_is_ready(sealed: GameService) -> None:
    before = timers(sealed)["deadline"]
    sealed.handle(ANN, "ts ready", {})
    assert ("resolve", None) not in log_kinds(sealed)
    reply = sealed.handle(BOB, "ts ready", {})
    assert "event.sealed.resolved" in keys(reply)
    assert log_kinds(sealed).count(("resolve", None)) == 1
    assert timers(sealed)["deadline"].generation > before.generation


def test_gm_deadline_shows_extends_and_forces_after_a_confirmation(sealed: GameService, hooks: Hooks) -> None:
    shown = sealed.handle(GM, "gm deadline", {})
    assert keys(shown) == ["gm.deadline", "gm.deadline_reminder", "gm.deadline_reminder"]
    assert keys(sealed.handle(ANN, "gm deadline", {"extend": 60})) == ["error.gm_only"]
    before = timers(sealed)["deadline"].due_at
    assert keys(sealed.handle(GM, "gm deadline", {"extend": 60})) == ["gm.deadline_moved"]
    assert timers(sealed)["deadline"].due_at - before == dt.timedelta(minutes=60)
    assert log_kinds(sealed)[-1] == ("deadline_move", GM.user_id)  # the one path of changes: logged, by whom
    assert keys(sealed.handle(GM, "gm deadline", {"at": "2001-01-01T00:00"})) == ["error.moment_past"]
    assert keys(sealed.handle(GM, "gm deadline", {"at": "tomorrow"})) == ["error.bad_moment"]
    ask = sealed.handle(GM, "gm deadline", {"force": True})
    assert ("resolve", None) not in log_kinds(sealed) and ask.buttons
    done = sealed.handle(GM, "gm deadline", dict(ask.buttons[0].options))
    assert "event.sealed.resolved" in keys(done)
    assert log_kinds(sealed).count(("resolve", None)) == 1


def test_a_paused_game_is_not_resolved_and_gets_a_whole_turn_on_resume(sealed: GameService, hooks: Hooks) -> None:
    deadline = timers(sealed)["deadline"]
    assert sealed.handle(GM, "gm pause", {}).ok
    fire_at(sealed, hooks, deadline.due_at + dt.timedelta(seconds=1))
    assert ("resolve", None) not in log_kinds(sealed)
    assert sealed.handle(GM, "gm resume", {}).ok
    assert timers(sealed)["deadline"].due_at == deadline.due_at + dt.timedelta(seconds=1) + dt.timedelta(hours=24)


def test_bad_reminders_are_refused_and_create_nothing(svc: GameService) -> None:
    for text in ("soon", "30", "6,5,4,3"):
        reply = svc.handle(GM, "ts new", {"name": "Bids", "turn_hours": 24, "reminders": text})
        assert keys(reply) == ["error.bad_reminders"], text
    assert svc.store.game_in_channel(GUILD, CHANNEL) is None


# -- move clock (the duel game) -----------------------------------------------------------------
def duel(svc: GameService, timeout: str) -> GameService:
    assert svc.handle(GM, "td new", {"name": "Duel", "clock_hours": 10, "timeout": timeout}).ok
    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "td join", {"name": "Bob"}).ok
    return svc


def test_the_clock_runs_for_the_player_to_move_and_follows_each_move(svc: GameService) -> None:
    duel(svc, "alert")
    clock = timers(svc)["clock"]
    assert clock.payload["actor"] == "Ann"
    assert clock.due_at == NOW + dt.timedelta(hours=10)
    assert clock.due_at - timers(svc)["clock_half"].due_at == dt.timedelta(hours=5)
    assert svc.handle(ANN, "td order", {"text": "add 2"}).ok
    assert timers(svc)["clock"].payload["actor"] == "Bob"


def test_half_time_pings_the_player_to_move_once(svc: GameService, hooks: Hooks) -> None:
    duel(svc, "alert")
    half = timers(svc)["clock_half"]
    fire_at(svc, hooks, half.due_at)
    fire_at(svc, hooks, half.due_at)
    # the start's post told Ann it was her turn (tests/bot/every_game/test_turn_pings.py); then the reminder
    [(_, told), (_, post)] = hooks.posts
    assert keys(told) == ["turn.your_turn"] and told.mentions == (ANN.user_id,)
    assert keys(post) == ["turn.clock_half"] and post.mentions == (ANN.user_id,)


def test_a_clock_run_out_alerts_the_gms_once_who_may_extend_or_award(svc: GameService, hooks: Hooks) -> None:
    duel(svc, "alert")
    clock = timers(svc)["clock"]
    fire_at(svc, hooks, clock.due_at)
    fire_at(svc, hooks, clock.due_at)
    assert [keys(reply) for _, reply in hooks.alerts] == [["turn.clock_out"]]
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "running"
    # the alert's timer is done, but Ann is still to move: the remedies the alert names are open
    assert keys(svc.handle(GM, "gm clock", {})) == ["gm.clock_ran_out"]
    assert svc.handle(BOB, "td order", {"text": "add 1"}).ok is False  # still Ann's move
    assert keys(svc.handle(GM, "gm clock", {"extend": 60})) == ["gm.clock_extended"]
    assert timers(svc)["clock"].payload["actor"] == "Ann"
    assert timers(svc)["clock"].due_at == svc.clock() + dt.timedelta(minutes=60)


def test_after_a_clock_alert_the_gm_may_still_award_the_game(svc: GameService, hooks: Hooks) -> None:
    duel(svc, "alert")
    fire_at(svc, hooks, timers(svc)["clock"].due_at)
    ask = svc.handle(GM, "gm clock", {"award": True})
    assert ask.buttons, keys(ask)
    done = svc.handle(GM, "gm clock", dict(ask.buttons[0].options))
    assert "event.duel.timed_out" in keys(done)
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "finished"


def test_gm_clock_extends_then_awards_after_a_confirmation(svc: GameService) -> None:
    duel(svc, "alert")
    before = timers(svc)["clock"].due_at
    assert keys(svc.handle(GM, "gm clock", {"extend": 120})) == ["gm.clock_extended"]
    assert timers(svc)["clock"].due_at - before == dt.timedelta(minutes=120)
    assert log_kinds(svc)[-1] == ("clock_extend", GM.user_id)  # the one path of changes: logged, by whom
    assert timers(svc)["clock_half"].payload["ends"] == timers(svc)["clock"].due_at.isoformat()
    ask = svc.handle(GM, "gm clock", {"award": True})
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "running" and ask.buttons
    done = svc.handle(GM, "gm clock", dict(ask.buttons[0].options))
    assert "event.duel.timed_out" in keys(done)
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "finished" and "clock" not in timers(svc)


def test_a_gms_new_clock_end_or_deadline_reads_in_the_history_as_a_sentence(svc: GameService) -> None:
    duel(svc, "alert")
    svc.handle(GM, "gm clock", {"extend": 90})
    [line] = [m.params["text"] for m in svc.handle(GM, "game history", {}).messages
              if m.key == "game.history.entry" and m.params["text"].key == "history.clock_extend"]
    text = translate(line.key, "fr", line.params)
    assert "90 minutes de plus" in text and "jusqu’au mercredi 2 décembre 2026 à 6 h 30" in text, text  # 10 h + 90 min after 19 h in Paris


def test_with_forfeit_a_clock_run_out_loses_the_game_once(svc: GameService, hooks: Hooks) -> None:
    duel(svc, "forfeit")
    clock = timers(svc)["clock"]
    fire_at(svc, hooks, clock.due_at)
    fire_at(svc, hooks, clock.due_at)
    assert log_kinds(svc).count(("timeout", None)) == 1
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "finished" and hooks.alerts == []
    info = svc.handle(ANN, "game info", {})
    assert {"winner": "Bob"} in [dict(m.params) for m in info.messages]


def test_an_undo_moves_the_clock_to_the_player_to_move_again(svc: GameService, hooks: Hooks) -> None:
    """Issue 22: `/gm undo` committed beside the pipeline and never told the driver — Bob's clock ran
    while Ann was to move, its reminder pinged Bob, and at its end nothing happened."""
    duel(svc, "forfeit")
    assert svc.handle(ANN, "td order", {"text": "add 2"}).ok
    assert timers(svc)["clock"].payload["actor"] == "Bob"
    svc.clock.now = NOW + dt.timedelta(hours=1)  # type: ignore[attr-defined]
    ask = svc.handle(GM, "gm undo", {})
    assert svc.handle(GM, "gm undo", dict(ask.buttons[0].options)).ok
    clock, half = timers(svc)["clock"], timers(svc)["clock_half"]
    assert clock.payload["actor"] == half.payload["actor"] == "Ann"
    assert clock.due_at == svc.clock() + dt.timedelta(hours=10)  # a whole clock again
    fire_at(svc, hooks, clock.due_at)
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "finished"  # Ann lost on time


def test_a_pause_stops_the_clock_and_a_resume_gives_a_whole_one(svc: GameService) -> None:
    duel(svc, "alert")
    assert svc.handle(GM, "gm pause", {}).ok
    assert timers(svc) == {}
    svc.clock.now = NOW + dt.timedelta(hours=3)  # type: ignore[attr-defined]
    assert svc.handle(GM, "gm resume", {}).ok
    assert timers(svc)["clock"].due_at == svc.clock() + dt.timedelta(hours=10)
    assert [kind for kind, _ in log_kinds(svc)][-2:] == ["pause", "resume"]
