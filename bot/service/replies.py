"""What a command answers, independent of any chat platform.

A reply holds localisable messages (catalog key + parameters), never finished sentences: the
adapter renders them in the reader's language. Buttons carry the command they run when clicked and
the member they were shown to, so they keep working after a restart (persistent views) without any
state in memory, and act for that member only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


@dataclass(frozen=True)
class Message:
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


class Visibility(Enum):
    PUBLIC = "public"
    PRIVATE = "private"  # ephemeral on Discord: only the user who ran the command sees it


#: Discord's limit for an attachment's ``description`` (its alt text)
ALT_TEXT_LIMIT = 1024


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    #: the alt text: what the image shows, said to whoever cannot see it (a screen reader), as a catalog
    #: message the adapter renders in the language of the text it goes with (`bot.i18n.alt_text`);
    #: None for a file that is no picture (a saved game) or one uploaded by a member
    description: Message | None = None


@dataclass(frozen=True)
class Button:
    """A button that, when clicked, runs `command` with `options` as the clicking user — who must be
    the member it was shown to (`shown_to`): a confirmation acts for its asker, never for another."""

    label: Message
    command: str
    options: Mapping[str, Any] = field(default_factory=dict)
    style: str = "primary"  # primary | danger | secondary
    #: the member who ran the command that drew it; `GameService.handle` sets it on every reply
    shown_to: int | None = None


@dataclass(frozen=True)
class Choice:
    label: Message
    value: str


@dataclass(frozen=True)
class Select:
    """A select menu: the values picked, joined by commas, become `option`, then `command` runs with
    `options` plus that option, as the picking user (only the member it was shown to, like a button).
    Like buttons, it keeps no state in memory."""

    placeholder: Message
    command: str
    option: str
    choices: tuple[Choice, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    min_values: int = 1
    max_values: int = 1
    shown_to: int | None = None  # as for a button


@dataclass(frozen=True)
class Embed:
    """A framed card under the text: a title, the team's colour, and one of the reply's images
    shown inside it (`image` names the file)."""

    title: Message
    description: Message | None = None
    colour: int | None = None
    image: str | None = None


@dataclass(frozen=True)
class Reply:
    messages: tuple[Message, ...]
    ok: bool = True
    visibility: Visibility = Visibility.PUBLIC
    files: tuple[Attachment, ...] = ()
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()
    embeds: tuple[Embed, ...] = ()
    #: answering a button or menu: replace the message it sits on instead of posting a new one
    update: bool = False
    mentions: tuple[int, ...] = ()  # the only users this reply may ping
    #: what only the member who ran the command may read (their secret orders, what their character
    #: alone learns): sent privately after a public reply (ephemeral on Discord)
    aside: tuple[Message, ...] = ()
    #: the language its reader reads it in — the server's for the channel, the member's own for
    #: them alone — as `GameService.handle` decided it; None (a reply built elsewhere): the adapter
    #: asks `GameService.language`
    language: str | None = None
    #: the same for its `aside`, which only the member reads
    aside_language: str | None = None
    #: the channel's game once an accepted command is done (`GameService.handle`, from what the
    #: command read): the one whose status message the adapter refreshes, without reading it again
    channel_game: int | None = None

    @classmethod
    def say(cls, key: str, /, **params: Any) -> Reply:
        return cls((Message(key, params),))

    @classmethod
    def private(cls, key: str, /, **params: Any) -> Reply:
        return cls((Message(key, params),), visibility=Visibility.PRIVATE)

    @classmethod
    def refusal(cls, key: str, /, **params: Any) -> Reply:
        """Refusals are always private: nobody else needs to see a mistyped order."""
        return cls((Message(key, params),), ok=False, visibility=Visibility.PRIVATE)


class ServiceError(Exception):
    """A refusal decided by the service (permissions, no game here...): becomes a private reply."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def discord_time(moment: dt.datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone, with a relative hint."""
    stamp = int(moment.timestamp())
    return f"<t:{stamp}:F> (<t:{stamp}:R>)"
