"""Reminders by direct message (issue 26, point 3): a member who chose `/game settings reminders:dm`
is told a game waits on them — the turn handed to them, the clock's and the deadline's reminders —
by a direct message in their language (theirs, else the server's) with the game's name and a link to
its channel, instead of a mention in the channel, whose post keeps the rest; a muted member gets
nothing; a direct message Discord refuses (50007) pings them in the channel instead, once. A Space
Chess draw tells its members by direct message likewise."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console
from bot.drivers import timer_handlers
from bot.i18n import translate
from bot.lottery.apply import DrawApplier
from bot.outbox import DM_REFUSED, FINAL, Failure, OutboxSender, RateLimiter, decode_reply, flush, post_of
from bot.service import Context, GameService, Message, Reply
from bot.service.dms import dm_language
from bot.store import SeatRecord
from bot.store import outbox as rows
from bot.store.draws import save_draws
from bot.store.repo import GameRecord, Store
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from tests.bot.draws.games import GUILD as DRAWS_GUILD
from tests.bot.draws.games import draw, make_running_game

GUILD, CHANNEL = 10, 100
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL, locale="en-US")
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL, locale="en-US")
LINK = f"https://discord.com/channels/{GUILD}/{CHANNEL}"


class Hooks:
    """An adapter that writes to members: what the channel got, and each member's direct messages,
    read as they would be (the member's language)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.posts: list[Reply] = []
        self.dms: list[tuple[int, str]] = []

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.posts.append(reply)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self.posts.append(reply)

    def on_dm(self, user: int, game: GameRecord, reply: Reply) -> None:
        language = dm_language(self.store, user, "en")
        self.dms += [(user, translate(m.key, language, m.params)) for m in reply.messages]


def delivered(svc: GameService) -> Hooks:
    hooks = Hooks(svc.store)
    flush(svc.store, hooks)
    return hooks


def channel_pings(hooks: Hooks) -> list[int]:
    return [user for post in hooks.posts for user in post.mentions]


def channel_text(hooks: Hooks) -> str:
    return "\n".join(translate(m.key, "en", m.params) for post in hooks.posts for m in post.messages)


@pytest.fixture
def svc(store: Store) -> GameService:
    service = GameService(store, seed_source=lambda: 3)
    assert service.handle(GM, "gm settings", {"language": "en"}).ok
    return service


def duel(svc: GameService) -> None:
    assert svc.handle(GM, "td new", {"name": "Duel", "clock_hours": 10}).ok
    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "td join", {"name": "Bob"}).ok
    delivered(svc)


# -- the setting ------------------------------------------------------------------------------------
def test_the_setting_is_shown_saved_and_refused_in_both_languages(svc: GameService) -> None:
    shown = svc.handle(ANN, "game settings", {})
    assert "reminders: in the channel" in translate(shown.messages[0].key, "en", shown.messages[0].params)
    saved = svc.handle(ANN, "game settings", {"reminders": "dm"})
    assert saved.ok and svc.store.member_settings(ANN.user_id).reminders == "dm"
    assert "reminders: by direct message" in translate(saved.messages[0].key, "en", saved.messages[0].params)
    assert "rappels : en message privé" in translate(saved.messages[0].key, "fr", saved.messages[0].params)
    assert svc.handle(ANN, "game settings", {"reminders": "salon"}).ok  # the reader's words
    assert svc.store.member_settings(ANN.user_id).reminders == "channel"
    before = svc.store.set_member_settings(ANN.user_id, reminders="dm")
    refused = svc.handle(ANN, "game settings", {"reminders": "pigeon"})
    assert not refused.ok and [m.key for m in refused.messages] == ["error.option_bad_choice"]
    assert svc.store.member_settings(ANN.user_id) == before


# -- where the pings go -----------------------------------------------------------------------------
def test_the_turn_handed_over_goes_by_dm_to_who_chose_it_and_stays_in_the_channel_for_the_others(
        svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game settings", {"reminders": "dm", "language": "fr"}).ok
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
    [dm] = [post for post in rows.unsent(svc.store) if post.kind == rows.DM]
    assert rows.recipient(dm) == BOB.user_id and dm.channel_id == CHANNEL
    hooks = delivered(svc)
    assert channel_pings(hooks) == [] and f"<@{BOB.user_id}>" not in channel_text(hooks)
    assert hooks.dms == [(BOB.user_id, f"🔔 À vous de jouer dans **Duel** : {LINK}")]  # his language
    assert svc.handle(BOB, "td order", {"text": "add 1"}).ok  # Ann kept the channel
    hooks = delivered(svc)
    assert channel_pings(hooks) == [ANN.user_id] and hooks.dms == []


def test_a_dm_reads_in_the_servers_language_when_the_member_has_none(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(GM, "gm settings", {"language": "fr"}).ok
    assert svc.handle(BOB, "game settings", {"reminders": "dm"}).ok
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
    [dm] = [post for post in rows.unsent(svc.store) if post.kind == rows.DM]
    assert dm_language(svc.store, BOB.user_id, svc.server_language(GUILD)) == "fr"
    [line] = decode_reply(dm.payload).messages
    assert translate(line.key, "fr", line.params) == f"🔔 À vous de jouer dans **Duel** : {LINK}"


def test_a_muted_member_gets_no_dm_either(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game settings", {"reminders": "dm", "pings": "off"}).ok
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
    hooks = delivered(svc)
    assert channel_pings(hooks) == [] and hooks.dms == []


def test_the_clock_reminder_goes_by_dm_and_its_post_stays_in_the_channel(store: Store) -> None:
    now = [dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)]
    svc = GameService(store, seed_source=lambda: 3, clock=lambda: now[0])
    duel(svc)
    assert svc.handle(ANN, "game settings", {"reminders": "dm"}).ok
    half = next(t for t in game_timers(store, svc.store.game_in_channel(GUILD, CHANNEL).id) if t.kind == "clock_half")
    now[0] = half.due_at
    hooks = Hooks(store)
    TimerRunner(store, timer_handlers(svc, hooks), clock=lambda: now[0]).run_due(half.due_at)
    flush(store, hooks)
    assert [m.key for post in hooks.posts for m in post.messages] == ["turn.clock_half"]
    assert channel_pings(hooks) == [] and f"<@{ANN.user_id}>" not in channel_text(hooks)
    [(user, text)] = hooks.dms
    assert user == ANN.user_id and text.startswith("⏳ **Duel**: half your clock is gone") and LINK in text


def test_the_deadline_reminder_goes_by_dm_to_who_chose_it(store: Store) -> None:
    now = [dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)]
    svc = GameService(store, seed_source=lambda: 3, clock=lambda: now[0])
    assert svc.handle(GM, "ts new", {"name": "Bids", "turn_hours": 24, "reminders": "6"}).ok
    assert svc.handle(ANN, "ts join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ts join", {"name": "Bob"}).ok
    flush(store, Hooks(store))
    assert svc.handle(BOB, "game settings", {"reminders": "dm", "language": "fr"}).ok
    reminder = next(t for t in game_timers(store, svc.store.game_in_channel(GUILD, CHANNEL).id)
                    if t.kind == "reminder1")
    now[0] = reminder.due_at
    hooks = Hooks(store)
    TimerRunner(store, timer_handlers(svc, hooks), clock=lambda: now[0]).run_due(reminder.due_at)
    flush(store, hooks)
    assert channel_pings(hooks) == [ANN.user_id]
    assert hooks.dms == [(BOB.user_id, f"⏰ **Bids** : plus que 6 h avant l’échéance, vos ordres sont attendus. {LINK}")]


def test_gm_posts_lists_an_owed_dm_as_one(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game settings", {"reminders": "dm"}).ok
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
    listed = svc.handle(GM, "gm posts", {})
    words = "\n".join(translate(m.key, language, m.params) for m in listed.messages for language in ("en", "fr"))
    assert "direct message to a player" in words and "message privé à un joueur" in words, words


# -- a refused direct message -----------------------------------------------------------------------
class NoDms(Exception):
    """Discord's 50007: the member takes no direct message from the bot."""


class Discord:
    """The sender's Discord: refuses every direct message, takes every channel post."""

    def __init__(self) -> None:
        self.channel: list[rows.OutboxRecord] = []
        self.ids = iter(range(1000, 2000))

    async def render(self, post: rows.OutboxRecord) -> list[str]:
        return ["part"]

    async def send_part(self, post: rows.OutboxRecord, index: int, part: Any) -> int:
        if post.kind == rows.DM:
            raise NoDms("Cannot send messages to this user")
        self.channel.append(post)
        return next(self.ids)


def test_a_refused_dm_pings_the_member_in_the_channel_once_each_time_and_is_logged_once(
        svc: GameService, caplog: pytest.LogCaptureFixture) -> None:
    duel(svc)
    assert svc.handle(BOB, "game settings", {"reminders": "dm"}).ok
    discord = Discord()
    sender: OutboxSender[Any] = OutboxSender(
        svc.store, render=discord.render, send_part=discord.send_part, limiter=RateLimiter(1000.0),
        classify=lambda err: Failure(FINAL, cause=DM_REFUSED) if isinstance(err, NoDms) else Failure())
    with caplog.at_level(logging.WARNING, logger="spacechess.outbox"):
        for mover, text in ((ANN, "add 1"), (BOB, "add 1"), (ANN, "add 1")):
            assert svc.handle(mover, "td order", {"text": text}).ok
            asyncio.run(sender.drain())
    assert rows.unsent(svc.store) == []
    pings = [decode_reply(post.payload) for post in discord.channel]
    assert [post.mentions for post in pings] == [(BOB.user_id,), (ANN.user_id,), (BOB.user_id,)]  # once each
    assert [m.key for m in pings[0].messages] == ["turn.your_turn"]
    assert svc.store.member_settings(BOB.user_id).reminders == "dm"  # his setting is his to change
    refusals = [r for r in caplog.records if "refuses direct messages" in r.getMessage()]
    assert len(refusals) == 1, caplog.records


@pytest.mark.parametrize("down", [rows.DM, "turn_post"])
def test_a_dm_and_the_channel_never_wait_for_each_other(svc: GameService, down: str) -> None:
    duel(svc)
    assert svc.handle(BOB, "game settings", {"reminders": "dm"}).ok
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok  # Bob's DM
    rows.enqueue(svc.store, [post_of(svc.store.game_in_channel(GUILD, CHANNEL), Reply((Message("game.info.no_players"),)))])
    sent: list[str] = []

    async def send_part(post: rows.OutboxRecord, index: int, part: Any) -> int:
        if post.kind == down:
            raise OSError("Discord is slow today")
        sent.append(post.kind)
        return 1000 + len(sent)

    async def render(post: rows.OutboxRecord) -> list[str]:
        return ["part"]

    owed = [post.kind for post in rows.unsent(svc.store)]
    assert owed == [rows.DM, "turn_post"]  # the channel's post after the DM
    sender: OutboxSender[Any] = OutboxSender(svc.store, render=render, send_part=send_part, classify=lambda _: Failure(),
                                             limiter=RateLimiter(1000.0))
    asyncio.run(sender.drain())
    assert sent and down not in sent and set(sent) | {down} == set(owed)  # the other lane went on
    assert {post.kind for post in rows.unsent(svc.store)} == {down}


def test_an_adapter_that_cannot_write_to_members_pings_them_in_the_channel(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(BOB, "game settings", {"reminders": "dm"}).ok
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
    posts: list[Reply] = []

    class ChannelOnly:
        def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
            posts.append(reply)

        def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
            posts.append(reply)

    flush(svc.store, ChannelOnly())
    assert [post.mentions for post in posts] == [(BOB.user_id,)]


# -- the console ------------------------------------------------------------------------------------
def test_the_console_prints_a_dm_as_one(store: Store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(GameService(store, seed_source=lambda: 3), out_dir=tmp_path, language="en", stream=out)
    lines = ["as gm /td new name:Duel clock_hours:10", "as ann /td join name:Ann", "as bob /td join name:Bob",
             "as bob /game settings reminders:dm", "as ann /td order text:\"add 1\""]
    assert console.run_lines(lines) == 0, out.getvalue()
    shown = out.getvalue()
    assert "[DM to @bob] 🔔 Your turn in **Duel**: https://discord.com/channels/" in shown, shown
    assert "@bob: your turn" not in shown, shown


def test_a_space_chess_draw_tells_by_dm_the_members_who_chose_it_in_every_game_of_its_batch(store: Store) -> None:
    service = GameService(store, seed_source=lambda: 3)
    games = [make_running_game(store, channel, seats=False) for channel in (21, 22)]
    for game in games:
        seats = [SeatRecord(game.id, 2, "s11"), SeatRecord(game.id, 3, "s12"), SeatRecord(game.id, 4, "s13")]
        store.commit(game.id, game.version, state=game.state, entries=[], seats_set=seats)
    store.set_member_settings(4, reminders="dm")
    # 12 hits card 2 (s11), 17 card 3 (s12), 43-46 card 7 (s13): all three gain AP
    save_draws(store, [draw("2024-03-04", (12, 17, 43, 44, 45))])
    posts = DrawApplier(service).apply_all()
    assert [post.reply.mentions for post in posts] == [(2, 3), (2, 3)]
    dms = [post for post in rows.unsent(store) if post.kind == rows.DM]
    assert sorted((post.game_id, rows.recipient(post)) for post in dms) == sorted((g.id, 4) for g in games)
    [line] = decode_reply(dms[0].payload).messages
    text = translate(line.key, "fr", line.params)
    assert text.startswith("🎲 Nouveau tirage dans **") and f"https://discord.com/channels/{DRAWS_GUILD}/" in text
