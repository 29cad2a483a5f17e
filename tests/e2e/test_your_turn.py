"""The real bot process through the fake Discord (issue 26): two members play Arkeon; whoever the
game waits on is pinged by a channel message of its own — a new message, which Discord notifies,
not a mention inside an edited reply — allowed to ping that member alone, once per move; and each
member's `/game mine` lists the game, privately, with its clock and its channel's link."""

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
