"""Persistent buttons: the member they were shown to, the command and its options live in the custom
id, within Discord's 100 characters."""

from __future__ import annotations

import pytest

from bot.discord_adapter.client import CUSTOM_ID_LIMIT, CommandButton
from bot.service import Button, Message
from tests.bot.discord.harness import BotHarness
from tests.bot.discord.lobby import CID, GM, accepted, run, running
from tests.bot.discord.payloads import click


def test_a_button_is_its_member_in_base_36_its_command_and_its_options_packed() -> None:
    button = Button(Message("button.confirm_move"), "sc move", {"to": "L6", "confirm": 12}, shown_to=36 * 36 + 35)
    assert CommandButton(button, "Go").custom_id == "btn:10z:sc move:L6||12"  # to, drop (none), confirm


def test_a_hyphenated_command_has_a_button_its_template_reads_back() -> None:
    """Issue 25: `game accept-draw` could not have a button (the template took letters and spaces)."""
    button = CommandButton(Button(Message("button.accept_draw"), "game accept-draw", shown_to=35), "Accept")
    assert button.custom_id == "btn:z:game accept-draw:"
    match = CommandButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None and match["path"] == "game accept-draw" and match["member"] == "z"


def test_a_button_shown_to_nobody_is_an_error_not_a_button_for_anyone() -> None:
    with pytest.raises(ValueError, match="shown to nobody"):
        CommandButton(Button(Message("button.confirm_move"), "sc move", {"to": "L6"}), "Go")


def test_a_button_too_long_for_discord_is_an_error_not_a_truncated_dead_button() -> None:
    long = Button(Message("button.confirm_move"), "sc order", {"text": "x" * CUSTOM_ID_LIMIT}, shown_to=1)
    with pytest.raises(ValueError, match="/sc order needs a .*-character custom id"):
        CommandButton(long, "Go")


async def test_a_draw_typed_with_extra_spaces_still_gets_its_confirmation_button(harness: BotHarness) -> None:
    await running(harness, draws="manual")  # a game whose GMs type its draws may get past evenings
    # an old Loto evening: 6 numbers and the complementary, the longest entry a button carries
    ask = await run(harness, GM, "gm draw", numbers="29,  33,  36,  40,  41,  5", bonus=7, date="2008-10-04")
    message, custom_id = ask.button()
    assert len(custom_id) <= CUSTOM_ID_LIMIT
    accepted(await harness.interact(click(message, custom_id, GM)))


async def test_every_button_of_a_game_fits_and_names_a_command(harness: BotHarness) -> None:
    """The confirmation buttons of a running game (move, undo, end) carry short, parseable ids."""
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=9, reason="test"))
    asks = [await run(harness, CID, "sc move", to="L6"), await run(harness, GM, "gm undo", n=3),
            await run(harness, GM, "gm end")]
    for ask in asks:
        _message, custom_id = ask.button()
        assert len(custom_id) <= CUSTOM_ID_LIMIT
        assert custom_id.split(":")[2] in ("sc move", "gm undo", "gm end")
