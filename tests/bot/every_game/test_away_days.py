"""Away days (`bot.service.away`): a seat's budget, `/game away days:N`, and what it does to the move
clock (the duel game) and to the deadline (the sealed bids game) — the clock or the deadline waits,
the reminders skip the player away, the status message says until when; refusals change nothing."""

from __future__ import annotations

import datetime as dt
import json

from bot.i18n import translate
from bot.service import Context, GameService
from bot.service.replies import Attachment, Message
from tests.bot.every_game import test_turn_drivers as drivers
from tests.bot.every_game.test_turn_drivers import (
    ANN,
    BOB,
    CHANNEL,
    GM,
    GUILD,
    Hooks,
    fire_at,
    keys,
    log_kinds,
    timers,
)
from tests.support.clock import NOW

#: the channel's posts and the service on the shared clock, as the turn drivers' tests have them
hooks, svc = drivers.hooks, drivers.svc
DAY = dt.timedelta(days=1)


def duel(svc: GameService, away_days: int | None = 5) -> GameService:
    opts = {"name": "Duel", "clock_hours": 10, "timeout": "alert"}
    if away_days is not None:
        opts["away_days"] = away_days
    assert svc.handle(GM, "td new", opts).ok
    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "td join", {"name": "Bob"}).ok
    return svc


def sealed(svc: GameService) -> GameService:
    assert svc.handle(GM, "ts new", {"name": "Bids", "turn_hours": 24, "reminders": "6", "away_days": 3}).ok
    assert svc.handle(ANN, "ts join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ts join", {"name": "Bob"}).ok
    return svc


def words(message: Message, language: str) -> str:
    return translate(message.key, language, message.params)


def game(svc: GameService):
    return svc.store.game_in_channel(GUILD, CHANNEL)


def test_away_days_of_the_player_to_move_move_their_clock_and_its_reminder(svc: GameService) -> None:
    duel(svc)
    before = timers(svc)["clock"].due_at
    reply = svc.handle(ANN, "game away", {"days": 2})
    assert keys(reply) == ["game.away.declared"]
    assert "3" in words(reply.messages[0], "en")  # 5 - 2 days left
    clock, half = timers(svc)["clock"], timers(svc)["clock_half"]
    assert clock.due_at == before + 2 * DAY and clock.payload["actor"] == "Ann"
    back = NOW + 2 * DAY
    assert half.due_at == back + (clock.due_at - back) / 2  # the reminder comes after she is back
    assert log_kinds(svc)[-1] == ("away", ANN.user_id)


def test_a_clock_started_for_a_player_away_runs_from_their_return(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game away", {"days": 3}).ok  # Ann is to move: her clock is unchanged
    assert timers(svc)["clock"].due_at == NOW + dt.timedelta(hours=10)
    assert svc.handle(ANN, "td order", {"text": "add 2"}).ok
    clock = timers(svc)["clock"]
    assert clock.payload["actor"] == "Bob" and clock.due_at == NOW + 3 * DAY + dt.timedelta(hours=10)


def test_a_half_time_reminder_skips_a_player_away(svc: GameService, hooks: Hooks) -> None:
    duel(svc)
    assert svc.handle(ANN, "game away", {"days": 1}).ok
    # a GM's extension replans the reminder from now: it falls while Ann is away, and pings nobody
    assert svc.handle(GM, "gm clock", {"extend": 60}).ok
    half = timers(svc)["clock_half"]
    assert half.due_at < NOW + DAY
    fire_at(svc, hooks, half.due_at)
    [(_, post)] = [p for p in hooks.posts if "turn.clock_half" in keys(p[1])]
    assert post.mentions == ()


def test_the_budget_is_per_seat_and_refusals_change_nothing(svc: GameService) -> None:
    duel(svc, away_days=3)
    assert svc.handle(ANN, "game away", {"days": 2}).ok
    version = game(svc).version
    refused = svc.handle(ANN, "game away", {"days": 2})
    assert keys(refused) == ["error.away_budget"]
    assert "1 away day left" in words(refused.messages[0], "en")
    assert "1 jour d’absence" in words(refused.messages[0], "fr")
    assert game(svc).version == version
    assert svc.handle(BOB, "game away", {"days": 3}).ok  # Bob's own budget
    outsider = Context(user_id=9, user_name="zed", guild_id=GUILD, channel_id=CHANNEL)
    assert keys(svc.handle(outsider, "game away", {"days": 1})) == ["error.not_a_player"]


def test_no_budget_by_default_until_a_gm_gives_one(svc: GameService) -> None:
    duel(svc, away_days=None)
    assert keys(svc.handle(ANN, "game away", {"days": 1})) == ["error.away_budget"]
    assert keys(svc.handle(ANN, "gm away", {"budget": 4})) == ["error.gm_only"]
    assert keys(svc.handle(GM, "gm away", {"budget": 4})) == ["gm.away.budget"]
    assert log_kinds(svc)[-1] == ("away_budget", GM.user_id)
    assert svc.handle(ANN, "game away", {"days": 4}).ok


def test_the_status_and_the_history_say_who_is_away_until_when(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game away", {"days": 2}).ok
    status = svc.handle(ANN, "game status", {})
    assert "status.away" in keys(status)
    assert "Bob** est en congé" in words(status.messages[keys(status).index("status.away")], "fr")
    history = svc.handle(ANN, "game history", {})
    assert any("away until" in words(m, "en") for m in history.messages)
    svc.clock.now = NOW + 3 * DAY  # type: ignore[attr-defined]
    assert "status.away" not in keys(svc.handle(ANN, "game status", {}))


def test_away_days_are_refused_where_nothing_waits_on_the_seats(svc: GameService) -> None:
    assert svc.handle(GM, "tl new", {"name": "Tally"}).ok
    assert svc.handle(ANN, "tl join", {"name": "Ann"}).ok
    assert keys(svc.handle(ANN, "game away", {"days": 1})) == ["error.away_not_here"]


def test_a_turn_waiting_on_a_player_away_waits_that_long(svc: GameService, hooks: Hooks) -> None:
    sealed(svc)
    before = timers(svc)["deadline"].due_at
    assert svc.handle(ANN, "game away", {"days": 1}).ok
    assert timers(svc)["deadline"].due_at == before + DAY
    reminder = timers(svc)["reminder1"]
    assert reminder.due_at == before + DAY - dt.timedelta(hours=6)
    fire_at(svc, hooks, reminder.due_at)  # Ann is back by then: both are reminded
    [(_, post)] = [p for p in hooks.posts if "turn.deadline_reminder" in keys(p[1])]
    assert post.mentions == (ANN.user_id, BOB.user_id)


def test_a_deadline_reminder_skips_a_player_away_and_a_new_turn_runs_from_their_return(
        svc: GameService, hooks: Hooks) -> None:
    sealed(svc)
    assert svc.handle(ANN, "ts ready", {}).ok
    assert svc.handle(ANN, "game away", {"days": 3}).ok  # Ann is ready: the turn does not wait on her
    deadline = timers(svc)["deadline"]
    assert deadline.due_at == NOW + dt.timedelta(hours=24)
    assert svc.handle(BOB, "ts ready", {}).ok  # the turn resolves; the next one runs from Ann's return
    assert timers(svc)["deadline"].due_at == NOW + 3 * DAY + dt.timedelta(hours=24)
    svc.clock.now = NOW + DAY  # type: ignore[attr-defined]
    assert svc.handle(BOB, "gm deadline", {}).ok is False
    assert svc.handle(GM, "gm deadline", {"at": (NOW + DAY + dt.timedelta(hours=7)).isoformat()}).ok
    reminder = timers(svc)["reminder1"]
    fire_at(svc, hooks, reminder.due_at)  # Ann is still away: only Bob is reminded
    [(_, post)] = [p for p in hooks.posts if "turn.deadline_reminder" in keys(p[1])]
    assert post.mentions == (BOB.user_id,)


def test_an_export_keeps_the_away_days_and_a_crafted_period_is_refused(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game away", {"days": 2}).ok
    data = svc.handle(GM, "gm export", {}).files[0].data
    elsewhere = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 1, manage_server=True)
    assert keys(svc.handle(elsewhere, "gm import", {"file": Attachment("duel.json", data)})) == ["gm.imported"]
    copy = svc.store.game_in_channel(GUILD, CHANNEL + 1)
    assert copy.options["away"] == game(svc).options["away"]
    doc = json.loads(data)
    doc["game"]["options"]["away"]["Bob"]["used"] = "all"
    third = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 2, manage_server=True)
    refused = svc.handle(third, "gm import", {"file": Attachment("x.json", json.dumps(doc).encode())})
    assert keys(refused) == ["error.bad_export"]
    assert svc.store.game_in_channel(GUILD, CHANNEL + 2) is None


def test_every_driver_waiting_on_its_seats_takes_and_checks_away_days_from_one_place() -> None:
    from bot.drivers import DRIVERS, driver_named
    from bot.drivers.seated import SeatWaitingDriver
    from bot.service import away
    from bot.service.commands import Option

    waiting = [driver_named(name) for name in DRIVERS if driver_named(name).waits_on_seats]
    assert {d.name for d in waiting} >= {"clock", "deadline"}
    assert all(isinstance(d, SeatWaitingDriver) for d in waiting)
    for driver in waiting:
        assert [o.name for o in driver.create_options].count(away.BUDGET) == 1

    class Sundial(SeatWaitingDriver):  # a new driver gets them without a word of its own
        name = "sundial"
        create_options = (Option("hours", "integer", min_value=1),)

    assert [o.name for o in Sundial.create_options] == ["hours", away.BUDGET]
    assert Sundial().game_options(None, {"away_days": 3, "hours": 2}) == {"away_days": 3}  # type: ignore[arg-type]
    assert Sundial().option_fault({"away": "soon"}) == (away.AWAY, "bad_option")
    assert Sundial().option_fault({"away_days": 3, "hours": 2}) is None
