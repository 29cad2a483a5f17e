"""Delivering the outbox (`bot.store.outbox`): the posts the bot owes its game channels.

Producers (draws, deadlines, clocks) write a post with the change that causes it; then they
`announce` it to the adapter's hooks. An adapter that sends the outbox itself (the Discord bot: it
has an `outbox_ready` method) is only woken; any other (the console, tests) gets every owed post
through `TurnHooks` at once (`flush`).

`OutboxSender` is the Discord side, independent of discord.py: it sends the oldest owed post of each
channel (so a channel's posts keep their order while channels do not wait for each other), under the
bot's rate limiter (shared with the status messages) that keeps it below Discord's 50 requests a
second over all its processes, and puts
a failed post off with exponential back-off (or the `retry_after` Discord gave). A part is sent with a
nonce derived from the row, and its message id recorded before the next part: after a crash the
post resumes where it stopped, and a part Discord had already taken is not posted twice.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.games import presenter_for
from bot.i18n import Count, Day, Listing, Moment, translate
from bot.service.replies import Attachment, Message, Reply
from bot.service.scene import Scene, plain_times
from bot.store import outbox as rows
from bot.store.outbox import NewPost, OutboxRecord
from bot.store.repo import GameRecord, Store
from engine import registry
from engine.core.protocol import Event

log = logging.getLogger("spacechess.outbox")

TURN_POST, GM_ALERT = "turn_post", "gm_alert"
#: the bot's own requests a second — its posts, status messages and pins, all processes together:
#: Discord allows 50 per bot (answers to interactions aside), a few are left for the rest
BOT_RATE_PER_SECOND = 45.0
#: requests a process may send at once after a quiet spell: Discord counts per second, so a burst of a
#: second's worth from each process would overrun the rate when several wake together
BOT_BURST = 5


def process_rate(shard_count: int, shard_ids: Sequence[int]) -> float:
    """This process's share of `BOT_RATE_PER_SECOND`: Discord counts a bot's requests over all its
    processes, so each runs at the share of the shards it holds (all of them: the whole rate)."""
    if shard_count <= 0 or not shard_ids:
        return BOT_RATE_PER_SECOND
    return BOT_RATE_PER_SECOND * len(shard_ids) / shard_count
#: posts rendered at once by a sender (`OutboxSender.send`): their drawing keeps one or two threads (or
#: processes) busy while the others wait at the limiter, not hundreds drawing ahead of what Discord takes
DRAWING_SLOTS = 4
#: first and longest wait after a failed attempt (doubling in between)
BACKOFF_FIRST, BACKOFF_MAX = 2.0, 300.0
#: how long a process owns a post it is sending, by default (`[bot] outbox_lease_seconds`); after that
#: another process (or itself, restarted after a crash) may send it again — with the same nonce, so
#: Discord does not post it twice
LEASE = dt.timedelta(seconds=15)
#: an idle sender still looks this often: another process sharing the database may have written posts
#: and died before sending them (its own wake-up is lost with it)
IDLE_LOOK_SECONDS = 5.0
#: while posts are being sent, the outbox is read again at most this often for posts written meanwhile
#: (a draw wakes the sender at each game's post: each read is of every lane's head, payload and all)
LOOK_AGAIN_SECONDS = 0.25
#: sent posts are kept this long (the record of what was posted), then pruned
KEEP_SENT = dt.timedelta(days=7)

Part = TypeVar("Part")


# -- the row's payload: a Reply as JSON ---------------------------------------------------------------

def _encode(value: Any) -> Any:
    """JSON of a message's parameters; the catalog's own value types (`Message`, `Listing`, `Count`,
    `Day`, `Moment`) are tagged."""
    if isinstance(value, Message):
        return {"$msg": value.key, "params": _encode(dict(value.params))}
    if isinstance(value, Listing):
        return {"$list": _encode(list(value.items)), "conjunction": value.conjunction, "separator": value.separator}
    if isinstance(value, Count):
        return {"$count": value.n, "key": value.key}
    if isinstance(value, Day):
        return {"$day": value.day.isoformat()}
    if isinstance(value, Moment):
        return {"$moment": value.at.isoformat(), "zone": value.zone}
    if isinstance(value, Mapping):
        return {str(key): _encode(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_encode(item) for item in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "$msg" in value:
            return Message(value["$msg"], _decode(value.get("params") or {}))
        if "$list" in value:
            return Listing(tuple(_decode(value["$list"])), value["conjunction"], value["separator"])
        if "$count" in value:
            return Count(value["$count"], value["key"])
        if "$day" in value:
            return Day(dt.date.fromisoformat(value["$day"]))
        if "$moment" in value:
            return Moment(dt.datetime.fromisoformat(value["$moment"]), value["zone"])
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


@dataclass(frozen=True)
class Drawing:
    """A post's pictures as what draws them — the game's state and the public events of the moment,
    and the picture's context — drawn when the post is sent rather than when it is made. A draw pass
    then commits each game's draw in a few milliseconds whatever the number of games, and the boards
    are drawn at the pace Discord takes the posts (docs/platform.md, "The outbox", says why)."""

    kind: str
    state: Mapping[str, Any]
    events: tuple[Mapping[str, Any], ...]
    name: str
    language: str
    next: str = ""
    #: what comes next as a catalog message (`next` in `language`), so the picture can say it in the
    #: language the post is sent in
    upcoming: Message | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"kind": self.kind, "state": dict(self.state), "events": [dict(e) for e in self.events],
                "name": self.name, "language": self.language, "next": self.next}
        if self.upcoming is not None:
            data["upcoming"] = _encode(self.upcoming)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Drawing:
        upcoming = _decode(data["upcoming"]) if data.get("upcoming") is not None else None
        return cls(data["kind"], data["state"], tuple(data["events"]), data["name"], data["language"],
                   data.get("next", ""), upcoming)

    def render(self, language: str | None = None) -> tuple[Attachment, ...]:
        """The pictures, their words in `language` (the post's text's, when it is sent), else the
        language of the moment the post was made."""
        # the presenter's module (and Pillow with its renderers) loads only in a process that draws
        rules = registry.get(self.kind)
        events = [Event(event["kind"], event.get("params", {})) for event in self.events]
        language = language or self.language
        upcoming = self.upcoming
        next_text = (plain_times(translate(upcoming.key, language, upcoming.params), language)
                     if upcoming is not None and language != self.language else self.next)
        scene = Scene(self.name, language, next_text)
        presenter, state = presenter_for(self.kind), rules.from_json(self.state)
        return presenter.described(presenter.images_for(rules, state, events, scene), rules, state, scene, events)


def post_language(hooks: Any) -> str | None:
    """The language `hooks` show posts in, where they show them in one (the console's `--lang`);
    None where the server's setting decides (Discord)."""
    language = getattr(hooks, "language", None)
    return language if isinstance(language, str) else None


def _encode_file(file: Attachment) -> dict[str, Any]:
    data: dict[str, Any] = {"filename": file.filename, "data": base64.b64encode(file.data).decode("ascii")}
    if file.description is not None:
        data["description"] = _encode(file.description)
    return data


def _decode_file(data: Mapping[str, Any]) -> Attachment:
    """A stored file; one stored before images had alt text has no ``description`` and still reads."""
    description = data.get("description")
    return Attachment(data["filename"], base64.b64decode(data["data"]),
                      _decode(description) if description is not None else None)


def encode_reply(reply: Reply, drawing: Drawing | None = None) -> dict[str, Any]:
    """What a post needs to be sent later by any process: its messages (catalog keys, so it is said
    in the server's language of the moment it is sent), who it may ping, its images rendered, and
    the `drawing` of the images still to draw."""
    payload = {
        "messages": [_encode(message) for message in reply.messages],
        "mentions": list(reply.mentions),
        "files": [_encode_file(f) for f in reply.files],
    }
    if drawing is not None:
        payload["drawing"] = drawing.to_json()
    return payload


def decode_reply(payload: Mapping[str, Any], language: str | None = None) -> Reply:
    """The post as it is sent: a `drawing` is drawn now, in the `language` its text is read in, its
    pictures after the rendered ones."""
    messages = tuple(_decode(message) for message in payload.get("messages", []))
    files = tuple(_decode_file(f) for f in payload.get("files", []))
    if payload.get("drawing") is not None:
        files += Drawing.from_json(payload["drawing"]).render(language)
    return Reply(messages, files=files, mentions=tuple(int(u) for u in payload.get("mentions", [])))


def dm_of(game: GameRecord, user: int, reply: Reply, fallback: Reply) -> NewPost:
    """The outbox row of a direct message to `user` about `game`, and the channel post it falls back
    to where Discord refuses it (the member takes no direct message from the bot)."""
    payload = {**encode_reply(reply), rows.RECIPIENT: user, rows.FALLBACK: encode_reply(fallback)}
    return NewPost(channel_id=game.channel_id, kind=rows.DM, payload=payload, game_id=game.id,
                   guild_id=game.guild_id)


def first_line(payload: Mapping[str, Any]) -> Message | None:
    """The first message of a post, as `/gm posts` names it (its pictures are not drawn for that)."""
    messages = payload.get("messages") or []
    return _decode(messages[0]) if messages else None


def post_of(game: GameRecord, reply: Reply, kind: str = TURN_POST, drawing: Drawing | None = None) -> NewPost:
    """The outbox row of a post in `game`'s channel, to write with the change that causes it."""
    return NewPost(channel_id=game.channel_id, kind=kind, payload=encode_reply(reply, drawing), game_id=game.id,
                   guild_id=game.guild_id)


# -- synchronous delivery through TurnHooks ------------------------------------------------------------

def announce(store: Store, hooks: Any) -> None:
    """Posts were written to the outbox: wake the adapter that sends them, or deliver them now."""
    if hooks is None:
        return
    ready = getattr(hooks, "outbox_ready", None)
    if callable(ready):
        ready()
    else:
        flush(store, hooks)


def flush(store: Store, hooks: Any) -> int:
    """Hand every owed post to `hooks` (`on_turn_post`, `on_gm_alert`) oldest first, marking each
    delivered once the hook returned: a crash in between delivers it again, never loses it."""
    delivered = 0
    for post in rows.unsent(store):  # no lease: this is the delivery of a single process (console, tests)
        game = store.get_game(post.game_id) if post.game_id is not None else None
        if game is not None and post.kind == rows.DM:
            deliver_dm(hooks, game, post)
        elif game is not None:
            reply = decode_reply(post.payload, post_language(hooks))
            (hooks.on_gm_alert if post.kind == GM_ALERT else hooks.on_turn_post)(game, reply)
        rows.mark_sent(store, post)
        delivered += 1
    return delivered


def deliver_dm(hooks: Any, game: GameRecord, post: OutboxRecord) -> None:
    """A direct message (`bot.service.dms`) to an adapter that writes to members (`on_dm`, told whom);
    any other pings the member in the game's channel instead, as a refused message does."""
    on_dm = getattr(hooks, "on_dm", None)
    if callable(on_dm):
        on_dm(rows.recipient(post), game, decode_reply(post.payload, post_language(hooks)))
    else:
        hooks.on_turn_post(game, decode_reply(post.payload[rows.FALLBACK], post_language(hooks)))


# -- the asynchronous sender ----------------------------------------------------------------------------

class RateLimiter:
    """A token bucket: at most `rate` acquisitions a second on average, `burst` at once.

    The outbox's posts go first: while a sender is `posting` (due posts being sent), an acquisition
    that is `after_posts` (a status message's edit) waits for it to end, so a draw's fan-out goes out
    at the whole rate and each game's status, refreshed once after it, shows where the game stands."""

    def __init__(self, rate: float, burst: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst if burst is not None else max(1, int(rate)))
        self.clock = clock
        self._tokens = self.burst
        self._stamp = clock()
        self._lock = asyncio.Lock()
        self._posting = 0
        self._quiet = asyncio.Event()
        self._quiet.set()
        #: the acquisitions waiting for the posts to end queue here, one awake at a time (not a thousand
        #: status refreshes woken at each gap between two posts)
        self._after = asyncio.Lock()

    @contextlib.contextmanager
    def posting(self) -> Iterator[None]:
        """Around the sending of due posts (an outbox lane): `after_posts` acquisitions wait meanwhile."""
        self._posting += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._posting -= 1
            if not self._posting:
                self._quiet.set()

    async def quiet(self) -> None:
        """Return once no post is being sent (at once when none is)."""
        while self._posting:
            await self._quiet.wait()

    async def acquire(self, *, after_posts: bool = False) -> None:
        if not after_posts:
            async with self._lock:
                await self._take()
            return
        async with self._after:
            while True:
                await self.quiet()
                async with self._lock:
                    if not self._posting:  # a lane may have started while this one queued for the lock
                        await self._take()
                        return

    async def _take(self) -> None:
        while True:
            now = self.clock()
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens >= 1 - 1e-9:  # a float a hair under 1 after a sleep counts as the token it waited for
                self._tokens = max(0.0, self._tokens - 1)
                return
            await asyncio.sleep((1 - self._tokens) / self.rate)


#: how a failed send is handled: tried again later; kept until someone fixes what Discord refused
#: it for (tried again meanwhile); given up (it never will be taken)
TRANSIENT, FIXABLE, FINAL = "transient", "fixable", "final"
#: why Discord refused a post (`Failure.cause`), and the GM alert that says what to fix
REFUSALS = {
    "missing_permissions": "gm.post_refused.missing_permissions",
    "missing_access": "gm.post_refused.missing_access",
    "thread_locked": "gm.post_refused.thread_locked",
    "file_too_large": "gm.post_refused.file_too_large",
    "unknown_channel": "gm.post_refused.unknown_channel",
}
#: why Discord refused a direct message (`Failure.cause`): the member takes none from the bot
DM_REFUSED = "dm_refused"
#: the line a post sent again without its images (refused as too large) ends with
IMAGES_LEFT_OUT = "gm.post_refused.images_left_out"


@dataclass(frozen=True)
class Failure:
    """How a failed send is handled (`kind`): TRANSIENT, tried again (after `retry_after` seconds if
    Discord said so); FIXABLE, kept and tried again, the GMs told once what to fix; FINAL, given up
    so the channel's later posts can go. `cause`: why Discord refused it (a key of `REFUSALS`), where
    the GMs can be told (None: a refusal of the bot's own making, logged only)."""

    kind: str = TRANSIENT
    retry_after: float | None = None
    cause: str | None = None

    @property
    def permanent(self) -> bool:
        return self.kind == FINAL


#: refusals after which the bot cannot write in the game's channel at all: its GMs are told elsewhere
SHUT_OUT = frozenset({"unknown_channel", "missing_access"})


def log_channel_of(store: Store, game: GameRecord) -> int | None:
    """The server's GM log channel (`/gm settings log_channel:`), where there is one."""
    return store.guild_settings(game.guild_id).log_channel_id if game.guild_id is not None else None


def gm_alert(store: Store, game: GameRecord, reply: Reply, *, in_channel: bool = True,
             channel_id: int | None = None) -> NewPost | None:
    """The GM alert `reply` about `game`: in its channel (`channel_id`, else the game's), or, where the
    bot cannot write there (`in_channel` False), in the server's GM log channel, else by direct message
    to the game's creator; None where none of them is."""
    channel = (channel_id or game.channel_id) if in_channel else log_channel_of(store, game)
    if channel is None:
        return dm_of(game, game.created_by, reply, reply) if not in_channel and game.created_by else None
    return NewPost(channel_id=channel, kind=GM_ALERT, payload=encode_reply(reply), game_id=game.id,
                   guild_id=game.guild_id)


def refusal_alert(store: Store, game: GameRecord, post: OutboxRecord, cause: str) -> NewPost | None:
    """The GM alert telling `game`'s GMs that Discord refused one of its posts for `cause`, and what to
    fix: in the post's channel where the bot may still write there, else in the log channel; in a lane
    of its own (`rows.ABOUT_REFUSAL`)."""
    channel = post.channel_id if post.channel_id is not None else game.channel_id
    reply = Reply((Message(REFUSALS[cause], {"name": game.name, "post": post.id, "channel": channel}),))
    alert = gm_alert(store, game, reply, in_channel=cause not in SHUT_OUT, channel_id=channel)
    if alert is None:
        return None
    return NewPost(channel_id=alert.channel_id, kind=alert.kind,
                   payload={**alert.payload, rows.ABOUT_REFUSAL: {"post": post.id, "cause": cause}},
                   game_id=game.id, guild_id=game.guild_id)


def without_images(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A post's payload sent again without its images (Discord found them too large), its text saying so."""
    kept = {key: value for key, value in payload.items() if key not in ("files", "drawing")}
    messages = list(kept.get("messages", []))
    if not any(isinstance(m, dict) and m.get("$msg") == IMAGES_LEFT_OUT for m in messages):
        messages.append(_encode(Message(IMAGES_LEFT_OUT)))
    return {**kept, "messages": messages}


class OutboxSender(Generic[Part]):
    """Sends the outbox through three callbacks, so that this logic is tested without Discord:
    `render` makes a post's parts (messages within the platform's limits), `send_part` posts one
    part with the post's nonce and returns its message id, `classify` tells a failure's kind."""

    def __init__(
        self,
        store: Store,
        *,
        render: Callable[[OutboxRecord], Awaitable[Sequence[Part]]],
        send_part: Callable[[OutboxRecord, int, Part], Awaitable[int]],
        classify: Callable[[Exception], Failure],
        on_sent: Callable[[OutboxRecord], None] = lambda _post: None,
        limiter: RateLimiter | None = None,
        clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
        on_gone: Callable[[int, int], bool] = lambda _game_id, _channel_id: True,
        drawing_slots: int = DRAWING_SLOTS,
        lease: dt.timedelta = LEASE,
    ) -> None:
        self.store = store
        #: how long a post being sent is this process's (a crash's restart waits this long for it)
        self.lease = lease
        #: the post's channel (game id, channel id) is gone: pause its game if it is still there (run in
        #: a thread); whether it was paused now — the GMs are told then, once, not at each of the game's
        #: posts given up after
        self.on_gone = on_gone
        self.render = render
        self.send_part = send_part
        self.classify = classify
        self.on_sent = on_sent
        self.limiter = limiter or RateLimiter(BOT_RATE_PER_SECOND)
        self.clock = clock
        #: the posts being leased and rendered (their boards drawn) at once, each after its turn at the
        #: limiter: drawn as Discord takes them, never hundreds ahead
        self._drawing = asyncio.Semaphore(drawing_slots)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pruned: dt.datetime | None = None
        self._refused_dms: set[int] = set()  # the members whose refusal of a direct message was logged

    # -- lifecycle (inside the event loop) --
    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="outbox-sender")

    def wake(self) -> None:
        """Look at the outbox now (a post was written). Call from the loop's thread."""
        self._wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                delay = await self.drain()
            except Exception:
                log.exception("outbox pass failed: next one in %s s", BACKOFF_FIRST)
                delay = BACKOFF_FIRST
            delay = IDLE_LOOK_SECONDS if delay is None else min(delay, IDLE_LOOK_SECONDS)
            if delay > 0:  # until woken by a new post, or the delay is up (a timeout is the usual end)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)

    # -- one pass --
    async def drain(self) -> float | None:
        """Send every due post: each channel's lane (`rows.lane_of`) on its own, in order, so that a
        slow or refused channel never holds another back; a post written meanwhile (a wake-up) starts
        its channel's lane at the next look, within `LOOK_AGAIN_SECONDS`. Then the seconds until the
        next owed post is due (None: nothing owed)."""
        lanes: dict[rows.Lane, asyncio.Task[None]] = {}
        loop = asyncio.get_running_loop()
        looked = -LOOK_AGAIN_SECONDS
        try:
            while True:
                if lanes:  # a draw announces each game's post: their heads are read a few games at a time
                    await asyncio.sleep(max(0.0, looked + LOOK_AGAIN_SECONDS - loop.time()))
                self._wake.clear()
                looked = loop.time()
                heads = await asyncio.to_thread(rows.heads, self.store)
                now = self.clock()
                for post in heads:
                    lane = rows.lane_of(post)
                    if post.next_attempt_at <= now and lane not in lanes:
                        lanes[lane] = asyncio.create_task(self._lane(post), name=f"outbox-lane-{post.channel_id}")
                if not lanes:
                    break
                woken = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait([*lanes.values(), woken], return_when=asyncio.FIRST_COMPLETED)
                woken.cancel()
                for lane in [lane for lane, task in lanes.items() if task.done()]:
                    lanes.pop(lane).result()  # a lane's failure (the database) ends the pass
        finally:
            for task in lanes.values():
                task.cancel()
            await asyncio.gather(*lanes.values(), return_exceptions=True)
        await self._prune()
        # a channel's later posts wait for its head: only heads say when to look again
        heads = await asyncio.to_thread(rows.heads, self.store)
        if not heads:
            return None
        soonest = min(post.next_attempt_at for post in heads)
        return max(0.0, (soonest - self.clock()).total_seconds())

    async def _lane(self, post: OutboxRecord | None) -> None:
        """One channel's lane: its posts one after the other while they go out and are due (the status
        messages' edits wait meanwhile: `RateLimiter.posting`)."""
        with self.limiter.posting():
            while post is not None and await self.send(post):
                post = await asyncio.to_thread(rows.lane_head, self.store, rows.lane_of(post))
                if post is not None and post.next_attempt_at > self.clock():
                    return

    async def send(self, post: OutboxRecord) -> bool:
        """Send one post (under a lease); whether it is done with (sent or given up).

        Its first part's turn at the limiter comes before the lease and the render, inside a drawing
        slot: its board is drawn once Discord may take it, a few posts at a time, and its lease runs
        from then on rather than while hundreds of lanes queue at the limiter."""
        async with self._drawing:
            await self.limiter.acquire()
            now = self.clock()
            leased = await asyncio.to_thread(rows.lease, self.store, post, now, now + self.lease)
            if leased is None:
                return False  # sent, leased or put off by another process since it was read
            if leased.channel_id is None:
                await asyncio.to_thread(rows.give_up, self.store, leased, "no channel")
                return True
            try:
                parts: Sequence[Part] | Exception = await self.render(leased)
            except Exception as err:  # noqa: BLE001 - handled below, outside the slot
                parts = err
        if isinstance(parts, Exception):
            return await self._failed(leased, parts)
        first = len(leased.message_ids)
        try:
            for index in range(first, len(parts)):
                if index > first:  # the first part's turn was taken above
                    await self.limiter.acquire()
                message_id = await self.send_part(leased, index, parts[index])
                leased = await asyncio.to_thread(rows.record_part, self.store, leased, message_id)
        except Exception as err:  # noqa: BLE001 - whatever failed, the post is kept and tried again
            return await self._failed(leased, err)
        await asyncio.to_thread(rows.mark_sent, self.store, leased)
        self.on_sent(leased)
        return True

    async def _failed(self, post: OutboxRecord, err: Exception) -> bool:
        failure = self.classify(err)
        if failure.cause == DM_REFUSED and post.kind == rows.DM:
            return await self._dm_refused(post, err)
        if failure.kind != TRANSIENT and rows.ABOUT_REFUSAL in post.payload:
            game = await asyncio.to_thread(self.store.get_game, post.game_id) if post.game_id is not None else None
            elsewhere = await asyncio.to_thread(log_channel_of, self.store, game) if game is not None else None
            if elsewhere is not None and elsewhere != post.channel_id:
                # the GMs cannot be told in the game's channel: in their log channel, at once
                log.warning("GM alert %s refused in channel %s (%s): sent to the log channel %s", post.id,
                            post.channel_id, err, elsewhere)
                await asyncio.to_thread(rows.move_to, self.store, post, elsewhere, self.clock())
                return True
            # the GMs cannot be told in the game's channel either: only the log knows
            log.error("GM alert %s about a refused post (%s) cannot be posted in channel %s either, given up: %s",
                      post.id, post.payload[rows.ABOUT_REFUSAL], post.channel_id, err)
            await asyncio.to_thread(rows.give_up, self.store, post, repr(err))
            return True
        if failure.kind == FINAL:
            log.error("post %s in channel %s given up: %s", post.id, post.channel_id, err)
            # paused before the post is given up: a crash in between sends it again, and pauses then
            paused = (failure.cause == "unknown_channel" and post.game_id is not None
                      and post.channel_id is not None
                      and await asyncio.to_thread(self.on_gone, post.game_id, post.channel_id))
            alert = (await asyncio.to_thread(self._alert, post, failure.cause)
                     if paused or failure.cause != "unknown_channel" else None)
            if paused and alert is None:
                log.error("game %s paused, its channel %s gone: no GM log channel to tell its GMs "
                          "(/gm settings log_channel:)", post.game_id, post.channel_id)
            await asyncio.to_thread(rows.give_up, self.store, post, repr(err), cause=failure.cause, alert=alert)
            return True
        wait = backoff(post.attempts, failure.retry_after)
        until = self.clock() + dt.timedelta(seconds=wait)
        if failure.kind == FIXABLE and failure.cause is not None:
            log.warning("post %s in channel %s refused (%s, attempt %d): %s; kept, next try in %.1f s", post.id,
                        post.channel_id, failure.cause, post.attempts + 1, err, wait)
            alert = await asyncio.to_thread(self._alert, post, failure.cause)
            payload = without_images(post.payload) if failure.cause == "file_too_large" else None
            if payload is not None:
                until = self.clock()  # sent again at once, without what Discord refused
            await asyncio.to_thread(rows.refuse, self.store, post, until, repr(err), failure.cause, alert=alert,
                                    payload=payload)
            return payload is not None or alert is not None  # both are due now: another look
        log.warning("post %s in channel %s failed (attempt %d): %s; next try in %.1f s", post.id, post.channel_id,
                    post.attempts + 1, err, wait)
        await asyncio.to_thread(rows.put_off, self.store, post, until, repr(err))
        return False

    async def _dm_refused(self, post: OutboxRecord, err: Exception) -> bool:
        """Discord refused a direct message (the member's privacy settings): they are pinged in the game's
        channel instead, this time and each time after (their setting is theirs to change); logged once."""
        user = rows.recipient(post)
        if user not in self._refused_dms:
            self._refused_dms.add(user)
            log.warning("member %s refuses direct messages (%s): pinged in channel %s instead, now and after",
                        user, err, post.channel_id)
        await asyncio.to_thread(rows.fall_back, self.store, post, repr(err))
        return True

    def _alert(self, post: OutboxRecord, cause: str | None) -> NewPost | None:
        """The GM alert of a refusal, where there is a game whose GMs can be told (not yet told of it)."""
        if cause is None or cause == post.refused or post.game_id is None:
            return None
        game = self.store.get_game(post.game_id)
        return refusal_alert(self.store, game, post, cause) if game is not None else None

    async def _prune(self) -> None:
        now = self.clock()
        if self._pruned is None or now - self._pruned > dt.timedelta(hours=1):
            self._pruned = now
            await asyncio.to_thread(rows.prune, self.store, now - KEEP_SENT)


def backoff(attempts: int, retry_after: float | None = None) -> float:
    """Seconds before the next try after `attempts` earlier failures: doubling from BACKOFF_FIRST up to
    BACKOFF_MAX, and never sooner than Discord's `retry_after`."""
    wait = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** attempts)
    return max(wait, retry_after or 0.0)
