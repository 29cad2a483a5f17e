"""Issue 25 point 8: the gateway as Discord runs it, against the real bot process. A network cut:
the events of the bot's servers meanwhile (a game's channel deleted) are replayed when it resumes,
and the bot acts on them (the game paused, its GMs told); Discord asks for a reconnection (op 7): the
bot resumes; Discord invalidates the session (op 9): the bot identifies anew — and answers commands
after each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.campaign import WAIT_TIMEOUT
from tests.e2e.conftest import STATUS_DEBOUNCE, add_gm, checked_fake
from tests.e2e.table import Table


@pytest.fixture
def own_bot(tmp_path: Path) -> Iterator[BotProcess]:
    """A fake and a bot of this test's own (its connection is cut), the status following within a second."""
    with checked_fake() as server, BotProcess(server, write_config(tmp_path, server,
                                                                   status_debounce=STATUS_DEBOUNCE)) as process:
        yield process


def test_the_bot_resumes_after_a_cut_and_acts_on_what_it_missed(own_bot):
    bot = own_bot
    fake = bot.fake
    gm = add_gm(fake)
    log = fake.add_channel("mj-journal")
    table = Table(fake, bot, fake.add_channel("orion"))
    table.run(gm, "gm settings", log_channel=log)
    table.ok(gm, "ak new", name="Orion")
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    table.ok(ann, "ak join", name="Ann")
    table.ok(bob, "ak join", name="Bob")
    table.ok(gm, "gm start")
    fake.wait_until(lambda: any(m["pinned"] and "<t:" in m["content"]  # the clock runs: the game has started
                                for m in fake.channel_messages(table.channel))
                    and any("🔔" in m["content"] for m in fake.channel_messages(table.channel)),
                    timeout=WAIT_TIMEOUT, abort=bot.died, what="the status message of the running game and its first turn ping")
    # nothing is owed the channel now: only the replayed event can tell the bot it is gone

    fake.hold_connections()
    fake.drop()
    fake.wait_until(lambda: not fake.connected, timeout=WAIT_TIMEOUT, abort=bot.died, what="the cut")
    fake.delete_channel(table.channel)  # while the bot is away: kept for its session
    fake.release_connections()
    fake.wait_until(lambda: fake.resumes, timeout=WAIT_TIMEOUT, abort=bot.died, what="a RESUME")
    [told] = fake.wait_until(lambda: fake.channel_messages(log), timeout=WAIT_TIMEOUT, abort=bot.died,
                             what="the GMs told of the channel deleted while the bot was away")
    assert "**Orion**" in told["content"]
    assert len(fake.identifies) == 1, "resumed, not identified anew"

    elsewhere = Table(fake, bot, fake.add_channel("vega"))
    fake.reconnect()  # op 7
    fake.wait_until(lambda: len(fake.resumes) == 2 and fake.connected, timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the resume asked by op 7")
    elsewhere.ok(gm, "ak new", name="Vega")

    fake.invalidate()  # op 9, not resumable
    fake.wait_until(lambda: len(fake.identifies) == 2 and fake.connected, timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="a new IDENTIFY after op 9")
    assert "**Vega**" in elsewhere.ok(gm, "game info").content
