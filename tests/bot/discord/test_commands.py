"""Slash commands end to end inside the process: raw interaction in, the REST calls the bot made out.

Each test plays what a member does on Discord and checks what Discord received: the callback type,
the ephemeral flag (64) of refusals, the files, the buttons and what clicking them does.
"""

from __future__ import annotations

import json

from bot.i18n import command_name
from bot.service.commands import table
from tests.bot.discord.harness import CHANNEL_MESSAGE, PNG_SIGNATURE, BotHarness, Exchange
from tests.bot.discord.lobby import (
    ANN,
    BOB,
    CID,
    DEE,
    EVE,
    GM,
    GM_ROLE,
    ROLE_HOLDER,
    accepted,
    lobby,
    run,
    running,
)
from tests.bot.discord.payloads import (
    ADMINISTRATOR,
    CHANNEL_ID,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    Member,
    Role,
    Upload,
    autocomplete,
    click,
    slash,
)


def refused(exchange: Exchange, text: str) -> Exchange:
    """The exchange, after checking the bot refused privately with `text` in the reply."""
    assert exchange.refused, (exchange.kinds(), exchange.text)
    assert text in exchange.text, exchange.text
    return exchange


def _required_value(kind: str, choices: tuple[str, ...], minimum: int | None) -> object:
    """A value Discord's client would accept for a required option of this kind."""
    if choices:
        return choices[0]
    return {"integer": minimum or 1, "boolean": True, "user": ANN, "role": GM_ROLE,
            "attachment": Upload("setup.json", b"{}")}.get(kind, "A1")


async def test_every_command_of_the_table_is_reachable_and_answers(harness: BotHarness, recorder) -> None:
    """Smoke: each command, with its required options only, gets exactly one message response."""
    await lobby(harness)
    for path, cmd in sorted(table().items()):
        options = {o.name: _required_value(o.type, o.choices, o.min_value) for o in cmd.options if o.required}
        for value in options.values():
            if isinstance(value, Upload):
                recorder.host(value)
        exchange = await harness.interact(slash(path, GM, options))
        callbacks = [c for c in exchange.calls if c.is_callback]
        assert [c.callback_type for c in callbacks] == [CHANNEL_MESSAGE], (path, exchange.kinds())
        assert callbacks[0].content and len(callbacks[0].content) <= 2000, path


async def test_sc_new_is_refused_privately_to_a_member_without_manage_server(harness: BotHarness) -> None:
    exchange = refused(await run(harness, EVE, "sc new", name="Orion"),
                       "Only game masters can use this command.")
    assert exchange.messages[0].body["data"]["flags"] == 64
    assert harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID) is None


async def test_sc_new_by_a_manager_is_public_and_the_rules_kind_autocompletes(harness: BotHarness) -> None:
    admin = Member(42, "admin", MEMBER_PERMISSIONS | ADMINISTRATOR)  # Administrator implies Manage Server
    accepted(await harness.interact(slash("sc new", admin, {"name": "Vega"},
                                          channel_id=CHANNEL_ID + 1)))
    created = accepted(await run(harness, GM, "sc new", name="Orion"))
    assert created.kinds() == ["callback:4"] and "Game **Orion** (spacechess) created" in created.text
    assert created.calls[0].params == {"with_response": "1"} and not created.calls[0].ephemeral
    choices = (await harness.interact(autocomplete("game rules", EVE, "game", "spacec"))).choices
    assert choices == [{"name": "spacechess", "value": "spacechess"}]


async def test_the_gm_role_set_by_gm_settings_makes_its_holder_a_gm(harness: BotHarness) -> None:
    """The role option (type 8) travels as an id; the holder's roles come from the member payload."""
    refused(await run(harness, ROLE_HOLDER, "sc new", name="Orion"), "Only game masters")
    settings = await run(harness, GM, "gm settings", gm_role=GM_ROLE, language="en")
    assert settings.refused and f"GM role: <@&{GM_ROLE.id}>" in settings.text  # settings are private
    accepted(await run(harness, ROLE_HOLDER, "sc new", name="Orion"))
    refused(await run(harness, GM, "gm settings", gm_role=Role(1, "x"), pings="often"), "cannot be `often`")


async def test_game_join_and_its_refusals(harness: BotHarness) -> None:
    refused(await run(harness, ANN, "sc join", name="Ann", team="1", role="general"), "There is no game")
    accepted(await run(harness, GM, "sc new", name="Orion"))
    joined = accepted(await run(harness, ANN, "sc join", name="Ann", team="1", role="general"))
    assert f"<@{ANN.id}> joins the game as **Ann**" in joined.text
    refused(await run(harness, ANN, "sc join", name="Ann2", team="2", role="general"), "already")
    refused(await run(harness, BOB, "sc join", name="Bo", team="1", role="general"), "L’équipe 1 est complète pour ce rôle")
    assert len(harness.bot.service.store.seats(1)) == 1


async def test_sc_equip_and_deploy_with_their_refusals(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    refused(await run(harness, CID, "sc equip", card1=1, card2=2), "not playing")
    accepted(await run(harness, CID, "sc join", name="Cid", team="1", role="soldier"))
    accepted(await run(harness, CID, "sc equip", card1=5, card2=6, weapon="sniper", armour="light",
                       item1="grenades", item2="scope", ability="rage"))
    refused(await run(harness, CID, "sc deploy", cell="Z99"), "`Z99` is not a cell of this board.")
    refused(await run(harness, CID, "sc deploy", cell="L43"), "Deploy on your camp's rows")  # SC-10
    accepted(await run(harness, CID, "sc deploy", cell="L2"))


async def test_gm_start_lists_what_is_missing(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    accepted(await run(harness, ANN, "sc join", name="Ann", team="1", role="general"))
    exchange = refused(await run(harness, GM, "gm start"), "The game cannot start yet. Still to do:")
    assert "• team 2: nobody plays its general yet" in exchange.text and "general:2" not in exchange.text


async def test_gm_start_posts_the_board(harness: BotHarness) -> None:
    await lobby(harness)
    started = accepted(await run(harness, GM, "gm start"))
    assert started.files and started.files[0][1].startswith(PNG_SIGNATURE)


async def test_a_costly_move_is_previewed_then_applied_by_its_button_once(harness: BotHarness) -> None:
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=9, reason="test"))
    preview = await run(harness, CID, "sc move", to="L6")
    assert preview.refused and "Move to L6" in preview.text  # previews are private
    message, custom_id = preview.button()
    assert custom_id.split(":")[2] == "sc move"
    moved = accepted(await harness.interact(click(message, custom_id, CID)))
    assert moved.kinds() == ["callback:4"] and moved.files[0][1].startswith(PNG_SIGNATURE)
    refused(await harness.interact(click(message, custom_id, CID)), "The game changed since this confirmation")


async def test_sc_order_applies_text_orders_and_refuses_bad_ones(harness: BotHarness) -> None:
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=5, reason="test"))
    before = harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    refused(await run(harness, CID, "sc order", text="dance wildly"), "I could not read that order")
    assert harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID).version == before.version
    accepted(await run(harness, CID, "sc order", text="move L3"))
    refused(await run(harness, EVE, "sc order", text="move L3"), "not playing")


async def test_sc_shoot_autocompletes_at_most_25_targets(harness: BotHarness) -> None:
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=5, reason="test"))
    choices = (await harness.interact(autocomplete("sc shoot", CID, "target", ""))).choices
    assert 1 <= len(choices) <= 25
    assert {c["name"] for c in choices} == {"Ann"}  # SC-20: allies may be shot; enemies are out of range
    assert (await harness.interact(autocomplete("sc shoot", EVE, "target", ""))).choices == []
    refused(await run(harness, CID, "sc shoot", target="Nobody"), "no character called `Nobody`")


async def test_game_board_sends_a_png(harness: BotHarness) -> None:
    await running(harness)
    board = accepted(await run(harness, ANN, "game board"))
    (name, data), = board.files
    assert name.endswith(".png") and data.startswith(PNG_SIGNATURE)
    assert board.calls[0].body["data"]["attachments"][0]["filename"] == name
    # its alt text (issue 25 point 6): the game and its name (no turn before the first draw), the next
    # draw, who is where
    described = board.calls[0].body["data"]["attachments"][0]["description"]
    assert described.startswith("Space Chess game “Orion”.") and "Cid (soldier)" in described, described
    assert "Next draw" in described and len(described) <= 1024 and "**" not in described


async def test_game_sheet_shows_a_card_and_refuses_unknown_characters(harness: BotHarness) -> None:
    await running(harness)
    sheet = accepted(await run(harness, ANN, "game sheet", character="cid"))
    assert sheet.files[0][0] == "sheet-Cid.png" and sheet.files[0][1].startswith(PNG_SIGNATURE)
    assert "sniper" in sheet.text
    described = sheet.calls[0].body["data"]["attachments"][0]["description"]
    assert described.startswith("Sheet of Cid (Space Chess): Cid — team") and "sniper" in described, described
    refused(await run(harness, ANN, "game sheet", character="Zed"), "Zed")
    refused(await run(harness, EVE, "game sheet"), "not playing")


async def test_gm_undo_asks_with_a_button_and_the_click_undoes(harness: BotHarness) -> None:
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=5, reason="test"))
    accepted(await run(harness, CID, "sc order", text="move L3"))
    refused(await run(harness, CID, "gm undo"), "Only game masters")
    ask = await run(harness, GM, "gm undo")
    assert ask.refused and "moved L2 → L3" in ask.text
    message, custom_id = ask.button()
    refused(await harness.interact(click(message, custom_id, CID)), f"This was shown to <@{GM.id}>")
    accepted(await harness.interact(click(message, custom_id, GM)))
    sheet = await run(harness, CID, "game sheet")
    assert "L2" in sheet.text


async def test_gm_export_sends_the_game_as_a_json_file_and_gm_import_reads_it(harness: BotHarness,
                                                                              recorder) -> None:
    await running(harness)
    exported = await run(harness, GM, "gm export")
    assert exported.refused  # private: the log names every player's orders
    (name, data), = exported.files
    document = json.loads(data)
    assert name.endswith(".json") and set(document["view"]["characters"]) == {"Ann", "Bob", "Cid", "Dee"}
    upload = recorder.host(Upload(name, data))
    imported = accepted(await harness.interact(slash("gm import", GM, {"file": upload}, channel_id=CHANNEL_ID + 1)))
    assert "Orion" in imported.text
    copy = harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID + 1)
    assert copy.state == harness.bot.service.store.game_in_channel(GUILD_ID, CHANNEL_ID).state


async def test_gm_kick_takes_a_member_option_and_confirms_with_a_button(harness: BotHarness) -> None:
    await lobby(harness)
    ask = await run(harness, GM, "gm kick", user=DEE)
    assert ask.refused and "Dee" in ask.text
    message, custom_id = ask.button()
    kicked = accepted(await harness.interact(click(message, custom_id, GM)))
    assert "Dee" in kicked.text
    refused(await run(harness, GM, "gm kick", user=DEE), f"<@{DEE.id}> does not play in this game.")
    assert {s.actor for s in harness.bot.service.store.seats(1)} == {"Ann", "Bob", "Cid"}


async def test_game_help_lists_every_command_within_discord_limits(harness: BotHarness) -> None:
    """Without a game in the channel, every command, page by page through the pages' buttons."""
    helped, text = await run(harness, BOB, "game help"), ""
    for page in range(1, 21):
        assert helped.refused  # private
        assert all(len(c.content) <= 2000 for c in helped.messages)
        text += helped.text
        buttons = sum(len(c.custom_ids) for c in helped.messages)  # previous page (but on the first), next
        if buttons < (1 if page == 1 else 2):
            break
        message, custom_id = helped.button(buttons - 1)  # the next page's
        helped = await harness.interact(click(message, custom_id, BOB))
    for path in table():  # in the names a French client shows (the server's default language)
        assert f"`/{command_name(path, 'fr')}`" in text

