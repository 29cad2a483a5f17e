"""`/game settings` (issue 26, point 3): a member's own settings, the same in every game on every
server — pings off (no game pings them: the turn handed over, a win, a draw offer) and the language of
what only they read (the channel keeps the server's) — shown without options, privately; refusals
change nothing; also in the console."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest

from bot.console import Console
from bot.drivers import timer_handlers
from bot.i18n import translate
from bot.outbox import flush
from bot.service import Context, GameService, Reply, Visibility
from bot.store import MemberSettingsRecord
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from tests.bot.every_game.test_turn_pings import Hooks

ONE, TWO = 10, 20  # two servers
GM = Context(user_id=1, user_name="gm", guild_id=ONE, channel_id=100, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=ONE, channel_id=100, locale="en-US")
BOB = Context(user_id=3, user_name="bob", guild_id=ONE, channel_id=100, locale="en-US")
YOUR_TURN = "turn.your_turn"


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def text(reply: Reply, language: str) -> str:
    return "\n".join(translate(m.key, language, m.params) for m in reply.messages)


def at(ctx: Context, guild: int, channel: int) -> Context:
    return Context(user_id=ctx.user_id, user_name=ctx.user_name, guild_id=guild, channel_id=channel,
                   locale=ctx.locale, manage_server=ctx.manage_server)


def pinged(svc: GameService, reply: Reply) -> list[int]:
    """Everyone the command's reply and the posts it wrote may ping (the posts flushed)."""
    hooks = Hooks()
    flush(svc.store, hooks)
    return list(reply.mentions) + [user for post in hooks.posts for user in post.mentions]


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 3)


# -- the command ---------------------------------------------------------------------------------
def test_without_options_it_shows_the_defaults_privately_and_stores_nothing(svc: GameService) -> None:
    shown = svc.handle(ANN, "game settings", {})
    assert shown.ok and shown.visibility is Visibility.PRIVATE
    assert keys(shown) == ["member.settings.shown", "member.settings.how"]
    assert svc.store.member_settings(ANN.user_id) == MemberSettingsRecord(ANN.user_id)  # nothing stored
    words = text(shown, "en")
    assert "pings: on" in words and "your Discord's (English for now)" in words, words
    assert "/game settings pings:" in words and "/game settings language:" in words, words
    assert "mentions : activées" in text(shown, "fr") and "celle de votre Discord" in text(shown, "fr")


def test_pings_and_language_are_set_kept_and_given_back_to_discord(svc: GameService) -> None:
    muted = svc.handle(ANN, "game settings", {"pings": "off"})
    assert muted.ok and keys(muted)[0] == "member.settings.saved" and "pings: off" in text(muted, "en")
    french = svc.handle(ANN, "game settings", {"language": "fr"})
    assert french.language == "fr"  # the reply to the choice already speaks it
    assert "mentions : désactivées" in text(french, "fr") and "langue de vos réponses et messages privés : français" in text(
        french, "fr")
    elsewhere = svc.handle(at(ANN, TWO, 999), "game settings", {})  # another server, no game there
    assert keys(elsewhere)[0] == "member.settings.shown" and "mentions : désactivées" in text(elsewhere, "fr")
    back = svc.handle(ANN, "game settings", {"pings": "on", "language": "discord"})
    assert back.ok and back.language == "en"
    assert (svc.store.member_settings(ANN.user_id).mute_pings, svc.store.member_settings(ANN.user_id).language) == (
        False, None)
    assert svc.store.member_settings(BOB.user_id) == MemberSettingsRecord(BOB.user_id)  # Bob's are his own


@pytest.mark.parametrize("options", [{"pings": "loud"}, {"language": "de"}, {"pings": "off", "language": "klingon"}])
def test_a_refused_option_changes_nothing(svc: GameService, options: dict[str, str]) -> None:
    before = svc.store.set_member_settings(ANN.user_id, language="en")
    refused = svc.handle(ANN, "game settings", options)
    assert not refused.ok and refused.visibility is Visibility.PRIVATE
    assert keys(refused) == ["error.option_bad_choice"], refused.messages
    assert svc.store.member_settings(ANN.user_id) == before


def test_choices_read_in_the_readers_words(svc: GameService) -> None:
    assert svc.handle(ANN, "game settings", {"pings": "désactivées"}).ok
    assert svc.store.member_settings(ANN.user_id).mute_pings is True
    assert svc.handle(ANN, "game settings", {"pings": "activées", "language": "français"}).ok
    assert svc.store.member_settings(ANN.user_id).language == "fr"
    assert svc.store.member_settings(ANN.user_id).mute_pings is False


# -- the language: private replies follow the member, the channel the server --------------------------
def test_a_french_choice_makes_private_replies_french_and_the_channel_stays_the_servers(svc: GameService) -> None:
    assert svc.handle(GM, "gm settings", {"language": "en"}).ok  # an English server
    assert svc.handle(ANN, "game settings", {"language": "fr"}).ok  # Ann's client is English
    public = svc.handle(GM, "td new", {"name": "Duel", "clock_hours": 10})
    assert public.visibility is Visibility.PUBLIC and public.language == "en"
    joined = svc.handle(ANN, "td join", {"name": "Ann"})
    assert joined.ok and joined.visibility is Visibility.PUBLIC and joined.language == "en"  # the channel's
    refused = svc.handle(ANN, "td join", {"name": "Ann"})
    assert not refused.ok and refused.language == "fr"  # hers alone: French
    assert svc.language(ANN) == "fr" and svc.language(ANN, Visibility.PUBLIC) == "en"
    assert svc.language(BOB) == "en"  # another member's client still decides theirs
    mine = svc.handle(ANN, "game mine", {})
    assert mine.visibility is Visibility.PRIVATE and mine.language == "fr"


def test_a_private_reply_reads_the_members_settings_once(svc: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    svc.store.set_member_settings(ANN.user_id, language="fr")
    reads: list[int] = []
    fetch = svc.store._fetch

    def counted(query, params=None):  # noqa: ANN001, ANN202 - the store's own signature
        if params and set(params) == {"user_id"}:
            reads.append(params["user_id"])
        return fetch(query, params)

    monkeypatch.setattr(svc.store, "_fetch", counted)
    reply = svc.handle(ANN, "game mine", {})
    assert reply.language == "fr" and reads == [ANN.user_id]
    reads.clear()
    other = svc.handle(GM, "gm settings", {})  # another member's private reply: his own settings, once
    assert other.ok and reads == [GM.user_id]
    reads.clear()
    public = svc.handle(GM, "td new", {"name": "Duel"})  # the channel's reply reads no member's settings
    assert public.ok and public.visibility is Visibility.PUBLIC and reads == []


# -- pings off: never pinged, in any game ------------------------------------------------------------
def duel(svc: GameService, guild: int, channel: int, first: Context, second: Context) -> None:
    gm = at(GM, guild, channel)
    assert svc.handle(gm, "td new", {"name": f"Duel {channel}", "clock_hours": 10}).ok
    assert svc.handle(at(first, guild, channel), "td join", {"name": first.user_name.title()}).ok
    assert svc.handle(at(second, guild, channel), "td join", {"name": second.user_name.title()}).ok
    flush(svc.store, Hooks())


def test_a_muted_member_is_not_told_it_is_their_turn_in_any_game(svc: GameService) -> None:
    duel(svc, ONE, 100, ANN, BOB)
    duel(svc, TWO, 200, ANN, BOB)
    assert svc.handle(BOB, "game settings", {"pings": "off"}).ok
    for guild, channel in ((ONE, 100), (TWO, 200)):
        to_bob = svc.handle(at(ANN, guild, channel), "td order", {"text": "add 1"})
        assert to_bob.ok and pinged(svc, to_bob) == []
        to_ann = svc.handle(at(BOB, guild, channel), "td order", {"text": "add 1"})
        assert to_ann.ok and pinged(svc, to_ann) == [ANN.user_id]
    assert svc.handle(BOB, "game settings", {"pings": "on"}).ok
    back = svc.handle(ANN, "td order", {"text": "add 1"})
    assert pinged(svc, back) == [BOB.user_id]


def test_a_muted_winner_is_named_but_not_pinged(svc: GameService) -> None:
    duel(svc, ONE, 100, ANN, BOB)
    assert svc.handle(ANN, "game settings", {"pings": "off"}).ok
    movers = [ANN, BOB]
    last = None
    while svc.store.game_in_channel(ONE, 100).status == "running":
        last = svc.handle(movers[0], "td order", {"text": "add 5"})
        assert last.ok
        movers.reverse()
        if svc.store.game_in_channel(ONE, 100).status == "running":
            flush(svc.store, Hooks())
    assert last is not None and "game.over.winners" in keys(last)
    winners = next(m for m in last.messages if m.key == "game.over.winners")
    assert "Ann" in translate(winners.key, "en", winners.params)  # named all the same
    assert ANN.user_id not in pinged(svc, last)


def test_a_draw_offer_does_not_ping_a_muted_opponent(svc: GameService) -> None:
    ctx = {who: at(who, ONE, 300) for who in (GM, ANN, BOB)}
    assert svc.handle(ctx[GM], "ak new", {"name": "Duel", "clock_hours": 24}).ok
    assert svc.handle(ctx[ANN], "ak join", {"name": "Ann"}).ok
    assert svc.handle(ctx[BOB], "ak join", {"name": "Bob"}).ok
    assert svc.handle(ctx[GM], "gm start", {}).ok
    flush(svc.store, Hooks())
    assert svc.handle(BOB, "game settings", {"pings": "off"}).ok
    offered = svc.handle(ctx[ANN], "game offer-draw", {})
    assert offered.ok and "game.draw_offer.ping" not in keys(offered) and pinged(svc, offered) == []


def test_a_deadline_reminder_pings_only_those_who_let_it(store) -> None:
    now = [dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)]
    svc = GameService(store, seed_source=lambda: 3, clock=lambda: now[0])
    assert svc.handle(GM, "ts new", {"name": "Bids", "turn_hours": 24, "reminders": "6"}).ok
    assert svc.handle(ANN, "ts join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ts join", {"name": "Bob"}).ok
    flush(svc.store, Hooks())
    assert svc.handle(at(ANN, TWO, 999), "game settings", {"pings": "off"}).ok  # from another server
    game = svc.store.game_in_channel(ONE, 100)
    reminder = next(t for t in game_timers(svc.store, game.id) if t.kind == "reminder1")
    now[0] = reminder.due_at
    hooks = Hooks()
    TimerRunner(svc.store, timer_handlers(svc, hooks), clock=lambda: now[0]).run_due(reminder.due_at)
    assert [post.mentions for post in hooks.posts] == [(BOB.user_id,)]


# -- the console -------------------------------------------------------------------------------------
def test_in_the_console(store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(GameService(store, seed_source=lambda: 3), out_dir=tmp_path, language="en", stream=out)
    lines = ["as ann /game settings", "as ann /game settings pings:off", "as bob /game settings language:fr"]
    assert console.run_lines(lines) == 0, out.getvalue()
    shown = out.getvalue()
    assert "**Your settings**, in every game on every server — pings: on" in shown, shown
    assert "Saved. **Your settings**, in every game on every server — pings: off" in shown, shown
    assert "C’est noté. **Vos réglages**" in shown, shown  # Bob's words are his from now on
