"""What an interaction costs this bot against a bare discord.py bot (issue 28, point 4), side by side
on the load test's loopback fake Discord with its driver (`load_test.play`: simulated players, each
waiting for its answer before its next `/sc order`, `--clients` typing at once).

The bare bot is discord.py alone — the same library, intents and fake — with one `/sc order` command
that answers at once, with its text only or with a PNG of the board's size: the floor any discord.py
bot pays. The bots run one at a time, alternating, `--rounds` times: this bot, the bare one with text,
the bare one with the PNG. Then this bot once more, restarted with `--fanout-games` more games whose
draw is due: its players order while it applies the draw and posts every game's turn (a restart and
a fan-out at once, the worst minute of an evening).

Printed, a row per bot and scenario: orders a second, the initial answer's p50 and p99 (from the
interaction's creation to the callback the fake recorded: what Discord's 3 s are about), the final
answer's p99, deferrals, and the bot's CPU per order (user + system time over the orders, its drawing processes' included);
for this bot, its accepted moves (which carry the board) and refusals apart; the ratios to the bare
bot with the PNG; for the fan-out, its last turn post against Discord's floor. Not a test: nothing
is asserted on times.

`--game` picks what this bot's players play (issue 28, point 5); the bare bot's PNG is then of the
size of this bot's pictures in its first round (its GIF for SpaceBlast), and the fan-out is left out
unless `--fanout-games` is given:
- spaceblast: `--games` arenas of three ships, each player's `/sb order` then `/sb ready` a turn, the
  last ready resolving the turn (its public answer carries the turn's GIF: the "resolving" line);
- hexarena: the Space Chess players' orders while `--computers` HexArena players each play against
  the computer at its hard level (`/hx order`, then waiting for the computer's move, searched ~2 s
  in the bot's thinking process after the answer): the players' own answers, and the computers'
  replies from the move to the computer's move committed.

Run: python benchmarks/bench_interactions.py [--game spacechess|spaceblast|hexarena] [--games N]
     [--orders N] [--clients N] [--rounds N] [--fanout-games N] [--computers N]
     [--drawing thread|process] [--keep-logs DIR] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_service_order import percentile  # noqa: E402
from load_support import AP, Answer, LoadFake, Seated, add_status, load_database, seed_order_games  # noqa: E402
from load_test import (  # noqa: E402
    ANSWER_TIMEOUT,
    answer_key,
    bot_processes,
    plan_orders,
    play,
    seed_fan_out,
    wait_settled,
)

from bot.service import Context  # noqa: E402
from bot.store import Store  # noqa: E402
from engine import registry  # noqa: E402
from tests.e2e.botproc import START_TIMEOUT, BotProcess, bot_env  # noqa: E402
from tests.e2e.fdj_file import FdjFile, past_evenings  # noqa: E402
from tests.fake_discord.payloads import Channel, Member  # noqa: E402
from tests.fake_discord.ratelimits import GLOBAL_PER_SECOND  # noqa: E402

#: the bare bot: discord.py, the bot's intents, one `/sc order` answered at once (with a PNG if given)
BARE_BOT = '''
import io, sys
import discord, yarl
from discord import app_commands

api, gateway, png_path = sys.argv[1:4]
discord.http.Route.BASE = api.rstrip("/")
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
png = open(png_path, "rb").read() if png_path != "-" else None
client = discord.Client(intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none())
tree = app_commands.CommandTree(client)
group = app_commands.Group(name="sc", description="sc")


@group.command(name="order", description="order")
async def order(interaction: discord.Interaction, text: str) -> None:
    files = [discord.File(io.BytesIO(png), filename="board.png")] if png is not None else []
    await interaction.response.send_message(f"order {text}", files=files)


tree.add_command(group)
client.run("fake-token", log_handler=None)
'''


@dataclass(frozen=True)
class Played:
    """One interaction of a player: what it was (the report's line: "accepted moves (board PNG)",
    "resolving the turn (GIF)"...), and what the player saw of it."""

    label: str
    answer: Answer
    key: str  # "ok", a refusal's catalog key, or "timeout" (`load_test.answer_key`)


@dataclass
class Row:
    bot: str
    scenario: str
    outcomes: list[Played]
    seconds: float
    cpu_seconds: float
    deferred: int
    fan_out: str = ""
    #: what else the row measured, said under it (the computers' replies)
    notes: list[str] = dataclasses.field(default_factory=list)

    def initial(self, label: str | None = None) -> list[float]:
        return [(o.answer.initial - o.answer.created) * 1000 for o in self.outcomes
                if o.answer.initial is not None and (label is None or o.label == label)]

    def final(self, label: str | None = None) -> list[float]:
        return [(o.answer.final - o.answer.created) * 1000 for o in self.outcomes
                if o.answer.final is not None and (label is None or o.label == label)]

    @property
    def labels(self) -> list[str]:
        return sorted({o.label for o in self.outcomes})

    @property
    def cpu_ms(self) -> float:
        return self.cpu_seconds * 1000 / max(1, len(self.outcomes))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far and of the processes it started (its drawing and
    thinking processes: what it costs, wherever it runs), from Linux's /proc."""
    ticks, parents = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended meanwhile
        child = int(stat.parent.name)
        parents[child] = int(fields[1])
        ticks[child] = sum(int(f) for f in fields[11:15])  # its own user + system, and its ended children's

    def descends(process: int) -> bool:
        while process not in (pid, 0, 1):
            process = parents.get(process, 0)
        return process == pid

    return sum(count for process, count in ticks.items() if descends(process)) / os.sysconf("SC_CLK_TCK")


def settled(pid: int, *, quiet: float = 0.05, timeout: float = 60.0) -> None:
    """Wait until process `pid` is done starting (its command sync, status resume, presenters'
    warm-up): under `quiet` of a core over half a second, twice in a row. An idle row measures orders,
    not the start, which the restart row measures."""
    deadline, calm = time.monotonic() + timeout, 0
    while calm < 2 and time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        calm = calm + 1 if cpu_seconds(pid) - before < quiet * 0.5 else 0


def board_sized_png(folder: Path, size: int) -> Path:
    """A PNG of about a board's bytes (noise does not compress: its size is its pixels')."""
    from PIL import Image

    side = int((size / 3) ** 0.5)
    buffer = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(buffer, "PNG")
    path = folder / "board.png"
    path.write_bytes(buffer.getvalue())
    return path


class BareBot:
    """The bare bot's process on the fake: started, waited for (its IDENTIFY), measured, stopped."""

    def __init__(self, fake: LoadFake, folder: Path, png: Path | None) -> None:
        self.fake = fake
        self.script = folder / "bare_bot.py"
        self.script.write_text(BARE_BOT, encoding="utf-8")
        self.png = png
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        identified = len(self.fake.identifies)
        self.proc = subprocess.Popen(
            [sys.executable, str(self.script), self.fake.api_base, self.fake.gateway_url, str(self.png or "-")],
            env=bot_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.fake.wait_until(lambda: len(self.fake.identifies) > identified, timeout=START_TIMEOUT,
                             what="IDENTIFY from the bare bot", abort=self.died)

    def died(self) -> str | None:
        return None if self.proc is None or self.proc.poll() is None else f"the bare bot exited ({self.proc.returncode})"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


#: a batch of interactions: played against the fake, what came of each
Batch = Callable[[], Awaitable[list[Played]]]


def measure(fake: LoadFake, pid: int, bot: str, scenario: str, batch: Batch) -> Row:
    """One batch of interactions against the bot process `pid`: its rate, latencies and CPU."""
    with fake._cond:
        first = len(fake.requests)
    cpu, started = cpu_seconds(pid), time.perf_counter()
    outcomes = asyncio.run(batch())
    seconds, cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
    with fake._cond:
        deferred = sum(1 for o in outcomes if fake.interactions[o.answer.interaction_id].callback_type == 5)
        made = Counter(f"{r.method} {re.sub(r'/[^/]*[0-9][^/]*', '/…', r.path)}"
                       for r in fake.requests[first:])
    spread = ", ".join(f"{route} {count / max(1, len(outcomes)):.2f}" for route, count in made.most_common(6))
    return Row(bot, scenario, outcomes, seconds, cpu, deferred, notes=[f"requests an interaction: {spread}"])


def order_batch(fake: LoadFake, players: list[Seated], orders: int, clients: int) -> Batch:
    """`orders` Space Chess orders from `players` (`load_test.play`), after those of earlier batches: a
    soldier goes on to and fro."""
    played = {id(player): len(player.orders) for player in players}
    plan_orders(players, orders)
    batch = [dataclasses.replace(player, orders=player.orders[played[id(player)]:]) for player in players]

    async def run() -> list[Played]:
        return [Played(ACCEPTED if o.key == "ok" else REFUSED, o.answer, o.key)
                for o in await play(fake, batch, clients)]

    return run


ACCEPTED, REFUSED = "accepted moves (board PNG)", "refusals (text only)"


class Asker:
    """The players' interactions, `clients` at a time, each one's outcome kept under its label."""

    def __init__(self, fake: LoadFake, clients: int) -> None:
        self.fake = fake
        self.gate = asyncio.Semaphore(clients)
        self.played: list[Played] = []

    async def __call__(self, member: Member, channel: Channel, path: str, options: dict[str, Any],
                       label: Callable[[Answer], str] | str) -> Answer:
        async with self.gate:
            answer = await self.fake.ask(member, path, options, channel, ANSWER_TIMEOUT)
        self.played.append(Played(label(answer) if callable(label) else label, answer,
                                  answer_key(answer, private_ok=True)))
        return answer


# --- SpaceBlast: orders, ready, and the ready that resolves the turn -------------------------------------

#: ships an arena, and its radius (the largest: ships flying straight on stay in it for ten turns)
SB_SHIPS, SB_RADIUS = 3, 9
#: turns a run may play in all (every round and the fan-out's): past them, ships start leaving the arena
SB_TURNS = 8
SB_ORDER, SB_READY, SB_RESOLVE = "orders (text, private)", "ready (text, private)", "resolving the turn (GIF)"


@dataclass
class Arena:
    """A SpaceBlast game of the run: its channel and its ships' players."""

    channel: Channel
    members: list[Member]


def seeding_service(store: Store) -> Any:
    """The service on the run's database, in this process: games are set up by their commands before
    the bot starts (no interaction: what the e2e tests cover), and the HexArena players' next moves
    read from it."""
    from bot.compose import game_service

    return game_service(store)


def gm_of(fake: LoadFake, channel: Channel) -> Context:
    return Context(user_id=fake.owner.id, user_name="gm", guild_id=fake.guild.id, channel_id=channel.id,
                   manage_server=True)


def player_of(member: Member, channel: Channel, guild: int) -> Context:
    return Context(user_id=member.user.id, user_name=member.user.name, guild_id=guild, channel_id=channel.id)


def started(svc: Any, store: Store, fake: LoadFake, channel: Channel, steps: Sequence[tuple[Context, str, dict]]) -> None:
    """A game set up by `steps` (commands) and started, with its pinned status message."""
    for ctx, path, options in (*steps, (gm_of(fake, channel), "gm start", {})):
        reply = svc.handle(ctx, path, options)
        assert reply.ok, (path, reply.messages)
    add_status(store, fake, store.game_in_channel(fake.guild.id, channel.id), channel)


def seed_arenas(store: Store, fake: LoadFake, count: int) -> list[Arena]:
    """`count` running SpaceBlast games of `SB_SHIPS` ships, each its own player's."""
    svc = seeding_service(store)
    arenas = []
    for number in range(count):
        channel = fake.add_channel(f"arena-{number}")
        members = [fake.add_member(f"a{number}-{ship}") for ship in range(SB_SHIPS)]
        steps = [(gm_of(fake, channel), "sb new", {"name": f"Arena {number}", "radius": SB_RADIUS})]
        steps += [(player_of(m, channel, fake.guild.id), "sb join", {"name": f"Ship{ship}"})
                  for ship, m in enumerate(members)]
        started(svc, store, fake, channel, steps)
        arenas.append(Arena(channel, members))
    return arenas


def gif_bytes(answer: Answer) -> int:
    """The size of the GIF an answer carries (0: none)."""
    return sum(int(a.get("size") or 0) for a in (answer.message or {}).get("attachments", [])
               if str(a.get("filename", "")).endswith(".gif"))


def arena_batch(fake: LoadFake, arenas: list[Arena], turns: int, clients: int) -> Batch:
    """`turns` turns of every arena: each ship's player orders ("none": straight on), then is ready;
    the arena's last ready resolves the turn; the next turn's orders wait for it."""

    async def run() -> list[Played]:
        ask = Asker(fake, clients)

        async def ship(arena: Arena, member: Member, readied: list[int], resolved: list[asyncio.Event]) -> None:
            for turn in range(turns):
                await ask(member, arena.channel, "sb order", {"text": "none"}, SB_ORDER)
                await ask(member, arena.channel, "sb ready", {},
                          lambda answer: SB_RESOLVE if gif_bytes(answer) else SB_READY)
                readied[turn] += 1
                if readied[turn] == len(arena.members):
                    resolved[turn].set()
                await resolved[turn].wait()

        tasks = []
        for arena in arenas:
            readied, resolved = [0] * turns, [asyncio.Event() for _ in range(turns)]
            tasks += [ship(arena, member, readied, resolved) for member in arena.members]
        await asyncio.gather(*tasks)
        return ask.played

    return run


# --- HexArena: moves against the hard computer, thinking while others play --------------------------------

HX_MOVE, HX_LEVEL = "HexArena moves vs the computer", "hard"
#: the computers' replies a run waits for, each
HX_REPLIES = 2


@dataclass
class Duel:
    """A HexArena game of one player (red, to move first) against the computer at its hard level."""

    channel: Channel
    member: Member
    ctx: Context


def seed_duels(store: Store, fake: LoadFake, count: int) -> list[Duel]:
    svc = seeding_service(store)
    duels = []
    for number in range(count):
        channel = fake.add_channel(f"duel-{number}")
        member = fake.add_member(f"h{number}")
        ctx = player_of(member, channel, fake.guild.id)
        started(svc, store, fake, channel, [(gm_of(fake, channel), "hx new", {"name": f"Duel {number}"}),
                                            (ctx, "hx join", {"name": "Ann"}), (ctx, "hx challenge", {"level": HX_LEVEL})])
        duels.append(Duel(channel, member, ctx))
    return duels


def refill(svc: Any, fake: LoadFake, players: Sequence[Seated]) -> None:
    """Every seated soldier's action points back to the most it may hold (`/sc set` by the GM)."""
    for player in players:
        reply = svc.handle(gm_of(fake, player.channel), "sc set", {"character": player.actor, "ap": AP, "reason": "bench"})
        assert reply.ok, reply.messages


def duel_batch(fake: LoadFake, store: Store, duels: list[Duel], players: list[Seated], orders: int,
               clients: int, replies: list[float]) -> Batch:
    """The Space Chess players' orders while each duel's player moves, waits for the computer's
    move and moves again, until the computers replied `HX_REPLIES` times each (batches of `orders`,
    the soldiers' action points given back in between); the computers' replies (ms, from the move's
    creation to the computer's move seen in the database) go to `replies`."""
    svc = seeding_service(store)
    rules = registry.get("hexarena")

    def to_move(duel: Duel) -> tuple[str | None, bool]:
        """The player's next move (None: the computer's turn), and whether the game is over."""
        game = store.game_in_channel(fake.guild.id, duel.channel.id)
        if game is None or game.status != "running":
            return None, True
        if rules.waiting_on(rules.from_json(game.state)) != ("red",):
            return None, False
        return svc.complete(duel.ctx, "hx order", "text", "")[0], False

    async def run() -> list[Played]:
        done = asyncio.Event()
        ask = Asker(fake, clients)

        async def duel(duel: Duel) -> None:
            while not done.is_set():
                move, over = await asyncio.to_thread(to_move, duel)
                if over:
                    return
                if move is None:  # a computer's move still owed from before
                    await asyncio.sleep(0.1)
                    continue
                answer = await ask(duel.member, duel.channel, "hx order", {"text": move}, HX_MOVE)
                while not done.is_set():  # the computer's reply, while the orders go on
                    if (await asyncio.to_thread(to_move, duel)) != (None, False):
                        replies.append((time.time() - answer.created) * 1000)
                        break
                    await asyncio.sleep(0.05)

        async def orders_then_done() -> list[Played]:
            """Batches of `orders` until each computer replied `HX_REPLIES` times (orders past a soldier's
            action points are refused: text answers, counted apart)."""
            played: list[Played] = []
            try:
                while len(replies) < HX_REPLIES * len(duels) and len(played) < HX_REPLIES * 20 * orders:
                    if played:  # the soldiers' action points back, as a GM gives them (no order is in flight)
                        await asyncio.to_thread(refill, svc, fake, players)
                    played += await order_batch(fake, players, orders, clients)()
                return played
            finally:
                done.set()

        played, *_ = await asyncio.gather(orders_then_done(), *(duel(d) for d in duels))
        return [*played, *ask.played]

    return run


# --- the runs ------------------------------------------------------------------------------------------


def fan_out_row(fake: LoadFake, store: Store, process: BotProcess, fdj: FdjFile, args: argparse.Namespace,
                batch: Batch) -> Row:
    """This bot restarted with `--fanout-games` games owed a draw, its players playing `batch` meanwhile."""
    process.stop()
    (evening,) = past_evenings(1)
    channels, _ = seed_fan_out(store, fake, [fake.guild], args.fanout_games, evening)
    fdj.publish(evening, 1)
    fake.watch_posts(channels)
    launched = time.time()
    process.start()
    assert process.proc is not None
    row = measure(fake, process.proc.pid, "this bot", f"restart + {args.fanout_games}-game fan-out", batch)
    fake.wait_until(lambda: len(fake.first_posts) >= len(channels), timeout=120 + 8 * len(channels) / GLOBAL_PER_SECOND,
                    what="a turn post in every game channel", abort=process.died)
    first, last = min(fake.first_posts.values()) - launched, max(fake.first_posts.values()) - launched
    floor = len(channels) / GLOBAL_PER_SECOND
    requests = fake.requests_since(launched, launched + last)
    limited = sum(1 for r in requests if r.status == 429)
    written = written_between(store, [channel.id for channel in channels])
    row.fan_out = (f"last turn post {last:.1f} s after the start (the first {first:.1f} s; "
                   f"{len(channels) / max(1e-9, last - first):.0f} posts/s between; {limited} requests refused "
                   f"429); Discord's floor {floor:.1f} s ({last / floor:.2f}x). Where the start went: the bot's "
                   f"first request {requests[0].at - launched:.1f} s, its posts written (the draw applied) "
                   f"{written[0] - launched:.1f}–{written[1] - launched:.1f} s")
    return row


def written_between(store: Store, channels: Sequence[int]) -> tuple[float, float]:
    """When the first and the last outbox post of `channels` were written (epoch seconds)."""
    from sqlalchemy import func, select

    from bot.store.models import OutboxRow

    query = select(func.min(OutboxRow.created_at), func.max(OutboxRow.created_at)).where(
        OutboxRow.channel_id.in_(channels))
    with store.engine.connect() as connection:
        first, last = connection.execute(query).one()
    return first.timestamp(), last.timestamp()


def picture_bytes(row: Row) -> int:
    """The mean size of the pictures this bot's answers of `row` carried (the bare bot's PNG's size)."""
    sizes = [sum(int(a.get("size") or 0) for a in (o.answer.message or {}).get("attachments", []))
             for o in row.outcomes]
    sizes = [size for size in sizes if size]
    return int(statistics.mean(sizes)) if sizes else BOARD_BYTES


#: about a Space Chess board's PNG
BOARD_BYTES = 34_000


def run(args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-interactions-")))
        url = stack.enter_context(load_database("sqlite", folder, None))
        fake = stack.enter_context(LoadFake())
        fdj = FdjFile(folder / "loto.csv")
        fdj.create()
        store = Store(url)
        stack.callback(store.close)
        players = seed_order_games(store, fake, [fake.guild], args.games)  # the bare bots' players too
        replies: list[float] = []
        if args.game == "spaceblast":
            arenas = seed_arenas(store, fake, args.games)
            scenario, turns = "SpaceBlast turns", max(1, args.orders // (2 * SB_SHIPS * args.games))

            def batch() -> Batch:
                return arena_batch(fake, arenas, turns, args.clients)
        elif args.game == "hexarena":
            duels = seed_duels(store, fake, args.computers)
            scenario = f"orders, {args.computers} hard computers"

            def batch() -> Batch:
                return duel_batch(fake, store, duels, players, args.orders, args.clients, replies)
        else:
            scenario = "idle"

            def batch() -> Batch:
                return order_batch(fake, players, args.orders, args.clients)
        (process,) = stack.enter_context(bot_processes(fake, folder, url, 1, fdj, args.keep_logs))
        if args.drawing != "thread":  # where its turn posts' boards are drawn (threads: the default)
            with process.config.open("a", encoding="utf-8") as config:
                config.write(f'\n[render]\npost_drawing = "{args.drawing}"\n')
        strangers = [dataclasses.replace(player, orders=[]) for player in players]  # this bot's games stay its own
        bare: dict[str, BareBot] = {}
        for _ in range(args.rounds):
            process.start()  # first: its command sync is the fake's, which the bare bots answer too
            assert process.proc is not None
            settled(process.proc.pid)
            rows.append(measure(fake, process.proc.pid, "this bot", scenario, batch()))
            rows[-1].notes += reply_note(replies)
            replies.clear()
            wait_settled(store, [process], args.games)  # its status edits done before the next bot runs
            process.stop()
            if not bare:  # its PNG of the size of this bot's pictures
                png = board_sized_png(folder, picture_bytes(rows[0]))
                bare = {"bare discord.py, text": BareBot(fake, folder, None),
                        f"bare discord.py, text + {png.stat().st_size // 1000} KB PNG": BareBot(fake, folder, png)}
                for bot in bare.values():
                    stack.callback(bot.stop)
            for name, bot in bare.items():
                bot.start()
                assert bot.proc is not None
                settled(bot.proc.pid)
                rows.append(measure(fake, bot.proc.pid, name, "idle", order_batch(fake, strangers, args.orders,
                                                                                  args.clients)))
                bot.stop()
        if args.fanout_games:
            rows.append(fan_out_row(fake, store, process, fdj, args, batch()))
            rows[-1].notes += reply_note(replies)
    return rows


def reply_note(replies: list[float]) -> list[str]:
    if not replies:
        return []
    return [f"computers' replies {len(replies)}: p50 {statistics.median(replies):.0f} ms, "
            f"p99 {percentile(replies, 0.99):.0f} ms (from the player's move to the computer's)"]


def report(rows: Sequence[Row]) -> None:
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    def p99(values: list[float]) -> float:
        return percentile(values, 0.99) if values else float("nan")

    floor = [row for row in rows if row.bot.startswith("bare discord.py, text + ")]
    floor_cpu = median([row.cpu_ms for row in floor])
    floor_p99 = median([p99(row.initial()) for row in floor])
    print(f"{'bot':<36} {'scenario':<30} {'orders/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'final p99':>9} "
          f"{'deferred':>8} {'CPU ms/order':>12} {'CPU ÷ bare+PNG':>14} {'p99 ÷ bare+PNG':>14}")
    for row in rows:
        initial = row.initial()
        rate = len(row.outcomes) / row.seconds
        print(f"{row.bot:<36} {row.scenario:<30} {rate:>8.1f} {median(initial):>7.0f} {p99(initial):>7.0f} "
              f"{p99(row.final()):>9.0f} {row.deferred:>8} {row.cpu_ms:>12.1f} {row.cpu_ms / floor_cpu:>14.2f} "
              f"{p99(initial) / floor_p99:>14.2f}")
        if row.bot == "this bot":
            for label in row.labels:
                initial = row.initial(label)
                print(f"{'':<36} {'  ' + label:<30} {len(initial):>8} {median(initial):>7.0f} {p99(initial):>7.0f} "
                      f"{p99(row.final(label)):>9.0f}")
            refusals = Counter(o.key for o in row.outcomes if o.key != "ok")
            if refusals:
                print(f"{'':<36}   refused: {', '.join(f'{key} {count}' for key, count in sorted(refusals.items()))}")
        for note in [*row.notes, *([row.fan_out] if row.fan_out else [])]:
            print(f"{'':<36}   {note}")
    timeouts = sum(o.key == "timeout" for row in rows for o in row.outcomes)
    print(f"(interactions without a final answer within {ANSWER_TIMEOUT:g} s: {timeouts}; the lines under a row "
          "count interactions, not interactions a second)")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("spacechess", "spaceblast", "hexarena"), default="spacechess",
                        help="what this bot's players play (spacechess)")
    parser.add_argument("--games", type=int, default=None,
                        help="games the players play in: Space Chess two players each (50), SpaceBlast three (20)")
    parser.add_argument("--orders", type=int, default=300, help="interactions a bot and scenario (300)")
    parser.add_argument("--clients", type=int, default=32, help="players typing at once (32)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the three bots, alternating (1; 0: the fan-out only)")
    parser.add_argument("--fanout-games", type=int, default=None,
                        help="games the restart's draw reaches (1000; 0: no fan-out, the default of other games)")
    parser.add_argument("--computers", type=int, default=2, help="hexarena: players against a hard computer (2)")
    parser.add_argument("--drawing", choices=["thread", "process"], default="thread",
                        help="where this bot draws its turn posts' boards (render.post_drawing: thread)")
    parser.add_argument("--keep-logs", type=Path, default=None, help="copy this bot's log into this folder")
    parser.add_argument("--quick", action="store_true",
                        help="10 games, 40 orders (SpaceBlast 6 arenas, 2 turns; HexArena 20 games, 160 orders), 8 clients, "
                             "a 50-game fan-out (Space Chess)")
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 20 if args.game == "spaceblast" else 50
    if args.fanout_games is None:
        args.fanout_games = 1000 if args.game == "spacechess" else 0
    if args.quick:  # HexArena's orders last a few of the computers' searches
        args.games, args.orders, args.clients = {"spaceblast": (6, 72, 8), "hexarena": (20, 160, 8)}.get(
            args.game, (10, 40, 8))
        args.fanout_games = 50 if args.fanout_games else 0
    if min(args.games, args.orders, args.clients) < 1 or args.rounds < 0 or args.fanout_games < 0:
        parser.error("every size is at least 1 (rounds and fan-out games at least 0)")
    # each accepted move spends an action point: a player's orders of every round of this bot stay within it
    if args.game == "spacechess" and (args.rounds + 1) * -(-args.orders // (2 * args.games)) > AP:
        parser.error(f"more than {AP} orders a player over the rounds: add games or take fewer orders")
    if args.game == "spaceblast" and (args.rounds + 1) * max(1, args.orders // (2 * SB_SHIPS * args.games)) > SB_TURNS:
        parser.error(f"more than {SB_TURNS} SpaceBlast turns over the rounds: add games or take fewer orders")
    return args


def compiled_as_deployed() -> None:
    """The bots start as a deployed bot does, from compiled modules (a pip install compiles them, a
    checkout's first run writes them): a machine's ``PYTHONDONTWRITEBYTECODE=1`` would have each bot
    process compile the project again (about 0.35 s of each start, which a restart's fan-out waits)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(ROOT / p) for p in ("bot", "engine", "draws", "renders"))],
                   check=True)


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    compiled_as_deployed()
    report(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
