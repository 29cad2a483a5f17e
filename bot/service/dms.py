"""Pings by direct message (issue 26 point 3): a member who chose `/game settings reminders:dm` is
told a game waits on them in a direct message rather than by a mention in the game's channel.

`bot.service.pings` says whom a moment pings; `route` splits them: those pinged in the channel, and an
outbox row (kind ``dm``) for each of the others — the line in their language (theirs, else the
server's, `dm_language`, read when it is sent), with the game's name and a link to its channel. A
direct message is a post of the outbox like any other, durable and sent once, in a lane of its own
(its recipient's: `bot.store.outbox.heads`), so it never waits behind a channel post nor holds one up.
Its row keeps the channel ping it replaces (``fallback``): a member whose privacy settings make Discord
refuse it (code 50007) is pinged in the game's channel instead, once per message
(`bot.store.outbox.fall_back`); their setting is kept (they may let the bot write to them again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.outbox import dm_of
from bot.service.replies import Message, Reply
from bot.store.outbox import NewPost
from bot.store.repo import GameRecord, Store


@dataclass(frozen=True)
class Routed:
    """Where the pings of one moment go: the members mentioned in the channel's post, in order, and
    the direct messages of the others (outbox rows to write with it)."""

    channel: tuple[int, ...] = ()
    dms: tuple[NewPost, ...] = ()


def channel_link(game: GameRecord) -> str:
    """The Discord link that opens the game's channel (a game outside a server: the bot's DM with its
    player, ``@me``)."""
    return f"https://discord.com/channels/{game.guild_id if game.guild_id is not None else '@me'}/{game.channel_id}"


def route(store: Store, game: GameRecord, users: Sequence[int], dm: Message,
          channel_line: Callable[[tuple[int, ...]], Message]) -> Routed:
    """Split `users` (already those the moment may ping, `bot.service.pings.members_for`) between the
    channel and direct messages. `dm` is the direct message's line (its ``name`` and ``link`` are
    added), `channel_line` the channel's line pinging some members (a refused message's fallback)."""
    by_dm = store.dm_members(users)
    if not by_dm:
        return Routed(tuple(users))
    return Routed(tuple(user for user in users if user not in by_dm),
                  dm_posts(game, [user for user in users if user in by_dm], dm, channel_line))


def dm_posts(game: GameRecord, users: Sequence[int], dm: Message,
             channel_line: Callable[[tuple[int, ...]], Message]) -> tuple[NewPost, ...]:
    """The direct messages telling `users` (who chose them) of `game`'s moment: `dm` with the game's
    ``name`` and ``link`` added, each falling back to `channel_line` pinging its member."""
    line = Message(dm.key, {**dict(dm.params), "name": game.name, "link": channel_link(game)})
    return tuple(dm_post(game, user, line, channel_line((user,))) for user in users)


def dm_post(game: GameRecord, user: int, line: Message, fallback: Message) -> NewPost:
    """The outbox row of a direct message to `user` about `game`, and the channel ping it falls back to."""
    return dm_of(game, user, Reply((line,)), Reply((fallback,), mentions=(user,)))


def dm_language(store: Store, user: int, server_language: str) -> str:
    """The language of a direct message: the member's own (`/game settings language:`), else the
    server's (a bot's post has no Discord client to follow)."""
    return store.member_settings(user).language or server_language
