"""Costs that must stay flat as a community grows (issue 14, point 3), each printed as one figure.

- log commands on a game of 1,000 and 10,000 entries: a history page, the undo preview, the undo,
  export and import (goal: the first three <= 10 ms whatever the log; export and import <= 300 ms at
  10,000). The game is the test suite's tally game, whose rules cost nothing, so the figures are
  the bot's and the database's, not an engine's replay;
- the same history commands on a Space Chess game of 3,000 moves, whose entries are worded from the
  events of the log's replay: the first look replays the log once, every later page only the
  stretch since the checkpoint before it (goal: <= 10 ms once warm);
- an order with its commit, 4 clients at once, each its own process and game (goal: p99 <= 20 ms);
- 8 players ordering at once on one game, each its own process (goal: < 1 % refused as conflicts);
- a draw applied to N running Space Chess games, each size in a fresh process, as the Discord bot
  runs it: each game's turn post written to the outbox with its draw, its board drawn when it is
  sent (goal: >= 200 games/s on SQLite, >= 150 on PostgreSQL, and a peak memory that does not grow
  with N); then how many of those owed boards the sender draws a second (goal: >= 50, Discord's
  whole rate for a bot, so drawing never holds the posts back);
- `spacechess --help` and the console's first prompt (goals: 150 ms and 300 ms).

Each runs on SQLite, then on PostgreSQL when SPACECHESS_TEST_DATABASE_URL names a server (in a
database of its own, `bench_flat`, dropped at the end).

Run: python benchmarks/bench_flat_costs.py [--quick] [--json] [--only NAME...]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

DATABASE_ENV = "SPACECHESS_TEST_DATABASE_URL"
BENCH_DATABASE = "bench_flat"
GUILD = 77


# --- databases -------------------------------------------------------------------------------------


def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Databases:
    """Empty databases on demand: a SQLite file in a temporary folder, or the bench database on the
    PostgreSQL server with its schema emptied."""

    def __init__(self, folder: Path, server: str | None) -> None:
        self.folder = folder
        self.server = server
        self.count = 0
        if server:
            import psycopg

            with psycopg.connect(_libpq(server), autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{BENCH_DATABASE}"')

    def backends(self) -> list[str]:
        return ["sqlite", "postgresql"] if self.server else ["sqlite"]

    def fresh(self, backend: str) -> str:
        self.count += 1
        if backend == "sqlite":
            return f"sqlite:///{self.folder / f'bench-{self.count}.sqlite'}"
        import psycopg
        from sqlalchemy.engine import make_url

        url = make_url(self.server).set(database=BENCH_DATABASE).render_as_string(hide_password=False)
        with psycopg.connect(_libpq(url), autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
            conn.execute("CREATE SCHEMA public")
        return url

    def close(self) -> None:
        if self.server:
            import psycopg

            with psycopg.connect(_libpq(self.server), autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)')


def _register_test_games() -> None:
    """The test-only games, served by the bot as the tests serve them."""
    from bot.compose import serve_games
    from bot.games import games
    from tests.support.tally_bot import TEST_GAMES_SPEC

    if "tally" not in {entry.kind for entry in games()}:
        serve_games(TEST_GAMES_SPEC)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _timed(action: Callable[[], Any], repeat: int) -> float:
    """The median of `repeat` runs, in milliseconds."""
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


# --- log commands ----------------------------------------------------------------------------------


def _long_game(store: Any, entries: int, channel: int) -> Any:
    """A running tally game of `entries` log entries (two joins, the rest orders), stored as commits
    would have left it."""
    from bot.store import NewEntry
    from engine import registry

    rules = registry.get("tally")
    log = [NewEntry("join", "Ann", 1, {"id": "Ann"}), NewEntry("join", "Bob", 2, {"id": "Bob"})]
    log += [NewEntry("order", ("Ann", "Bob")[i % 2], 1 + i % 2, {"text": "add 1"}) for i in range(entries - 2)]
    state = rules.setup({"goal": 10**9})
    for entry in log:
        state = rules.apply_input(state, entry.kind, entry.actor, entry.payload).state
    return store.create_game(kind="tally", name=f"Long {entries}", guild_id=GUILD, channel_id=channel,
                             setup={"goal": 10**9}, state=rules.to_json(state), seed=1, created_by=1,
                             status="running", entries=log, seats=[(1, "Ann", False), (2, "Bob", False)])


def bench_log_commands(url: str, sizes: list[int], repeat: int) -> dict[str, float]:
    from bot.service import GameService
    from bot.store import Store

    store = Store(url)
    figures: dict[str, float] = {}
    try:
        for size in sizes:
            figures.update(_log_figures(GameService(store), size, repeat))
    finally:
        store.close()
    return figures


def _log_figures(svc: Any, size: int, repeat: int) -> dict[str, float]:
    from bot.service import Context
    from bot.service.replies import Attachment

    channel = 1000 + size
    game = _long_game(svc.store, size, channel)
    gm = Context(user_id=9, user_name="gm", guild_id=GUILD, channel_id=channel, manage_server=True)
    player = Context(user_id=1, user_name="ann", guild_id=GUILD, channel_id=channel)

    def ok(reply: Any) -> Any:
        assert reply.ok, reply.messages
        return reply

    figures = {
        f"history_page1_ms@{size}": _timed(lambda: ok(svc.handle(player, "game history", {})), repeat),
        f"history_page50_ms@{size}": _timed(lambda: ok(svc.handle(player, "game history", {"page": 50})), repeat),
        f"undo_preview_ms@{size}": _timed(lambda: ok(svc.handle(gm, "gm undo", {"n": 3})), repeat),
    }
    exported: list[bytes] = []
    figures[f"export_ms@{size}"] = _timed(
        lambda: exported.append(ok(svc.handle(gm, "gm export", {})).files[0].data), repeat)
    imports = iter(range(repeat))

    def import_once() -> None:
        where = Context(user_id=9, user_name="gm", guild_id=GUILD, channel_id=channel * 100 + next(imports),
                        manage_server=True)
        ok(svc.handle(where, "gm import", {"file": Attachment("long.json", exported[-1])}))

    figures[f"import_ms@{size}"] = _timed(import_once, repeat)

    def undo_once() -> None:
        ok(svc.handle(gm, "gm undo", {"n": 1, "confirm": svc.store.get_game(game.id).version}))

    figures[f"undo_ms@{size}"] = _timed(undo_once, max(1, repeat // 2))
    return figures


# --- orders at once --------------------------------------------------------------------------------


def _order_client(url: str, channel: int, orders: int, barrier: Any, results: Any) -> None:
    """One client process: its own Store (its own pool) and game; the time of each order's command."""
    import bench_service_order as single

    from bot.service import Attachment, Context, GameService
    from bot.store import SeatRecord, Store

    _without_images()
    store = Store(url, migrate=False)
    svc = GameService(store)
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=channel, manage_server=True)
    assert svc.handle(gm, "sc new", {"name": f"Bench {channel}",
                                     "setup": Attachment("setup.toml", single.setup_document().encode())}).ok
    game = store.game_in_channel(GUILD, channel)
    store.commit(game.id, game.version, state=game.state, entries=[], seats_set=[SeatRecord(game.id, 2, "p02", False)])
    player = Context(user_id=2, user_name="p02", guild_id=GUILD, channel_id=channel)
    for warmup in range(5):
        svc.handle(player, "sc order", {"text": f"move {'G2' if warmup % 2 == 0 else 'G1'}"})
    barrier.wait()
    timings = []
    for index in range(orders):
        if index % 8 == 0:
            svc.handle(gm, "sc set", {"character": "p02", "ap": 9, "reason": "bench"})
        started = time.perf_counter()
        reply = svc.handle(player, "sc order", {"text": f"move {'G1' if index % 2 == 0 else 'G2'}"})
        timings.append((time.perf_counter() - started) * 1000)
        assert reply.ok, reply.messages
    store.close()
    results.put(timings)


def bench_orders(url: str, clients: int, orders: int) -> dict[str, float]:
    from bot.store import Store

    Store(url).close()  # migrated once, before the clients start
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(clients), context.Queue()
    workers = [context.Process(target=_order_client, args=(url, 500 + i, orders, barrier, results))
               for i in range(clients)]
    for worker in workers:
        worker.start()
    timings = [t for _ in workers for t in results.get(timeout=600)]
    for worker in workers:
        worker.join()
    return {f"order_p50_ms@{clients}clients": statistics.median(timings),
            f"order_p99_ms@{clients}clients": _percentile(timings, 0.99)}


def _player(url: str, channel: int, user: int, orders: int, barrier: Any, results: Any) -> None:
    _register_test_games()
    from bot.service import Context, GameService
    from bot.store import Store

    svc = GameService(Store(url, migrate=False))
    me = Context(user_id=user, user_name=f"p{user}", guild_id=GUILD, channel_id=channel)
    barrier.wait()
    refused: dict[str, int] = {}
    for _ in range(orders):
        reply = svc.handle(me, "tl order", {"text": "add 1"})
        if not reply.ok:
            refused[reply.messages[0].key] = refused.get(reply.messages[0].key, 0) + 1
    svc.store.close()
    results.put(refused)


def bench_one_game(url: str, players: int, orders: int) -> dict[str, float]:
    _register_test_games()
    from bot.service import Context, GameService
    from bot.store import Store

    channel = 900
    store = Store(url)
    svc = GameService(store)
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=channel, manage_server=True)
    from bot.service.replies import Attachment

    assert svc.handle(gm, "tl new", {"name": "Crowd", "setup": Attachment("setup.toml", b"goal = 1000000000\n")}).ok
    for user in range(100, 100 + players):
        assert svc.handle(Context(user_id=user, user_name=f"p{user}", guild_id=GUILD, channel_id=channel),
                          "tl join", {"name": f"P{user}"}).ok
    store.close()
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(players), context.Queue()
    workers = [context.Process(target=_player, args=(url, channel, 100 + i, orders, barrier, results))
               for i in range(players)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    refused: dict[str, int] = {}
    for _ in workers:
        for key, count in results.get(timeout=600).items():
            refused[key] = refused.get(key, 0) + count
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    total = players * orders
    return {f"one_game_conflict_pct@{players}players": 100 * refused.get("error.conflict", 0) / total,
            f"one_game_refused_other@{players}players": sum(v for k, v in refused.items() if k != "error.conflict"),
            f"one_game_orders_per_s@{players}players": total / elapsed}


# --- a Space Chess history ------------------------------------------------------------------------


def bench_spacechess_history(url: str, orders: int, repeat: int) -> dict[str, float]:
    """A Space Chess game of `orders` moves, built through the service: its history is worded from the
    events the log's replay gives, so a page replays the stretch before it from the process's
    checkpoints (bot.service.checkpoints). The first look replays the whole log once ("cold").
    Measured in a process of its own: it leaves the images out, which the fan-out must not inherit."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    worker = context.Process(target=_spacechess_history_measured, args=(url, orders, repeat, results))
    worker.start()
    figures = results.get(timeout=1800)
    worker.join()
    return figures


def _spacechess_history_measured(url: str, orders: int, repeat: int, results: Any) -> None:
    import bench_service_order as single

    from bot.service import Attachment, Context, GameService
    from bot.store import SeatRecord, Store

    _without_images()
    store = Store(url)
    svc = GameService(store)
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=77, manage_server=True)
    assert svc.handle(gm, "sc new", {"name": "Long", "setup": Attachment("setup.toml",
                                                                          single.setup_document().encode())}).ok
    game = store.game_in_channel(GUILD, 77)
    store.commit(game.id, game.version, state=game.state, entries=[], seats_set=[SeatRecord(game.id, 2, "p02", False)])
    player = Context(user_id=2, user_name="p02", guild_id=GUILD, channel_id=77)
    for index in range(orders):
        if index % 8 == 0:
            assert svc.handle(gm, "sc set", {"character": "p02", "ap": 9, "reason": "bench"}).ok
        assert svc.handle(player, "sc order", {"text": f"move {'G2' if index % 2 == 0 else 'G1'}"}).ok
    size = store.log_count(game.id)
    try:
        started = time.perf_counter()
        assert svc.handle(player, "game history", {}).ok
        results.put({
            f"sc_history_cold_ms@{size}": (time.perf_counter() - started) * 1000,
            f"sc_history_page1_ms@{size}": _timed(lambda: svc.handle(player, "game history", {}), repeat),
            f"sc_history_page20_ms@{size}": _timed(lambda: svc.handle(player, "game history", {"page": 20}), repeat),
            f"sc_undo_preview_ms@{size}": _timed(lambda: svc.handle(gm, "gm undo", {"n": 3}), repeat),
        })
    finally:
        store.close()


# --- the draw fan-out -------------------------------------------------------------------------------


def _without_images() -> None:
    """The board images left out: their drawing is the renderer's cost (bench_render.py), not the
    service's or the store's. Every presenter hook that draws one returns none."""
    from bot.games import spacechess as presenter_module

    for name in ("images", "images_for"):
        if hasattr(presenter_module.SpaceChessPresenter, name):
            setattr(presenter_module.SpaceChessPresenter, name, lambda self, *args, **kwargs: [])


def _fan_out_measured(url: str, size: int, results: Any) -> None:
    from bot.lottery.apply import DrawApplier
    from bot.outbox import decode_reply
    from bot.service import GameService
    from bot.store import Store
    from bot.store.draws import save_draws
    from bot.store.outbox import unsent
    from tests.bot.draws.games import draw, make_running_game

    store = Store(url)
    for channel in range(size):
        make_running_game(store, channel)
    save_draws(store, [draw("2024-03-06")])

    class DiscordHooks:
        """The Discord adapter's shape: the pass writes each post to the outbox and wakes its sender."""

        def outbox_ready(self) -> None:
            pass

    applier = DrawApplier(GameService(store), hooks=DiscordHooks())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    for _post in applier.apply_each():  # the stream the poll consumes, keeping no post
        pass
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    owed = unsent(store)[:FAN_OUT_DRAWN]
    drawing = time.perf_counter()
    boards = sum(len(decode_reply(post.payload).files) for post in owed)  # what the sender does per post
    drawn = time.perf_counter() - drawing
    posts = len(unsent(store))
    store.close()
    assert posts == size, f"{posts} posts owed for {size} games"
    assert boards == len(owed), f"{boards} boards drawn for {len(owed)} posts"
    results.put((size / elapsed, (after - before) / 1024, boards / drawn))


def bench_fan_out(url_for: Callable[[], str], sizes: list[int]) -> dict[str, float]:
    context = multiprocessing.get_context("fork")
    figures = {}
    for size in sizes:
        results = context.Queue()
        worker = context.Process(target=_fan_out_measured, args=(url_for(), size, results))
        worker.start()
        rate, grown_mb, drawn_rate = results.get(timeout=1800)
        worker.join()
        figures[f"fan_out_games_per_s@{size}"] = rate
        figures[f"fan_out_peak_growth_mb@{size}"] = grown_mb
        figures[f"fan_out_boards_drawn_per_s@{size}"] = drawn_rate
    return figures


# --- start-up -------------------------------------------------------------------------------------


def _spacechess() -> list[str]:
    found = shutil.which("spacechess", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "bot.cli"]


def bench_start(repeat: int) -> dict[str, float]:
    command = _spacechess()
    helps = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([*command, "--help"], check=True, capture_output=True)
        helps.append((time.perf_counter() - started) * 1000)
    prompts = []
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SPACECHESS_DATABASE_URL": f"sqlite:///{Path(folder) / 'console.sqlite'}"}
        env.pop("SPACECHESS_CONFIG", None)
        for attempt in range(repeat + 1):
            started = time.perf_counter()
            process = subprocess.Popen([*command, "console", "--out", folder], cwd=folder, env=env,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            assert process.stdout is not None and process.stdin is not None
            seen = b""
            while b"] " not in seen:  # the prompt "[#channel @user] "
                chunk = process.stdout.read1(4096)
                if not chunk:
                    raise SystemExit(f"the console ended before its prompt: {seen!r}")
                seen += chunk
            elapsed = (time.perf_counter() - started) * 1000
            process.communicate(b"", timeout=30)
            if attempt:  # the first start creates and migrates the database: later ones are the usual case
                prompts.append(elapsed)
    return {"help_ms": min(helps), "console_prompt_ms": min(prompts)}


# --- main -------------------------------------------------------------------------------------------

GOALS = {
    "history_page1_ms@10000": ("<=", 10), "undo_preview_ms@10000": ("<=", 10),
    "history_page50_ms@10000": ("<=", 10), "export_ms@10000": ("<=", 300), "import_ms@10000": ("<=", 300),
    "order_p99_ms@4clients": ("<=", 20), "one_game_conflict_pct@8players": ("<", 1),
    "help_ms": ("<=", 150), "console_prompt_ms": ("<=", 300),
}
#: the Space Chess history once warm, whatever the log's length
WARM_GOALS = {name: ("<=", 10) for name in ("sc_history_page1_ms", "sc_history_page20_ms", "sc_undo_preview_ms")}
#: owed boards drawn to measure the sender's drawing rate
FAN_OUT_DRAWN = 100
FAN_OUT_GOAL = {"sqlite": 200, "postgresql": 150}


def verdict(name: str, backend: str, value: float) -> str:
    goal = GOALS.get(name) or WARM_GOALS.get(name.split("@")[0])
    if name.startswith("fan_out_games_per_s"):
        goal = (">=", FAN_OUT_GOAL[backend])
    if name.startswith("fan_out_boards_drawn_per_s"):
        goal = (">=", 50)
    if goal is None:
        return ""
    sign, bound = goal
    met = {"<=": value <= bound, "<": value < bound, ">=": value >= bound}[sign]
    return f"{'meets' if met else 'MISSES'} {sign} {bound}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run, not the goals)")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=("log", "sc_log", "orders", "one_game", "fan_out", "start"), help="run only these")
    args = parser.parse_args(argv)
    wanted = set(args.only or ("log", "sc_log", "orders", "one_game", "fan_out", "start"))
    sizes = [1000, 2000] if args.quick else [1000, 10_000]
    fan_sizes = [50, 100] if args.quick else [200, 1000]
    repeat = 3 if args.quick else 7
    _register_test_games()
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        databases = Databases(Path(folder), os.environ.get(DATABASE_ENV))
        try:
            for backend in databases.backends():
                found: dict[str, float] = {}
                if "log" in wanted:
                    found.update(bench_log_commands(databases.fresh(backend), sizes, repeat))
                if "sc_log" in wanted:
                    found.update(bench_spacechess_history(databases.fresh(backend), 300 if args.quick else 3000,
                                                          repeat))
                if "orders" in wanted:
                    found.update(bench_orders(databases.fresh(backend), 4, 50 if args.quick else 200))
                if "one_game" in wanted:
                    found.update(bench_one_game(databases.fresh(backend), 8, 10 if args.quick else 40))
                if "fan_out" in wanted:
                    found.update(bench_fan_out(lambda b=backend: databases.fresh(b), fan_sizes))
                figures[backend] = found
        finally:
            databases.close()
    if "start" in wanted:
        figures["start"] = bench_start(3 if args.quick else 5)
    if args.json:
        print(json.dumps({"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "figures": figures},
                         indent=1))
        return 0
    print(f"{'backend':<11} {'figure':<44} {'value':>10}  goal")
    for backend, found in figures.items():
        for name, value in found.items():
            print(f"{backend:<11} {name:<44} {value:>10.2f}  {verdict(name, backend, value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
