"""An in-process Discord for the adapter: raw interactions in, every REST call the bot makes recorded.

Like discord.py's own tests, an interaction is a `discord.Interaction` built from a raw gateway
payload and handed to the command tree (or, for a button, to the view store, as the gateway
handler does). Like Avrae's tests, the bot's HTTP layer is replaced by a recorder: the webhook
adapter (interaction callbacks, followups, edits, deletes) and `client.http.request` (login, the
command sync, channel posts) answer with realistic JSON, and each call is kept with its method,
path, JSON body (or the multipart ``payload_json``) and files, so a test asserts on what the
bot actually sent. Nothing leaves the process: an unexpected route fails the test.

The server itself reaches the bot as on the gateway: a GUILD_CREATE payload (the fake Discord's own
`Guild` shape) handed to discord.py's parser, so its roles are cached as in production and the bot
reads a member's roles through `Member.roles`, the public API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import Route

from bot.config import Settings
from bot.discord_adapter.client import GameBot
from bot.service import GameService
from tests.bot.discord.payloads import (
    APP_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    GUILD_ID,
    MESSAGE_COMPONENT,
    Role,
    Upload,
    snowflake,
    timestamp,
    user_json,
)
from tests.fake_discord import openapi
from tests.fake_discord.limits import message_problems
from tests.fake_discord.payloads import Channel, Guild, _with_ids, attachment

#: Interaction callback types (https://discord.com/developers/docs/interactions/receiving-and-responding).
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, AUTOCOMPLETE_RESULT = 4, 5, 8
EPHEMERAL, LOADING = 1 << 6, 1 << 7
CONTENT_LIMIT, CUSTOM_ID_LIMIT, LABEL_LIMIT, CHOICES_LIMIT = 2000, 100, 80, 25
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class DiscordRejects(AssertionError):
    """What Discord answers with a 400: the bot sent something the API refuses."""


@dataclass
class Call:
    """One REST request of the bot, as Discord would have received it."""

    method: str
    path: str
    params: dict[str, Any]
    body: Any  # the JSON body, or the multipart payload_json decoded
    files: list[tuple[str, bytes]] = field(default_factory=list)
    response: Any = None

    @property
    def is_callback(self) -> bool:
        return self.path.endswith("/callback")

    @property
    def callback_type(self) -> int | None:
        return self.body["type"] if self.is_callback else None

    @property
    def message(self) -> dict[str, Any] | None:
        """The message part of the body (a callback wraps it in ``data``)."""
        if self.is_callback:
            return self.body.get("data") if self.callback_type == CHANNEL_MESSAGE else None
        return self.body if isinstance(self.body, dict) else None

    @property
    def content(self) -> str | None:
        return (self.message or {}).get("content")

    @property
    def ephemeral(self) -> bool:
        body = self.body.get("data", {}) if self.is_callback else (self.body or {})
        return bool((body or {}).get("flags", 0) & EPHEMERAL)

    @property
    def sent(self) -> dict[str, Any] | None:
        """The message as Discord stored it (what a later click on one of its buttons carries)."""
        if self.is_callback:
            return (self.response.get("resource") or {}).get("message")
        return self.response if isinstance(self.response, dict) else None

    @property
    def custom_ids(self) -> list[str]:
        rows = (self.message or {}).get("components", [])
        return [c["custom_id"] for row in rows for c in row.get("components", []) if "custom_id" in c]


@dataclass
class Exchange:
    """The calls the bot made while handling one interaction, in order."""

    calls: list[Call]

    def kinds(self) -> list[str]:
        """A readable trace: ``callback:4``, ``PATCH @original``, ``followup``, ``DELETE @original``..."""
        trace = []
        for call in self.calls:
            if call.is_callback:
                trace.append(f"callback:{call.callback_type}")
            elif call.path.endswith("/messages/@original"):
                trace.append(f"{call.method} @original")
            elif call.path.startswith("/webhooks/"):
                trace.append("followup")
            else:
                trace.append(f"{call.method} {call.path}")
        return trace

    @property
    def messages(self) -> list[Call]:
        """The calls that carry message content (responses, edits, followups, channel posts)."""
        return [c for c in self.calls if c.message is not None and c.method in ("POST", "PATCH")]

    @property
    def text(self) -> str:
        return "\n".join(c.content or "" for c in self.messages)

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return [f for c in self.calls for f in c.files]

    @property
    def choices(self) -> list[dict[str, Any]]:
        return [ch for c in self.calls if c.callback_type == AUTOCOMPLETE_RESULT for ch in c.body["data"]["choices"]]

    def button(self, index: int = 0) -> tuple[dict[str, Any], str]:
        """The sent message holding the `index`-th button, and that button's custom id."""
        found = [(c.sent, cid) for c in self.messages for cid in c.custom_ids]
        if len(found) <= index:
            raise AssertionError(f"no button #{index} in {self.kinds()}: {self.text!r}")
        return found[index]

    @property
    def refused(self) -> bool:
        """The bot answered privately only (every refusal of the service is ephemeral)."""
        return bool(self.messages) and all(c.ephemeral for c in self.messages)


def _limits(message: Mapping[str, Any]) -> None:
    """Refuse, as Discord does with a 400, a message beyond the API's limits."""
    content = message.get("content") or ""
    if len(content) > CONTENT_LIMIT:
        raise DiscordRejects(f"content is {len(content)} characters, more than {CONTENT_LIMIT}")
    for row in message.get("components", []):
        for component in row.get("components", []):
            if len(component.get("custom_id", "")) > CUSTOM_ID_LIMIT:
                raise DiscordRejects(f"custom_id longer than {CUSTOM_ID_LIMIT}: {component['custom_id']!r}")
            if len(component.get("label", "")) > LABEL_LIMIT:
                raise DiscordRejects(f"button label longer than {LABEL_LIMIT}: {component['label']!r}")
    mentions = message.get("allowed_mentions")
    if mentions is not None and set(mentions.get("parse", ())) & {"users"} and mentions.get("users"):
        raise DiscordRejects("allowed_mentions: parse users and a users list are mutually exclusive")


def _decode(payload: Any, multipart: Sequence[Mapping[str, Any]] | None,
            files: Sequence[discord.File] | None) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body and the files of a request, whether sent as JSON or as multipart form data."""
    body = payload
    for part in multipart or ():
        if part["name"] == "payload_json":
            body = json.loads(part["value"])
    blobs = []
    for file in files or ():
        file.fp.seek(0)
        blobs.append((file.filename, file.fp.read()))
    return body, blobs


class DiscordRecorder:
    """Discord's REST API, in memory: records each request and answers it like the API does."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.originals: dict[str, int] = {}  # interaction token → id of its @original message
        self.channels: dict[str, int] = {}  # interaction token → the channel it was used in
        self.uploads: dict[str, bytes] = {}  # CDN url → bytes (attachments members send)
        self.downloads: list[str] = []  # the CDN urls the bot fetched
        self.listeners: list[Callable[[Call], None]] = []
        #: refusals to give once, each to the first request it matches: (method, path regex, status, code)
        self.failures: list[tuple[str, str, int, int]] = []

    # -- what the bot calls ----------------------------------------------------------------------
    async def webhook_request(self, route: Route, session: Any = None, *, payload: Any = None,
                              multipart: Sequence[Mapping[str, Any]] | None = None,
                              files: Sequence[discord.File] | None = None, params: Mapping[str, Any] | None = None,
                              **_: Any) -> Any:
        """Stands in for `AsyncWebhookAdapter.request`: callbacks, followups, @original edits."""
        return self._record(route, payload, multipart, files, params)

    async def http_request(self, route: Route, *, files: Sequence[discord.File] | None = None,
                           form: Sequence[Mapping[str, Any]] | None = None, **kwargs: Any) -> Any:
        """Stands in for `client.http.request`: login, command sync, channel messages."""
        return self._record(route, kwargs.get("json"), form, files, kwargs.get("params"))

    def host(self, upload: Upload) -> Upload:
        """Put a member's file on the CDN, where the bot downloads option attachments from."""
        self.uploads[upload.url] = upload.data
        return upload

    async def cdn(self, url: str) -> bytes:
        """Stands in for `client.http.get_from_cdn`: the bytes of an attachment a member sent."""
        self.downloads.append(url)
        return self.uploads[url]

    def fail_next(self, method: str, pattern: str, status: int, code: int) -> None:
        """Refuse the next request `method pattern` as Discord would (413/40005, 400/50035, 503...)."""
        self.failures.append((method, pattern, status, code))

    # -- answers -----------------------------------------------------------------------------------
    def _record(self, route: Route, payload: Any, multipart: Sequence[Mapping[str, Any]] | None,
                files: Sequence[discord.File] | None, params: Mapping[str, Any] | None) -> Any:
        body, blobs = _decode(payload, multipart, files)
        path = route.url.removeprefix(Route.BASE)
        for failure in self.failures:
            method, pattern, status, code = failure
            if method == route.method and re.fullmatch(pattern, path):
                self.failures.remove(failure)
                response = SimpleNamespace(status=status, reason="refused by the test")
                if status >= 500:
                    raise discord.DiscordServerError(response, {"message": "Server error", "code": 0})
                raise discord.HTTPException(response, {"message": "Refused", "code": code})
        call = Call(route.method, path, dict(params or {}), body, blobs)
        if call.message is not None:
            _limits(call.message)
        # the loopback fake's own referee: the spec's request schema and the limits it does not state
        kind = "multipart/form-data" if multipart else "application/json"
        problems = openapi.request_problems(route.method, path, body, kind)
        problems += message_problems(body.get("data") if call.is_callback else call.message,
                                     ("data",) if call.is_callback else ())
        if problems:
            raise DiscordRejects(f"400 / 50035 Invalid Form Body: {openapi.error_tree(problems)}")
        if call.callback_type == AUTOCOMPLETE_RESULT and len(call.body["data"]["choices"]) > CHOICES_LIMIT:
            raise DiscordRejects(f"more than {CHOICES_LIMIT} autocomplete choices")
        call.response = self._answer(call)
        self.calls.append(call)
        for listener in self.listeners:
            listener(call)
        return call.response

    def _answer(self, call: Call) -> Any:
        parts = call.path.strip("/").split("/")
        route = (call.method, parts[0], parts[-1] if len(parts) > 1 else "")
        if call.method == "GET" and call.path == "/users/@me":
            return {**user_json(BOT_USER_ID, "GameMaster", bot=True), "verified": True, "mfa_enabled": False,
                    "flags": 0}
        if call.method == "GET" and call.path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "GameMaster", "description": "", "icon": None, "bot_public": True,
                    "bot_require_code_grant": False, "owner": user_json(1, "owner"), "verify_key": "0" * 64,
                    "flags": 0, "team": None}
        if call.method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            return [{**cmd, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1",
                     "default_member_permissions": None, "type": cmd.get("type", 1)} for cmd in call.body]
        if route == ("POST", "interactions", "callback"):
            return self._callback(call, token=parts[2])
        if parts[0] == "webhooks" and parts[-1] == "@original":
            return self._original(call, token=parts[2])
        if route[:2] == ("POST", "webhooks"):
            return self._store(call.body, call.files, channel_id=self.channels.get(parts[2]), reply=True)
        if call.method == "POST" and parts[0] == "channels" and parts[-1] == "messages":
            return self._store(call.body, call.files, channel_id=int(parts[1]))
        if call.method == "GET" and parts[0] == "channels" and len(parts) == 2:
            return {"id": parts[1], "type": 0, "guild_id": str(GUILD_ID), "name": "table", "position": 0,
                    "permission_overwrites": [], "nsfw": False, "parent_id": None}
        if call.method == "PATCH" and parts[0] == "channels" and parts[2] == "messages":
            message = self.messages.get(int(parts[3]))
            if message is None:
                raise DiscordRejects(f"PATCH of unknown message {parts[3]} (Unknown Message)")
            message.update(call.body, edited_timestamp=timestamp())
            return message
        if call.method == "PUT" and parts[0] == "channels" and parts[2:4] == ["messages", "pins"]:
            self.messages[int(parts[4])]["pinned"] = True
            return None
        raise DiscordRejects(f"the recorder does not know {call.method} {call.path}")

    def _callback(self, call: Call, token: str) -> dict[str, Any]:
        kind = call.callback_type
        interaction = {"id": call.path.split("/")[2], "type": 2}
        if kind not in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            return {"interaction": interaction, "resource": {"type": kind}}
        data = call.body.get("data") or {}
        flags = data.get("flags", 0) | (LOADING if kind == DEFERRED_CHANNEL_MESSAGE else 0)
        message = self._store({**data, "flags": flags}, call.files, channel_id=self.channels.get(token), reply=True)
        self.originals[token] = int(message["id"])
        interaction.update(response_message_id=message["id"], response_message_loading=bool(flags & LOADING),
                           response_message_ephemeral=bool(flags & EPHEMERAL))
        return {"interaction": interaction, "resource": {"type": kind, "message": message}}

    def _original(self, call: Call, token: str) -> Any:
        message_id = self.originals.get(token)
        if message_id is None:
            raise DiscordRejects(f"{call.method} @original before any response (Unknown Message)")
        if call.method == "DELETE":
            del self.messages[message_id], self.originals[token]
            return None
        message = self.messages[message_id]
        if call.method == "PATCH":
            message.update({k: v for k, v in call.body.items() if k != "attachments"}, edited_timestamp=timestamp())
            message["flags"] = message.get("flags", 0) & ~LOADING
            message["attachments"] = self._attachments(call.files)
        return message

    def _store(self, body: Mapping[str, Any], files: list[tuple[str, bytes]], channel_id: int | None,
               reply: bool = False) -> dict:
        message_id = snowflake()
        message = {
            "id": str(message_id), "channel_id": str(channel_id or 0), "type": 20 if reply else 0,
            "author": user_json(BOT_USER_ID, "GameMaster", bot=True), "content": body.get("content") or "",
            "timestamp": timestamp(), "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": self._attachments(files), "embeds": [],
            "pinned": False, "flags": body.get("flags", 0), "components": _with_ids(body.get("components") or []),
        }
        self.messages[message_id] = message
        return message

    @staticmethod
    def _attachments(files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
        found = []
        for name, data in files:
            attachment_id = snowflake()
            url = f"https://cdn.discordapp.com/attachments/{CHANNEL_ID}/{attachment_id}/{name}"
            found.append(attachment(attachment_id, name, data, url, mimetypes.guess_type(name)[0]))
        return found


class BotFailed(AssertionError):
    """The bot raised while handling an interaction: the member got no answer at all."""


class _ErrorLog(logging.Handler):
    """discord.py logs, instead of raising, what a command or a button callback raised: collect it."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class BotHarness:
    """A logged-in `GameBot` that never opens the gateway; the server (with `roles`) is announced by
    GUILD_CREATE and interactions are fed in by `interact`, as the gateway would deliver them."""

    def __init__(self, service: GameService, recorder: DiscordRecorder, settings: Settings | None = None,
                 *, roles: Sequence[Role] = ()) -> None:
        self.recorder = recorder
        self.guild = Guild(GUILD_ID, "server", owner_id=BOT_USER_ID + 1,
                           channels=[Channel(CHANNEL_ID, "game", GUILD_ID)], roles={r.id: r.name for r in roles})
        # no lottery source: nothing may leave the machine; draws are entered with /gm draw
        self.bot = GameBot(service, settings or Settings.model_validate({"draws": {"source": "manual"}}))
        self.bot.http.request = recorder.http_request  # type: ignore[method-assign]
        self.bot.http.get_from_cdn = recorder.cdn  # type: ignore[method-assign]
        self._errors = _ErrorLog()
        self._tasks_before: set[asyncio.Task[Any]] = set()

    async def __aenter__(self) -> BotHarness:
        self._tasks_before = asyncio.all_tasks()
        logging.getLogger("discord").addHandler(self._errors)
        await self.bot.login("test-token")  # GET /users/@me, GET the application, setup_hook (sync)
        self.dispatch("GUILD_CREATE", self.guild.to_json())
        return self

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """A gateway event, through the parser discord.py's websocket would hand it to."""
        self.bot._connection.parsers[event](data)

    def add_role(self, role: Role) -> None:
        """A role created on the server while the bot runs (GUILD_ROLE_CREATE)."""
        self.guild.roles[role.id] = role.name
        self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(GUILD_ID), "role": role.to_json()})

    async def __aexit__(self, *exc: object) -> None:
        logging.getLogger("discord").removeHandler(self._errors)
        await self.bot.close()
        # private replies with buttons get discord.py's 15-minute view timer: stop it with the test
        leftovers = [t for t in asyncio.all_tasks() - self._tasks_before if t is not asyncio.current_task()]
        for task in leftovers:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*leftovers, return_exceptions=True)

    async def interact(self, payload: dict[str, Any]) -> Exchange:
        """Deliver one raw interaction as the gateway would and return the calls it caused."""
        start = len(self.recorder.calls)
        unknown = [r for r in payload.get("member", {}).get("roles", []) if int(r) not in self.guild.roles]
        if unknown:
            raise AssertionError(f"Discord sends only roles the server has; add {unknown} with `roles=` or add_role")
        self.recorder.channels[payload["token"]] = int(payload["channel_id"])
        interaction = discord.Interaction(data=payload, state=self.bot._connection)
        try:
            if payload["type"] == MESSAGE_COMPONENT:
                data = payload["data"]
                store = self.bot._connection._view_store
                store.dispatch_view(data["component_type"], data["custom_id"], interaction)
                await self._components_done()
            else:
                await self.bot.tree._call(interaction)
        finally:
            logged, self._errors.records = self._errors.records, []
        if logged:
            cause = logged[0].exc_info[1] if logged[0].exc_info else None
            raise BotFailed(f"discord.py logged an error: {logged[0].getMessage()}") from cause
        return Exchange(self.recorder.calls[start:])

    @staticmethod
    async def _components_done() -> None:
        """Wait for the button callbacks the view store scheduled (tasks named by discord.py)."""
        running = [t for t in asyncio.all_tasks() if t.get_name().startswith("discord-ui-dynamic-item-")]
        await asyncio.gather(*running)

