"""Persistent buttons: the member they were shown to, the command and its options live in the custom
id, within Discord's 100 characters."""

from __future__ import annotations

import json

import pytest

from bot.discord_adapter.client import CUSTOM_ID_LIMIT, CommandButton
from bot.service import Button, Message, Reply
from bot.service.commands import options_signature
from tests.bot.discord.harness import BotHarness
from tests.bot.discord.lobby import CID, GM, accepted, run, running
from tests.bot.discord.payloads import click


def test_a_button_is_its_member_in_base_36_its_command_and_its_options_packed() -> None:
    button = Button(Message("button.confirm_move"), "sc move", {"to": "L6", "confirm": 12}, shown_to=36 * 36 + 35)
    sig = options_signature("sc move")  # to, drop (none), confirm, after the options' signature
    assert CommandButton(button, "Go").custom_id == f"btn:10z:sc move:{sig}~L6||12"


def test_a_hyphenated_command_has_a_button_its_template_reads_back() -> None:
    """Issue 25: `game accept-draw` could not have a button (the template took letters and spaces)."""
    button = CommandButton(Button(Message("button.accept_draw"), "game accept-draw", shown_to=35), "Accept")
    assert button.custom_id == f"btn:z:game accept-draw:{options_signature('game accept-draw')}~"
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


async def test_a_button_of_an_older_bot_says_it_is_out_of_date_rather_than_act(harness: BotHarness) -> None:
    """Issue 25 point 7: a button packed by position before its command's options changed (or whose
    command is gone) is told out of date, privately, and runs nothing; one from before signatures
    still works as it was packed."""
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=9, reason="test"))
    ask = await run(harness, CID, "sc move", to="L6")
    message, custom_id = ask.button()
    head, packed = custom_id.rsplit(":", 1)

    def pressed(old_id: str) -> dict:
        """The click on the same message as an older bot posted it, the button's id `old_id`."""
        posted = json.loads(json.dumps(message).replace(custom_id, old_id))
        return click(posted, old_id, CID)

    answer = await harness.interact(pressed(f"{head}:zzz~{packed.split('~', 1)[1]}"))
    assert answer.messages[-1].ephemeral and "out of date" in answer.text
    gone = await harness.interact(pressed(custom_id.replace(":sc move:", ":sc warp:")))
    assert "out of date" in gone.text
    moved = accepted(await harness.interact(pressed(f"{head}:{packed.split('~', 1)[1]}")))  # before signatures
    assert "L6" in moved.text


async def test_a_form_redrawn_by_a_long_answer_keeps_every_part(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 point 7: an answer that replaces its component's message (a form redrawn) and runs
    past one message sends its other parts after the edit, rather than dropping them."""
    await running(harness)
    accepted(await run(harness, GM, "sc set", character="Cid", ap=9, reason="test"))
    message, custom_id = (await run(harness, CID, "sc move", to="L6")).button()
    long = Reply((Message("turn.pings", {"users": "a" * 1500}), Message("turn.pings", {"users": "b" * 1500})),
                 update=True)
    monkeypatch.setattr(harness.bot.service, "handle", lambda *args, **kwargs: long)
    answer = await harness.interact(click(message, custom_id, CID))
    texts = [str((call.body or {}).get("content") or (call.body or {}).get("data", {}).get("content") or "") for call in answer.calls]
    assert any(text.startswith("a" * 100) for text in texts) and any(text.startswith("b" * 100) for text in texts)
