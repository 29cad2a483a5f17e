"""The bot's direct-message channels as Discord keeps them: one per member (type 1, opened with
``POST /users/@me/channels``, the same one each time), and the members whose privacy settings refuse
the bot's messages (a message there: 403 / 50007)."""

from __future__ import annotations

from typing import Any

from tests.discord_shapes import snowflake
from tests.fake_discord.payloads import User
from tests.fake_discord.records import ApiError

#: Discord's channel type of a direct message
DM_CHANNEL = 1


class DirectMessages:
    """Not thread-safe: the fake calls it with its lock held."""

    def __init__(self) -> None:
        self.channels: dict[int, int] = {}  # member id -> their DM channel's id
        self.refusing: set[int] = set()  # members who take no message from the bot

    def open(self, user: User) -> dict[str, Any]:
        """The DM channel with `user` (opened the first time), as Discord answers it."""
        channel_id = self.channels.setdefault(user.id, snowflake())
        return {"id": str(channel_id), "type": DM_CHANNEL, "last_message_id": None, "flags": 0,
                "recipients": [user.to_json()]}

    def recipient(self, channel_id: int) -> int | None:
        """The member of a DM channel (None: not one)."""
        return next((user for user, channel in self.channels.items() if channel == channel_id), None)

    def check_post(self, channel_id: int) -> None:
        """A message to a member who refuses the bot's is refused, as Discord does."""
        if self.recipient(channel_id) in self.refusing:
            raise ApiError(403, 50007, "Cannot send messages to this user")
