"""The game channel's pinned status message through the real bot process: posted once, pinned, then
edited in place — also by a restarted bot, which finds the message's id in the database."""

from __future__ import annotations

from tests.e2e.campaign import WAIT_TIMEOUT, channel_posts, pinned_status, status_shows
from tests.e2e.lobby import started


def test_the_status_message_is_posted_once_pinned_then_edited_even_after_a_crash(campaign):
    fake, bot, table, gm = campaign.fake, campaign.bot, campaign.table, campaign.gm
    started(fake, table, gm)
    status = pinned_status(fake, table)
    edits = rf"/channels/{table.channel.id}/messages/\d+"

    for ap, restart in ((7, False), (8, True)):
        if restart:
            bot.kill()
            bot.start()
        table.ok(gm, "sc set", character="Cid", ap=ap, reason="status test")
        fake.wait_until(lambda ap=ap: status_shows(fake, status, {"Cid": ap}), timeout=WAIT_TIMEOUT,
                        abort=bot.died, what=f"the status message with Cid at {ap} AP")

    assert len(channel_posts(fake, table)) == 1, "later changes edit the status message instead of posting"
    assert len(fake.calls_to("PUT", rf"/channels/{table.channel.id}/messages/pins/\d+")) == 1
    (own,) = [m for m in fake.channel_messages(table.channel) if "interaction_metadata" not in m]
    assert int(own["id"]) == status and own["pinned"]
    patched = {call.path for call in fake.calls_to("PATCH", edits) if call.status == 200}
    assert patched == {f"/channels/{table.channel.id}/messages/{status}"}
