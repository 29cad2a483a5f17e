"""The real bot process playing a six-ship SpaceBlast game through the fake Discord, to its end:
secret orders answered privately under a Ready button, nothing of them in the channel before the
reveal, each turn resolved once every ship is ready, with the arena and the turn's animation."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.table import Table

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
FIRST = "brake missile"  # turn 1's orders, easy to spot if they leaked
SAID = "frein missile"  # the same read back to the table's French readers, in their order words
MAX_TURNS = 15


def channel_texts(table: Table) -> list[str]:
    """Every public message the bot posted in the table's channel, in order."""
    return [c.json.get("content") or "" for c in table.fake.calls_to("POST", r"/interactions/\d+/[^/]+/callback")
            if c.json and c.json.get("type") == 4 and not (c.json["data"].get("flags", 0) & 64)]


def test_a_six_ship_game_plays_to_its_end_with_nothing_revealed_early(fake, table, gm):
    members = [fake.add_member(name.lower()) for name in NAMES]
    table.ok(gm, "sb new", name="Nebula", radius=4, asteroids=True, powers=True, bigbang="3")
    for member, name in zip(members, NAMES, strict=True):
        table.ok(member, "sb join", name=name)
    started = table.ok(gm, "gm start")
    assert [name for name, _ in started.files] == ["arena.png"]
    finished, turn = False, 0
    while not finished and turn < MAX_TURNS:
        turn += 1
        for member in members:
            reply = table.run(member, "sb order", text=FIRST if turn == 1 else "none")
            assert reply.private, reply.content  # orders (or a gone ship's refusal): private
            if turn == 1:
                assert SAID in reply.content and reply.buttons  # read back, with the Ready button
        if turn == 1:  # nothing of the orders reached the channel before the reveal
            posted = channel_texts(table)
            assert len(posted) >= 8 and all(FIRST not in text and SAID not in text for text in posted)  # new, joins, start
        for member in members:
            reply = table.run(member, "sb ready")
            if not reply.private and any(name.endswith(".gif") for name, _ in reply.files):
                gif = next(data for name, data in reply.files if name.endswith(".gif"))
                assert Image.open(io.BytesIO(gif)).n_frames >= 4
                if turn == 1:
                    assert SAID in reply.content  # revealed with the resolution
                finished = table.text("event.spaceblast.game_over", result="", ranking="").split(" — ")[0] \
                    in reply.content
    assert finished, f"no end after {turn} turns"
    info = table.ok(gm, "game info")
    assert table.text("status.value.finished") in info.content
