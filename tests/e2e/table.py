"""A game table on the fake server: members typing slash commands in one channel, and the bot's answers.

Steps read like the play-by-post they stand for (``table.run(alice, "sc join", name="Alice")``)
so a new command is one more line in a flow. Every answer is checked the way a player would see it:
final (not "thinking..."), private or public, and with its images valid PNGs within the upload limit.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from bot.games import GAMES
from bot.i18n import CommandText, translate
from bot.service.replies import Message
from tests.discord_shapes import EPHEMERAL
from tests.e2e.botproc import BotProcess
from tests.fake_discord.payloads import Channel, Member, buttons
from tests.fake_discord.server import FakeDiscord

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
REPLY_TIMEOUT = 30.0
#: the parameters of ``error.no_game_here`` from the bot process, which serves Space Chess alone
#: the "no game here" refusal's list, as the bot process (which serves the shipped games only) words it
NO_GAME_HERE = {"new": Message("name.sub.new"),
                "commands": [CommandText(f"{game.group} new", code=True) for game in GAMES]}


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, after checking its signature and header chunk."""
    assert data[:8] == PNG_SIGNATURE, f"not a PNG: starts with {data[:8]!r}"
    assert data[12:16] == b"IHDR", "a PNG starts with its IHDR chunk"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 0 and height > 0, f"empty image {width}x{height}"
    return width, height


@dataclass(frozen=True)
class Reply:
    """A message the bot sent in answer to an interaction, with its attachments' bytes."""

    message: dict[str, Any]
    files: tuple[tuple[str, bytes], ...]

    @property
    def content(self) -> str:
        return self.message["content"]

    @property
    def private(self) -> bool:
        return bool(self.message["flags"] & EPHEMERAL)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return buttons(self.message)

    def images(self) -> list[tuple[int, int]]:
        """The size of each PNG attachment (each one checked)."""
        return [png_size(data) for name, data in self.files if name.lower().endswith(".png")]


class Table:
    """One channel with its own game; the bot process and the fake are shared by every table."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess, channel: Channel, locale: str = "fr") -> None:
        self.fake = fake
        self.bot = bot
        self.channel = channel
        self.locale = locale
        self.language = locale.split("-")[0]

    def text(self, key: str, **params: Any) -> str:
        """What the bot writes for a catalog key, in this table's language."""
        return translate(key, self.language, params)

    def run(self, who: Member, path: str, /, **options: Any) -> Reply:
        """``/path option:value...`` typed by `who`; the final answer."""
        interaction = self.fake.slash(who, path, options, channel=self.channel, locale=self.locale)
        return self.answer(interaction)

    def ok(self, who: Member, path: str, /, **options: Any) -> Reply:
        """A command that must succeed publicly."""
        reply = self.run(who, path, **options)
        assert not reply.private, f"/{path} was refused: {reply.content}"
        return reply

    def refused(self, who: Member, path: str, key: str, params: dict[str, Any] | None = None, /,
                **options: Any) -> Reply:
        """A command that must be refused privately with the catalog sentence `key`."""
        reply = self.run(who, path, **options)
        assert reply.private, f"a refusal is private (flag 64): /{path} answered publicly {reply.content!r}"
        assert reply.content == self.text(key, **(params or {})), reply.content
        return reply

    def click(self, who: Member, reply: Reply, index: int = 0) -> Reply:
        """Press a button of a message the bot sent."""
        custom_id = reply.buttons[index]["custom_id"]
        return self.answer(self.fake.click(who, reply.message, custom_id, locale=self.locale))

    def mark(self) -> int:
        """How many messages the channel holds now: `posted` waits for one after them."""
        return len(self.fake.channel_messages(self.channel))

    def posted(self, *texts: str, since: int) -> dict[str, Any]:
        """The first channel message after the first `since` that contains one of `texts`, once the
        bot has posted it (a computer's move, posted after the answer of the command that made it due)."""
        def found() -> dict[str, Any] | None:
            return next((m for m in self.fake.channel_messages(self.channel)[since:]
                         if any(text in m["content"] for text in texts)), None)

        return self.fake.wait_until(found, timeout=REPLY_TIMEOUT, what=f"a post with {texts!r}", abort=self.bot.died)

    def suggestions(self, who: Member, path: str, option: str, typed: str) -> list[str]:
        interaction = self.fake.autocomplete(who, path, option, typed, channel=self.channel, locale=self.locale)
        return [choice["value"] for choice in self.fake.choices(interaction, timeout=REPLY_TIMEOUT)]

    def answer(self, interaction: int) -> Reply:
        message = self.fake.reply(interaction, timeout=REPLY_TIMEOUT, abort=self.bot.died)
        files = tuple((a["filename"], self.fake.file_bytes(a)) for a in message["attachments"])
        for _, data in files:
            assert len(data) <= self.fake.size_limit
        reply = Reply(message, files)
        reply.images()
        return reply
