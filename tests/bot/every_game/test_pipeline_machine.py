"""The proof that covers every seam (issue 22): a stateful property test for every game of the list.

Players give legal orders, computers hold seats, timers fire at the moments they fall due, and a GM
pauses, resumes, undoes, kicks and hands seats over, in any order hypothesis finds. Two worlds run
side by side, alike but for the secret orders of one player; after every step:

- what anybody but that player reads — the channel's share of every reply and its images, another
  player's and a spectator's history, the status message, the board, the web page, the GM's undo
  listing and export — is the same in both worlds while the orders are sealed ("two worlds");
- exactly one clock or deadline runs while the game waits on someone, none on a paused clock game
  or a finished game;
- every seat the game waits on has a member or a computer;
- a reply's messages are bounded by the inputs it committed;
- replaying the log gives the snapshot; and at the end, export then import gives the same public
  state;
- each post a change owes is in the outbox once: every row names the change that owes it (a commit
  that happened, a claim that is taken), no change wrote the same post twice, and every change a
  timer made (nobody asked for it, so its post is all anyone reads of it) owes a post.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bot.drivers import plays_as, timer_handlers
from bot.games import driver_of
from bot.i18n import translate
from bot.service import Attachment, Context, GameService, Reply, Visibility
from bot.service.computers import computers_of
from bot.service.status import status_messages
from bot.store import Store
from bot.store.models import OutboxRow
from bot.store.outbox import commit_cause
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from bot.web.page import page_html
from engine import registry

GUILD, CHANNEL, ELSEWHERE = 10, 500, 501
FIRST_SATURDAY = dt.date(2024, 3, 2)  # Loto evenings of the new format, for a game of manual draws
NOW = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
EVE = Context(user_id=99, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)  # a spectator
PLAYERS = [Context(user_id=10 + n, user_name=name, guild_id=GUILD, channel_id=CHANNEL)
           for n, name in enumerate(("ann", "bob", "cid"))]
NEWCOMER = Context(user_id=50, user_name="fay", guild_id=GUILD, channel_id=CHANNEL)
#: a sealed payload's ciphertext differs between worlds by its random nonce alone
SEALED_TOKEN = re.compile(r'"sealed(_seed)?": "[^"]*"')
#: a time on the web page: when each world wrote its log entry (real time), as the reader's words
WEB_TIME = re.compile(r"<time[^>]*>[^<]*</time>")


@dataclass(frozen=True)
class Lobby:
    """How a game of this kind gets two players (and maybe a computer) and starts."""

    group: str
    new: dict[str, Any] = field(default_factory=dict)
    joins: tuple[dict[str, Any], ...] = ({"name": "Ann"}, {"name": "Bob"})
    computer: str | None = None  # a level: a computer takes the third seat
    ready: str | None = None  # the command that says "my orders are final" (SpaceBlast)
    setup: bytes = b""  # a setup document with its characters placed: `/gm replace` seats the members
    draws: bool = False  # the game takes lottery draws (`/gm draw`)


LOBBIES: dict[str, Lobby] = {
    "duel": Lobby("td", {"clock_hours": 10, "timeout": "forfeit"}),
    "sealed": Lobby("ts", {"turn_hours": 24, "reminders": "6"}, ready="ts ready"),
    "tally": Lobby("tl"),
    "spaceblast": Lobby("sb", {"radius": 4, "turn_hours": 24}, computer="easy", ready="sb ready"),
    "arkeon": Lobby("ak", {"clock_hours": 24, "timeout": "forfeit"}),
    "hexarena": Lobby("hx", {"clock_hours": 24, "timeout": "forfeit"},
                      joins=({"name": "Ann"}, {"name": "Bob", "side": "blue"})),
    "spacechess": Lobby("sc", {"draws": "manual"}, joins=(), draws=True, setup=b"""
[setup]
map = '''
........
........
........
........
........
........
........
........
'''
characters = [
  { id = "Ann", team = 1, role = "general", at = "H1", cards = [1, 2], ap = 6 },
  { id = "Cid", team = 1, role = "soldier", at = "A1", weapon = "bolter", armour = "light", items = ["grenades", "scope"], ability = "rage", cards = [3, 4], ap = 6 },
  { id = "Bob", team = 2, role = "general", at = "C8", cards = [5, 6], ap = 6 },
  { id = "Dee", team = 2, role = "soldier", at = "H8", weapon = "bolter", armour = "light", items = ["grenades", "scope"], ability = "rage", cards = [7, 1], ap = 6 },
]
"""),
}


def shown(reply: Reply) -> tuple[Any, ...]:
    """What a reply shows in the channel: its public messages (with their words) and images."""
    if reply.visibility is Visibility.PRIVATE:
        return ()
    return (tuple(translate(m.key, "en", m.params) for m in reply.messages),
            tuple((f.filename, f.data) for f in reply.files))


class World:
    """One bot with one game, on a SQLite file of its own."""

    def __init__(self, kind: str) -> None:
        self.folder = tempfile.TemporaryDirectory()
        self.store = Store(f"sqlite:///{Path(self.folder.name) / 'world.sqlite'}")
        self.now = NOW
        self.svc = GameService(self.store, seed_source=lambda: 4242, clock=lambda: self.now)
        self.kind = kind
        self.lobby = LOBBIES[kind]
        self.rules = registry.get(kind)
        self.posts: list[Reply] = []
        #: the commits nobody asked for (a timer's): each owes a post in the channel
        self.unasked: set[str] = set()

    def close(self) -> None:
        self.store.close()
        self.folder.cleanup()

    # -- what the hooks receive ----------------------------------------------------------------
    def on_turn_post(self, game: Any, reply: Reply) -> None:
        self.posts.append(reply)

    def on_gm_alert(self, game: Any, reply: Reply) -> None:
        self.posts.append(reply)

    # -- reading ------------------------------------------------------------------------------
    @property
    def game(self) -> Any:
        return self.store.game_in_channel(GUILD, CHANNEL)

    def state(self) -> Any:
        return self.rules.from_json(self.game.state)

    def handle(self, ctx: Context, path: str, options: dict[str, Any] | None = None) -> Reply:
        return self.svc.handle(ctx, path, options or {})

    def confirmed(self, ctx: Context, path: str, options: dict[str, Any]) -> Reply:
        """A GM command that asks first, then its button pressed."""
        ask = self.handle(ctx, path, options)
        return self.handle(ctx, ask.buttons[0].command, dict(ask.buttons[0].options)) if ask.buttons else ask

    def seats(self) -> list[Any]:
        return self.store.seats(self.game.id)

    def member_of(self, actor: str) -> Context | None:
        for seat in self.seats():
            if plays_as(self.rules, self.state(), seat.actor, actor):
                return next((c for c in (*PLAYERS, NEWCOMER, GM) if c.user_id == seat.user_id), None)
        return None

    def outsider_view(self, insider: Context) -> tuple[Any, ...]:
        """Everything anybody but `insider` reads now, with each sealed ciphertext masked."""
        others = [c for c in (*PLAYERS, EVE) if c.user_id != insider.user_id]
        readings: list[Any] = []
        for ctx in others:
            readings += [shown(self.handle(ctx, "game history", {})), shown(self.handle(ctx, "game board", {}))]
        readings.append(tuple(translate(m.key, "en", m.params) for m in status_messages(self.svc, self.game)))
        # the web companion's page of the game, as any visitor of its link reads it (issue 29)
        # (the log's times are each world's own clock reading: masked, as the sealed ciphertexts are)
        readings.append(WEB_TIME.sub("<time>…</time>", page_html(self.svc, self.game, "en", 1, "/g/token")))
        undo = self.handle(GM, "gm undo", {"n": 5})
        readings.append(tuple(translate(m.key, "en", m.params) for m in undo.messages))
        export = self.handle(GM, "gm export", {})
        if export.files:
            document = json.loads(SEALED_TOKEN.sub('"sealed": "…"', export.files[0].data.decode()))
            log = [{k: v for k, v in entry.items() if k != "time"} for entry in document.pop("log")]
            readings.append(json.dumps({**document, "log": log}, sort_keys=True))
        return tuple(readings)


class PipelineMachine(RuleBasedStateMachine):
    """Both worlds take every step; world B's secret player orders otherwise while sealed."""

    kind = "duel"

    def __init__(self) -> None:
        super().__init__()
        self.a = World(self.kind)
        self.b = World(self.kind) if self.a.rules.secret_kinds else self.a
        self.diverged = False  # a reveal happened since the worlds' orders differ: compare no more
        self.secret_player = PLAYERS[0]

    def teardown(self) -> None:
        try:
            if not self.diverged:
                self.check_export_imports_the_same_game(self.a)
        finally:
            for world in self.worlds():
                world.close()

    def worlds(self) -> tuple[World, ...]:
        """Both worlds for a game with secrets; a game without any needs only one."""
        return (self.a, self.b) if self.a.rules.secret_kinds else (self.a,)

    # -- setting up -----------------------------------------------------------------------------
    @initialize()
    def start(self) -> None:
        for world in self.worlds():
            lobby = world.lobby
            setup = {"setup": Attachment("seam.toml", lobby.setup)} if lobby.setup else {}
            created = world.handle(GM, f"{lobby.group} new", {"name": "Seam", **lobby.new, **setup})
            assert created.ok, created.messages
            if lobby.setup:  # its characters are placed: members take them
                for ctx, actor in zip(PLAYERS, world.rules.actors(world.state()), strict=False):
                    assert world.handle(GM, "gm replace", {"character": actor, "user": ctx.user_id}).ok
            for ctx, options in zip(PLAYERS, lobby.joins, strict=False):
                joined = world.handle(ctx, f"{lobby.group} join", options)
                assert joined.ok, joined.messages
            if lobby.computer:
                assert world.handle(GM, f"{lobby.group} challenge", {"level": lobby.computer}).ok
            if world.game.status == "setup":
                started = world.handle(GM, "gm start", {})
                assert started.ok, started.messages

    # -- steps ----------------------------------------------------------------------------------
    @rule(player=st.integers(0, 2), choice=st.integers(0, 1_000))
    def order(self, player: int, choice: int) -> None:
        for world in self.worlds():
            state = world.state()
            actors = world.rules.waiting_on(state) or world.rules.actors(state)
            if not actors:
                return
            actor = actors[player % len(actors)]
            member = world.member_of(actor)
            if member is None:
                return
            legal = list(islice(world.rules.legal_orders(state, actor), 40))
            if not legal:
                return
            pick = choice + (1 if world is self.b and member == self.secret_player and self.sealed() else 0)
            text = world.rules.format_order(legal[pick % len(legal)])
            self.step(world, member, f"{world.lobby.group} order", {"text": text})

    @precondition(lambda self: self.a.lobby.ready is not None)
    @rule(player=st.integers(0, 2))
    def ready(self, player: int) -> None:
        for world in self.worlds():
            self.step(world, PLAYERS[player], world.lobby.ready or "", {})

    @precondition(lambda self: self.a.lobby.draws)
    @rule(numbers=st.lists(st.integers(1, 49), min_size=5, max_size=5, unique=True), week=st.integers(0, 30))
    def draw(self, numbers: list[int], week: int) -> None:
        """A Loto evening typed by a GM (a game of manual draws takes past ones; each once)."""
        for world in self.worlds():
            text = " ".join(map(str, numbers))
            day = (FIRST_SATURDAY + dt.timedelta(weeks=week)).isoformat()
            before = len(world.store.log(world.game.id))
            reply = world.confirmed(GM, "gm draw", {"numbers": text, "date": day})
            self.check_bounded(reply, len(world.store.log(world.game.id)) - before)

    @rule()
    def timer_falls_due(self) -> None:
        for world in self.worlds():
            timers = game_timers(world.store, world.game.id)
            if not timers:
                return
            world.now = max(world.now, timers[0].due_at)
            before, version = len(world.store.log(world.game.id)), world.game.version
            TimerRunner(world.store, timer_handlers(world.svc, world), clock=lambda w=world: w.now).run_due(world.now)
            world.unasked.update(commit_cause(v) for v in range(version + 1, world.game.version + 1))
            self.check_bounded(Reply(tuple(m for post in world.posts for m in post.messages)),
                               len(world.store.log(world.game.id)) - before)
            world.posts.clear()

    @rule()
    def pause_or_resume(self) -> None:
        for world in self.worlds():
            path = "gm resume" if world.game.status == "paused" else "gm pause"
            self.step(world, GM, path, {})

    @rule(n=st.integers(1, 3))
    def undo(self, n: int) -> None:
        for world in self.worlds():
            before = len(world.store.log(world.game.id))
            reply = world.confirmed(GM, "gm undo", {"n": n})
            self.check_bounded(reply, len(world.store.log(world.game.id)) - before)

    @rule(player=st.integers(0, 1))
    def kick(self, player: int) -> None:
        for world in self.worlds():
            world.confirmed(GM, "gm kick", {"user": PLAYERS[player].user_id})

    @rule()
    def replace_to_newcomer(self) -> None:
        for world in self.worlds():
            state = world.state()
            free = [a for a in world.rules.actors(state) if world.member_of(a) is None
                    and a in computers_of(world.game.options)]
            if free and world.store.seat_of_user(world.game.id, NEWCOMER.user_id) is None:
                world.handle(GM, "gm replace", {"character": free[0], "user": NEWCOMER.user_id})

    # -- the checks ----------------------------------------------------------------------------
    def sealed(self) -> bool:
        return bool(self.a.rules.secret_kinds) and not self.diverged

    def step(self, world: World, ctx: Context, path: str, options: dict[str, Any]) -> Reply:
        before = len(world.store.log(world.game.id))
        reply = world.handle(ctx, path, options)
        self.check_bounded(reply, len(world.store.log(world.game.id)) - before)
        world.last = reply  # type: ignore[attr-defined]
        return reply

    @staticmethod
    def check_bounded(reply: Reply, committed: int) -> None:
        """A reply holds a few messages per input it committed (or a refusal), never a storm."""
        assert len(reply.messages) + len(reply.aside) <= 12 * (committed + 1), (committed, len(reply.messages))

    @invariant()
    def replaying_the_log_gives_the_snapshot(self) -> None:
        for world in self.worlds():
            game = world.game
            replayed = world.svc.replay(game, world.store.log(game.id))
            assert world.rules.to_json(replayed) == game.state

    @invariant()
    def one_clock_or_deadline_for_whom_the_game_waits_on(self) -> None:
        for world in self.worlds():
            game, state = world.game, world.state()
            timers = {t.kind: t for t in game_timers(world.store, game.id)}
            driver = driver_of(game.kind).name
            waiting = world.rules.waiting_on(state) if game.status == "running" else ()
            if game.status == "finished":
                assert timers == {}, timers
            elif driver == "clock":
                assert ("clock" in timers) == bool(waiting), (timers, waiting, game.status)
                if waiting:
                    assert timers["clock"].payload["actor"] == waiting[0]
            elif driver == "deadline" and game.status == "running":
                assert "deadline" in timers

    @invariant()
    def everyone_waited_on_has_a_member_or_a_computer(self) -> None:
        for world in self.worlds():
            game, state = world.game, world.state()
            if game.status != "running":
                continue
            holders = [seat.actor for seat in world.seats()] + list(computers_of(game.options))
            for actor in world.rules.waiting_on(state):
                assert any(plays_as(world.rules, state, held, actor) for held in holders), (actor, holders)

    @invariant()
    def each_owed_post_is_in_the_outbox_once(self) -> None:
        for world in self.worlds():
            game = world.game
            table = OutboxRow.__table__  # type: ignore[attr-defined]
            with world.store.engine.connect() as connection:
                rows = connection.execute(table.select().where(table.c.game_id == game.id)).all()
            written: dict[tuple[Any, ...], int] = {}
            for row in rows:
                assert row.owed_by is not None, row  # a game's post is owed by a change of it
                if row.owed_by.startswith("v"):
                    assert int(row.owed_by[1:]) <= game.version, (row.owed_by, game.version)
                else:
                    assert world.store.claim_taken(row.owed_by), row.owed_by
                # the post as it is sent (its pictures are dropped once sent)
                post = {k: v for k, v in row.payload.items() if k not in ("files", "drawing")}
                key = (row.owed_by, row.kind, row.channel_id, json.dumps(post, sort_keys=True))
                written[key] = written.get(key, 0) + 1
            twice = {key[:2]: n for key, n in written.items() if n > 1}
            assert not twice, twice
            unposted = world.unasked - {row.owed_by for row in rows}
            assert not unposted, unposted

    @invariant()
    def nobody_else_reads_a_sealed_order(self) -> None:
        if not self.a.rules.secret_kinds or self.diverged:
            return
        log = self.a.store.log(self.a.game.id)
        revealed = any(e.kind in self.a.rules.reveal_kinds for e in log)
        if revealed or self.a.game.status == "finished":
            self.diverged = True  # the reveal shows the orders: the worlds may differ from now on
            return
        assert self.a.outsider_view(self.secret_player) == self.b.outsider_view(self.secret_player)

    def check_export_imports_the_same_game(self, world: World) -> None:
        export = world.handle(GM, "gm export", {})
        elsewhere = Context(user_id=GM.user_id, user_name="gm", guild_id=GUILD, channel_id=ELSEWHERE,
                            manage_server=True)
        imported = world.handle(elsewhere, "gm import", {"file": export.files[0]})
        assert imported.ok, imported.messages
        copy = world.store.game_in_channel(GUILD, ELSEWHERE)
        assert world.rules.view(world.rules.from_json(copy.state)) == world.rules.view(world.state())


def machine_for(kind: str) -> type[PipelineMachine]:
    machine = type(f"{kind.title()}Machine", (PipelineMachine,), {"kind": kind})
    machine.TestCase.settings = settings(max_examples=4, stateful_step_count=10, deadline=None,
                                         suppress_health_check=list(HealthCheck))
    return machine


@pytest.mark.parametrize("kind", sorted(LOBBIES))
def test_every_change_keeps_secrets_clocks_seats_and_the_log_right(kind: str) -> None:
    machine_for(kind).TestCase().runTest()


def test_the_machine_covers_every_game_of_the_list() -> None:
    """A game added to the list is added here too, or this fails: the proof covers every game."""
    from bot.games import games

    assert set(LOBBIES) == {entry.kind for entry in games()}
