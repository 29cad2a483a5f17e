"""Select menus: `/sc loadout` draws a form of menus; each pick redraws it in place (UPDATE_MESSAGE)
with the picks so far in the menus' custom ids; the last pick equips the character (SC-6)."""

from __future__ import annotations

from typing import Any

from bot.service import GameService
from tests.bot.discord.harness import BotHarness, DiscordRecorder, Exchange
from tests.bot.discord.lobby import ANN, BOB, CID, GM, accepted, run
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID, Member, click

SELECT, UPDATE_MESSAGE = 3, 7


def menus(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row["components"] if c["type"] == SELECT]


def pick(message: dict[str, Any], index: int, values: list[str], member: Member = CID) -> dict[str, Any]:
    """`member` chooses `values` in the `index`-th menu of `message`."""
    return click(message, menus(message)[index]["custom_id"], member, values=values)


def form_of(exchange: Exchange) -> dict[str, Any]:
    """The message a form answer drew, as Discord holds it (a new reply, or the component's message
    updated): only a message Discord holds can be clicked again."""
    [call] = [c for c in exchange.calls if c.is_callback]
    assert call.sent is not None, f"callback {call.callback_type} drew no message"
    return call.sent


def callback_type(exchange: Exchange) -> int:
    [call] = [c for c in exchange.calls if c.is_callback]
    return call.callback_type


async def test_the_loadout_form_equips_a_soldier_pick_by_pick(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    accepted(await run(harness, CID, "sc join", name="Cid", team="1", role="soldier"))
    opened = await run(harness, CID, "sc loadout")
    assert opened.refused  # a private form
    message = form_of(opened)
    assert [m["placeholder"] for m in menus(message)] == ["Weapon", "Armour", "Two items", "Ability", "Two draw cards"]
    assert "grizzly_bolter" not in [o["value"] for o in menus(message)[0]["options"]]  # pickup-only (SC-9)
    for index, values in enumerate((["sniper"], ["light"], ["scope", "grade-colonel"], ["rage"])):
        answer = await harness.interact(pick(message, 0 if index == 0 else index, values))
        assert callback_type(answer) == UPDATE_MESSAGE
        message = form_of(answer)
        assert all(len(m["custom_id"]) <= 100 for m in menus(message))
    done = await harness.interact(pick(message, 4, ["2", "6"]))
    assert callback_type(done) == UPDATE_MESSAGE
    assert ("Cid has their gear: sniper, light armour, scope, grade: colonel and the destructive rage ability; "
            "cards 2 and 6.") in form_of(done)["content"]
    assert menus(form_of(done)) == []
    sheet = await run(harness, CID, "game sheet")
    assert "cards: 2, 6" in sheet.text


async def test_a_menu_from_before_a_restart_still_works(service: GameService, recorder: DiscordRecorder) -> None:
    """Same database, a new bot that never drew the form: the custom ids carry the picks so far."""
    async with BotHarness(service, recorder) as before:
        accepted(await run(before, GM, "sc new", name="Orion"))
        accepted(await run(before, CID, "sc join", name="Cid", team="1", role="soldier"))
        message = form_of(await run(before, CID, "sc loadout"))
        message = form_of(await before.interact(pick(message, 0, ["bolter"])))
    async with BotHarness(service, recorder) as after:
        second = await after.interact(pick(message, 1, ["heavy"]))
    assert "weapon: bolter · armour: heavy" in form_of(second)["content"]


async def test_two_grades_are_refused_privately(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    accepted(await run(harness, CID, "sc join", name="Cid", team="1", role="soldier"))
    message = form_of(await run(harness, CID, "sc loadout"))
    answer = await harness.interact(pick(message, 2, ["grade-lieutenant", "grade-colonel"]))
    assert answer.refused and "Pick the grade item once" in answer.text
    assert callback_type(answer) != UPDATE_MESSAGE  # the form stays as it was


async def test_a_menu_picks_only_for_the_member_it_was_shown_to(harness: BotHarness) -> None:
    """Issue 9 point 9: Bob picking in Ann's loadout menu equipped Bob with the cards he chose there.
    He now gets a private refusal naming Ann, the form stays and nobody is equipped; Ann still can."""
    accepted(await run(harness, GM, "sc new", name="Orion"))
    accepted(await run(harness, ANN, "sc join", name="Ann", team="1", role="general"))
    accepted(await run(harness, BOB, "sc join", name="Bob", team="2", role="general"))
    message = form_of(await run(harness, ANN, "sc loadout"))  # a general's form: one menu, the cards
    store = harness.bot.service.store
    before = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    answer = await harness.interact(pick(message, 0, ["1", "2"], BOB))
    assert answer.refused and callback_type(answer) != UPDATE_MESSAGE
    assert f"Ceci a été proposé à <@{ANN.id}> : seul ce membre" in answer.text  # Bob reads French
    after = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)
    done = await harness.interact(pick(message, 0, ["1", "2"], ANN))
    assert "Ann has their gear" in form_of(done)["content"]



async def test_a_sheet_comes_framed_in_an_embed_with_its_card(harness: BotHarness) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    accepted(await run(harness, CID, "sc join", name="Cid", team="1", role="soldier"))
    sheet = await run(harness, CID, "game sheet")
    [call] = [c for c in sheet.calls if c.is_callback]
    [embed] = call.body["data"]["embeds"]
    assert embed["title"] == "Sheet of Cid" and embed["color"] == 0x0072B2
    assert embed["image"]["url"] == "attachment://sheet-Cid.png"
    assert [name for name, _ in call.files] == ["sheet-Cid.png"]
