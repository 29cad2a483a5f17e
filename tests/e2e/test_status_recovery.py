"""The pinned status message when things go wrong (issue 13, point 9), through the real bot process:
a pin Discord fails with a server error is asked again at a later refresh, on the same message; a
game created just before a crash gets its first status message when the bot is READY again."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store
from bot.store.repo import GameRecord
from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.campaign import WAIT_TIMEOUT, channel_posts, status_shows
from tests.e2e.conftest import STATUS_DEBOUNCE, add_gm, checked_fake
from tests.e2e.lobby import started
from tests.e2e.table import Table
from tests.e2e.test_outbox import dirty, eventually, own_posts

CALLBACK = r"/interactions/\d+/[^/]+/callback"


def game_in(bot: BotProcess, table: Table) -> GameRecord | None:
    """The game of the table's channel, as the bot's database holds it."""
    store = Store(f"sqlite:///{bot.config.parent / 'bot.sqlite'}", migrate=False)
    try:
        return store.game_in_channel(table.fake.guild.id, table.channel.id)
    finally:
        store.close()


def test_a_pin_failed_by_a_server_error_is_asked_again_at_a_later_refresh(campaign):
    """The first pin gets a 503 (discord.py does not retry that one): the message id is already
    stored, so the next refresh edits that message — no second status message — and pins it."""
    fake, bot, table, gm = campaign.fake, campaign.bot, campaign.table, campaign.gm
    pins = rf"/channels/{table.channel.id}/messages/pins/\d+"
    fake.fail("PUT", pins, status=503)
    started(fake, table, gm)
    [failed, *_] = fake.wait_until(lambda: fake.calls_to("PUT", pins), timeout=WAIT_TIMEOUT, abort=bot.died,
                                   what="a pin attempt")
    assert failed.status == 503
    status = int(failed.path.rsplit("/", 1)[1])

    table.ok(gm, "sc set", character="Cid", ap=7, reason="pin retry")
    fake.wait_until(lambda: status_shows(fake, status, {"Cid": 7}) and fake.message(status)["pinned"],
                    timeout=WAIT_TIMEOUT, abort=bot.died, what="the status message refreshed and pinned")

    attempts = fake.calls_to("PUT", pins)
    assert [c.status for c in attempts] == [503, 204] and {c.path for c in attempts} == {failed.path}
    order = {id(c): n for n, c in enumerate(fake.calls)}
    edits = [order[id(c)] for c in fake.calls_to("PATCH", rf"/channels/{table.channel.id}/messages/{status}")]
    assert any(order[id(attempts[0])] < n < order[id(attempts[1])] for n in edits), "asked again at a later refresh"
    assert [int(c.answer["id"]) for c in channel_posts(fake, table)] == [status], "one status message"


def test_a_game_created_just_before_a_crash_gets_its_status_message_after_the_restart(tmp_path: Path):
    """Killed after `/sc new` committed, while its answer (or, on a slow machine, its deferral) was
    on its way — Discord took it, the bot never heard back: the status board was never told, nothing
    marked the game. READY again, the bot posts the new game's status message without any new command."""
    with checked_fake() as fake:
        with BotProcess(fake, write_config(tmp_path, fake, status_debounce=STATUS_DEBOUNCE)) as bot:
            table = Table(fake, bot, fake.add_channel("fresh"))
            gm = add_gm(fake)
            fake.stall("POST", CALLBACK, 60)
            created = fake.slash(gm, "sc new", {"name": "Orion"}, channel=table.channel)
            fake.wait_until(lambda: fake.acknowledged(created), timeout=WAIT_TIMEOUT, abort=bot.died,
                            what="the answer (or deferral) to /sc new")  # held: the bot waits for it
            eventually(lambda: game_in(bot, table), "the new game committed")
            bot.kill()
            fake.unstall()
            assert own_posts(fake, table) == [] and dirty(bot) == {}, "no status message, no mark: the crash came first"
            commands = len(fake.interactions)

            bot.start()
            [status] = fake.wait_until(lambda: own_posts(fake, table), timeout=WAIT_TIMEOUT, abort=bot.died,
                                       what="the new game's status message after the restart")
            assert "Orion" in status["content"]
            fake.wait_until(lambda: fake.message(int(status["id"]))["pinned"], timeout=WAIT_TIMEOUT,
                            abort=bot.died, what="the status message pinned")
            assert len(fake.interactions) == commands, "no command since the restart"
