"""The fake Discord's REST API without a transport: (method, path, JSON body, files) in, an `Answer`
(status, headers, JSON) out.

Both kinds of Discord tests stand on this one core, so what they accept cannot drift apart: the
loopback server (server.py) puts it behind aiohttp and adds the gateway, for the e2e tests that drive
a real bot process; the in-process harness of tests/bot/discord (harness.py) calls it from discord.py's
HTTP layer and raises what discord.py raises on its refusals. It refuses what Discord refuses, where
Discord checks it:

- every request body against Discord's OpenAPI description and the message limits the spec does
  not state (400 / 50035 with the error tree, tests/fake_discord/openapi.py and limits.py);
- interaction deadlines: the first response within 3 s of the interaction's creation (else 404 /
  10062 and the token is dead), follow-ups and edits for 15 minutes (then 401 / 50027);
- a deleted channel (`delete_channel`: 404 / 10003), a server's upload limit (`set_upload_limit`);
- direct messages: ``POST /users/@me/channels`` opens a member's DM channel (type 1, the same each
  time), and a message there is refused (403 / 50007) to a member who refuses them (`refuse_dms`);
- what the bot may not do in a channel (`set_bot_permissions`): a post without View Channel (403 /
  50001), without Send Messages or, with files, Attach Files, and a pin without Pin Messages (403 /
  50013); each interaction carries the bot's permissions in its channel (``app_permissions``);
- a second response to one interaction (40060), a callback type the interaction does not take
  (40004), uploads above the size limit (40005), more than 250 pins in a channel (30003), too many
  edits of messages older than an hour (30046), unknown channels, messages and webhooks;
- an edit of a member's message (403 / 50005), components sharing a custom id (400 / 50035), an
  ephemeral answer reached through its channel's routes (404 / 10008: only its interaction's webhook
  reaches it), more than 200 command creations a day in one scope (429 / 30034);
- forum posts (threads) that archive themselves when idle, locked ones, deleted channels and threads
  with their gateway events, and the bot's DM channels (members who refuse them: 403 / 50007);
- rate limits per route bucket and globally, with the ``X-RateLimit-*`` headers on every answer
  (optional: a caller without discord.py's rate-limit handling runs the core without them).

Its answers follow the spec's response schemas; each is checked, and a misshapen one is kept in
:attr:`DiscordCore.invalid_answers` (the tests fail on any). The clock is injectable, so a test
reaches a deadline by advancing a :class:`~tests.fake_discord.clock.ManualClock`. Every method is
thread-safe (one re-entrant lock; waits are woken on every recorded call).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tests.discord_shapes import (
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    ATTACH_FILES,
    AUTOCOMPLETE,
    EPHEMERAL,
    FORUM_CHANNEL,
    LOADING,
    MANAGE_THREADS,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    PIN_MESSAGES,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    snowflake,
    thread_json,
    timestamp,
)
from tests.fake_discord import interactions, openapi
from tests.fake_discord.clock import Clock
from tests.fake_discord.dms import DirectMessages
from tests.fake_discord.limits import PINS_MAX, message_problems
from tests.fake_discord.messages import MessageStore
from tests.fake_discord.payloads import Channel, Guild, Member, Thread, User, message
from tests.fake_discord.ratelimits import RateLimiter, Refusal, refusal_headers
from tests.fake_discord.records import ApiError, Call, Fault, InteractionLog, UploadedFile

#: Discord's default upload limit for a server without boosts.
DEFAULT_SIZE_LIMIT = 10 * 1024 * 1024
#: Where attachments live when no server serves them (the in-process harness).
CDN_BASE = "https://cdn.discordapp.com"
#: Gateway sessions a bot may start a day (``session_start_limit.total``).
SESSION_STARTS = 1000
#: Discord's deadlines: the first response to an interaction, then its token's lifetime.
RESPONSE_DEADLINE = 3.0
TOKEN_LIFETIME = 15 * 60.0
#: Edits of messages older than an hour: at most this many per channel and window (30046 beyond).
OLD_MESSAGE_AGE = 3600.0
OLD_EDITS = (3, 60.0)
#: How long Discord remembers a message's nonce for `enforce_nonce` ("a few minutes").
NONCE_WINDOW = 5 * 60.0
#: Discord's limit of application commands created a day in one scope (global, or a server): a PUT
#: that creates more is refused (429 / 30034); an update of a command it has is not a creation
DAILY_COMMAND_CREATES, DAY = 200, 86_400.0
#: Callback types: a message, a deferral, a deferred update, an update, autocomplete choices.
MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES = 4, 5, 6, 7, 8

T = TypeVar("T")


@dataclass
class ThreadState:
    """What Discord keeps of a thread beside its channel: archived, locked, and since when it is idle
    (a thread archives itself `auto_archive_duration` minutes after its last message)."""

    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    last_activity: float = 0.0
    archived_at: float | None = None


@dataclass(frozen=True)
class Answer:
    """What the core answers one request: the status, the JSON body (None: no content), the headers."""

    status: int
    json: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Request:
    """One request as a handler sees it: `params` are the route's named segments."""

    method: str
    path: str
    params: Mapping[str, str]
    body: Any
    files: tuple[UploadedFile, ...]
    query: Mapping[str, str]


NO_CONTENT = Answer(204)


def ok(data: Any) -> Answer:
    return Answer(200, data)


def _compiled(template: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)))


class DiscordCore:
    """One application with one server (`add_guild` adds more). `rate_limits`: the limiter, or None
    for none; `bot_user`, `application_id`, `guild`: fixed ids for tests that need them (fresh ones
    otherwise); `cdn_base`: where the attachments it stores are served from."""

    def __init__(
        self, *, size_limit: int = DEFAULT_SIZE_LIMIT, clock: Clock = time.time,
        rate_limits: RateLimiter | None = None, shards: int = 1, bot_user: User | None = None,
        application_id: int | None = None, guild: Guild | None = None,
        cdn_base: Callable[[], str] = lambda: CDN_BASE,
    ) -> None:
        self.clock = clock
        self.limiter = rate_limits
        #: answers of the fake that the spec's response schemas refuse (a bug of the fake)
        self.invalid_answers: list[str] = []
        self._old_edits: dict[int, deque[float]] = {}
        self.bot_user = bot_user or User(snowflake(), "SpaceChess", bot=True)
        self.application_id = application_id or self.bot_user.id
        if guild is None:
            self.owner = User(snowflake(), "owner")
            guild_id = snowflake()
            guild = Guild(guild_id, "Fake server", self.owner.id, channels=[Channel(snowflake(), "general", guild_id)])
        else:
            self.owner = User(guild.owner_id, "owner")
        guild.members.append(Member(self.owner))
        self.guild = guild
        self.guilds: list[Guild] = [guild]
        self.shard_count = shards
        self.size_limit = size_limit
        self.store = MessageStore(self.bot_user, cdn_base, size_limit, clock)
        self.calls: list[Call] = []
        self.interactions: dict[int, InteractionLog] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None: global, else a guild id
        #: the gateway IDENTIFY frames received (what `session_start_limit` counts)
        self.identifies: list[dict[str, Any]] = []
        self._faults: list[Fault] = []
        #: (channel id, nonce) -> (message id, when): what `enforce_nonce` answers a repeated post with
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        #: scope (None: global) -> when each of its commands of the last day was created
        self._command_creations: dict[int | None, deque[float]] = {}
        #: channel id -> the bot's permissions there, where a test took some away (`set_bot_permissions`)
        self._bot_permissions: dict[int, int] = {}
        #: thread id -> its state (forum posts)
        self._threads: dict[int, ThreadState] = {}
        #: the bot's direct-message channels, and the members who refuse them (`refuse_dms`)
        self.dms = DirectMessages()
        self._cond = threading.Condition()  # re-entrant: a handler may call another locked method
        self._routes = [(method, _compiled(template), handler) for method, template, handler in self._route_table()]

    @property
    def gateway_url(self) -> str:
        """Where ``GET /gateway`` sends a bot (the loopback server names its own websocket)."""
        return "wss://gateway.discord.gg"

    # -- the API ----------------------------------------------------------------------------------
    def handle(self, method: str, path: str, body: Any = None, files: Sequence[UploadedFile] = (), *,
               query: Mapping[str, str] | None = None, content_type: str = "application/json") -> Answer:
        """Serve one request (`path` after /api/v10): an injected fault, a rate limit, a refused body,
        or the route's answer — each recorded in :attr:`calls`, each answer checked against the spec."""
        query = dict(query or {})
        files = tuple(files)
        with self._cond:
            fault = next((f for f in self._faults if f.left > 0 and f.method == method
                          and re.fullmatch(f.pattern, path)), None)
            if fault is not None:
                fault.left -= 1
            headers, refusal = ({}, None) if fault is not None or self.limiter is None else self.limiter.take(method,
                                                                                                               path)
        if fault is not None:
            answer = self._fault_answer(fault)
        elif refusal is not None:
            answer = Answer(429, refusal.body(), headers)
        else:
            try:
                self._check_body(method, path, body, content_type)
                answer = self._route(Request(method, path, {}, body, files, query))
            except ApiError as err:
                answer = Answer(err.status, err.body(), err.headers)
            answer = Answer(answer.status, answer.json, {**answer.headers, **headers})
        # what goes over the wire is a copy: a later change of the stored message does not alter it
        answer = Answer(answer.status, None if answer.json is None else json.loads(json.dumps(answer.json)),
                        answer.headers)
        self._check_answer(method, path, answer.status, answer.json)
        with self._cond:
            self.calls.append(Call(method, path, query, body, files, answer.status, answer.json, fault is not None))
            self._cond.notify_all()
        return answer

    def _route(self, request: Request) -> Answer:
        for method, pattern, handler in self._routes:
            found = pattern.fullmatch(request.path)
            if found is not None and method == request.method:
                return handler(Request(request.method, request.path, found.groupdict(), request.body, request.files,
                                       request.query))
        raise ApiError(404, 0, "404: Not Found")

    def _route_table(self) -> list[tuple[str, str, Callable[[Request], Answer]]]:
        return [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._open_dm),
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
            ("PATCH", "/channels/{channel}", self._patch_channel),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_message),
            ("PUT", "/channels/{channel}/pins/{message}", self._pin),
            ("PUT", "/channels/{channel}/messages/pins/{message}", self._pin),
        ]

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

    def _fault_answer(self, fault: Fault) -> Answer:
        if fault.status != 429:
            text = "Internal Server Error" if fault.status >= 500 else "refused by the test"
            return Answer(fault.status, {"message": f"{fault.status}: {text}", "code": fault.code})
        refusal = Refusal(fault.retry_after, fault.scope)
        headers = {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{self.clock() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": "fake-bucket",
            **refusal_headers(refusal),
        }
        return Answer(429, refusal.body(), headers)

    # -- test controls (any thread) ---------------------------------------------------------------
    def fail(self, method: str, pattern: str, *, status: int = 429, times: int = 1, retry_after: float = 0.05,
             scope: str = "user", code: int = 0) -> None:
        """Answer the next `times` requests `method pattern` (a regex on the path after /api/v10) with
        `status`: 429 is a rate limit of `retry_after` seconds in `scope` (``user``, ``shared`` — a
        limit of the resource, shared with others — or ``global``), anything else an error with the
        JSON `code` (a server error: 0)."""
        with self._cond:
            self._faults.append(Fault(method, pattern, status, retry_after, times, scope, code))

    def set_bot_permissions(self, channel: Channel, permissions: int) -> None:
        """The bot's resolved permissions in `channel` from now on (every permission by default), as a
        server's roles and the channel's overwrites leave them: what its interactions there carry as
        ``app_permissions`` and what its REST calls there may do."""
        with self._cond:
            self._bot_permissions[channel.id] = permissions

    def bot_permissions(self, channel_id: int) -> int:
        with self._cond:
            return self._bot_permissions.get(channel_id, ALL_PERMISSIONS)

    def _require(self, channel_id: int, permission: int) -> None:
        """Discord's refusal of what the bot may not do in the channel: not seeing it is Missing Access."""
        granted = self.bot_permissions(channel_id)
        if not granted & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not granted & permission:
            raise ApiError(403, 50013, "Missing Permissions")

    def set_upload_limit(self, size: int) -> None:
        """The server's upload limit from now on (a server that lost its boosts): a message with a larger
        file is refused (413 / 40005)."""
        with self._cond:
            self.size_limit = size
            self.store.size_limit = size

    def delete_channel(self, channel: Channel) -> None:
        """A moderator deleted `channel`: every later request about it is refused (404 / 10003), its
        messages gone with it."""
        with self._cond:
            guild = self._guild_of(channel)
            guild.channels[:] = [c for c in guild.channels if c.id != channel.id
                                 and not (isinstance(c, Thread) and c.parent_id == channel.id)]
            for message_id in [m for m, message in self.store.messages.items()
                               if message["channel_id"] == str(channel.id)]:
                del self.store.messages[message_id]

    def add_forum(self, name: str, *, guild: Guild | None = None) -> Channel:
        """A new forum channel (type 15): it holds posts (threads), never messages of its own."""
        owner = self._guild(guild)
        forum = Channel(snowflake(), name, owner.id, position=len(owner.channels), kind=FORUM_CHANNEL)
        with self._cond:
            owner.channels.append(forum)
        return forum

    def add_post(self, forum: Channel, name: str, *, auto_archive_duration: int = 1440) -> Thread:
        """A member's new post in `forum`: a public thread (type 11) that archives itself after
        `auto_archive_duration` minutes without a message, by the fake's clock."""
        thread = Thread(snowflake(), name, forum.guild_id, parent_id=forum.id)
        with self._cond:
            self._guild_of(forum).channels.append(thread)
            self._threads[thread.id] = ThreadState(auto_archive_duration=auto_archive_duration,
                                                   last_activity=self.clock())
        return thread

    def lock_thread(self, thread: Thread) -> dict[str, Any]:
        """A moderator locked (and so archived) `thread`: only a member with Manage Threads may act
        there now. Its JSON, as THREAD_UPDATE sends it."""
        with self._cond:
            state = self._threads[thread.id]
            state.locked = True
            self._archive(state)
            return self.channel_json(thread)

    def archive_thread(self, thread: Thread) -> dict[str, Any]:
        """A moderator closed (archived) `thread`, or it went idle: its JSON, as THREAD_UPDATE sends it."""
        with self._cond:
            self._archive(self._threads[thread.id])
            return self.channel_json(thread)

    def thread_state(self, thread: Thread) -> ThreadState:
        """The thread's archived and locked state now (archiving it first if it has been idle long enough)."""
        with self._cond:
            state = self._threads[thread.id]
            self._tick(state)
            return ThreadState(**vars(state))

    def channel_json(self, channel: Channel) -> dict[str, Any]:
        """A channel's JSON as Discord sends it now: a thread with its ``thread_metadata``."""
        with self._cond:
            if not isinstance(channel, Thread):
                return channel.to_json()
            state = self._threads[channel.id]
            self._tick(state)
            return thread_json(channel.id, channel.guild_id, channel.parent_id, channel.name,
                               owner_id=self.owner.id, archived=state.archived, locked=state.locked,
                               auto_archive_duration=state.auto_archive_duration,
                               archive_timestamp=None if state.archived_at is None else timestamp(state.archived_at))

    def _archive(self, state: ThreadState, at: float | None = None) -> None:
        if not state.archived:
            state.archived = True
            state.archived_at = self.clock() if at is None else at

    def _tick(self, state: ThreadState) -> None:
        """Discord's auto-archive: idle for `auto_archive_duration` minutes of the clock, archived then."""
        idle_until = state.last_activity + state.auto_archive_duration * 60
        if not state.archived and self.clock() >= idle_until:
            self._archive(state, idle_until)

    def _thread_check(self, channel_id: int, *, posting: bool) -> None:
        """Discord's rules in a thread: nothing in a locked one without Manage Threads, no edit in an
        archived one (400 / 50083); a post in an archived unlocked one unarchives it."""
        state = self._threads.get(channel_id)
        if state is None:
            return
        self._tick(state)
        if state.locked and not self.bot_permissions(channel_id) & MANAGE_THREADS:
            raise ApiError(400, 50083, "Thread is archived")
        if state.archived and not posting:
            raise ApiError(400, 50083, "Thread is archived")
        if posting:
            state.archived, state.archived_at = False, None
            state.last_activity = self.clock()

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
        the fake's shard count."""
        if not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} of {self.shard_count}")
        guild_id = snowflake()
        guild_id += ((shard - (guild_id >> 22)) % self.shard_count) << 22  # the same moment, a few ms on
        guild = Guild(guild_id, name, self.owner.id, channels=[Channel(snowflake(), "general", guild_id)])
        guild.members.append(Member(self.owner))
        with self._cond:
            self.guilds.append(guild)
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

    def add_role(self, name: str, *, role_id: int | None = None) -> dict[str, Any]:
        """A new role of the first server; its JSON."""
        role_id = role_id or snowflake()
        with self._cond:
            self.guild.roles[role_id] = name
            return self.guild.role_json(role_id, name, MEMBER_PERMISSIONS)

    def add_channel(self, name: str, *, guild: Guild | None = None, channel_id: int | None = None) -> Channel:
        """A new text channel (of the first server by default)."""
        owner = self._guild(guild)
        channel = Channel(channel_id or snowflake(), name, owner.id, position=len(owner.channels))
        with self._cond:
            owner.channels.append(channel)
        return channel

    def find_channel(self, channel_id: int) -> Channel | None:
        with self._cond:
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
    def open_interaction(self, payload: Mapping[str, Any], created: float) -> int:
        """Discord created this interaction at `created` (the fake's clock): its deadlines start
        there. A component's message must be one Discord holds (a client clicks only what it shows)."""
        if payload["type"] == MESSAGE_COMPONENT:
            message_id = int(payload["message"]["id"])
            with self._cond:
                if message_id not in self.store.messages:
                    raise interactions.NotACommand(f"a click on message {message_id}, which Discord does not hold")
        interaction_id = int(payload["id"])
        with self._cond:
            self.interactions[interaction_id] = InteractionLog(dict(payload), created)
        return interaction_id

    def slash_payload(
        self, member: Member, path: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr", age: float = 0.0,
    ) -> dict[str, Any]:
        """``/path option:value...`` as `member` sends it, opened; `age`: how long ago Discord created
        it (the gateway's delay, eating the 3 s)."""
        guild = self._guild_of(channel) if channel is not None else self.guild
        data = interactions.command_data(self._synced(guild.id), path, options or {}, guild_id=guild.id)
        return self._new_interaction(APPLICATION_COMMAND, data, member, channel, locale, age=age)

    def autocomplete_payload(
        self, member: Member, path: str, focused: str, typed: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr", age: float = 0.0,
    ) -> dict[str, Any]:
        values = {**(options or {}), focused: typed}
        guild = self._guild_of(channel) if channel is not None else self.guild
        data = interactions.command_data(self._synced(guild.id), path, values, guild_id=guild.id, focused=focused)
        return self._new_interaction(AUTOCOMPLETE, data, member, channel, locale, age=age)

    def click_payload(self, member: Member, message_data: Mapping[str, Any], custom_id: str, *, locale: str = "fr",
                      values: Sequence[str] | None = None, age: float = 0.0) -> dict[str, Any]:
        """A click on the button `custom_id` of a message the bot sent (as the fake stored it), or a
        pick of `values` in its select menu `custom_id`."""
        with self._cond:
            stored = dict(self.store.messages[int(message_data["id"])])
        data = interactions.component_data(stored, custom_id, values)
        channel = self.find_channel(int(stored["channel_id"]))
        return self._new_interaction(MESSAGE_COMPONENT, data, member, channel, locale, stored, age=age)

    def _new_interaction(
        self, kind: int, data: Mapping[str, Any], member: Member, channel: Channel | None, locale: str,
        message_data: Mapping[str, Any] | None = None, *, age: float = 0.0,
    ) -> dict[str, Any]:
        created = self.clock() - age
        channel = channel or self.guild.channels[0]
        payload = interactions.envelope(
            kind, data, application_id=self.application_id, guild=self._guild_of(channel),
            channel=channel, member=member, locale=locale, size_limit=self.size_limit,
            app_permissions=self.bot_permissions(channel.id), message=message_data, created=created,
        )
        self.open_interaction(payload, created)
        return payload

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

    def refuse_dms(self, member: Member) -> None:
        """`member`'s privacy settings refuse the bot's direct messages from now on (403 / 50007)."""
        with self._cond:
            self.dms.refusing.add(member.user.id)

    def dm_messages(self, member: Member) -> list[dict[str, Any]]:
        """The messages the bot sent `member` in their DM channel, oldest first (none: never opened)."""
        with self._cond:
            channel = self.dms.channels.get(member.user.id)
            return [m for m in self.store.messages.values() if channel is not None and m["channel_id"] == str(channel)]

    def choices(self, interaction_id: int, *, timeout: float = 15.0) -> list[dict[str, Any]]:
        """The autocomplete suggestions the bot answered (type 8 callback)."""
        def answered() -> tuple[list[dict[str, Any]]] | None:
            log = self.interactions[interaction_id]
            return (log.choices,) if log.callback_type == CHOICES and log.choices is not None else None

        return self.wait_until(answered, timeout=timeout, what=f"autocomplete answer to {interaction_id}")[0]

    # -- REST handlers ------------------------------------------------------------------------------
    def _get_me(self, request: Request) -> Answer:
        return ok({**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    def _open_dm(self, request: Request) -> Answer:
        """The bot's DM channel with a member of one of its servers (10013 for anyone else)."""
        user_id = int((request.body or {}).get("recipient_id") or 0)
        with self._cond:
            user = next((m.user for g in self.guilds for m in g.members if m.user.id == user_id), None)
            if user is None:
                raise ApiError(404, 10013, "Unknown User")
            return ok(self.dms.open(user))

    def _get_application(self, request: Request) -> Answer:
        """The whole application object (discord.py reads a few fields; Discord sends them all)."""
        return ok({
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None, "description": "",
            "type": None, "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.to_json(),
            "verify_key": "0" * 64, "flags": 0, "flags_new": "0", "bot": self.bot_user.to_json(),
            "redirect_uris": [], "interactions_endpoint_url": None, "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds), "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0, "explicit_content_filter": 0, "team": None,
            "eligible_oauth2_scopes": ["bot", "applications.commands"], "rpc_origins": [], "tags": [],
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "integration_types_config": {"0": {}},
        })

    def _get_gateway(self, request: Request) -> Answer:
        """``/gateway``: where to connect; ``/gateway/bot`` adds the recommended shard count and how
        many sessions may still start today (Discord's 1,000 a day, one at a time)."""
        if not request.path.endswith("/bot"):
            return ok({"url": self.gateway_url})
        with self._cond:
            remaining = max(SESSION_STARTS - len(self.identifies), 0)
        limit = {"total": SESSION_STARTS, "remaining": remaining, "reset_after": 14_400_000, "max_concurrency": 1}
        return ok({"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit})

    def _check_app(self, request: Request) -> None:
        if request.params["app"] != str(self.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    def _put_commands(self, request: Request) -> Answer:
        self._check_app(request)
        scope = int(request.params["guild"]) if "guild" in request.params else None
        if not isinstance(request.body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        stored = [interactions.synced_command(command, self.application_id, scope) for command in request.body]
        with self._cond:
            known = {(c["name"], c.get("type", 1)) for c in self.commands.get(scope, [])}
            created = [c for c in stored if (c["name"], c.get("type", 1)) not in known]
            today = self._command_creations.setdefault(scope, deque())
            while today and self.clock() - today[0] >= DAY:
                today.popleft()
            if len(today) + len(created) > DAILY_COMMAND_CREATES:
                retry_after = DAY - (self.clock() - today[0]) if today else DAY
                raise ApiError(429, 30034, f"Max number of daily application command creates has been reached "
                                           f"({DAILY_COMMAND_CREATES})",
                               headers=refusal_headers(Refusal(retry_after, "user")), retry_after=retry_after)
            today.extend(self.clock() for _ in created)
            self.commands[scope] = stored
        return ok(stored)

    def _get_commands(self, request: Request) -> Answer:
        self._check_app(request)
        scope = int(request.params["guild"]) if "guild" in request.params else None
        with self._cond:
            return ok(self.commands.get(scope, []))

    def _interaction(self, interaction_id: int, token: str) -> InteractionLog:
        log = self.interactions.get(interaction_id)
        if log is None or log.payload["token"] != token or log.expired:
            raise ApiError(404, 10062, "Unknown interaction")
        if self.clock() - log.created > RESPONSE_DEADLINE:
            log.expired = True  # Discord forgets the interaction: its token is dead too
            raise ApiError(404, 10062, "Unknown interaction")
        return log

    def _callback(self, request: Request) -> Answer:
        body = request.body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        with self._cond:
            log = self._interaction(int(request.params["interaction"]), request.params["token"])
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
                                            request.files, interaction=log.payload)
                log.original_id = int(created["id"])
            elif kind in (DEFERRED_UPDATE, UPDATE):
                # the component's own message becomes @original: a later PATCH @original edits it
                log.original_id = int(log.payload["message"]["id"])
                if kind == UPDATE:
                    created = self.store.change(log.original_id, data, request.files)
            elif kind == CHOICES:
                log.choices = list(data.get("choices") or [])
            log.callback_type = kind
        answer: dict[str, Any] = {"interaction": {"id": log.payload["id"], "type": log.payload["type"]}}
        if created is not None:
            answer["interaction"].update(response_message_id=created["id"], response_message_loading=kind == DEFERRED,
                                         response_message_ephemeral=bool(created["flags"] & EPHEMERAL))
        if kind in (MESSAGE, UPDATE) and created is not None:
            answer["resource"] = {"type": kind, "message": created}
        return ok(answer)

    def _webhook(self, request: Request) -> InteractionLog:
        self._check_app(request)
        token = request.params["token"]
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

    def _followup(self, request: Request) -> Answer:
        with self._cond:
            log = self._webhook(request)
            original = None if log.original_deleted else self.store.messages.get(log.original_id or 0)
            if log.callback_type == DEFERRED and original is not None and original["flags"] & LOADING:
                # Discord: the first follow-up after a deferral replaces the "thinking..." message
                created = self.store.change(int(original["id"]), request.body or {}, request.files)
            else:
                created = self.store.create(int(log.payload["channel_id"]), request.body or {}, request.files,
                                            interaction=log.payload)
                log.followups.append(int(created["id"]))
        return ok(created)

    def _get_webhook_message(self, request: Request) -> Answer:
        with self._cond:
            log = self._webhook(request)
            return ok(self.store.messages[self._webhook_message_id(log, request.params["message"])])

    def _edit_webhook_message(self, request: Request) -> Answer:
        with self._cond:
            log = self._webhook(request)
            message_id = self._webhook_message_id(log, request.params["message"])
            changed = self.store.change(message_id, request.body or {}, request.files)
            if message_id == log.original_id:
                log.original_edited = True
            return ok(changed)

    def _delete_webhook_message(self, request: Request) -> Answer:
        with self._cond:
            log = self._webhook(request)
            message_id = self._webhook_message_id(log, request.params["message"])
            if message_id == log.original_id:
                log.original_deleted = True
            del self.store.messages[message_id]
        return NO_CONTENT

    def _channel(self, request: Request) -> Channel:
        found = self.find_channel(int(request.params["channel"]))
        if found is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return found

    def _get_channel(self, request: Request) -> Answer:
        """What a bot fetches when its cache lacks the channel, e.g. a post made before GUILD_CREATE."""
        return ok(self.channel_json(self._channel(request)))

    def _patch_channel(self, request: Request) -> Answer:
        """Only a thread's ``archived``/``locked`` are modelled: unarchiving an unlocked thread needs
        Send Messages (Discord's documented rule), anything about a locked one Manage Threads."""
        body = request.body or {}
        with self._cond:
            channel = self._channel(request)
            state = self._threads.get(channel.id)
            if state is None or set(body) - {"archived", "locked"}:
                raise ApiError(400, 50035, "Invalid Form Body")
            self._tick(state)
            needed = MANAGE_THREADS if state.locked or "locked" in body else SEND_MESSAGES
            self._require(channel.id, needed)
            if body.get("locked") is not None:
                state.locked = bool(body["locked"])
            if body.get("archived") is False:
                state.archived, state.archived_at = False, None
                state.last_activity = self.clock()
            elif body.get("archived"):
                self._archive(state)
            return ok(self.channel_json(channel))

    def _channel_message(self, request: Request) -> int:
        """A message of the channel, as its channel's routes reach it: an ephemeral one (an interaction's
        private answer) only through its interaction's webhook, never through the channel."""
        channel_id = self._channel(request).id
        message_id = int(request.params["message"])
        found = self.store.messages.get(message_id)
        if found is None or int(found["channel_id"]) != channel_id or int(found["flags"] or 0) & EPHEMERAL:
            raise ApiError(404, 10008, "Unknown Message")
        return message_id

    def _own_message(self, request: Request) -> int:
        """A message the bot may edit: its own (another author's: 403 / 50005)."""
        message_id = self._channel_message(request)
        if self.store.messages[message_id]["author"]["id"] != str(self.store.author.id):
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        return message_id

    def post_as(self, member: Member, channel: Channel, content: str) -> dict[str, Any]:
        """A member writes `content` in `channel` (a message the bot may read, never edit)."""
        with self._cond:
            created = message(snowflake(self.clock()), channel.id, member.user, {"content": content}, [],
                              at=self.clock())
            self.store.messages[int(created["id"])] = created
            return created

    def _post_message(self, request: Request) -> Answer:
        """With ``enforce_nonce``, a nonce the bot already used in this channel within NONCE_WINDOW
        answers the message it made then, and posts nothing (Discord's guard against a resend)."""
        body = request.body or {}
        with self._cond:
            channel_id = int(request.params["channel"])
            if self.dms.recipient(channel_id) is not None:  # a direct message: the member's privacy decides
                self.dms.check_post(channel_id)
            else:
                channel_id = self._channel(request).id
                self._require(channel_id, SEND_MESSAGES)
                if request.files:  # refused before anything is done: a refused post unarchives no thread
                    self._require(channel_id, ATTACH_FILES)
                self._thread_check(channel_id, posting=True)
            key = (channel_id, str(body["nonce"])) if body.get("enforce_nonce") and "nonce" in body else None
            earlier = self._nonces.get(key) if key is not None else None
            if earlier is not None and self.clock() - earlier[1] <= NONCE_WINDOW and earlier[0] in self.store.messages:
                return ok(self.store.messages[earlier[0]])
            created = self.store.create(channel_id, body, request.files)
            if key is not None:
                self._nonces[key] = (int(created["id"]), self.clock())
        return ok(created)

    def _get_message(self, request: Request) -> Answer:
        with self._cond:
            return ok(self.store.messages[self._channel_message(request)])

    def _edit_message(self, request: Request) -> Answer:
        with self._cond:
            message_id = self._own_message(request)
            # an edit needs no Send Messages (the message is the bot's), but new files need Attach Files
            self._require(int(request.params["channel"]), ATTACH_FILES if request.files else VIEW_CHANNEL)
            self._thread_check(int(request.params["channel"]), posting=False)
            self._count_old_edit(message_id)
            return ok(self.store.change(message_id, request.body or {}, request.files))

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

    def _delete_message(self, request: Request) -> Answer:
        with self._cond:
            del self.store.messages[self._channel_message(request)]
        return NO_CONTENT

    def _pin(self, request: Request) -> Answer:
        with self._cond:
            message = self.store.messages[self._channel_message(request)]
            self._require(int(message["channel_id"]), PIN_MESSAGES)
            pinned = sum(1 for m in self.store.messages.values() if m["pinned"] and m["channel_id"] == message["channel_id"])
            if not message["pinned"] and pinned >= PINS_MAX:
                raise ApiError(400, 30003, f"Maximum number of pins reached ({PINS_MAX})")
            message["pinned"] = True
        return NO_CONTENT
