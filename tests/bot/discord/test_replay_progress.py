"""Issue 15 leftover: `/game replay` draws for seconds; the member saw only "thinking…". The deferred
answer now shows the frames drawn so far (edits of @original, at most one per interval, in the
channel's language: the server's, whoever asked, since the channel sees it) before the GIF replaces it."""

from __future__ import annotations

import re

import pytest

from tests.bot.discord.harness import BotHarness, Call, DiscordRecorder, Exchange
from tests.bot.discord.lobby import ANN, BOB, GM, accepted, run, running
from tests.bot.discord.payloads import Member

#: the progress line in the server's language (English here), whoever asks (ANN reads English, BOB French)
LINE = r"⏳ \*\*Orion\*\* — drawing the replay: frame (\d+) of (\d+)…"
LINES = {ANN: LINE, BOB: LINE}


def edits(exchange: Exchange) -> list[Call]:
    return [c for c in exchange.calls if c.method == "PATCH" and c.path.endswith("/messages/@original")]


async def replay(harness: BotHarness, member: Member, *, interval: float) -> Exchange:
    """A replay of six frames (the start and five corrections), asked as a slow command is answered:
    deferred at once, its progress shown at most once per `interval` seconds."""
    await running(harness)
    for ap in range(1, 6):
        accepted(await run(harness, GM, "sc set", character="Cid", ap=ap, reason="test"))
    harness.bot.direct_reply_seconds = 0.0  # defer at once, as a replay of a long game is
    harness.bot.progress_seconds = interval
    return await run(harness, member, "game replay")


@pytest.mark.parametrize("member", [ANN, BOB])
async def test_the_thinking_answer_shows_the_frames_drawn_before_the_gif(harness: BotHarness, member: Member) -> None:
    exchange = await replay(harness, member, interval=0.0)  # every frame: the test does not wait
    *progress, final = edits(exchange)
    assert exchange.kinds()[0] == "callback:5" and exchange.kinds()[-1] == "PATCH @original"
    assert progress, exchange.kinds()
    counts = [re.fullmatch(LINES[member], call.content) for call in progress]
    assert all(counts), [call.content for call in progress]
    done = [int(match[1]) for match in counts]
    assert done == sorted(done) and {int(match[2]) for match in counts} == {6} and done[-1] == 6
    assert [name for name, _ in final.files] == ["replay.gif"] and not re.search(LINES[member], final.content)


async def test_at_most_one_progress_line_per_interval(harness: BotHarness) -> None:
    exchange = await replay(harness, ANN, interval=3600.0)
    *progress, final = edits(exchange)
    assert len(progress) == 1 and re.fullmatch(LINES[ANN], progress[0].content)
    assert [name for name, _ in final.files] == ["replay.gif"]


async def test_a_refused_progress_edit_costs_only_that_line(harness: BotHarness, recorder: DiscordRecorder) -> None:
    recorder.fail_next("PATCH", r"/webhooks/\d+/[^/]+/messages/@original", 400, 50035)
    exchange = await replay(harness, ANN, interval=3600.0)
    (final,) = edits(exchange)  # the refused edit is not recorded; the answer still came
    assert [name for name, _ in final.files] == ["replay.gif"]


async def test_a_quick_command_is_answered_without_progress(harness: BotHarness) -> None:
    await running(harness)
    exchange = await run(harness, ANN, "game replay")  # answered directly (the fixture's patience)
    assert exchange.kinds() == ["callback:4"] and not edits(exchange)
