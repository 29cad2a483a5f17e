"""The real bot process through the fake Discord (issue 26): two members play Arkeon; whoever the
game waits on is pinged by a channel message of its own — a new message, which Discord notifies,
not a mention inside an edited reply — allowed to ping that member alone, once per move; and each
member's `/game mine` lists the game, privately, with its clock and its channel's link. A member
who chose `/game settings reminders:dm` is told by a direct message instead, in their language, with
the game's link; one who refuses the bot's direct messages (50007) is pinged in the channel instead."""

from __future__ import annotations

from bot.i18n import Count
from tests.e2e.campaign import WAIT_TIMEOUT, channel_posts, mentioned
from tests.e2e.table import REPLY_TIMEOUT, Table
from tests.fake_discord.payloads import Member


def pings(table: Table, members: dict[int, Member]) -> list[int]:
    """The members pinged so far by the bot's turn posts in the channel, in order."""
    posts = [c for c in channel_posts(table.fake, table) if "🔔" in c.json["content"]]
    for post in posts:
        assert len(mentioned(post)) == 1 and f"<@{next(iter(mentioned(post)))}>" in post.json["content"]
    return [next(iter(mentioned(post))) for post in posts]


def wait_pings(table: Table, members: dict[int, Member], count: int) -> list[int]:
    return table.fake.wait_until(lambda: (lambda found: found if len(found) >= count else None)(
        pings(table, members)), timeout=WAIT_TIMEOUT, abort=table.bot.died, what=f"{count} turn pings")


def move(table: Table, who: Member) -> None:
    """A legal move of `who`, from the bot's own suggestions."""
    cells = [c["value"] for c in table.fake.choices(table.fake.autocomplete(
        who, "ak place", "cell", "", {"kind": "basic"}, channel=table.channel, locale=table.locale),
        timeout=REPLY_TIMEOUT)]
    directions = [c["value"] for c in table.fake.choices(table.fake.autocomplete(
        who, "ak place", "direction", "", {"kind": "basic", "cell": cells[0]}, channel=table.channel,
        locale=table.locale), timeout=REPLY_TIMEOUT)]
    table.ok(who, "ak place", kind="basic", cell=cells[0], direction=directions[0])


def test_each_move_pings_the_other_player_by_a_message_of_its_own(fake, table, gm):
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    members = {ann.user.id: ann, bob.user.id: bob}
    table.ok(gm, "ak new", name="Duel")
    table.ok(ann, "ak join", name="Ann")
    table.ok(bob, "ak join", name="Bob")
    table.ok(gm, "gm start")
    [first] = wait_pings(table, members, 1)
    mover = members[first]
    mine = table.run(mover, "game mine")
    assert mine.private and f"<#{table.channel.id}>" in mine.content and ":R>" in mine.content
    assert mine.content.splitlines()[0] == table.text("game.mine.header", games=Count(1, "game.mine.games"),
                                                      waiting=Count(1, "game.mine.waiting"), page=1, pages=1)
    other = bob if mover is ann else ann
    assert f"<#{table.channel.id}>" in table.run(other, "game mine").content
    handed = 0
    for _ in range(12):  # Arkeon's setup has each side place several pieces in a row (AK-10)
        move(table, mover)
        if "🔔" in table.run(mover, "game mine").content:  # still their move: no turn handed, no ping
            assert len(pings(table, members)) == handed + 1
            continue
        handed += 1
        mover, other = other, mover
        assert "🔔" in table.run(mover, "game mine").content
        found = wait_pings(table, members, handed + 1)
        assert found[-1] == mover.user.id and len(found) == handed + 1  # the one to move now, once
    assert handed >= 2
    replies = [c for c in fake.calls_to("PATCH", r"/webhooks/") if "🔔" in str(c.json.get("content", ""))]
    assert replies == []  # never inside an answer to a command


def test_reminders_by_dm_and_the_channel_when_discord_refuses_them(fake, table, gm):
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    members = {ann.user.id: ann, bob.user.id: bob}
    for who in (ann, bob):
        assert "reminders: by direct message" in table.run(who, "game settings", reminders="dm", language="en").content
    fake.refuse_dms(ann)  # her privacy settings: no direct message from the bot
    table.ok(gm, "ak new", name="Letters")
    table.ok(ann, "ak join", name="Ann")
    table.ok(bob, "ak join", name="Bob")
    table.ok(gm, "gm start")
    link = f"https://discord.com/channels/{table.channel.guild_id}/{table.channel.id}"
    mover = ann if "🔔" in table.run(ann, "game mine").content else bob
    other = bob if mover is ann else ann
    for _ in range(12):  # until the turn is handed to the other (AK-10: several placements in a row)
        move(table, mover)
        if "🔔" in table.run(other, "game mine").content:
            break
    # each was told once, whoever began: Bob by a direct message, in his language; Ann in the channel
    told = fake.wait_until(lambda: fake.dm_messages(bob) or None, timeout=WAIT_TIMEOUT, abort=table.bot.died,
                           what="a direct message to bob")
    assert [m["content"] for m in told] == [f"🔔 Your turn in **Letters**: {link}"]
    assert wait_pings(table, members, 1) == [ann.user.id] and fake.dm_messages(ann) == []
    opened = [int(c.json["recipient_id"]) for c in fake.calls_to("POST", r"/users/@me/channels") if c.status == 200]
    assert sorted(opened) == sorted({ann.user.id, bob.user.id} & set(opened))  # each DM channel opened once
