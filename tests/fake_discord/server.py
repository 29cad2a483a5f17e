"""A loopback fake Discord: the REST API and gateway websocket discord.py talks to, on 127.0.0.1.

The REST API is :class:`~tests.fake_discord.core.DiscordCore` — the same core the in-process harness
of tests/bot/discord calls — behind one aiohttp handler that decodes a request (JSON, or multipart
with ``payload_json`` and ``files[n]``) and encodes the core's answer. What Discord refuses, and how
it answers, is the core's; this module adds what needs a network:

- the gateway: HELLO, IDENTIFY/READY, GUILD_CREATE, and the events of each server sent only to the
  sessions of its shard, ``(guild_id >> 22) % shard_count`` (4010 closes a session that names a shard
  out of range; two sessions on one shard both get its events, as on Discord: both answer, and one
  gets 40060); a session outlives its connection: the events of its servers while it is away are
  kept and replayed, in order, on RESUME (an unknown session gets op 9, not resumable); `reconnect`
  sends op 7, `invalidate` op 9, `drop` closes the connection, `hold_connections` keeps the next
  ones waiting (a network cut the test ends when it chose);
- the CDN the bot downloads attachments from, and `stall` (answers held back until the test lets
  them go: a crash before the bot reads them, at a moment the test chose).

The fake runs its own event loop in a background thread so that synchronous tests can drive a real
bot process: every method is thread-safe, and waits are event-driven (a condition notified on every
recorded call) with a timeout. The clock is injectable, so a test reaches a deadline by advancing a
:class:`~tests.fake_discord.clock.ManualClock`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fake_discord.clock import Clock
from tests.fake_discord.core import (
    CHOICES,
    DEFAULT_SIZE_LIMIT,
    DEFERRED,
    DEFERRED_UPDATE,
    MESSAGE,
    UPDATE,
    Answer,
    DiscordCore,
)
from tests.fake_discord.payloads import Channel, Guild, Member, Thread
from tests.fake_discord.ratelimits import RateLimiter
from tests.fake_discord.records import UploadedFile

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway-ws"
HEARTBEAT_MS = 41_250
#: Gateway close code of an IDENTIFY whose shard does not exist.
INVALID_SHARD = 4010

#: The callback types are the core's; the e2e tests take them from here.
__all__ = ["CHOICES", "DEFERRED", "DEFERRED_UPDATE", "MESSAGE", "UPDATE", "FakeDiscord", "json_response"]


@dataclass
class Stall:
    """Requests `method pattern` (whose JSON ``content`` holds `content`, if given) served, but
    answered only once `released` is set or `seconds` have passed (None: only when released); the
    first `after` of them are answered at once."""

    method: str
    pattern: str
    seconds: float | None
    after: int
    content: str | None
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def holds(self, method: str, path: str, body: Any) -> bool:
        """Whether this request's answer is held (counting the ones let through)."""
        if method != self.method or re.fullmatch(self.pattern, path) is None:
            return False
        if self.content is not None and self.content not in str((body or {}).get("content") or ""):
            return False
        if self.after > 0:
            self.after -= 1
            return False
        return True


def json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    # discord.py decodes JSON only when the Content-Type is exactly application/json (no charset)
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


class FakeDiscord(DiscordCore):
    """The core, served: one application with one server (`add_guild` adds more); start it, point the
    bot at `api_base`/`gateway_url`, drive it. `shards`: the shard count ``GET /gateway/bot`` recommends.
    Rate limits are on unless `rate_limits` says otherwise (a limiter of the test's own)."""

    def __init__(self, *, size_limit: int = DEFAULT_SIZE_LIMIT, clock: Clock = time.time,
                 rate_limits: RateLimiter | None = None, shards: int = 1) -> None:
        super().__init__(size_limit=size_limit, clock=clock, rate_limits=rate_limits or RateLimiter(clock),
                         shards=shards, cdn_base=lambda: self.base_url)
        #: which requests are served with their answers held (a crash before the bot reads them)
        self._stalls: list[Stall] = []
        #: answers held back right now
        self.held = 0
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        #: identified gateway sessions: each socket's (shard id, shard count) and its event sequence
        self._shards: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._seqs: dict[web.WebSocketResponse, int] = {}
        #: session id -> (shard id, shard count), what a RESUME takes back
        self._resumable: dict[str, tuple[int, int]] = {}
        #: each socket's session, and each session's events so far (what a RESUME replays after its seq)
        self._session_of: dict[web.WebSocketResponse, str] = {}
        self._journal: dict[str, list[dict[str, Any]]] = {}
        #: the RESUME frames received, in order (`identifies` holds the IDENTIFY ones)
        self.resumes: list[dict[str, Any]] = []
        self._open = asyncio.Event()  # set: new gateway connections go ahead (`hold_connections`)
        self._open.set()
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

    # -- test controls (any thread): the core's, and what the gateway announces -------------------
    def stall(self, method: str, pattern: str, seconds: float | None = None, *, after: int = 0,
              content: str | None = None) -> None:
        """Serve every request `method pattern` but answer it only at `unstall` (or `seconds` later):
        Discord has done it, the bot does not know yet (what a crash at that moment leaves). `after`
        lets the first ones through; `content`: only messages whose text holds it. A test waits on
        `held` to kill the bot while answers are held, however fast or slow the machine is."""
        with self._cond:
            self._stalls.append(Stall(method, pattern, seconds, after, content))

    def unstall(self) -> None:
        """Every held answer goes out now, and nothing is held any more."""
        with self._cond:
            stalls, self._stalls = self._stalls, []
        for stall in stalls:
            self._loop.call_soon_threadsafe(stall.released.set)

    def add_guild(self, name: str, *, shard: int = 0) -> Guild:
        """Another server, sent to the sessions of its shard when they are connected."""
        guild = super().add_guild(name, shard=shard)
        with self._cond:
            sessions = self._sessions_of(guild.id)
        for ws in sessions:
            self._run(self._send_event(ws, "GUILD_CREATE", self._guild_create(guild)))
        return guild

    def add_role(self, name: str, *, role_id: int | None = None) -> dict[str, Any]:
        """A new role of the server, announced with GUILD_ROLE_CREATE when the bot is connected."""
        role = super().add_role(name, role_id=role_id)
        self._run(self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(self.guild.id), "role": role},
                                 guild_id=self.guild.id, required=False))
        return role

    def add_channel(self, name: str, *, guild: Guild | None = None, channel_id: int | None = None) -> Channel:
        """A new text channel, announced with CHANNEL_CREATE to the sessions of its server's shard."""
        channel = super().add_channel(name, guild=guild, channel_id=channel_id)
        self._run(self._dispatch("CHANNEL_CREATE", channel.to_json(), guild_id=channel.guild_id, required=False))
        return channel

    def add_forum(self, name: str, *, guild: Guild | None = None) -> Channel:
        """A new forum channel, announced with CHANNEL_CREATE."""
        forum = super().add_forum(name, guild=guild)
        self._run(self._dispatch("CHANNEL_CREATE", forum.to_json(), guild_id=forum.guild_id, required=False))
        return forum

    def add_post(self, forum: Channel, name: str, *, auto_archive_duration: int = 1440) -> Thread:
        """A new post of `forum`, announced with THREAD_CREATE."""
        thread = super().add_post(forum, name, auto_archive_duration=auto_archive_duration)
        self._run(self._dispatch("THREAD_CREATE", {**self.channel_json(thread), "newly_created": True},
                                 guild_id=thread.guild_id, required=False))
        return thread

    def lock_thread(self, thread: Thread) -> dict[str, Any]:
        """A moderator locked the thread: THREAD_UPDATE with its new ``thread_metadata``."""
        data = super().lock_thread(thread)
        self._run(self._dispatch("THREAD_UPDATE", data, guild_id=thread.guild_id, required=False))
        return data

    def archive_thread(self, thread: Thread) -> dict[str, Any]:
        """The thread is archived (idle, or closed by a moderator): THREAD_UPDATE with its new state."""
        data = super().archive_thread(thread)
        self._run(self._dispatch("THREAD_UPDATE", data, guild_id=thread.guild_id, required=False))
        return data

    def delete_channel(self, channel: Channel) -> None:
        """The channel (or thread) is deleted: CHANNEL_DELETE, or THREAD_DELETE for a thread, as Discord
        sends them."""
        data = self.channel_json(channel)
        super().delete_channel(channel)
        if isinstance(channel, Thread):
            event, data = "THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                            "parent_id": str(channel.parent_id), "type": data["type"]}
        else:
            event = "CHANNEL_DELETE"
        self._run(self._dispatch(event, data, guild_id=channel.guild_id, required=False))

    # -- the gateway connection, broken on purpose ------------------------------------------------
    def _live(self, shard: int) -> list[web.WebSocketResponse]:
        with self._cond:
            return [ws for ws, (held, _count) in self._shards.items() if held == shard]

    def reconnect(self, shard: int = 0) -> None:
        """Discord asks the shard's session to reconnect (op 7): the bot resumes it."""
        for ws in self._live(shard):
            self._run(ws.send_str(json.dumps({"op": 7, "d": None})))

    def invalidate(self, shard: int = 0, *, resumable: bool = False) -> None:
        """Discord invalidates the shard's session (op 9): the bot identifies anew (or resumes)."""
        for ws in self._live(shard):
            self._run(ws.send_str(json.dumps({"op": 9, "d": resumable})))

    def drop(self, shard: int = 0) -> None:
        """The connection breaks (a network cut: close code 4000); the session stays resumable."""
        for ws in self._live(shard):
            self._run(ws.close(code=4000, message=b"Unknown error"))

    def hold_connections(self) -> None:
        """New gateway connections wait, from now on until `release_connections`."""
        self._loop.call_soon_threadsafe(self._open.clear)

    def release_connections(self) -> None:
        self._loop.call_soon_threadsafe(self._open.set)

    def remove_bot(self, guild: Guild) -> None:
        """The bot was kicked from (or left) `guild`: GUILD_DELETE without ``unavailable``, and every
        request about its channels is refused from now on."""
        with self._cond:
            sessions = self._sessions_of(guild.id)
            self.guilds.remove(guild)
        for ws in sessions:
            self._run(self._send_event(ws, "GUILD_DELETE", {"id": str(guild.id)}))

    def slash(
        self, member: Member, path: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr", age: float = 0.0,
    ) -> int:
        """Send ``/path option:value...`` as `member`; the interaction id, to wait for its reply.
        `age`: how long ago Discord created the interaction (the gateway's delay, eating the 3 s)."""
        return self.deliver(self.slash_payload(member, path, options, channel=channel, locale=locale, age=age))

    def autocomplete(
        self, member: Member, path: str, focused: str, typed: str, options: Mapping[str, Any] | None = None, *,
        channel: Channel | None = None, locale: str = "fr", age: float = 0.0,
    ) -> int:
        return self.deliver(self.autocomplete_payload(member, path, focused, typed, options, channel=channel,
                                                       locale=locale, age=age))

    def click(self, member: Member, message_data: Mapping[str, Any], custom_id: str, *, locale: str = "fr",
              values: Sequence[str] | None = None, age: float = 0.0) -> int:
        """Click the button `custom_id` of a message the bot sent (the message as the fake stored it),
        or pick `values` in its select menu `custom_id`."""
        return self.deliver(self.click_payload(member, message_data, custom_id, locale=locale, values=values,
                                                age=age))

    def deliver(self, payload: Mapping[str, Any]) -> int:
        self._run(self._dispatch("INTERACTION_CREATE", payload, guild_id=int(payload["guild_id"])))
        return int(payload["id"])

    # -- internals: loop side ------------------------------------------------------------------
    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    async def _dispatch(self, event: str, data: Mapping[str, Any], *, guild_id: int, required: bool = True) -> None:
        """Send a server's event to every session of its shard (kept for a session away from its
        connection, replayed when it resumes); `required`: that there must be a live one."""
        with self._cond:
            sessions = self._sessions_of(guild_id)
            live = {self._session_of.get(ws) for ws in sessions}
            for session_id, (shard, count) in self._resumable.items():
                if session_id not in live and (guild_id >> 22) % count == shard:
                    journal = self._journal[session_id]
                    journal.append({"op": 0, "t": event, "s": (journal[-1]["s"] if journal else 0) + 1, "d": data})
        if not sessions and required:
            shard = (guild_id >> 22) % self.shard_count
            raise AssertionError(f"cannot dispatch {event}: no bot holds the gateway shard {shard} of server {guild_id}")
        for ws in sessions:
            await self._send_event(ws, event, data)

    async def _send_event(self, ws: web.WebSocketResponse, event: str, data: Mapping[str, Any]) -> None:
        with self._cond:
            self._seqs[ws] = self._seqs.get(ws, 0) + 1
            frame = {"op": 0, "t": event, "s": self._seqs[ws], "d": data}
            session_id = self._session_of.get(ws)
            if session_id is not None:
                self._journal[session_id].append(frame)
        # the bot's connection broke before the fake read it (a process just stopped): it misses the event
        with contextlib.suppress(ConnectionResetError):
            await ws.send_str(json.dumps(frame))

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{attachment}/{filename}", self._cdn)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        return app

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        """The REST API: the request decoded, the core's answer encoded (held back if stalled)."""
        path = request.path[len(API_PREFIX):]
        body, files = await self._read_body(request)
        answer: Answer = self.handle(request.method, path, body, files, query=dict(request.query),
                                     content_type=request.content_type)
        if answer.json is None:
            response = web.Response(status=answer.status, headers=answer.headers)
        else:
            response = json_response(answer.json, answer.status, answer.headers)
        with self._cond:
            stall = next((entry for entry in self._stalls if entry.holds(request.method, path, body)), None)
            if stall is not None:
                self.held += 1
                self._cond.notify_all()
        if stall is not None:  # held until `unstall` or its time is up (the fake's shutdown releases it)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stall.released.wait(), stall.seconds)
            finally:
                with self._cond:
                    self.held -= 1
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

    async def _cdn(self, request: web.Request) -> web.Response:
        with self._cond:
            data = self.store.files.get(int(request.match_info["attachment"]))
        if data is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=data, headers={"Content-Type": "application/octet-stream"})

    # -- gateway ------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        await self._open.wait()  # a network cut the test has not ended yet
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
                self._session_of.pop(ws, None)  # the session stays, resumable, its events kept
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
                # a new session of the shard replaces its older ones: they are not resumed any more
                for old in [s for s, held in self._resumable.items() if held == (shard, count)]:
                    del self._resumable[old]
                    self._journal.pop(old, None)
                self._resumable[session_id] = (shard, count)
                self._session_of[ws] = session_id
                self._journal[session_id] = []
                guilds = [g for g in self.guilds if (g.id >> 22) % count == shard]
            await self._send_event(ws, "READY", self._ready(frame["d"], session_id, guilds))
            # GUILD_CREATE right away: discord.py's ready delay then only waits for guild_ready_timeout
            for guild in guilds:
                with self._cond:
                    data = self._guild_create(guild)
                await self._send_event(ws, "GUILD_CREATE", data)
            with self._cond:
                self._cond.notify_all()
        elif op == 6:
            session_id, seq = frame["d"].get("session_id"), frame["d"].get("seq") or 0
            with self._cond:
                self.resumes.append(dict(frame["d"]))
                known = session_id in self._resumable
                if known:
                    self._shards[ws] = self._resumable[session_id]
                    self._session_of[ws] = session_id
                    missed = [f for f in self._journal[session_id] if f["s"] > seq]
                    self._seqs[ws] = self._journal[session_id][-1]["s"] if self._journal[session_id] else seq
                self._cond.notify_all()
            if not known:  # Discord forgot it: identify anew
                await ws.send_str(json.dumps({"op": 9, "d": False}))
                return
            for missed_frame in missed:  # what happened while the bot was away, in order
                await ws.send_str(json.dumps(missed_frame))
            await self._send_event(ws, "RESUMED", {})

    def _guild_create(self, guild: Guild) -> dict[str, Any]:
        """A server as GUILD_CREATE sends it: its active threads only, each in its state now (an
        archived forum post is not among them, as on Discord)."""
        data = guild.to_json()
        threads = [self.channel_json(c) for c in guild.channels if isinstance(c, Thread)]
        data["threads"] = [t for t in threads if not t["thread_metadata"]["archived"]]
        return data

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
