"""Discord's 3 s, through the real bot process: its clock starts at the interaction's creation.

An interaction that reaches the bot late (gateway latency, a busy loop: the fake's ``age``) leaves
the bot less time; a reply with an image then needs a deferral first, or the upload lands after the
deadline and the member sees "the application did not respond". And the fake holds the bot to the
rule: a direct reply arriving after 3 s is refused with 10062, as on Discord.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.conftest import checked_fake
from tests.e2e.table import NO_GAME_HERE, Table
from tests.fake_discord.records import Call
from tests.fake_discord.server import DEFERRED, MESSAGE, FakeDiscord

#: How long before reaching the bot the interaction was created: half of the bot's 2 s direct budget
#: is gone, too little to render and upload an image before Discord's 3 s.
LATE = 1.5


class SkewableClock:
    """Real time, plus the jumps a test makes: Discord's clock running ahead of a bot held still."""

    def __init__(self) -> None:
        self._skew = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return time.time() + self._skew

    def jump(self, seconds: float) -> None:
        with self._lock:
            self._skew += seconds


def interaction_calls(fake: FakeDiscord, interaction: int) -> list[Call]:
    """Every request the bot made with this interaction's token: its callback, edits, follow-ups."""
    token = fake.interactions[interaction].payload["token"]
    return [c for c in list(fake.calls) if token in c.path.split("/")]


def codes(calls: list[Call]) -> list[Any]:
    return [(c.method, c.status, (c.answer or {}).get("code") if isinstance(c.answer, dict) else None)
            for c in calls]


def test_a_late_interaction_rendering_an_image_is_deferred_in_time_then_answered(fake, table, gm):
    table.ok(gm, "sc new", name="Orion")
    cid = fake.add_member("cid")
    table.ok(cid, "sc join", name="Cid", team="1", role="soldier")

    interaction = fake.slash(cid, "game sheet", channel=table.channel, locale=table.locale, age=LATE)
    sheet = table.answer(interaction)
    assert len(sheet.images()) == 1, "the sheet's card came with the answer"
    assert fake.acknowledged(interaction) == DEFERRED, "a late reply with an image is deferred first"
    calls = interaction_calls(fake, interaction)
    assert [c.status for c in calls] == [200] * len(calls), codes(calls)
    callback, *answers = calls
    assert callback.path.endswith("/callback") and callback.json["type"] == DEFERRED
    assert answers and all(not c.path.endswith("/callback") for c in answers), "answered through the token"
    assert any(c.files for c in answers), "the image went with the follow-up, not the deferral"


def test_a_direct_reply_later_than_three_seconds_is_refused_with_unknown_interaction(tmp_path: Path):
    """The bot is held still (SIGSTOP) while Discord's clock moves 3.5 s: to the bot the interaction
    is fresh, so it answers directly — and the fake refuses that answer with 10062, as Discord does."""
    clock = SkewableClock()
    with checked_fake(clock=clock) as fake, BotProcess(fake, write_config(tmp_path, fake)) as bot:
        assert bot.proc is not None
        table = Table(fake, bot, fake.add_channel("late"))
        member = fake.add_member("someone")
        os.kill(bot.proc.pid, signal.SIGSTOP)
        try:
            interaction = fake.slash(member, "game info", channel=table.channel, locale=table.locale)
            clock.jump(3.5)
        finally:
            os.kill(bot.proc.pid, signal.SIGCONT)
        calls = fake.wait_until(lambda: interaction_calls(fake, interaction), timeout=30, abort=bot.died,
                                what="the bot's late answer")
        first = calls[0]
        assert first.path.endswith("/callback") and first.json["type"] == MESSAGE, "a direct answer, not deferred"
        assert (first.status, first.answer["code"]) == (404, 10062)
        assert fake.acknowledged(interaction) is None, "Discord took no answer: the member saw none"
        # the refusal is no crash: the next interaction is answered in time
        table.refused(member, "game info", "error.no_game_here", NO_GAME_HERE)


def test_an_interaction_too_late_to_answer_does_nothing(fake, table, gm):
    """Discord has let it go (10062): the member saw "did not respond" and will try again, so the bot
    must not have joined them meanwhile. It defers first, is refused, and runs nothing."""
    table.ok(gm, "sc new", name="Vega")
    cid = fake.add_member("cid")
    interaction = fake.slash(cid, "sc join", {"name": "Cid", "team": "1", "role": "soldier"},
                             channel=table.channel, locale=table.locale, age=3.5)
    calls = fake.wait_until(lambda: interaction_calls(fake, interaction), timeout=30, what="the bot's try")
    first = calls[0]
    assert first.path.endswith("/callback") and first.json["type"] == DEFERRED, "deferred before any work"
    assert (first.status, first.answer["code"]) == (404, 10062)
    info = table.ok(gm, "game info")
    assert "Cid" not in info.content, "the late join was not carried out"
    # in time, the same command works
    table.ok(cid, "sc join", name="Cid", team="1", role="soldier")


def test_the_same_interaction_delivered_twice_acts_once(fake, table, gm):
    """A gateway replaying an event (a RESUME) hands the bot an interaction it already answered: the
    change it made claimed the interaction's id, so the second delivery changes nothing."""
    table.ok(gm, "sc new", name="Lyra")
    dee = fake.add_member("dee")
    payload = fake.slash_payload(dee, "sc join", {"name": "Dee", "team": "1", "role": "soldier"},
                                 channel=table.channel, locale=table.locale)
    first = fake.deliver(payload)
    assert "Dee" in table.answer(first).content
    fake.deliver(payload)
    refused = fake.wait_until(lambda: [c for c in interaction_calls(fake, first) if c.status != 200],
                              timeout=30, what="the second delivery's answer")
    assert refused[0].answer["code"] == 40060, "the second answer finds the interaction answered already"
    said = refused[0].json["data"]["content"]
    assert said == table.text("error.already_done", **{"/game history": "/partie historique"}), said
    info = table.ok(gm, "game info")
    assert info.content.count("Dee") == 1, info.content
