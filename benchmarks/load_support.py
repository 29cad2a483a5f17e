"""What the load test (benchmarks/load_test.py) needs around the e2e fake Discord and bot processes.

- `LoadFake`: the e2e fake Discord, timing what it records. It notes when it answered each request and
  hands each simulated player the answer to its interaction as soon as it is final (an asyncio
  future, so a thousand players wait without a thread each). It keeps the size of uploads, not their
  bytes: ten thousand board images held twice (the call log and the CDN) would cost gigabytes and
  measure nothing.
- `refusal_key`: the catalog key of a refusal, read back from its words (the fake sees text only).
- `load_database`: the run's own database, a SQLite file or the `load_test` database on the
  PostgreSQL server, dropped at the end; `row_counts` of every table.
- seeding: running Space Chess games stored through the store, each with its pinned status message
  already on the fake (a live community's games have one), so a change edits it as it would.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import re
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from sqlalchemy import func, inspect, select, text
from sqlalchemy.engine import make_url

from bot.i18n import catalog
from bot.store import GameRecord, Store
from bot.store.discord_state import dirty_games, keep_status_message, set_status_pin
from bot.store.models import OutboxRow
from engine import registry
from tests.discord_shapes import EPHEMERAL
from tests.fake_discord.core import Answer as CoreAnswer
from tests.fake_discord.payloads import Channel, Guild, Member
from tests.fake_discord.ratelimits import DEFAULT, RULES, Rule
from tests.fake_discord.records import UploadedFile
from tests.fake_discord.server import FakeDiscord

CALLBACK = re.compile(r"/interactions/(\d+)/([^/]+)/callback")
WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)(/.*)?")
CHANNEL_POST = re.compile(r"/channels/(\d+)/messages")


# --- the fake, timed ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """One REST request as the fake answered it, and when (the fake's clock)."""

    at: float
    method: str
    path: str
    status: int
    code: int | None  # Discord's JSON error code of a refusal
    scope: str | None  # a 429's scope: global or user


@dataclass
class Answer:
    """What a player saw of one interaction: its creation, its initial response (a message or a
    deferral), its final message."""

    interaction_id: int
    created: float
    initial: float | None = None
    final: float | None = None
    message: dict[str, Any] | None = None

    @property
    def private(self) -> bool:
        return bool(self.message and int(self.message.get("flags") or 0) & EPHEMERAL)


class _Sizes(dict[int, bytes]):
    """The fake CDN without the bytes: an upload is answered (its size is in its attachment) and forgotten."""

    def __setitem__(self, key: int, value: bytes) -> None:
        super().__setitem__(key, b"")


def rule_of(method: str, path: str) -> Rule:
    """The fake's rate-limit rule of a request: its bucket's name, and whether Discord counts it against
    the bot's 50 requests a second."""
    return next((rule for rule in RULES if rule.method in ("*", method) and re.fullmatch(rule.pattern, path)),
                DEFAULT)


class LoadFake(FakeDiscord):
    """The e2e fake, with every request timed and every interaction's answer awaitable."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store.files = _Sizes()
        self.requests: list[Request] = []
        self.answers: dict[int, Answer] = {}
        self._tokens: dict[str, int] = {}
        self._waiters: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future[Answer]]] = {}
        #: channels whose first post with a nonce (an outbox post) is awaited, and when each came
        self.watched: set[int] = set()
        self.first_posts: dict[int, float] = {}
        self._senders = ThreadPoolExecutor(8, thread_name_prefix="load-sender")

    def stop(self) -> None:
        super().stop()
        self._senders.shutdown(wait=False, cancel_futures=True)

    def handle(self, method: str, path: str, body: Any = None, files: Sequence[UploadedFile] = (),
               **kwargs: Any) -> CoreAnswer:
        """The core's answer, timed; the call it recorded keeps no upload bytes."""
        answer = super().handle(method, path, body, files, **kwargs)
        now = self.clock()
        with self._cond:
            for index in range(len(self.calls) - 1, -1, -1):  # this request's call: the latest of its body
                call = self.calls[index]
                if call.json is body and call.path == path:
                    if call.files:
                        self.calls[index] = dataclasses.replace(call, files=())
                    break
            refusal = answer.json if isinstance(answer.json, dict) and answer.status >= 400 else {}
            scope = ("global" if refusal.get("global") else "user") if answer.status == 429 else None
            self.requests.append(Request(now, method, path, answer.status, refusal.get("code"), scope))
            self._note_post(method, path, answer.status, body, now)
            self._note_answer(method, path, answer.status, now)
        return answer

    def _note_post(self, method: str, path: str, status: int, body: Any, now: float) -> None:
        found = CHANNEL_POST.fullmatch(path)
        if method == "POST" and found and status < 300 and isinstance(body, dict) and body.get("nonce"):
            channel = int(found[1])
            if channel in self.watched and channel not in self.first_posts:
                self.first_posts[channel] = now

    def _note_answer(self, method: str, path: str, status: int, now: float) -> None:
        callback = CALLBACK.fullmatch(path)
        if callback:
            interaction_id = int(callback[1])
            self._tokens[callback[2]] = interaction_id
        else:
            webhook = WEBHOOK.fullmatch(path)
            interaction_id = self._tokens.get(webhook[1], 0) if webhook else 0
        log = self.interactions.get(interaction_id)
        if log is None:
            return
        answer = self.answers.setdefault(interaction_id, Answer(interaction_id, log.created))
        if callback and status < 300 and answer.initial is None:
            answer.initial = now
        if answer.final is None and (message := self._final(interaction_id)) is not None:
            answer.final, answer.message = now, dict(message)
            waiter = self._waiters.pop(interaction_id, None)
            if waiter is not None:
                loop, future = waiter
                loop.call_soon_threadsafe(_settle, future, answer)

    def _final(self, interaction_id: int) -> dict[str, Any] | None:
        """The fake's own reading of the final answer; an answer message deleted since is none."""
        try:
            return self._reply(interaction_id)
        except KeyError:
            return None

    async def ask(self, member: Member, path: str, options: Mapping[str, Any], channel: Channel,
                  timeout: float) -> Answer:
        """A slash command typed by `member`, and what came of it once final (or after `timeout`
        seconds: an answer without `final`)."""
        loop = asyncio.get_running_loop()
        interaction_id = await loop.run_in_executor(
            self._senders, partial(self.slash, member, path, options, channel=channel))
        future: asyncio.Future[Answer] = loop.create_future()
        with self._cond:
            log = self.interactions[interaction_id]
            answer = self.answers.setdefault(interaction_id, Answer(interaction_id, log.created))
            if answer.final is not None:
                return answer
            self._waiters[interaction_id] = (loop, future)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            with self._cond:
                self._waiters.pop(interaction_id, None)
            return answer

    def watch_posts(self, channels: Sequence[Channel]) -> None:
        with self._cond:
            self.watched = {channel.id for channel in channels}
            self.first_posts = {}

    def add_status_message(self, channel: Channel) -> int:
        """A pinned message of the bot already in the channel (what a status message is on Discord)."""
        with self._cond:
            created = self.store.create(channel.id, {"content": "status"}, ())
            created["pinned"] = True
            return int(created["id"])

    def requests_since(self, start: float, end: float = float("inf")) -> list[Request]:
        with self._cond:
            return [r for r in self.requests if start <= r.at <= end]


def _settle(future: asyncio.Future[Answer], answer: Answer) -> None:
    if not future.done():
        future.set_result(answer)


# --- refusals, read back ---------------------------------------------------------------------------------


@cache
def _refusal_patterns(language: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each ``error.*`` sentence as a pattern, its placeholders matching anything; the most specific
    (most literal text) first, so a sentence that another one contains does not take its place."""
    found = []
    for key, sentence in catalog(language).items():
        if not key.startswith("error."):
            continue
        parts = re.split(r"\{[a-z_0-9]+\}", sentence)
        found.append((len("".join(parts)), key, re.compile("(?s)" + "(.+?)".join(re.escape(p) for p in parts))))
    found.sort(key=lambda item: -item[0])
    return tuple((key, pattern) for _, key, pattern in found)


def refusal_key(content: str, language: str = "fr") -> str:
    """The catalog key of a refusal the bot wrote (exact sentence first, else one it contains)."""
    patterns = _refusal_patterns(language)
    for key, pattern in patterns:
        if pattern.fullmatch(content):
            return key
    for key, pattern in patterns:
        if pattern.search(content):
            return key
    return "unrecognised"


# --- the database ----------------------------------------------------------------------------------------

LOAD_DATABASE = "load_test"


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@contextmanager
def load_database(kind: str, folder: Path, server: str | None) -> Iterator[str]:
    """The URL of an empty database of the run's own: a SQLite file in `folder`, or `load_test` on
    the PostgreSQL `server`, dropped on the way out whatever happened."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'load.sqlite'}"
        return
    if not server:
        raise SystemExit("--database postgresql needs SPACECHESS_TEST_DATABASE_URL naming a server")
    import psycopg

    def admin(statement: str) -> None:
        with psycopg.connect(_libpq(server), autocommit=True) as connection:
            connection.execute(statement)

    admin(f'DROP DATABASE IF EXISTS "{LOAD_DATABASE}" WITH (FORCE)')
    admin(f'CREATE DATABASE "{LOAD_DATABASE}"')
    try:
        yield make_url(server).set(database=LOAD_DATABASE).render_as_string(hide_password=False)
    finally:
        admin(f'DROP DATABASE IF EXISTS "{LOAD_DATABASE}" WITH (FORCE)')


def row_counts(store: Store) -> dict[str, int]:
    """Rows of every table of the bot (Alembic's bookkeeping aside), and the outbox posts not sent."""
    counts = {}
    with store.engine.connect() as connection:
        for table in sorted(inspect(connection).get_table_names()):
            if table != "alembic_version":
                counts[table] = connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one()
        counts["outbox (unsent)"] = connection.execute(
            select(func.count()).select_from(OutboxRow).where(OutboxRow.sent_at.is_(None))).scalar_one()
    return counts


def owed(store: Store) -> tuple[int, int]:
    """(outbox posts not sent, games whose status message is owed a refresh): both 0 once settled."""
    with store.engine.connect() as connection:
        unsent = connection.execute(
            select(func.count()).select_from(OutboxRow).where(OutboxRow.sent_at.is_(None))).scalar_one()
    return unsent, len(dirty_games(store))


# --- seeding ----------------------------------------------------------------------------------------------

#: A running game of two generals and two soldiers; the soldiers (bolter, light armour: one AP a
#: cell) are the two players' characters, with the nine AP a character may hold.
SOLDIER = {"role": "soldier", "weapon": "bolter", "armour": "light", "items": ["scope", "vigour"],
           "ability": "rage", "cards": [3, 4], "ap": 9}
ORDER_GAME = {"map": "standard", "characters": [
    {"id": "g1", "team": 1, "role": "general", "at": "A1", "cards": [1, 2]},
    {"id": "s1", "team": 1, "at": "E1", **SOLDIER},
    {"id": "g2", "team": 2, "role": "general", "at": "A44", "cards": [1, 2]},
    {"id": "s2", "team": 2, "at": "E44", **SOLDIER},
]}
#: each seated soldier's two cells: the players move back and forth between them
CELLS = {"s1": ("E2", "E1"), "s2": ("E43", "E44")}
AP = 9


@dataclass
class Seated:
    """One simulated player: a member of the server seated at a soldier of one game."""

    member: Member
    channel: Channel
    game_id: int
    actor: str
    orders: list[str] = field(default_factory=list)


def seed_order_games(store: Store, fake: LoadFake, guilds: Sequence[Guild], count: int) -> list[Seated]:
    """`count` running games spread over `guilds`, two seated players each, with status messages."""
    rules = registry.get("spacechess")
    state = rules.to_json(rules.setup(ORDER_GAME, 0))
    players = []
    for number in range(count):
        guild = guilds[number % len(guilds)]
        channel = fake.add_channel(f"load-{number}", guild=guild)
        seats = [(fake.add_member(f"p{number}-{actor}", guild=guild), actor) for actor in CELLS]
        game = store.create_game(kind="spacechess", name=f"Load {number}", guild_id=guild.id, channel_id=channel.id,
                                 setup=ORDER_GAME, state=state, seed=0, created_by=fake.owner.id, status="running",
                                 entries=[], seats=[(member.user.id, actor, False) for member, actor in seats])
        add_status(store, fake, game, channel)
        players += [Seated(member, channel, game.id, actor) for member, actor in seats]
    return players


def add_status(store: Store, fake: LoadFake, game: GameRecord, channel: Channel) -> None:
    """The game's pinned status message, on the fake and in the database, showing the game as it is."""
    message_id = fake.add_status_message(channel)
    keep_status_message(store, game.id, channel.id, message_id, dt.datetime.now(dt.UTC))
    set_status_pin(store, game.id, "pinned")
