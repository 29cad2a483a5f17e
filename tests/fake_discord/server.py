"""A loopback fake Discord: the REST API and gateway websocket discord.py talks to, on 127.0.0.1.

The fake runs its own event loop in a background thread so that synchronous tests can drive a real
bot process: every method of :class:`FakeDiscord` is thread-safe, and waits are event-driven (a
condition notified on every recorded call) with a timeout. It refuses what Discord refuses, where
Discord checks it:

- every request body against Discord's OpenAPI description and the message limits the spec does
  not state (400 / 50035 with the error tree, tests/fake_discord/openapi.py and limits.py);
- interaction deadlines: the first response within 3 s of the interaction's creation (else 404 /
  10062 and the token is dead), follow-ups and edits for 15 minutes (then 401 / 50027);
- a second response to one interaction (40060), uploads above the size limit (40005), more than
  250 pins in a channel (30003), too many edits of messages older than an hour (30046);
- rate limits per route bucket and globally, with the ``X-RateLimit-*`` headers on every answer;
- sharding: ``GET /gateway/bot`` recommends `shards`, and each server's events (its interactions
  included) go only to the gateway sessions that identified with its shard,
  ``(guild_id >> 22) % shard_count`` (4010 closes a session that names a shard out of range). Two
  sessions on one shard both get its events, as on Discord: both answer, and one gets 40060.

Its answers follow the spec's response schemas; each is checked, and a misshapen one is kept in
:attr:`FakeDiscord.invalid_answers` (the e2e fixtures fail on any). The clock is injectable, so a
test reaches a deadline by advancing a :class:`~tests.fake_discord.clock.ManualClock`.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections import deque
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
from tests.fake_discord import interactions, openapi
from tests.fake_discord.clock import Clock
from tests.fake_discord.limits import PINS_MAX, message_problems
from tests.fake_discord.messages import MessageStore
from tests.fake_discord.payloads import Channel, Guild, Member, User
from tests.fake_discord.ratelimits import RateLimiter, Refusal, refusal_headers
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
#: Gateway sessions a bot may start a day (``session_start_limit.total``).
SESSION_STARTS = 1000
#: Gateway close code of an IDENTIFY whose shard does not exist.
INVALID_SHARD = 4010
#: Discord's deadlines: the first response to an interaction, then its token's lifetime.
RESPONSE_DEADLINE = 3.0
TOKEN_LIFETIME = 15 * 60.0
#: Edits of messages older than an hour: at most this many per channel and window (30046 beyond).
OLD_MESSAGE_AGE = 3600.0
OLD_EDITS = (3, 60.0)
#: How long Discord remembers a message's nonce for `enforce_nonce` ("a few minutes").
NONCE_WINDOW = 5 * 60.0
#: Callback types: a message, a deferral, a deferred update, an update, autocomplete choices.
MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES = 4, 5, 6, 7, 8

T = TypeVar("T")


class FakeDiscord:
    """One application with one server (`add_guild` adds more); start it, point the bot at
    `api_base`/`gateway_url`, drive it. `shards`: the shard count ``GET /gateway/bot`` recommends."""

    def __init__(self, *, size_limit: int = DEFAULT_SIZE_LIMIT, clock: Clock = time.time,
                 rate_limits: RateLimiter | None = None, shards: int = 1) -> None:
        self.clock = clock
        self.limiter = rate_limits or RateLimiter(clock)
        #: answers of the fake that the spec's response schemas refuse (a bug of the fake)
        self.invalid_answers: list[str] = []
        self._old_edits: dict[int, deque[float]] = {}
        self.bot_user = User(snowflake(), "SpaceChess", bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(snowflake(), "owner")
        guild_id = snowflake()
        self.guild = Guild(guild_id, "Fake server", self.owner.id, channels=[Channel(snowflake(), "general", guild_id)])
        self.guild.members.append(Member(self.owner))
        self.guilds: list[Guild] = [self.guild]
        self.shard_count = shards
        self.size_limit = size_limit
        self.store = MessageStore(self.bot_user, lambda: self.base_url, size_limit, clock)
        self.calls: list[Call] = []
        self.interactions: dict[int, InteractionLog] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None: global, else a guild id
        self.identifies: list[dict[str, Any]] = []
        self._faults: list[Fault] = []
        #: (method, pattern, seconds): serve the request, then hold its answer (a crash before the bot reads it)
        self._stalls: list[tuple[str, str, float]] = []
        #: (channel id, nonce) -> (message id, when): what `enforce_nonce` answers a repeated post with
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        #: identified gateway sessions: each socket's (shard id, shard count) and its event sequence
        self._shards: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._seqs: dict[web.WebSocketResponse, int] = {}
        #: session id -> (shard id, shard count), what a RESUME takes back
        self._resumable: dict[str, tuple[int, int]] = {}
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
        self.unstall()  # a held answer would keep the server from closing
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
            return bool(self._shards)

    def connected_shards(self) -> list[int]:
        """The shard ids of the identified sessions, one entry per session (a shard twice: two sessions)."""
        with self._cond:
            return sorted(shard for shard, _ in self._shards.values())

    def _sessions_of(self, guild_id: int) -> list[web.WebSocketResponse]:
        """Discord's rule: a server's events go to the sessions of shard (guild_id >> 22) % shard_count."""
        return [ws for ws, (shard, count) in self._shards.items() if (guild_id >> 22) % count == shard]

    # -- test controls (any thread) ---------------------------------------------------------------
    def fail(self, method: str, pattern: str, *, status: int = 429, times: int = 1, retry_after: float = 0.05,
             scope: str = "user") -> None:
        """Answer the next `times` requests `method pattern` (a regex on the path after /api/v10) with
        `status`: 429 is a rate limit of `retry_after` seconds in `scope` (``user``, ``shared`` — a
        limit of the resource, shared with others — or ``global``), anything else a server error."""
        with self._cond:
            self._faults.append(Fault(method, pattern, status, retry_after, times, scope))

    def stall(self, method: str, pattern: str, seconds: float) -> None:
        """Serve every request `method pattern` but answer it only `seconds` later: Discord has done it,
        the bot does not know yet (what a crash at that moment leaves)."""
        with self._cond:
            self._stalls.append((method, pattern, seconds))

    def unstall(self) -> None:
        with self._cond:
            self._stalls.clear()

    def fill_pins(self, channel: Channel) -> None:
        """The channel already holds Discord's maximum of pinned messages (someone else's): a pin is refused."""
        with self._cond:
            for _ in range(PINS_MAX):
                message = self.store.create(channel.id, {"content": "pinned by a member"}, ())
                message["pinned"] = True

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

    def add_guild(self, name: str, *, shard: int = 0) -> Guild:
        """Another server of the application, with a "general" channel, whose id falls on `shard` of
        the fake's shard count (sent to the sessions of that shard when they connect)."""
        if not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} of {self.shard_count}")
        guild_id = snowflake()
        guild_id += ((shard - (guild_id >> 22)) % self.shard_count) << 22  # the same moment, a few ms on
        guild = Guild(guild_id, name, self.owner.id, channels=[Channel(snowflake(), "general", guild_id)])
        guild.members.append(Member(self.owner))
        with self._cond:
            self.guilds.append(guild)
            sessions = self._sessions_of(guild.id)
        for ws in sessions:
            self._run(self._send_event(ws, "GUILD_CREATE", guild.to_json()))
        return guild

    def _guild(self, guild: Guild | None) -> Guild:
        return self.guild if guild is None else guild

    def add_member(self, name: str, *, permissions: int = MEMBER_PERMISSIONS, roles: Sequence[int] = (),
                   guild: Guild | None = None) -> Member:
        """A member of the server (the first one by default); `permissions` are their resolved
        permission bits in every channel."""
        member = Member(User(snowflake(), name), permissions, tuple(roles))
        with self._cond:
            self._guild(guild).members.append(member)
        return member

    def add_role(self, name: str) -> dict[str, Any]:
        """A new role of the server (announced with GUILD_ROLE_CREATE when the bot is connected)."""
        role_id = snowflake()
        with self._cond:
            self.guild.roles[role_id] = name
            role = self.guild.role_json(role_id, name, MEMBER_PERMISSIONS)
        self._run(self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(self.guild.id), "role": role},
                                 guild_id=self.guild.id, required=False))
        return role

    def add_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        """A new text channel (of the first server by default); announced with CHANNEL_CREATE to the
        sessions of its server's shard."""
        owner = self._guild(guild)
        channel = Channel(snowflake(), name, owner.id, position=len(owner.channels))
        with self._cond:
            owner.channels.append(channel)
        self._run(self._dispatch("CHANNEL_CREATE", channel.to_json(), guild_id=owner.id, required=False))
        return channel

    def _find_channel(self, channel_id: int) -> Channel | None:
        return next((c for g in self.guilds for c in g.channels if c.id == channel_id), None)

    def _guild_of(self, channel: Channel) -> Guild:
        return next(g for g in self.guilds if g.id == channel.guild_id)

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
        channel: Channel | None = None, locale: str = "fr", age: float = 0.0,
    ) -> int:
        """Send ``/path option:value...`` as `member`; the interaction id, to wait for its reply.
        `age`: how long ago Discord created the interaction (the gateway's delay, eating the 3 s)."""
        guild = self._guild_of(channel) if channel is not None else self.guild
        data = interactions.command_data(self._synced(guild.id), path, options or {}, guild_id=guild.id)
        return self._interact(APPLICATION_COMMAND, data, member, channel, locale, age=age)

    def autocomplete(
        self, member: Member, path: str, focused: str, typed: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr", age: float = 0.0,
    ) -> int:
        values = {**(options or {}), focused: typed}
        guild = self._guild_of(channel) if channel is not None else self.guild
        data = interactions.command_data(self._synced(guild.id), path, values, guild_id=guild.id, focused=focused)
        return self._interact(AUTOCOMPLETE, data, member, channel, locale, age=age)

    def click(self, member: Member, message_data: Mapping[str, Any], custom_id: str, *, locale: str = "fr",
              values: Sequence[str] | None = None, age: float = 0.0) -> int:
        """Click the button `custom_id` of a message the bot sent (the message as the fake stored it),
        or pick `values` in its select menu `custom_id`."""
        with self._cond:
            stored = dict(self.store.messages[int(message_data["id"])])
        data = interactions.component_data(stored, custom_id, values)
        channel = self._find_channel(int(stored["channel_id"]))
        return self._interact(MESSAGE_COMPONENT, data, member, channel, locale, stored, age=age)

    def _interact(
        self, kind: int, data: Mapping[str, Any], member: Member, channel: Channel | None, locale: str,
        message_data: Mapping[str, Any] | None = None, *, age: float = 0.0,
    ) -> int:
        created = self.clock() - age
        channel = channel or self.guild.channels[0]
        guild = self._guild_of(channel)
        payload = interactions.envelope(
            kind, data, application_id=self.application_id, guild=guild,
            channel=channel, member=member, locale=locale, size_limit=self.size_limit,
            message=message_data, created=created,
        )
        interaction_id = int(payload["id"])
        with self._cond:
            self.interactions[interaction_id] = InteractionLog(payload, created)
        self._run(self._dispatch("INTERACTION_CREATE", payload, guild_id=guild.id))
        return interaction_id

    def _synced(self, guild_id: int) -> list[dict[str, Any]]:
        with self._cond:
            synced = self.commands.get(None, []) + self.commands.get(guild_id, [])
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
        if log.callback_type in (MESSAGE, UPDATE) and log.original_id is not None:
            return self.store.messages[log.original_id]
        if log.callback_type == DEFERRED_UPDATE:
            if log.original_edited and not log.original_deleted:
                return self.store.messages[log.original_id or 0]
            return self.store.messages[log.followups[0]] if log.followups else None
        if log.callback_type == DEFERRED:
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
        def answered() -> tuple[list[dict[str, Any]]] | None:
            log = self.interactions[interaction_id]
            return (log.choices,) if log.callback_type == CHOICES and log.choices is not None else None

        return self.wait_until(answered, timeout=timeout, what=f"autocomplete answer to {interaction_id}")[0]

    # -- internals: loop side ------------------------------------------------------------------
    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    async def _dispatch(self, event: str, data: Mapping[str, Any], *, guild_id: int, required: bool = True) -> None:
        """Send a server's event to every session of its shard; `required`: that there must be one."""
        with self._cond:
            sessions = self._sessions_of(guild_id)
        if not sessions and required:
            shard = (guild_id >> 22) % self.shard_count
            raise AssertionError(f"cannot dispatch {event}: no bot holds the gateway shard {shard} of server {guild_id}")
        for ws in sessions:
            await self._send_event(ws, event, data)

    async def _send_event(self, ws: web.WebSocketResponse, event: str, data: Mapping[str, Any]) -> None:
        with self._cond:
            self._seqs[ws] = self._seqs.get(ws, 0) + 1
            frame = {"op": 0, "t": event, "s": self._seqs[ws], "d": data}
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
            headers, refusal = self.limiter.take(request.method, path) if fault is None else ({}, None)
        if fault is not None:
            response = self._fault_response(fault)
        elif refusal is not None:
            response = json_response(refusal.body(), 429, headers)
        else:
            try:
                self._check_body(request.method, path, body, request.content_type)
                response = await handler(request)
            except ApiError as err:
                response = json_response(err.body(), err.status, err.headers)
            response.headers.update(headers)
        answer = json.loads(response.body) if isinstance(response, web.Response) and response.body else None
        self._check_answer(request.method, path, response.status, answer)
        with self._cond:
            self.calls.append(Call(request.method, path, dict(request.query), body, files, response.status, answer))
            self._cond.notify_all()
            stall = next((entry for entry in self._stalls
                          if entry[0] == request.method and re.fullmatch(entry[1], path)), None)
        if stall is not None:  # held until its time is up or `unstall` (the fake's shutdown waits for it)
            until = time.monotonic() + stall[2]
            while time.monotonic() < until and stall in self._stalls:
                await asyncio.sleep(0.05)
        return response

    @staticmethod
    def _check_body(method: str, path: str, body: Any, content_type: str) -> None:
        """Discord's form validation: the spec's request schema, then the limits it does not state."""
        problems = openapi.request_problems(method, path, body, content_type)
        if path.endswith("/callback") and isinstance(body, Mapping):
            problems += message_problems(body.get("data"), ("data",))
        elif method in ("POST", "PATCH") and re.search(r"^/(channels|webhooks)/", path):
            problems += message_problems(body)
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body", errors=openapi.error_tree(problems))

    def _check_answer(self, method: str, path: str, status: int, answer: Any) -> None:
        problems = openapi.response_problems(method, path, status, answer)
        if problems:
            with self._cond:
                self.invalid_answers.append(f"{status} {method} {path}: {openapi.error_tree(problems)}")

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

    def _fault_response(self, fault: Fault) -> web.Response:
        if fault.status != 429:
            return json_response({"message": f"{fault.status}: Internal Server Error", "code": 0}, fault.status)
        refusal = Refusal(fault.retry_after, fault.scope)
        headers = {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{self.clock() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": "fake-bucket",
            **refusal_headers(refusal),
        }
        return json_response(refusal.body(), 429, headers)

    # -- REST handlers ------------------------------------------------------------------------------
    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_application(self, request: web.Request) -> web.Response:
        """The whole application object (discord.py reads a few fields; Discord sends them all)."""
        return json_response({
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None, "description": "",
            "type": None, "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.to_json(),
            "verify_key": "0" * 64, "flags": 0, "flags_new": "0", "bot": self.bot_user.to_json(),
            "redirect_uris": [], "interactions_endpoint_url": None, "role_connections_verification_url": None,
            "approximate_guild_count": 1, "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0, "explicit_content_filter": 0, "team": None,
            "eligible_oauth2_scopes": ["bot", "applications.commands"], "rpc_origins": [], "tags": [],
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "integration_types_config": {"0": {}},
        })

    async def _get_gateway(self, request: web.Request) -> web.Response:
        """``/gateway``: where to connect; ``/gateway/bot`` adds the recommended shard count and how
        many sessions may still start today (Discord's 1,000 a day, one at a time)."""
        if not request.path.endswith("/bot"):
            return json_response({"url": self.gateway_url})
        with self._cond:
            remaining = max(SESSION_STARTS - len(self.identifies), 0)
        limit = {"total": SESSION_STARTS, "remaining": remaining, "reset_after": 14_400_000, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit})

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["app"] != str(self.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    async def _put_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        scope = int(request.match_info["guild"]) if "guild" in request.match_info else None
        body = request[BODY]
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        stored = [interactions.synced_command(command, self.application_id, scope) for command in body]
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
        if log is None or log.payload["token"] != token or log.expired:
            raise ApiError(404, 10062, "Unknown interaction")
        if self.clock() - log.created > RESPONSE_DEADLINE:
            log.expired = True  # Discord forgets the interaction: its token is dead too
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
            component = log.payload["type"] == MESSAGE_COMPONENT
            if kind in (DEFERRED_UPDATE, UPDATE) and not component:
                raise ApiError(400, 40004, "Interaction callback type is not allowed for this interaction")
            if (kind == CHOICES) != (log.payload["type"] == AUTOCOMPLETE):
                raise ApiError(400, 40004, "Interaction callback type is not allowed for this interaction")
            created = None
            if kind in (MESSAGE, DEFERRED):
                flags = int(data.get("flags") or 0) | (LOADING if kind == DEFERRED else 0)
                created = self.store.create(int(log.payload["channel_id"]), {**data, "flags": flags},
                                            request[FILES], interaction=log.payload)
                log.original_id = int(created["id"])
            elif kind in (DEFERRED_UPDATE, UPDATE):
                # the component's own message becomes @original: a later PATCH @original edits it
                log.original_id = int(log.payload["message"]["id"])
                if kind == UPDATE:
                    created = self.store.change(log.original_id, data, request[FILES])
            elif kind == CHOICES:
                log.choices = list(data.get("choices") or [])
            log.callback_type = kind
        answer: dict[str, Any] = {"interaction": {"id": log.payload["id"], "type": log.payload["type"]}}
        if created is not None:
            answer["interaction"].update(response_message_id=created["id"], response_message_loading=kind == DEFERRED,
                                         response_message_ephemeral=bool(created["flags"] & EPHEMERAL))
        if kind in (MESSAGE, UPDATE) and created is not None:
            answer["resource"] = {"type": kind, "message": created}
        return json_response(answer)

    def _webhook(self, request: web.Request) -> InteractionLog:
        self._check_app(request)
        token = request.match_info["token"]
        log = next((i for i in self.interactions.values() if i.payload["token"] == token), None)
        if log is None or log.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.clock() - log.created > TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
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
            changed = self.store.change(message_id, request[BODY] or {}, request[FILES])
            if message_id == log.original_id:
                log.original_edited = True
            return json_response(changed)

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
        found = self._find_channel(channel_id)
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
        """With ``enforce_nonce``, a nonce the bot already used in this channel within NONCE_WINDOW
        answers the message it made then, and posts nothing (Discord's guard against a resend)."""
        body = request[BODY] or {}
        with self._cond:
            channel_id = self._channel_id(request)
            key = (channel_id, str(body["nonce"])) if body.get("enforce_nonce") and "nonce" in body else None
            earlier = self._nonces.get(key) if key is not None else None
            if earlier is not None and self.clock() - earlier[1] <= NONCE_WINDOW and earlier[0] in self.store.messages:
                return json_response(self.store.messages[earlier[0]])
            created = self.store.create(channel_id, body, request[FILES])
            if key is not None:
                self._nonces[key] = (int(created["id"]), self.clock())
        return json_response(created)

    async def _get_message(self, request: web.Request) -> web.Response:
        with self._cond:
            return json_response(self.store.messages[self._channel_message(request)])

    async def _edit_message(self, request: web.Request) -> web.Response:
        with self._cond:
            message_id = self._channel_message(request)
            self._count_old_edit(message_id)
            return json_response(self.store.change(message_id, request[BODY] or {}, request[FILES]))

    def _count_old_edit(self, message_id: int) -> None:
        """Discord's stricter limit on edits of messages older than an hour, per channel (30046)."""
        message = self.store.messages[message_id]
        now = self.clock()
        if now - self.store.created_at(message) <= OLD_MESSAGE_AGE:
            return
        count, window = OLD_EDITS
        recent = self._old_edits.setdefault(int(message["channel_id"]), deque())
        while recent and now - recent[0] >= window:
            recent.popleft()
        if len(recent) >= count:
            retry_after = window - (now - recent[0])
            raise ApiError(429, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later.",
                           headers=refusal_headers(Refusal(retry_after, "user")), retry_after=retry_after)
        recent.append(now)

    async def _delete_message(self, request: web.Request) -> web.Response:
        with self._cond:
            del self.store.messages[self._channel_message(request)]
        return web.Response(status=204)

    async def _pin(self, request: web.Request) -> web.Response:
        with self._cond:
            message = self.store.messages[self._channel_message(request)]
            pinned = sum(1 for m in self.store.messages.values() if m["pinned"] and m["channel_id"] == message["channel_id"])
            if not message["pinned"] and pinned >= PINS_MAX:
                raise ApiError(400, 30003, f"Maximum number of pins reached ({PINS_MAX})")
            message["pinned"] = True
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
                self._shards.pop(ws, None)
                self._seqs.pop(ws, None)
                self._cond.notify_all()
        return ws

    async def _gateway_frame(self, ws: web.WebSocketResponse, frame: Mapping[str, Any]) -> None:
        op = frame.get("op")
        if op == 1:
            await ws.send_str(json.dumps({"op": 11}))
        elif op == 2:
            shard, count = frame["d"].get("shard") or (0, 1)
            if not 0 <= shard < count:
                await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
                return
            with self._cond:
                self._shards[ws] = (shard, count)
                self._seqs[ws] = 0
                self.identifies.append(dict(frame["d"]))
                session_id = f"fake-session-{len(self.identifies)}"
                self._resumable[session_id] = (shard, count)
                guilds = [g for g in self.guilds if (g.id >> 22) % count == shard]
            await self._send_event(ws, "READY", self._ready(frame["d"], session_id, guilds))
            # GUILD_CREATE right away: discord.py's ready delay then only waits for guild_ready_timeout
            for guild in guilds:
                with self._cond:
                    data = guild.to_json()
                await self._send_event(ws, "GUILD_CREATE", data)
            with self._cond:
                self._cond.notify_all()
        elif op == 6:
            with self._cond:
                self._shards[ws] = self._resumable.get(frame["d"].get("session_id"), (0, 1))
            await self._send_event(ws, "RESUMED", {})

    def _ready(self, identify: Mapping[str, Any], session_id: str, guilds: Sequence[Guild]) -> dict[str, Any]:
        ready = {
            "v": 10,
            "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session_id,
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
