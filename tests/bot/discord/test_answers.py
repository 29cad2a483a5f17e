"""Issue 13, the bot's side: Discord's 3 s counted from the interaction's creation, an answer even
when sending fails, attachments checked before download, internal options and labelled choices."""

from __future__ import annotations

import inspect
import logging
import re

import pytest

from bot.discord_adapter import tree
from bot.discord_adapter.payload import translated_payload
from bot.i18n import translate
from bot.service.commands import ATTACHMENT_MAX_BYTES, SETUP_MAX_BYTES, table
from tests.bot.discord.harness import BotHarness, DiscordRecorder
from tests.bot.discord.lobby import GM, accepted, run
from tests.bot.discord.payloads import Upload, autocomplete, slash

CALLBACK = r"/interactions/\d+/[^/]+/callback"
ERROR_ID = re.compile(r"\b([0-9a-f]{8})\b")


def options_of(payload: list[dict], path: str) -> dict[str, dict]:
    group, sub = path.split()
    (command,) = [c for c in payload if c["name"] == group]
    (subcommand,) = [s for s in command["options"] if s["name"] == sub]
    return {o["name"]: o for o in subcommand.get("options", [])}


async def test_confirm_is_left_out_of_every_slash_command(harness: BotHarness) -> None:
    payload = await translated_payload(harness.bot.tree)
    confirmable = [path for path, cmd in table().items() if cmd.option("confirm")]
    assert len(confirmable) >= 5
    for path in confirmable:
        assert "confirm" not in options_of(payload, path), path
    with pytest.raises(KeyError, match="confirm"):
        slash("gm undo", GM, {"confirm": 1})  # no Discord client can send it


async def test_choices_carry_their_french_labels(harness: BotHarness) -> None:
    payload = await translated_payload(harness.bot.tree)
    role = options_of(payload, "sc join")["role"]
    labels = {c["value"]: c.get("name_localizations", {}).get("fr") for c in role["choices"]}
    assert labels == {"soldier": "soldat", "general": "général"}
    draws = options_of(payload, "sc new")["draws"]
    assert {c["value"]: c["name_localizations"]["fr"] for c in draws["choices"]}["manual"] == "manuel"
    assert "__discord_app_commands" not in inspect.getsource(tree), "public decorators only"


async def test_the_three_seconds_count_from_the_interactions_creation(harness: BotHarness) -> None:
    """A quick command whose interaction reached the bot 2.5 s late is deferred at once: waiting the
    usual 2 s from the handler's start would answer after Discord gave up (10062)."""
    harness.bot.direct_reply_seconds = 2.0
    fresh = await harness.interact(slash("game info", GM))
    assert fresh.kinds()[0] == "callback:4"
    late = await harness.interact(slash("game info", GM, age=2.5))
    assert late.kinds()[0] == "callback:5" and late.refused  # then the private refusal, as a follow-up


async def test_late_suggestions_are_an_empty_answer(harness: BotHarness) -> None:
    harness.bot.direct_reply_seconds = 2.0
    fresh = await harness.interact(autocomplete("game rules", GM, "game", "sp"))
    assert fresh.choices
    late = await harness.interact(autocomplete("game rules", GM, "game", "sp", age=2.5))
    assert late.kinds() == ["callback:8"] and late.choices == []


@pytest.mark.parametrize(("status", "code"), [(413, 40005), (400, 50035), (503, 0)])
async def test_an_answer_that_cannot_be_sent_is_replaced_by_a_private_notice(
    harness: BotHarness, recorder: DiscordRecorder, caplog: pytest.LogCaptureFixture, status: int, code: int
) -> None:
    accepted(await run(harness, GM, "sc new", name="Orion"))
    recorder.fail_next("POST", CALLBACK, status, code)
    with caplog.at_level(logging.ERROR, logger="spacechess.discord"):
        exchange = await harness.interact(slash("game info", GM))
    (notice,) = exchange.messages
    assert notice.ephemeral
    error_id = ERROR_ID.search(notice.content)[1]
    assert notice.content == translate("error.answer_failed", "en", {"id": error_id})
    assert any(f"[error {error_id}]" in r.getMessage() for r in caplog.records)


async def test_a_crash_in_the_service_is_answered_with_an_error_id_and_nothing_changed(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(harness.bot.service, "handle", broken)
    with caplog.at_level(logging.ERROR, logger="spacechess.discord"):
        exchange = await run(harness, GM, "sc new", name="Orion")
    error_id = ERROR_ID.search(exchange.text)[1]
    assert exchange.refused and exchange.text == translate("error.unexpected", "en", {"id": error_id})
    assert any(f"[error {error_id}]" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("upload", "key"), [
    (Upload("game.json", b"{}", size=ATTACHMENT_MAX_BYTES + 1), "error.attachment_too_large"),
    (Upload("game.png", b"\x89PNG", content_type="image/png"), "error.attachment_type"),
])
async def test_attachments_are_checked_before_their_download(
    harness: BotHarness, recorder: DiscordRecorder, upload: Upload, key: str
) -> None:
    recorder.host(upload)
    exchange = await run(harness, GM, "gm import", file=upload)
    assert exchange.refused and exchange.text.startswith(translate(key, "en", {}).split("{")[0][:12])
    assert upload.filename in exchange.text
    assert recorder.downloads == [], "refused before a byte was downloaded"
    assert harness.bot.service.store.game_in_channel(None, None) is None
    accepted(await run(harness, GM, "sc new", name="Orion"))  # and the bot goes on


async def test_a_setup_is_refused_at_its_own_limit_before_its_download(harness: BotHarness,
                                                                       recorder: DiscordRecorder) -> None:
    """Issue 23.12: a setup or map is a few KB of text; one over SETUP_MAX_BYTES (far below an export's
    limit) is refused from the size Discord announces, with that limit, before a byte is downloaded."""
    upload = Upload("setup.toml", b"#", size=SETUP_MAX_BYTES + 1)
    recorder.host(upload)
    exchange = await run(harness, GM, "sc new", name="Orion", setup=upload)
    assert exchange.refused and exchange.text == translate(
        "error.attachment_too_large", "en", {"name": "setup.toml", "size_kb": 65, "limit_kb": 64})
    assert recorder.downloads == [] and harness.bot.service.store.list_games() == []


async def test_suggestions_are_capped_at_25_choices_of_100_characters(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord refuses an autocomplete answer of more than 25 choices, or with a name or value above 100
    characters (400 / 50035, the fake too): the adapter caps what any completer gives, whatever it is."""
    values = ["x" * 101, *(f"Ship {n:02}" for n in range(30))]
    monkeypatch.setattr(harness.bot.service, "complete", lambda *args: values)
    choices = (await harness.interact(autocomplete("game rules", GM, "game", ""))).choices
    assert [c["value"] for c in choices] == [f"Ship {n:02}" for n in range(25)]
    assert all(len(c["name"]) <= 100 for c in choices)
