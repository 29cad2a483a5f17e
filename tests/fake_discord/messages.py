"""Messages and uploaded files as Discord keeps them, with the checks Discord makes on a post."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tests.discord_shapes import LOADING, MESSAGE_COMPONENT, snowflake, timestamp
from tests.fake_discord.clock import Clock
from tests.fake_discord.payloads import User, attachment, message
from tests.fake_discord.records import ApiError, UploadedFile


class MessageStore:
    """Not thread-safe: the fake calls it with its lock held. Message times are the fake's clock."""

    def __init__(self, author: User, base_url: Callable[[], str], size_limit: int, clock: Clock) -> None:
        self.author = author
        self.base_url = base_url
        self.size_limit = size_limit
        self.clock = clock
        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[int, bytes] = {}

    def host(self, filename: str, data: bytes, content_type: str, description: str | None = None) -> dict[str, Any]:
        """Keep a file on the CDN; its attachment object (with its alt text, when it has one)."""
        attachment_id = snowflake()
        self.files[attachment_id] = data
        return attachment(attachment_id, filename, data, f"{self.base_url()}/attachments/{attachment_id}/{filename}",
                          content_type, description)

    def _uploads(self, body: Mapping[str, Any], files: Sequence[UploadedFile]) -> list[dict[str, Any]]:
        """New attachments: ``files[n]`` parts, named and described (alt text) by the body's
        ``attachments`` entries of id n."""
        names = {str(a.get("id")): a for a in body.get("attachments") or ()}
        uploaded = []
        for file in files:
            if len(file.data) > self.size_limit:
                raise ApiError(413, 40005, "Request entity too large")
            index = file.field.removeprefix("files[").removesuffix("]")
            filename = names.get(index, {}).get("filename") or file.filename
            uploaded.append(self.host(filename, file.data, file.content_type, names.get(index, {}).get("description")))
        return uploaded

    @staticmethod
    def created_at(stored: Mapping[str, Any]) -> float:
        return datetime.fromisoformat(stored["timestamp"]).timestamp()

    @staticmethod
    def _metadata(interaction: Mapping[str, Any]) -> dict[str, Any]:
        """A message's ``interaction_metadata``: who ran what, where it was authorised (and, for a
        component, the message it was on)."""
        meta = {"id": interaction["id"], "type": interaction["type"], "user": interaction["member"]["user"],
                "authorizing_integration_owners": dict(interaction["authorizing_integration_owners"])}
        if interaction["type"] == MESSAGE_COMPONENT:
            meta["interacted_message_id"] = interaction["message"]["id"]
        return meta

    def create(
        self, channel_id: int, body: Mapping[str, Any], files: Sequence[UploadedFile],
        *, interaction: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        if not (body.get("content") or files or body.get("embeds") or body.get("components")
                or int(body.get("flags") or 0) & LOADING):
            raise ApiError(400, 50006, "Cannot send an empty message")
        meta = None if interaction is None else self._metadata(interaction)
        now = self.clock()
        created = message(snowflake(now), channel_id, self.author, body, self._uploads(body, files),
                          interaction=meta, at=now)
        self.messages[int(created["id"])] = created
        return created

    def change(self, message_id: int, body: Mapping[str, Any], files: Sequence[UploadedFile]) -> dict[str, Any]:
        """An edit: given fields replace the old ones, ``attachments`` lists the ones kept; "loading" ends;
        the message stays where it was (its time, its pin)."""
        current = self.messages[message_id]
        kept = current["attachments"]
        if "attachments" in body:
            wanted = {str(a.get("id")) for a in body["attachments"] or ()}
            kept = [a for a in kept if a["id"] in wanted]
        fields = {k: v for k, v in body.items() if k in ("content", "embeds", "components")}
        flags = (current["flags"] & ~LOADING) | int(body.get("flags") or 0)
        changed = message(message_id, int(current["channel_id"]), self.author, {**current, **fields, "flags": flags},
                          [*kept, *self._uploads(body, files)], interaction=current.get("interaction_metadata"))
        changed["edited_timestamp"] = timestamp(self.clock())
        changed["timestamp"] = current["timestamp"]
        changed["pinned"] = current["pinned"]  # an edit leaves a pinned message pinned
        self.messages[message_id] = changed
        return changed
