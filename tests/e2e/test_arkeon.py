"""The real bot process playing Arkeon against its own computer through the fake Discord: a game
made, the computer challenged, moves by `/ak place` with the cell and direction menus filled from
the legal turns (given the kind chosen), a board image after each, a draw offer the computer
declines at once, the board on demand, and a resignation confirmed by its button."""

from __future__ import annotations

import time

from bot.i18n import ChoiceText
from tests.e2e.table import REPLY_TIMEOUT, Reply, Table
from tests.fake_discord.payloads import Member

MOVES = 4


def suggested(table: Table, who: Member, option: str, filled: dict[str, str]) -> list[str]:
    """What the bot suggests for `option` of `/ak place`, the other options already filled."""
    interaction = table.fake.autocomplete(who, "ak place", option, "", filled, channel=table.channel,
                                          locale=table.locale)
    return [choice["value"] for choice in table.fake.choices(interaction, timeout=REPLY_TIMEOUT)]


def when_her_turn(table: Table, ann: Member, not_yours: str) -> Reply:
    """Ann places a basic piece as soon as it is her turn (the computer's move is posted after the
    answer to hers): her first legal placement, from the menus as they stand then."""
    deadline = time.monotonic() + REPLY_TIMEOUT
    while True:
        cells = suggested(table, ann, "cell", {"kind": "basic"})
        directions = suggested(table, ann, "direction", {"kind": "basic", "cell": cells[0]}) if cells else []
        if cells and directions:
            assert all(len(d) <= 2 for d in directions)
            reply = table.run(ann, "ak place", kind="basic", cell=cells[0], direction=directions[0])
            if not reply.private:
                return reply
            assert reply.content.startswith(not_yours), reply.content
        assert time.monotonic() < deadline, "Ann's turn never came back"
        time.sleep(0.1)


def test_a_game_against_the_computer_by_slash_commands_to_a_resignation(fake, table, gm):
    ann = fake.add_member("ann")
    table.ok(gm, "ak new", name="Duel")
    table.ok(ann, "ak join", name="Ann")
    joined = table.ok(ann, "ak challenge", level="easy")
    assert table.text("game.computer_joined", name="Computer", level=ChoiceText("level", "easy")) in joined.content
    since = table.mark()
    started = table.ok(gm, "gm start")
    assert [name for name, _ in started.files] == ["arkeon.png"] and started.images()
    your_turn = f"<@{ann.user.id}>"
    table.posted(your_turn, since=since)  # Ann is told it is her turn: at once, or after the computer's move
    # at the start the computer stands level (or ahead, if it placed first): it declines at once,
    # in a post of its own after the offer's answer
    since = table.mark()
    table.ok(ann, "game offer-draw")
    table.posted(*(table.text("event.arkeon.draw_declined", side=table.text(f"word.side.{side}"))
                   for side in ("blue", "red")), since=since)
    # Ann places her three setup basics first (AK-10): no menu offers a cell for another kind
    assert suggested(table, ann, "cell", {"kind": "triple"}) == [] and suggested(table, ann, "cell", {"kind": "basic"})
    not_yours = table.text("error.not_your_turn", to_move="@").split("@")[0]
    for _ in range(MOVES):  # the computer answers in posts of its own, after Ann's answers
        moved = when_her_turn(table, ann, not_yours)
        assert any(name == "arkeon.png" for name, _ in moved.files) and moved.images()
    computer_moves = [m for m in table.fake.channel_messages(table.channel) if m.get("interaction_metadata") is None
                      and any(a["filename"] == "arkeon.png" for a in m["attachments"])]
    assert computer_moves  # posted with its board, by the bot, not as an answer
    board = table.ok(ann, "game board")
    assert [name for name, _ in board.files] == ["arkeon.png"]
    stale = table.text("error.stale_confirmation")
    for _ in range(MOVES):  # a confirmation shown before the computer's move is out of date after it
        ask = table.run(ann, "ak resign")
        assert ask.private and ask.buttons
        done = table.click(ann, ask)
        if not done.private:
            break
        assert done.content == stale, done.content
    assert not done.private and table.text("status.value.finished") in table.ok(gm, "game info").content
