"""How replies reach Discord: language, mentions, the 2000-character limit, deferral, restarts.

The deferral tests hold the service until the recorder has seen the deferral callback, so the order
"defer, then the slow answer" is proven by construction rather than by timing.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.service import Context, GameService, Reply
from bot.store import Store
from tests.bot.discord.harness import (
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    PNG_SIGNATURE,
    BotHarness,
    Call,
    DiscordRecorder,
)
from tests.bot.discord.lobby import (
    ANN,
    BOB,
    CID,
    DEE,
    EVE,
    GM,
    GM_FR,
    GM_ROLE,
    ROLE_HOLDER,
    SEATS,
    accepted,
    last_evening,
    lobby,
    run,
    running,
)
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID, Member, Upload, click, slash

EVE_FR = Member(EVE.id, EVE.name, locale="fr")
DEFERRED_UPDATE_MESSAGE = 6
MENTION = re.compile(r"<@!?(\d+)>")


def mentions_of(call: Call) -> Mapping[str, Any]:
    return call.message["allowed_mentions"]


async def test_private_replies_follow_the_members_locale_public_ones_the_servers(harness: BotHarness) -> None:
    """Discord's idiom (issue 24): what only the member reads in their client's language, what the
    channel reads in the server's (English on this test server), whoever asked."""
    assert "Only game masters can use this command." in (await run(harness, EVE, "sc new",
                                                                   name="X")).text
    assert "Seuls les maîtres du jeu" in (await run(harness, EVE_FR, "sc new", name="X")).text
    created = await run(harness, GM_FR, "sc new", name="Orion")
    assert not created.calls[0].ephemeral and "Game **Orion** (spacechess) created" in created.text, created.text
    assert "No player has joined yet." in (await run(harness, GM, "game info")).text
    assert "No player has joined yet." in (await run(harness, GM_FR, "game info")).text


async def test_a_character_named_everyone_is_refused_at_join(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    for name in ("@everyone", "@here", f"<@{BOB.id}>"):
        exchange = await run(harness, ANN, "sc join", name=name, team="1", role="general")
        assert exchange.refused and "A name may only hold letters" in exchange.text, name
    assert harness.bot.service.store.seats(1) == []


async def test_no_reply_may_ping_everyone_or_a_role(harness: BotHarness, recorder: DiscordRecorder) -> None:
    """Every message of a whole lobby: allowed_mentions never parses @everyone or roles, and the
    join announcements name players without pinging them."""
    await lobby(harness)
    sent = [c for c in recorder.calls if c.message is not None]
    assert len(sent) >= 13
    for call in sent:
        assert mentions_of(call)["parse"] == [] and mentions_of(call).get("roles", []) == []
    named = [c for c in sent if MENTION.search(c.content or "")]
    assert {int(u) for c in named for u in MENTION.findall(c.content)} == {m.id for m, *_ in SEATS}
    assert all(mentions_of(c)["users"] == [] for c in named)


async def test_a_draw_pings_exactly_the_players_who_gained_ap(harness: BotHarness) -> None:
    await running(harness, draws="manual")  # a game whose GMs type its draws may get past evenings
    evening = last_evening()
    ask = await run(harness, GM, "gm draw", numbers="29 33 36 40 41", date=evening)
    message, custom_id = ask.button()
    post = accepted(await harness.interact(click(message, custom_id, GM)))
    pinged = {int(u) for c in post.messages for u in mentions_of(c)["users"]}
    assert pinged == {CID.id}  # cards 5 and 6 are Cid's (SC-11)
    assert pinged <= {int(u) for u in MENTION.findall(post.text)}


async def test_a_long_private_reply_is_split_into_ephemeral_followups(harness: BotHarness) -> None:
    await running(harness)
    for n in range(10):
        accepted(await run(harness, GM, "sc set", character="Cid", ap=n, reason=f"{n:02d} " + "x" * 190))
    history = await run(harness, ANN, "game history")
    assert history.kinds()[0] == "callback:4" and set(history.kinds()[1:]) == {"followup"}
    assert len(history.messages) >= 2 and all(c.ephemeral for c in history.messages)
    assert all(len(c.content) <= 2000 for c in history.messages)
    assert all(f"{n:02d} xxx" in history.text for n in range(10))


class HeldService(GameService):
    """A service whose commands wait, while `holding`, until the bot has deferred the interaction."""

    def __init__(self, store: Store, recorder: DiscordRecorder) -> None:
        super().__init__(store, seed_source=lambda: 99)
        self.holding = False
        self.deferred = threading.Event()
        self.released_by_deferral: list[bool] = []
        recorder.listeners.append(self._saw)

    def _saw(self, call: Call) -> None:
        if call.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            self.deferred.set()

    def handle(self, ctx: Context, path: str, raw_options: Mapping[str, Any] | None = None, *,
               shown_to: int | None = None) -> Reply:
        if self.holding:
            self.released_by_deferral.append(self.deferred.wait(timeout=30))
            self.deferred.clear()
        return super().handle(ctx, path, raw_options, shown_to=shown_to)


async def _held(sqlite_store: Store, recorder: DiscordRecorder) -> tuple[BotHarness, HeldService]:
    service = HeldService(sqlite_store, recorder)
    return BotHarness(service, recorder), service


async def test_a_slow_public_reply_is_deferred_first_then_edits_the_original(sqlite_store: Store,
                                                                             recorder: DiscordRecorder) -> None:
    harness, service = await _held(sqlite_store, recorder)
    async with harness:
        await running(harness)
        harness.bot.direct_reply_seconds = 0.01
        service.holding = True
        board = await run(harness, ANN, "game board")
    assert board.kinds() == ["callback:5", "PATCH @original"] and service.released_by_deferral == [True]
    deferral, edit = board.calls
    assert not deferral.ephemeral  # a public "thinking..." message
    # the channel's answer, in the server's language (French: this service's default), not the asker's
    assert edit.content.startswith("**Orion** — tour") and edit.files[0][1].startswith(PNG_SIGNATURE)
    assert edit.body["attachments"][0]["filename"] == edit.files[0][0]


async def test_a_slow_private_reply_replaces_the_public_deferral(sqlite_store: Store,
                                                                recorder: DiscordRecorder) -> None:
    harness, service = await _held(sqlite_store, recorder)
    async with harness:
        harness.bot.direct_reply_seconds = 0.01
        service.holding = True
        refusal = await run(harness, EVE, "sc new", name="Orion")
    assert refusal.kinds() == ["callback:5", "DELETE @original", "followup"]
    assert service.released_by_deferral == [True]
    followup = refusal.calls[-1]
    assert followup.ephemeral and followup.content == "Only game masters can use this command."


async def test_a_slow_button_click_is_deferred_too(sqlite_store: Store, recorder: DiscordRecorder) -> None:
    harness, service = await _held(sqlite_store, recorder)
    async with harness:
        await running(harness)
        accepted(await run(harness, GM, "sc set", character="Cid", ap=9, reason="test"))
        message, custom_id = (await run(harness, CID, "sc move", to="L6")).button()
        harness.bot.direct_reply_seconds = 0.01
        service.holding = True
        moved = await harness.interact(click(message, custom_id, CID))
    # a component defers an update of its own message (type 6), then the result is a message of its own
    assert moved.kinds() == ["callback:6", "followup"] and service.released_by_deferral == [True]
    assert "L6" in moved.text


async def test_buttons_keep_working_after_a_restart(service: GameService, recorder: DiscordRecorder) -> None:
    """The command is in the custom id: a new GameBot that never saw the view runs the click."""
    async with BotHarness(service, recorder) as before:
        before.bot.direct_reply_seconds = 60.0
        await running(before)
        accepted(await run(before, GM, "sc set", character="Cid", ap=9, reason="test"))
        message, custom_id = (await run(before, CID, "sc move", to="L6")).button()
    async with BotHarness(service, recorder) as after:
        after.bot.direct_reply_seconds = 60.0
        assert (await after.interact(click(message, custom_id, DEE))).refused  # still Cid's button only
        moved = accepted(await after.interact(click(message, custom_id, CID)))
    assert "L6" in moved.text
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert service.handle(Context(DEE.id, "dee", GUILD_ID, CHANNEL_ID), "game sheet", {"character": "Cid"}
                          ).messages[0].params["at"] == "L6"
    assert game.status == "running"


async def test_a_button_acts_only_for_the_member_it_was_shown_to(harness: BotHarness) -> None:
    """Issue 9 point 9: a preview's button ran its command as whoever clicked it. Cid's confirmation
    clicked by Dee (a player) or Eve (a spectator) now gets a private refusal naming Cid without
    pinging him, and the game stays exactly as it was; Cid's own click still moves him."""
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=9, reason="test"))
    message, custom_id = (await run(harness, CID, "sc move", to="L6")).button()
    store = harness.bot.service.store
    before = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    for other in (DEE, EVE):
        refusal = await harness.interact(click(message, custom_id, other))
        assert refusal.refused and refusal.kinds() == ["callback:4"]
        assert f"This was shown to <@{CID.id}>: only they can use it." in refusal.text
        assert all(mentions_of(c)["parse"] == [] and not mentions_of(c).get("users") for c in refusal.messages)
    after = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert (after.version, after.state, store.log(after.id)) == (before.version, before.state, store.log(before.id))
    assert "L6" in accepted(await harness.interact(click(message, custom_id, CID))).text


async def test_a_gm_confirmation_is_for_that_gm_only(harness: BotHarness) -> None:
    """Another game master clicking the `/gm end` confirmation a GM was shown is refused: the game
    keeps running."""
    await running(harness)
    assert f"GM role: <@&{GM_ROLE.id}>" in (await run(harness, GM, "gm settings", gm_role=GM_ROLE)).text
    message, custom_id = (await run(harness, GM, "gm end")).button()
    refusal = await harness.interact(click(message, custom_id, ROLE_HOLDER))
    assert refusal.refused and f"This was shown to <@{GM.id}>" in refusal.text
    assert harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID).status == "running"
    accepted(await harness.interact(click(message, custom_id, GM)))
    assert harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID).status == "finished"


async def test_a_command_acts_on_the_game_of_its_own_channel(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    elsewhere = await harness.interact(slash("game info", GM, {}, channel_id=CHANNEL_ID + 5))
    assert elsewhere.refused and "There is no game" in elsewhere.text


async def test_a_slow_attachment_download_happens_after_the_deferral(harness: BotHarness, recorder: DiscordRecorder,
                                                                     service: GameService) -> None:
    """`/gm import` reads its file from Discord's CDN: that download runs under the deferral clock."""
    await running(harness)
    exported = await run(harness, GM, "gm export")
    (name, data), = exported.files
    upload = recorder.host(Upload(name, data))
    deferred = asyncio.Event()
    recorder.listeners.append(lambda call: call.callback_type == DEFERRED_CHANNEL_MESSAGE and deferred.set())
    waited: list[bool] = []

    async def slow_cdn(url: str) -> bytes:
        try:
            await asyncio.wait_for(deferred.wait(), timeout=30)
            waited.append(True)
        except TimeoutError:
            waited.append(False)
        return await recorder.cdn(url)

    harness.bot.http.get_from_cdn = slow_cdn  # type: ignore[method-assign]
    harness.bot.direct_reply_seconds = 0.01
    imported = await harness.interact(slash("gm import", GM, {"file": upload}, channel_id=CHANNEL_ID + 1))
    assert imported.kinds() == ["callback:5", "PATCH @original"] and waited == [True]
    assert "Orion" in imported.text
    assert service.store.game_in_channel(GUILD_ID, CHANNEL_ID + 1) is not None


async def test_a_secret_order_answers_the_channel_then_its_owner_alone(harness: BotHarness) -> None:
    """A sealed bid: the channel's answer says Ann gave her orders; what she bid comes after it as an
    ephemeral follow-up, the only message that holds it."""
    accepted(await run(harness, GM, "ts new", name="Bids"))
    accepted(await run(harness, ANN, "ts join", name="Ann"))
    accepted(await run(harness, BOB, "ts join", name="Bob"))
    exchange = accepted(await run(harness, ANN, "ts order", text="add 4"))
    assert exchange.kinds() == ["callback:4", "followup"]
    public, private = exchange.messages
    assert not public.ephemeral and "Ann" in (public.content or "") and "4" not in (public.content or "")
    assert private.ephemeral and "Ann: 4" in (private.content or "")


class PingingService(HeldService):
    """`game board` answers with a ping, as a draw offer or a game's end does."""

    def handle(self, ctx: Context, path: str, raw_options: Mapping[str, Any] | None = None, *,
               shown_to: int | None = None) -> Reply:
        reply = super().handle(ctx, path, raw_options, shown_to=shown_to)
        return replace(reply, mentions=(BOB.id,)) if path == "game board" else reply


async def test_a_deferred_answer_that_pings_names_them_again_in_a_message_of_its_own(
        sqlite_store: Store, recorder: DiscordRecorder) -> None:
    """Issue 26: Discord notifies nobody an edited message mentions, and a deferred answer is an edit."""
    service = PingingService(sqlite_store, recorder)
    async with BotHarness(service, recorder) as harness:
        await running(harness)
        quick = await run(harness, ANN, "game board")
        assert quick.kinds() == ["callback:4"]  # a direct answer is a new message: it notifies already
        harness.bot.direct_reply_seconds = 0.01
        service.holding = True
        board = await run(harness, ANN, "game board")
    assert board.kinds() == ["callback:5", "PATCH @original", "followup"]
    ping = board.calls[-1]
    assert ping.content == f"<@{BOB.id}>" and mentions_of(ping)["users"] == [BOB.id] and not ping.ephemeral


async def test_a_command_that_answers_privately_thinks_privately(harness: BotHarness) -> None:
    """Issue 25 point 7: a deferred `/game mine` shows "thinking…" to its member alone and its answer
    replaces it in place; a public command's deferral stays public."""
    harness.bot.direct_reply_seconds = 0.0  # deferred first, as a slow command is
    mine = await harness.interact(slash("game mine", ANN))
    assert mine.kinds() == ["callback:5", "PATCH @original"]
    assert mine.calls[0].body["data"]["flags"] & EPHEMERAL
    info = await harness.interact(slash("game info", ANN))
    assert info.kinds()[0] == "callback:5" and not (info.calls[0].body.get("data") or {}).get("flags", 0) & EPHEMERAL
