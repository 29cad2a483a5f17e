"""The real bot process playing Arkeon against its own computer through the fake Discord: a game
made, the computer challenged, moves by `/ak place` with the cell and direction menus filled from
the legal turns (given the kind chosen), a board image after each, a draw offer the computer
declines at once, the board on demand, and a resignation confirmed by its button."""

from __future__ import annotations

from bot.i18n import ChoiceText
from tests.e2e.table import REPLY_TIMEOUT, Table
from tests.fake_discord.payloads import Member

MOVES = 4


def suggested(table: Table, who: Member, option: str, filled: dict[str, str]) -> list[str]:
    """What the bot suggests for `option` of `/ak place`, the other options already filled."""
    interaction = table.fake.autocomplete(who, "ak place", option, "", filled, channel=table.channel,
                                          locale=table.locale)
    return [choice["value"] for choice in table.fake.choices(interaction, timeout=REPLY_TIMEOUT)]


def test_a_game_against_the_computer_by_slash_commands_to_a_resignation(fake, table, gm):
    ann = fake.add_member("ann")
    table.ok(gm, "ak new", name="Duel")
    table.ok(ann, "ak join", name="Ann")
    joined = table.ok(ann, "ak challenge", level="easy")
    assert table.text("game.computer_joined", name="Computer", level=ChoiceText("level", "easy")) in joined.content
    started = table.ok(gm, "gm start")
    assert [name for name, _ in started.files] == ["arkeon.png"] and started.images()
    # at the start the computer stands level (or ahead, if it placed first): it declines at once
    offered = table.ok(ann, "game offer-draw")
    assert table.text("event.arkeon.draw_declined", side=table.text("word.side.blue")) in offered.content or \
        table.text("event.arkeon.draw_declined", side=table.text("word.side.red")) in offered.content
    # Ann places her three setup basics first (AK-10): no menu offers a cell for another kind
    assert suggested(table, ann, "cell", {"kind": "triple"}) == [] and suggested(table, ann, "cell", {"kind": "basic"})
    for _ in range(MOVES):  # the computer answers each move in the same reply, whoever started
        cells = suggested(table, ann, "cell", {"kind": "basic"})
        directions = suggested(table, ann, "direction", {"kind": "basic", "cell": cells[0]})
        assert cells and directions and all(len(d) <= 2 for d in directions)
        moved = table.ok(ann, "ak place", kind="basic", cell=cells[0], direction=directions[0])
        assert any(name == "arkeon.png" for name, _ in moved.files) and moved.images()
    board = table.ok(ann, "game board")
    assert [name for name, _ in board.files] == ["arkeon.png"]
    ask = table.run(ann, "ak resign")
    assert ask.private and ask.buttons
    done = table.click(ann, ask)
    assert not done.private and table.text("status.value.finished") in table.ok(gm, "game info").content
