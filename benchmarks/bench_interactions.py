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
answer's p99, deferrals, and the bot process's CPU per order (user + system time over the orders);
for this bot, its accepted moves (which carry the board) and refusals apart; the ratios to the bare
bot with the PNG; for the fan-out, its last turn post against Discord's floor. Not a test: nothing
is asserted on times.

Run: python benchmarks/bench_interactions.py [--games N] [--orders N] [--clients N] [--rounds N]
     [--fanout-games N] [--drawing thread|process] [--keep-logs DIR] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_service_order import percentile  # noqa: E402
from load_support import AP, LoadFake, Seated, load_database, seed_order_games  # noqa: E402
from load_test import ANSWER_TIMEOUT, Outcome, bot_processes, plan_orders, play, seed_fan_out, wait_settled  # noqa: E402

from bot.store import Store  # noqa: E402
from tests.e2e.botproc import START_TIMEOUT, BotProcess, bot_env  # noqa: E402
from tests.e2e.fdj_file import FdjFile, past_evenings  # noqa: E402
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


@dataclass
class Row:
    bot: str
    scenario: str
    outcomes: list[Outcome]
    seconds: float
    cpu_seconds: float
    deferred: int
    fan_out: str = ""

    def initial(self, keys: Sequence[str] | None = None) -> list[float]:
        return [(o.answer.initial - o.answer.created) * 1000 for o in self.outcomes
                if o.answer.initial is not None and (keys is None or (o.key == "ok") == ("ok" in keys))]

    @property
    def final_p99(self) -> float:
        final = [(o.answer.final - o.answer.created) * 1000 for o in self.outcomes if o.answer.final is not None]
        return percentile(final, 0.99) if final else float("nan")

    @property
    def cpu_ms(self) -> float:
        return self.cpu_seconds * 1000 / max(1, len(self.outcomes))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def board_sized_png(folder: Path, size: int = 34_000) -> Path:
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


def measure(fake: LoadFake, players: list[Seated], pid: int, bot: str, scenario: str, orders: int,
            clients: int) -> Row:
    """One batch of `orders` from `players` against the bot process `pid`."""
    played = {id(player): len(player.orders) for player in players}
    plan_orders(players, orders)  # after the orders of earlier batches: a soldier goes on to and fro
    batch = [dataclasses.replace(player, orders=player.orders[played[id(player)]:]) for player in players]
    cpu, started = cpu_seconds(pid), time.perf_counter()
    outcomes = asyncio.run(play(fake, batch, clients))
    seconds, cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
    with fake._cond:
        deferred = sum(1 for o in outcomes if fake.interactions[o.answer.interaction_id].callback_type == 5)
    return Row(bot, scenario, outcomes, seconds, cpu, deferred)


def fan_out_row(fake: LoadFake, store: Store, players: list[Seated], process: BotProcess, fdj: FdjFile,
                args: argparse.Namespace) -> Row:
    """This bot restarted with `--fanout-games` games owed a draw, its players ordering meanwhile."""
    process.stop()
    (evening,) = past_evenings(1)
    channels, _ = seed_fan_out(store, fake, [fake.guild], args.fanout_games, evening)
    fdj.publish(evening, 1)
    fake.watch_posts(channels)
    launched = time.time()
    process.start()
    assert process.proc is not None
    row = measure(fake, players, process.proc.pid, "this bot", f"restart + {args.fanout_games}-game fan-out",
                  args.orders, args.clients)
    fake.wait_until(lambda: len(fake.first_posts) >= len(channels), timeout=120 + 8 * len(channels) / GLOBAL_PER_SECOND,
                    what="a turn post in every game channel", abort=process.died)
    first, last = min(fake.first_posts.values()) - launched, max(fake.first_posts.values()) - launched
    floor = len(channels) / GLOBAL_PER_SECOND
    row.fan_out = (f"last turn post {last:.1f} s after the start (the first {first:.1f} s; "
                   f"{len(channels) / max(1e-9, last - first):.0f} posts/s between); Discord's floor {floor:.1f} s "
                   f"({last / floor:.2f}x)")
    return row


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
        players = seed_order_games(store, fake, [fake.guild], args.games)
        (process,) = stack.enter_context(bot_processes(fake, folder, url, 1, fdj, args.keep_logs))
        if args.drawing != "thread":  # where its turn posts' boards are drawn (threads: the default)
            with process.config.open("a", encoding="utf-8") as config:
                config.write(f'\n[render]\npost_drawing = "{args.drawing}"\n')
        png = board_sized_png(folder)
        bare = {"bare discord.py, text": BareBot(fake, folder, None), "bare discord.py, text + PNG": BareBot(fake, folder, png)}
        for bot in bare.values():
            stack.callback(bot.stop)
        for _ in range(args.rounds):
            process.start()  # first: its command sync is the fake's, which the bare bots answer too
            assert process.proc is not None
            rows.append(measure(fake, players, process.proc.pid, "this bot", "idle", args.orders, args.clients))
            wait_settled(store, [process], args.games)  # its status edits done before the next bot runs
            process.stop()
            for name, bot in bare.items():
                bot.start()
                assert bot.proc is not None
                strangers = [dataclasses.replace(player, orders=[]) for player in players]  # this bot's games' moves stay its own
                rows.append(measure(fake, strangers, bot.proc.pid, name, "idle", args.orders, args.clients))
                bot.stop()
        rows.append(fan_out_row(fake, store, players, process, fdj, args))
    return rows


def report(rows: Sequence[Row]) -> None:
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    def p99(values: list[float]) -> float:
        return percentile(values, 0.99) if values else float("nan")

    floor = [row for row in rows if row.bot == "bare discord.py, text + PNG"]
    floor_cpu = median([row.cpu_ms for row in floor])
    floor_p99 = median([p99(row.initial()) for row in floor])
    print(f"{'bot':<28} {'scenario':<30} {'orders/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'final p99':>9} "
          f"{'deferred':>8} {'CPU ms/order':>12} {'CPU ÷ bare+PNG':>14} {'p99 ÷ bare+PNG':>14}")
    for row in rows:
        initial = row.initial()
        rate = len(row.outcomes) / row.seconds
        print(f"{row.bot:<28} {row.scenario:<30} {rate:>8.1f} {median(initial):>7.0f} {p99(initial):>7.0f} "
              f"{row.final_p99:>9.0f} {row.deferred:>8} {row.cpu_ms:>12.1f} {row.cpu_ms / floor_cpu:>14.2f} "
              f"{p99(initial) / floor_p99:>14.2f}")
        if row.bot == "this bot":
            accepted, refused = row.initial(["ok"]), row.initial(["refused"])
            print(f"{'':<28} {'  accepted moves (board PNG)':<30} {len(accepted):>8} {median(accepted):>7.0f} "
                  f"{p99(accepted):>7.0f}")
            print(f"{'':<28} {'  refusals (text only)':<30} {len(refused):>8} {median(refused):>7.0f} "
                  f"{p99(refused):>7.0f}")
            refusals = Counter(o.key for o in row.outcomes if o.key != "ok")
            print(f"{'':<28}   refused: {', '.join(f'{key} {count}' for key, count in sorted(refusals.items()))}")
        if row.fan_out:
            print(f"{'':<28} {'  ' + row.fan_out}")
    timeouts = sum(o.key == "timeout" for row in rows for o in row.outcomes)
    print(f"(orders without a final answer within {ANSWER_TIMEOUT:g} s: {timeouts}; the accepted/refused lines "
          "count orders, not orders a second)")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games the players order in, two players each (50)")
    parser.add_argument("--orders", type=int, default=300, help="orders a bot and scenario (300)")
    parser.add_argument("--clients", type=int, default=32, help="players typing at once (32)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the three bots, alternating (1; 0: the fan-out only)")
    parser.add_argument("--fanout-games", type=int, default=1000, help="games the restart's draw reaches (1000)")
    parser.add_argument("--drawing", choices=["thread", "process"], default="thread",
                        help="where this bot draws its turn posts' boards (render.post_drawing: thread)")
    parser.add_argument("--keep-logs", type=Path, default=None, help="copy this bot's log into this folder")
    parser.add_argument("--quick", action="store_true", help="10 games, 40 orders, 8 clients, a 50-game fan-out")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.orders, args.clients, args.fanout_games = 10, 40, 8, 50
    if min(args.games, args.orders, args.clients, args.fanout_games) < 1 or args.rounds < 0:
        parser.error("every size is at least 1 (rounds at least 0: the fan-out alone)")
    # each accepted move spends an action point: a player's orders of every round of this bot stay within it
    if (args.rounds + 1) * -(-args.orders // (2 * args.games)) > AP:
        parser.error(f"more than {AP} orders a player over the rounds: add games or take fewer orders")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    report(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
