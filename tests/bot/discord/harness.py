"""An in-process Discord for the adapter: raw interactions in, every REST call the bot makes answered
by the fake Discord's core and recorded.

Like discord.py's own tests, an interaction is a `discord.Interaction` built from a raw gateway
payload and handed to the command tree (or, for a button, to the view store, as the gateway
handler does). Like Avrae's tests, the bot's HTTP layer is replaced: the webhook adapter
(interaction callbacks, followups, edits, deletes) and `client.http.request` (login, the command
sync, channel posts) call :class:`~tests.fake_discord.core.DiscordCore` — the very core behind the
loopback server of the e2e tests, with its message store, interaction deadlines (real time: the
3 s count from the interaction's id), limits and OpenAPI checks — and each served call is kept
with its method, path, JSON body (or the multipart ``payload_json``) and files, so a test asserts
on what the bot actually sent. A refusal comes back as the exception discord.py raises for it
(`discord.NotFound`, `discord.Forbidden`, `discord.HTTPException` with Discord's JSON code). Nothing
leaves the process. Two differences with the loopback server, both of discord.py's HTTP layer that
the harness replaces: no rate limiter (discord.py's waits on 429 are not here), and no retry of a
server error.

The server itself reaches the bot as on the gateway: a GUILD_CREATE payload (the core's `Guild`)
handed to discord.py's parser, so its roles are cached as in production and the bot reads a
member's roles through `Member.roles`, the public API.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import json
import logging
import time
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
)
from tests.discord_shapes import snowflake_time
from tests.fake_discord.clock import Clock
from tests.fake_discord.core import Answer, DiscordCore
from tests.fake_discord.payloads import Channel, Guild, User
from tests.fake_discord.records import UploadedFile

#: Interaction callback types (https://discord.com/developers/docs/interactions/receiving-and-responding).
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, AUTOCOMPLETE_RESULT = 4, 5, 8
EPHEMERAL = 1 << 6
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class DiscordRejects(AssertionError):
    """Discord refused a request of the bot (an invalid body, a late answer...): the bot tells the
    member something went wrong, and the test fails here rather than on what the member read."""


@dataclass
class Call:
    """One REST request of the bot that Discord served."""

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


def _decode(payload: Any, multipart: Sequence[Mapping[str, Any]] | None,
            files: Sequence[discord.File] | None) -> tuple[Any, tuple[UploadedFile, ...]]:
    """The JSON body and the uploaded files of a request, whether sent as JSON or as multipart form
    data (discord.py names the file parts ``files[n]``, in the order of `files`)."""
    body = payload
    for part in multipart or ():
        if part["name"] == "payload_json":
            body = json.loads(part["value"])
    uploads = []
    for index, file in enumerate(files or ()):
        file.fp.seek(0)
        uploads.append(UploadedFile(f"files[{index}]", file.filename, "application/octet-stream", file.fp.read()))
    return body, tuple(uploads)


def _raised(answer: Answer) -> discord.HTTPException:
    """What discord.py raises for an error answer: the class by status, Discord's code and text inside."""
    response = SimpleNamespace(status=answer.status, reason=http.HTTPStatus(answer.status).phrase)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(answer.status, discord.HTTPException)
    if answer.status >= 500:
        kind = discord.DiscordServerError
    return kind(response, answer.json if answer.json is not None else "")


class DiscordRecorder:
    """Discord's REST API in memory: the fake Discord's core serves each request; the served ones
    are kept in `calls`. `clock`: the core's (real time unless a test turns a ManualClock)."""

    def __init__(self, clock: Clock = time.time) -> None:
        server = Guild(GUILD_ID, "server", owner_id=BOT_USER_ID + 1, channels=[Channel(CHANNEL_ID, "game", GUILD_ID)])
        self.core = DiscordCore(clock=clock, rate_limits=None, bot_user=User(BOT_USER_ID, "GameMaster", bot=True),
                                application_id=APP_ID, guild=server)
        self.calls: list[Call] = []
        self.downloads: list[str] = []  # the CDN urls the bot fetched
        self.listeners: list[Callable[[Call], None]] = []

    @property
    def messages(self) -> dict[int, dict[str, Any]]:
        """The messages Discord holds now, by id (after their edits, with their pins)."""
        return self.core.store.messages

    # -- what the bot calls ----------------------------------------------------------------------
    async def webhook_request(self, route: Route, session: Any = None, *, payload: Any = None,
                              multipart: Sequence[Mapping[str, Any]] | None = None,
                              files: Sequence[discord.File] | None = None, params: Mapping[str, Any] | None = None,
                              **_: Any) -> Any:
        """Stands in for `AsyncWebhookAdapter.request`: callbacks, followups, @original edits."""
        return self._request(route, payload, multipart, files, params)

    async def http_request(self, route: Route, *, files: Sequence[discord.File] | None = None,
                           form: Sequence[Mapping[str, Any]] | None = None, **kwargs: Any) -> Any:
        """Stands in for `client.http.request`: login, command sync, channel messages."""
        return self._request(route, kwargs.get("json"), form, files, kwargs.get("params"))

    def host(self, upload: Upload) -> Upload:
        """Put a member's file on the CDN, where the bot downloads option attachments from."""
        self.core.store.files[upload.id] = upload.data
        return upload

    async def cdn(self, url: str) -> bytes:
        """Stands in for `client.http.get_from_cdn`: the bytes of an attachment (``.../<id>/<filename>``)."""
        self.downloads.append(url)
        data = self.core.store.files.get(int(url.rsplit("/", 2)[-2]))
        if data is None:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "asset not found")
        return data

    def fail_next(self, method: str, pattern: str, status: int, code: int) -> None:
        """Refuse the next request `method pattern` with `status` and the JSON `code` (413/40005,
        400/50035, 503...), as Discord would."""
        self.core.fail(method, pattern, status=status, code=code)

    def refusals(self, since: int = 0) -> list[str]:
        """Discord's own refusals of the bot's requests (faults a test injected aside), from the
        core's `since`-th call on."""
        return [f"{c.status} {c.method} {c.path}: {c.answer}" for c in self.core.calls[since:]
                if c.status >= 400 and not c.injected]

    # -- answers -----------------------------------------------------------------------------------
    def _request(self, route: Route, payload: Any, multipart: Sequence[Mapping[str, Any]] | None,
                 files: Sequence[discord.File] | None, params: Mapping[str, Any] | None) -> Any:
        body, uploads = _decode(payload, multipart, files)
        path = route.url.removeprefix(Route.BASE)
        answer = self.core.handle(route.method, path, body, uploads,
                                  query={k: str(v) for k, v in (params or {}).items()},
                                  content_type="multipart/form-data" if multipart else "application/json")
        if answer.status >= 400:
            raise _raised(answer)
        call = Call(route.method, path, dict(params or {}), body, [(f.filename, f.data) for f in uploads],
                    answer.json)
        self.calls.append(call)
        for listener in self.listeners:
            listener(call)
        return answer.json


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
        self.guild = recorder.core.guild
        for role in roles:
            recorder.core.add_role(role.name, role_id=role.id)
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
        self.recorder.core.add_role(role.name, role_id=role.id)
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
        """Deliver one raw interaction as the gateway would and return the calls it caused; Discord
        creates it when its id says (the 3 s run from there). A refusal of Discord's fails the test."""
        start, served = len(self.recorder.core.calls), len(self.recorder.calls)
        unknown = [r for r in payload.get("member", {}).get("roles", []) if int(r) not in self.guild.roles]
        if unknown:
            raise AssertionError(f"Discord sends only roles the server has; add {unknown} with `roles=` or add_role")
        self._channel_exists(payload["channel"])
        self.recorder.core.open_interaction(payload, snowflake_time(payload["id"]))
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
        refused = self.recorder.refusals(start)
        if refused:
            raise DiscordRejects("Discord refused the bot's requests:\n" + "\n".join(refused))
        return Exchange(self.recorder.calls[served:])

    def _channel_exists(self, channel: Mapping[str, Any]) -> None:
        """An interaction comes from a channel of the server: one the test names for the first time
        is created on Discord and announced to the bot (CHANNEL_CREATE) before it."""
        if self.recorder.core.find_channel(int(channel["id"])) is None:
            made = self.recorder.core.add_channel(channel["name"], channel_id=int(channel["id"]))
            self.dispatch("CHANNEL_CREATE", made.to_json())

    @staticmethod
    async def _components_done() -> None:
        """Wait for the button callbacks the view store scheduled (tasks named by discord.py)."""
        running = [t for t in asyncio.all_tasks() if t.get_name().startswith("discord-ui-dynamic-item-")]
        await asyncio.gather(*running)

