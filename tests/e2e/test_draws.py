"""Lottery draws reaching a running Space Chess game through the real bot process: entered by a game
master with `/gm draw`, or read by the draw scheduler from its FDJ file, including draws published
while the bot was down or killed (docs/draws.md, "In the bot")."""

from __future__ import annotations

import re

from bot.i18n import Day
from draws import manual_draw
from tests.e2e.campaign import (
    WAIT_TIMEOUT,
    after_draw,
    channel_posts,
    day_text,
    gainers,
    header,
    history_draws,
    mentioned,
    pinned_status,
    sheets,
    status_shows,
    turn_posts,
    wait_turn_post,
)
from tests.e2e.fdj_file import past_evenings
from tests.e2e.lobby import started, started_before
from tests.e2e.table import png_size

MENTION = re.compile(r"<@!?(\d+)>")


def test_sc13_a_draw_entered_by_the_gm_is_confirmed_then_answered_with_the_turn_post(campaign):
    """/gm draw asks privately with a button; the click answers publicly with the turn post: the draw,
    "entered by a game master", the board, pings for the AP gainers only, and the sheets follow SC-13."""
    fake, table, gm = campaign.fake, campaign.table, campaign.gm
    players = started(fake, table, gm)
    (evening,) = past_evenings(1)
    started_before(campaign.bot, evening)
    before = sheets(table, gm)
    draw = manual_draw(evening, [3, 12, 19, 33, 45])

    ask = table.run(gm, "gm draw", numbers="3, 12 19;33  45", date=evening.isoformat())
    assert ask.private and len(ask.buttons) == 1
    post = table.click(gm, ask)
    assert not post.private
    assert header(table, draw) in post.content and table.text("turn.manual") in post.content
    assert len(post.images()) == 1
    assert {int(user) for user in MENTION.findall(post.content)} == gainers(players, draw.numbers)
    after = after_draw(before, draw.numbers)
    assert sheets(table, gm) == after
    table.refused(gm, "gm draw", "error.draw_already_applied", {"date": Day(evening)},
                  numbers="3 12 19 33 45", date=evening.isoformat())
    assert sheets(table, gm) == after, "a refused second entry awards nothing"


def test_sc13_a_draw_published_while_the_bot_was_down_is_posted_at_its_start(campaign):
    """The scheduler's first tick reads the FDJ file: the older real row does not count for a game
    started after it, the new evening does: one channel post with the board, pinging the gainers, the
    sheets awarded per SC-13, and the pinned status message showing the new AP."""
    fake, bot, table, gm = campaign.fake, campaign.bot, campaign.table, campaign.gm
    players = started(fake, table, gm)
    before = sheets(table, gm)
    (evening,) = past_evenings(1)
    started_before(bot, evening)
    draw = campaign.fdj.publish(evening, template=1)

    bot.kill()
    bot.start()
    post = wait_turn_post(fake, table, draw)
    ((name, data),) = [(f.filename, f.data) for f in post.files]
    assert name.endswith(".png") and min(png_size(data)) >= 200
    # its alt text, sent as the attachment's description, in the post's language (issue 25 point 6)
    (sent,) = post.json["attachments"]
    assert "Orion" in sent["description"] and "tour" in sent["description"] and len(sent["description"]) <= 1024
    assert mentioned(post) == gainers(players, draw.numbers)
    expected = after_draw(before, draw.numbers)
    assert sheets(table, gm) == expected
    assert history_draws(table, gm) == [day_text(table, evening)]

    status = pinned_status(fake, table)
    fake.wait_until(lambda: status_shows(fake, status, expected), timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the status message with the draw's AP")
    assert len(channel_posts(fake, table)) == 2, "one status message and one turn post"


def test_sc13_draws_published_during_crashes_are_applied_once_and_in_order(campaign, tmp_path):
    """SIGKILL right after a turn post, two evenings published while the bot is down (one in its FDJ
    file, one by `spacechess draws import`), then a second crash: every draw reaches the game exactly
    once, in date order — one post each, one log entry each, AP awarded once."""
    fake, bot, table, gm = campaign.fake, campaign.bot, campaign.table, campaign.gm
    started(fake, table, gm)
    ap = sheets(table, gm)
    first_evening, second_evening, third_evening = past_evenings(3)
    started_before(bot, first_evening)

    bot.kill()
    first = campaign.fdj.publish(first_evening, template=1)
    bot.start()
    wait_turn_post(fake, table, first)
    bot.kill()  # mid-campaign: the status refresh this post scheduled never runs

    second = campaign.fdj.publish(second_evening, template=2)
    third = campaign.fdj.extract(tmp_path / "import.csv", third_evening, template=3)
    imported = bot.cli("draws", "import", str(tmp_path / "import.csv"))
    assert imported.returncode == 0, imported.stderr
    bot.start()
    wait_turn_post(fake, table, third)
    bot.kill()
    bot.start()
    bot.wait_for_log("draw poll:")  # the restarted bot's first tick has looked for pending draws

    posts = [turn_posts(fake, table, draw) for draw in (first, second, third)]
    assert [len(p) for p in posts] == [1, 1, 1]
    order = channel_posts(fake, table)
    assert order.index(posts[1][0]) < order.index(posts[2][0]), "the earlier evening is posted first"
    dates = history_draws(table, gm)
    assert dates == [day_text(table, day) for day in (third_evening, second_evening, first_evening)]
    for draw in (first, second, third):
        ap = after_draw(ap, draw.numbers)
    assert sheets(table, gm) == ap
