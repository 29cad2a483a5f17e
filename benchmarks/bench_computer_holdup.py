"""Whether a computer's search holds up other players (issue 28, point 5): Space Chess orders from
`--clients` players at once, through the service as the Discord adapter runs it — at most
`render.workers` commands at a time (`GameBot.workers`) on the interactions' pool — alone, then
while `--hex` players each play HexArena against the computer at its hard level (`/hx order`; the
computer's turn is a timer of the player's move, fired after the answer by a timer runner on a
thread of its own, as `TimerScheduler` does in the bot: its ~2 s search is outside every command).

Printed: the Space Chess orders' rate and their latency from submission (queueing included) at the
median and the 99th percentile, the HexArena players' own answers, and the computer's reply (from
the player's command to the computer's move committed). Not a test: nothing is asserted on times.

Measured on a shared 2-core machine (12 s a scenario, 8 clients, 2 hard games):
with the search inside the player's command, Space Chess orders fell from ~84/s to ~5/s;
with the computer's turn as a timer after the answer, see the table this prints.

Run: python benchmarks/bench_computer_holdup.py [--seconds 12] [--clients 8] [--hex 2] [--workers 2]
     [--thinking process|thread]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_service_order import percentile, setup_document  # noqa: E402

from bot.compose import game_service  # noqa: E402
from bot.discord_adapter.client import SPARE_THREADS  # noqa: E402
from bot.drivers import timer_handlers  # noqa: E402
from bot.service import Attachment, Context, GameService  # noqa: E402
from bot.service.computers import ThinkingPool  # noqa: E402
from bot.store.repo import SeatRecord, Store  # noqa: E402
from bot.timers import TimerRunner  # noqa: E402
from engine import registry  # noqa: E402

GUILD = 1


def space_chess_game(svc: GameService, channel: int) -> Context:
    """A Space Chess game with one seated player (plenty of action points), as bench_service_order's."""
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=channel, manage_server=True)
    svc.handle(gm, "sc new", {"name": f"Bench {channel}", "setup": Attachment("setup.toml", setup_document().encode())})
    game = svc.store.game_in_channel(GUILD, channel)
    svc.store.commit(game.id, game.version, state=game.state, entries=[],
                     seats_set=[SeatRecord(game.id, 1000 + channel, "p02", False)])
    return Context(user_id=1000 + channel, user_name="p02", guild_id=GUILD, channel_id=channel)


def hex_game(svc: GameService, channel: int) -> Context:
    """A HexArena game of one player against the computer at its hard level, started."""
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=channel, manage_server=True)
    player = Context(user_id=2000 + channel, user_name="ann", guild_id=GUILD, channel_id=channel)
    assert svc.handle(gm, "hx new", {"name": f"Arena {channel}"}).ok
    assert svc.handle(player, "hx join", {"name": "Ann"}).ok
    assert svc.handle(player, "hx challenge", {"level": "hard"}).ok
    assert svc.handle(gm, "gm start", {}).ok
    return player


class Hooks:
    """Posts are left in the outbox (no sender runs): the benchmark measures the commands and the computers."""

    def on_turn_post(self, game: object, reply: object) -> None: ...

    def on_gm_alert(self, game: object, reply: object) -> None: ...


def timer_thread(svc: GameService, stop: threading.Event) -> threading.Thread:
    """Fires due timers as soon as a commit sets one (`GameService.timer_listeners`), like the bot's
    `TimerScheduler`: the computers think here, never in a command."""
    woken = threading.Event()
    svc.timer_listeners.append(woken.set)
    runner = TimerRunner(svc.store, timer_handlers(svc, Hooks()), clock=svc.clock)

    def loop() -> None:
        while not stop.is_set():
            woken.wait(0.05)
            woken.clear()
            runner.run()

    return threading.Thread(target=loop, daemon=True)


def run(svc: GameService, args: argparse.Namespace, hex_players: Sequence[Context],
        chess_players: Sequence[Context]) -> tuple[list[float], list[float], list[float]]:
    """Every player orders again as soon as it may, for `args.seconds`; the latencies in ms (Space
    Chess orders, HexArena players' answers, the computer's replies)."""
    slots = threading.Semaphore(args.workers)  # the adapter's `workers`: commands at once
    pool = ThreadPoolExecutor(args.workers + SPARE_THREADS)
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=0, manage_server=True)
    chess: list[float] = []
    hexes: list[float] = []
    replies: list[float] = []
    until = time.perf_counter() + args.seconds
    rules = registry.get("hexarena")

    def command(ctx: Context, path: str, options: dict[str, object]) -> float:
        started = time.perf_counter()
        with slots:
            svc.handle(ctx, path, options)
        return (time.perf_counter() - started) * 1000

    def chess_player(ctx: Context) -> None:
        index = 0
        while time.perf_counter() < until:
            if index % 8 == 0:
                svc.handle(replace(gm, channel_id=ctx.channel_id), "sc set",
                           {"character": "p02", "ap": 9, "reason": "bench"})
            target = "G2" if index % 2 == 0 else "G1"
            chess.append(pool.submit(command, ctx, "sc order", {"text": f"move {target}"}).result())
            index += 1

    def hex_player(ctx: Context) -> None:
        while time.perf_counter() < until:
            game = svc.store.game_in_channel(GUILD, ctx.channel_id)
            if game is None or game.status != "running":
                return
            text = svc.complete(ctx, "hx order", "text", "")[0]
            started = time.perf_counter()
            hexes.append(pool.submit(command, ctx, "hx order", {"text": text}).result())
            while time.perf_counter() < until + 10:  # the computer's reply: red to move again, or the end
                game = svc.store.game_in_channel(GUILD, ctx.channel_id)
                if game.status != "running" or rules.waiting_on(rules.from_json(game.state)) == ("red",):
                    replies.append((time.perf_counter() - started) * 1000)
                    break
                time.sleep(0.02)

    stop = threading.Event()
    timers = timer_thread(svc, stop)
    timers.start()
    threads = [threading.Thread(target=chess_player, args=(ctx,)) for ctx in chess_players]
    threads += [threading.Thread(target=hex_player, args=(ctx,)) for ctx in hex_players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    timers.join()
    pool.shutdown()
    return chess, hexes, replies


def column(values: Sequence[float]) -> str:
    return (f"{len(values):>8} {statistics.median(values):>9.0f} {percentile(values, 0.99):>9.0f}"
            if values else f"{0:>8} {'-':>9} {'-':>9}")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=12.0, help="each scenario's length (12)")
    parser.add_argument("--clients", type=int, default=8, help="Space Chess players ordering at once (8)")
    parser.add_argument("--hex", type=int, default=2, help="HexArena players against the hard computer (2)")
    parser.add_argument("--workers", type=int, default=2, help="commands at once, render.workers (2)")
    parser.add_argument("--thinking", choices=("process", "thread"), default="process",
                        help="where the computers search, games.computer_thinking (process)")
    args = parser.parse_args(argv)
    print(f"{'scenario':<34} {'orders':>7} {'orders/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'hx moves':>8} "
          f"{'hx p50 ms':>9} {'hx p99 ms':>9} {'replies':>8} {'reply p50':>9} {'reply p99':>9}")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        svc = game_service(store)
        if args.thinking == "process":
            svc.thinking = ThinkingPool()
        chess_players = [space_chess_game(svc, 10 + n) for n in range(args.clients)]
        hex_players = [hex_game(svc, 500 + n) for n in range(args.hex)]
        for label, hexes in (("Space Chess alone", []), (f"with {args.hex} hard HexArena games", hex_players)):
            chess, moves, replies = run(svc, args, hexes, chess_players)
            print(f"{label:<34} {len(chess):>7} {len(chess) / args.seconds:>8.1f} {statistics.median(chess):>8.0f} "
                  f"{percentile(chess, 0.99):>8.0f} {column(moves)} {column(replies)}")
        store.close()
        if svc.thinking is not None:
            svc.thinking.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
