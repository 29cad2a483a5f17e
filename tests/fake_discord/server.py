"""A loopback fake Discord: the REST API and gateway websocket discord.py talks to, on 127.0.0.1.

The fake runs its own event loop in a background thread so that synchronous tests can drive a real
bot process: every method of :class:`FakeDiscord` is thread-safe, and waits are event-driven (a
condition notified on every recorded call) with a timeout. It answers like Discord does where the
bot could notice: JSON with ``Content-Type: application/json``, a second response to one
interaction refused (40060), unknown tokens refused (10062/10015), uploads above the interaction's
size limit refused (40005), rate limits as 429 with ``retry_after`` and the headers discord.py reads.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from tests.discord_shapes import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    LOADING,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    snowflake,
)
from tests.fake_discord import interactions
from tests.fake_discord.messages import MessageStore
from tests.fake_discord.payloads import Channel, Guild, Member, User
from tests.fake_discord.records import (
    BODY,
    FILES,
    ApiError,
    Call,
    Fault,
    InteractionLog,
    UploadedFile,
    json_response,
)

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway-ws"
#: Discord's default upload limit for a server without boosts.
DEFAULT_SIZE_LIMIT = 10 * 1024 * 1024
HEARTBEAT_MS = 41_250

T = TypeVar("T")


class FakeDiscord:
    """One application with one server; start it, point the bot at `api_base`/`gateway_url`, drive it."""

    def __init__(self, *, size_limit: int = DEFAULT_SIZE_LIMIT) -> None:
        self.bot_user = User(snowflake(), "SpaceChess", bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(snowflake(), "owner")
        guild_id = snowflake()
        self.guild = Guild(guild_id, "Fake server", self.owner.id, channels=[Channel(snowflake(), "general", guild_id)])
        self.guild.members.append(Member(self.owner))
        self.size_limit = size_limit
        self.store = MessageStore(self.bot_user, guild_id, lambda: self.base_url, size_limit)
        self.calls: list[Call] = []
        self.interactions: dict[int, InteractionLog] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None: global, else a guild id
        self.identifies: list[dict[str, Any]] = []
        self._faults: list[Fault] = []
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._session: web.WebSocketResponse | None = None
        self._seq = 0
        self.port = 0

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self) -> FakeDiscord:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="fake-discord", daemon=True)
        self._thread.start()
        if not ready.wait(10) or not self.port:
            raise RuntimeError("the fake Discord did not start")
        return self

    def stop(self) -> None:
        if self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._thread = None

    def __enter__(self) -> FakeDiscord:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)

        async def begin() -> None:
            self._runner = web.AppRunner(self._app(), handle_signals=False, access_log=None)
            await self._runner.setup()
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            await site.start()
            self.port = self._runner.addresses[0][1]

        try:
            self._loop.run_until_complete(begin())
        finally:
            ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _shutdown(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    @property
    def connected(self) -> bool:
        """Whether a bot holds an identified gateway session right now."""
        with self._cond:
            return self._session is not None

    # -- test controls (any thread) ---------------------------------------------------------------
    def fail(self, method: str, pattern: str, *, status: int = 429, times: int = 1, retry_after: float = 0.05) -> None:
        """Answer the next `times` requests `method pattern` (a regex on the path after /api/v10) with
        `status`: 429 is a rate limit of `retry_after` seconds, anything else a server error."""
        with self._cond:
            self._faults.append(Fault(method, pattern, status, retry_after, times))

    def wait_until(
        self, predicate: Callable[[], T], *, timeout: float, what: str, abort: Callable[[], str | None] = lambda: None
    ) -> T:
        """Wait for `predicate` (run under the lock, on every change) to return something truthy.

        `abort` is checked at each wake-up and its message raised: a dead bot process ends the wait
        at once instead of at the timeout (whoever watches the process calls :meth:`poke`).
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value:
                    return value
                reason = abort()
                if reason:
                    raise AssertionError(f"while waiting for {what}: {reason}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"fake Discord: no {what} within {timeout:g} s")
                self._cond.wait(left)

    def poke(self) -> None:
        """Wake every waiter (something outside the fake changed, e.g. the bot process ended)."""
        with self._cond:
            self._cond.notify_all()

    def calls_to(self, method: str, pattern: str) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.matches(method, pattern)]

    def add_member(self, name: str, *, permissions: int = MEMBER_PERMISSIONS, roles: Sequence[int] = ()) -> Member:
        """A member of the server; `permissions` are their resolved permission bits in every channel."""
        member = Member(User(snowflake(), name), permissions, tuple(roles))
        with self._cond:
            self.guild.members.append(member)
        return member

    def add_role(self, name: str) -> dict[str, Any]:
        """A new role of the server (announced with GUILD_ROLE_CREATE when the bot is connected)."""
        role_id = snowflake()
        with self._cond:
            self.guild.roles[role_id] = name
            role = self.guild.role_json(role_id, name, MEMBER_PERMISSIONS)
            connected = self._session is not None
        if connected:
            self._run(self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(self.guild.id), "role": role}))
        return role

    def add_channel(self, name: str) -> Channel:
        """A new text channel; announced with CHANNEL_CREATE when the bot is connected."""
        channel = Channel(snowflake(), name, self.guild.id, position=len(self.guild.channels))
        with self._cond:
            self.guild.channels.append(channel)
            connected = self._session is not None
        if connected:
            self._run(self._dispatch("CHANNEL_CREATE", channel.to_json()))
        return channel

    def host_attachment(self, filename: str, data: bytes, content_type: str = "text/plain") -> dict[str, Any]:
        """Upload a file to the fake CDN, as a Discord client does before sending an attachment option."""
        with self._cond:
            return self.store.host(filename, data, content_type)

    def file_bytes(self, attachment_data: Mapping[str, Any]) -> bytes:
        with self._cond:
            return self.store.files[int(attachment_data["id"])]

    # -- interactions --------------------------------------------------------------------------
    def slash(
        self, member: Member, path: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr",
    ) -> int:
        """Send ``/path option:value...`` as `member`; the interaction id, to wait for its reply."""
        data = interactions.command_data(self._synced(), path, options or {}, guild_id=self.guild.id)
        return self._interact(APPLICATION_COMMAND, data, member, channel, locale)

    def autocomplete(
        self, member: Member, path: str, focused: str, typed: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr",
    ) -> int:
        values = {**(options or {}), focused: typed}
        data = interactions.command_data(self._synced(), path, values, guild_id=self.guild.id, focused=focused)
        return self._interact(AUTOCOMPLETE, data, member, channel, locale)

    def click(self, member: Member, message_data: Mapping[str, Any], custom_id: str, *, locale: str = "fr") -> int:
        """Click the button `custom_id` of a message the bot sent (the message as the fake stored it)."""
        with self._cond:
            stored = dict(self.store.messages[int(message_data["id"])])
        data = interactions.component_data(stored, custom_id)
        channel = self.guild.channel(int(stored["channel_id"]))
        return self._interact(MESSAGE_COMPONENT, data, member, channel, locale, stored)

    def _interact(
        self, kind: int, data: Mapping[str, Any], member: Member, channel: Channel | None, locale: str,
        message_data: Mapping[str, Any] | None = None,
    ) -> int:
        payload = interactions.envelope(
            kind, data, application_id=self.application_id, guild=self.guild,
            channel=channel or self.guild.channels[0], member=member, locale=locale, size_limit=self.size_limit,
            message=message_data,
        )
        interaction_id = int(payload["id"])
        with self._cond:
            if self._session is None:
                raise AssertionError("the bot is not connected to the fake gateway")
            self.interactions[interaction_id] = InteractionLog(payload)
        self._run(self._dispatch("INTERACTION_CREATE", payload))
        return interaction_id

    def _synced(self) -> list[dict[str, Any]]:
        with self._cond:
            synced = self.commands.get(None, []) + self.commands.get(self.guild.id, [])
        if not synced:
            raise AssertionError("the bot has not synced any command yet")
        return synced

    def reply(self, interaction_id: int, *, timeout: float = 15.0, abort: Callable[[], str | None] = lambda: None
              ) -> dict[str, Any]:
        """The message that answers an interaction, once it is final (a deferral is not an answer)."""
        return self.wait_until(lambda: self._reply(interaction_id), timeout=timeout, abort=abort,
                               what=f"reply to interaction {interaction_id}")

    def _reply(self, interaction_id: int) -> dict[str, Any] | None:
        log = self.interactions[interaction_id]
        if log.callback_type in (4, 7) and log.original_id is not None:
            return self.store.messages[log.original_id]
        if log.callback_type == 5:
            original = None if log.original_deleted else self.store.messages.get(log.original_id or 0)
            if original is not None and not original["flags"] & LOADING:
                return original
            if log.original_deleted and log.followups:
                return self.store.messages[log.followups[0]]
        return None

    def acknowledged(self, interaction_id: int) -> int | None:
        """The callback type the bot answered the interaction with (5: deferred), None before it did."""
        with self._cond:
            return self.interactions[interaction_id].callback_type

    def message(self, message_id: int) -> dict[str, Any]:
        """A message as it stands now (after its edits, with its pin)."""
        with self._cond:
            return dict(self.store.messages[message_id])

    def channel_messages(self, channel: Channel) -> list[dict[str, Any]]:
        """The messages of a channel that still exist, oldest first."""
        with self._cond:
            return [m for m in self.store.messages.values() if m["channel_id"] == str(channel.id)]

    def choices(self, interaction_id: int, *, timeout: float = 15.0) -> list[dict[str, Any]]:
        """The autocomplete suggestions the bot answered (type 8 callback)."""
        return self.wait_until(lambda: self.interactions[interaction_id].choices, timeout=timeout,
                               what=f"autocomplete answer to {interaction_id}")

    # -- internals: loop side ------------------------------------------------------------------
    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    async def _dispatch(self, event: str, data: Mapping[str, Any]) -> None:
        with self._cond:
            ws = self._session
            self._seq += 1
            frame = {"op": 0, "t": event, "s": self._seq, "d": data}
        if ws is None:
            raise AssertionError(f"cannot dispatch {event}: the bot is not connected")
        await ws.send_str(json.dumps(frame))

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        routes = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_message),
            ("PUT", "/channels/{channel}/pins/{message}", self._pin),
            ("PUT", "/channels/{channel}/messages/pins/{message}", self._pin),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._unknown_route)
        app.router.add_get("/attachments/{attachment}/{filename}", self._cdn)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        path = request.path[len(API_PREFIX):]
        body, files = await self._read_body(request)
        request[BODY], request[FILES] = body, files
        with self._cond:
            fault = next((f for f in self._faults if f.left > 0 and re.fullmatch(f.pattern, path)
                          and f.method == request.method), None)
            if fault is not None:
                fault.left -= 1
        if fault is not None:
            response = self._fault_response(fault)
        else:
            try:
                response = await handler(request)
            except ApiError as err:
                response = json_response({"message": err.text, "code": err.code}, err.status)
        with self._cond:
            self.calls.append(Call(request.method, path, dict(request.query), body, files, response.status))
            self._cond.notify_all()
        return response

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, tuple[UploadedFile, ...]]:
        if not request.can_read_body:
            return None, ()
        if request.content_type.startswith("multipart/"):
            body: Any = None
            files: list[UploadedFile] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    content_type = part.headers.get("Content-Type", "application/octet-stream")
                    files.append(UploadedFile(part.name or "", part.filename or "", content_type, bytes(data)))
            return body, tuple(files)
        text = await request.text()
        return (json.loads(text) if text else None), ()

    @staticmethod
    def _fault_response(fault: Fault) -> web.Response:
        if fault.status != 429:
            return json_response({"message": f"{fault.status}: Internal Server Error", "code": 0}, fault.status)
        headers = {
            "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
            "Retry-After": str(max(1, round(fault.retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": "fake-bucket",
            "X-RateLimit-Scope": "user",
        }
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after, "global": False}
        return json_response(body, 429, headers)

    # -- REST handlers ------------------------------------------------------------------------------
    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.bot_user.to_json(), "verified": True, "mfa_enabled": False})

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response({
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None, "description": "",
            "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.to_json(),
            "verify_key": "0" * 64, "flags": 0, "bot": self.bot_user.to_json(),
        })

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["app"] != str(self.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    async def _put_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        scope = int(request.match_info["guild"]) if "guild" in request.match_info else None
        body = request[BODY]
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        stored = []
        for command in body:
            extra = {"id": str(snowflake()), "application_id": str(self.application_id), "version": str(snowflake())}
            if scope is not None:
                extra["guild_id"] = str(scope)
            stored.append({**command, **extra})
        with self._cond:
            self.commands[scope] = stored
        return json_response(stored)

    async def _get_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        scope = int(request.match_info["guild"]) if "guild" in request.match_info else None
        with self._cond:
            return json_response(self.commands.get(scope, []))

    def _interaction(self, interaction_id: int, token: str) -> InteractionLog:
        log = self.interactions.get(interaction_id)
        if log is None or log.payload["token"] != token:
            raise ApiError(404, 10062, "Unknown interaction")
        return log

    async def _callback(self, request: web.Request) -> web.Response:
        body = request[BODY] or {}
        kind = body.get("type")
        data = body.get("data") or {}
        with self._cond:
            log = self._interaction(int(request.match_info["interaction"]), request.match_info["token"])
            if log.callback_type is not None:
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            created = None
            if kind in (4, 5):
                flags = int(data.get("flags") or 0) | (LOADING if kind == 5 else 0)
                created = self.store.create(int(log.payload["channel_id"]), {**data, "flags": flags},
                                            request[FILES], interaction=log.payload)
                log.original_id = int(created["id"])
            elif kind == 7:
                log.original_id = int(log.payload["message"]["id"])
                created = self.store.change(log.original_id, data, request[FILES])
            elif kind == 8:
                log.choices = list(data.get("choices") or [])
            elif kind != 6:
                raise ApiError(400, 50035, f"Invalid Form Body (callback type {kind!r})")
            log.callback_type = kind
        answer: dict[str, Any] = {"interaction": {
            "id": log.payload["id"], "type": log.payload["type"],
            "response_message_id": created["id"] if created else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(created and created["flags"] & EPHEMERAL),
        }}
        if created is not None:
            answer["resource"] = {"type": kind, "message": created}
        return json_response(answer)

    def _webhook(self, request: web.Request) -> InteractionLog:
        self._check_app(request)
        token = request.match_info["token"]
        log = next((i for i in self.interactions.values() if i.payload["token"] == token), None)
        if log is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return log

    def _webhook_message_id(self, log: InteractionLog, ref: str) -> int:
        if ref == "@original":
            if log.original_id is None or log.original_deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return log.original_id
        if int(ref) not in self.store.messages:
            raise ApiError(404, 10008, "Unknown Message")
        return int(ref)

    async def _followup(self, request: web.Request) -> web.Response:
        with self._cond:
            log = self._webhook(request)
            if log.callback_type is None:
                raise ApiError(404, 10015, "Unknown Webhook")
            original = None if log.original_deleted else self.store.messages.get(log.original_id or 0)
            if log.callback_type == 5 and original is not None and original["flags"] & LOADING:
                # Discord: the first follow-up after a deferral replaces the "thinking..." message
                created = self.store.change(int(original["id"]), request[BODY] or {}, request[FILES])
            else:
                created = self.store.create(int(log.payload["channel_id"]), request[BODY] or {}, request[FILES],
                                            interaction=log.payload)
                log.followups.append(int(created["id"]))
        return json_response(created)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        with self._cond:
            log = self._webhook(request)
            return json_response(self.store.messages[self._webhook_message_id(log, request.match_info["message"])])

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        with self._cond:
            log = self._webhook(request)
            message_id = self._webhook_message_id(log, request.match_info["message"])
            return json_response(self.store.change(message_id, request[BODY] or {}, request[FILES]))

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        with self._cond:
            log = self._webhook(request)
            message_id = self._webhook_message_id(log, request.match_info["message"])
            if message_id == log.original_id:
                log.original_deleted = True
            del self.store.messages[message_id]
        return web.Response(status=204)

    def _channel_id(self, request: web.Request) -> int:
        return self._channel(request).id

    def _channel(self, request: web.Request) -> Channel:
        channel_id = int(request.match_info["channel"])
        found = next((c for c in self.guild.channels if c.id == channel_id), None)
        if found is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return found

    async def _get_channel(self, request: web.Request) -> web.Response:
        """What a bot fetches when its cache lacks the channel, e.g. a post made before GUILD_CREATE."""
        with self._cond:
            return json_response(self._channel(request).to_json())

    def _channel_message(self, request: web.Request) -> int:
        channel_id = self._channel_id(request)
        message_id = int(request.match_info["message"])
        found = self.store.messages.get(message_id)
        if found is None or int(found["channel_id"]) != channel_id:
            raise ApiError(404, 10008, "Unknown Message")
        return message_id

    async def _post_message(self, request: web.Request) -> web.Response:
        with self._cond:
            created = self.store.create(self._channel_id(request), request[BODY] or {}, request[FILES])
        return json_response(created)

    async def _get_message(self, request: web.Request) -> web.Response:
        with self._cond:
            return json_response(self.store.messages[self._channel_message(request)])

    async def _edit_message(self, request: web.Request) -> web.Response:
        with self._cond:
            message_id = self._channel_message(request)
            return json_response(self.store.change(message_id, request[BODY] or {}, request[FILES]))

    async def _delete_message(self, request: web.Request) -> web.Response:
        with self._cond:
            del self.store.messages[self._channel_message(request)]
        return web.Response(status=204)

    async def _pin(self, request: web.Request) -> web.Response:
        with self._cond:
            self.store.messages[self._channel_message(request)]["pinned"] = True
        return web.Response(status=204)

    async def _unknown_route(self, request: web.Request) -> web.Response:
        raise ApiError(404, 0, "404: Not Found")

    async def _cdn(self, request: web.Request) -> web.Response:
        with self._cond:
            data = self.store.files.get(int(request.match_info["attachment"]))
        if data is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=data, headers={"Content-Type": "application/octet-stream"})

    # -- gateway ------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                await self._gateway_frame(ws, json.loads(frame.data))
        finally:
            self._sockets.discard(ws)
            with self._cond:
                if self._session is ws:
                    self._session = None
                self._cond.notify_all()
        return ws

    async def _gateway_frame(self, ws: web.WebSocketResponse, frame: Mapping[str, Any]) -> None:
        op = frame.get("op")
        if op == 1:
            await ws.send_str(json.dumps({"op": 11}))
        elif op == 2:
            with self._cond:
                self._session = ws
                self.identifies.append(dict(frame["d"]))
                self._seq = 0
            await self._dispatch("READY", self._ready(frame["d"]))
            # GUILD_CREATE right away: discord.py's ready delay then only waits for guild_ready_timeout
            with self._cond:
                guild = self.guild.to_json()
            await self._dispatch("GUILD_CREATE", guild)
            with self._cond:
                self._cond.notify_all()
        elif op == 6:
            with self._cond:
                self._session = ws
            await self._dispatch("RESUMED", {})

    def _ready(self, identify: Mapping[str, Any]) -> dict[str, Any]:
        ready = {
            "v": 10,
            "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(self.guild.id), "unavailable": True}],
            "session_id": f"fake-session-{len(self.identifies)}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "session_type": "normal",
        }
        if "shard" in identify:
            ready["shard"] = identify["shard"]
        return ready
