"""Load test (issue 14, point 2): simulated players and a draw fan-out through the loopback fake
Discord and the real bot processes, counting what reached the database and Discord.

Bounded and loopback only: the fake Discord of the e2e tests on 127.0.0.1, `spacechess run`
processes pointed at it (one on SQLite; with PostgreSQL several, one gateway shard each, as the
README's deployment section runs them), a temporary folder, and a database of the run's own (a
SQLite file, or `load_test` on the server SPACECHESS_TEST_DATABASE_URL names), all removed at the
end, the processes stopped even when a step fails. Not part of the test suite.

1. Orders. `--games` running Space Chess games are stored directly through the store (creating them
   by interactions would take most of the run and is what the e2e tests cover); each has two seated
   players and its pinned status message already on the fake. `--orders` orders then go through
   the fake as `/sc order` interactions from the simulated players — one asyncio task per player,
   each waiting for its answer before its next order, `--clients` of them typing at once. One order in
   ten names a cell off the board (a refusal by design); the others move the soldier to and fro.
   Printed: the latency from the interaction's creation to the initial response the fake recorded
   (what Discord's 3 s are about) and to the final answer; refusals by error code; Discord's error
   answers by kind (429s, expired interactions, 40060...); timeouts; the database's rows before and
   after. Checked: each player's accepted orders are its game log's order entries, in order, exactly
   once; no refusal reached the log; no outbox post unsent; no interaction answered twice and no
   status message posted again.
2. Draw fan-out. `--fanout-games` more running games (the e2e draw tests' games), started before an
   evening whose draw the loopback FDJ file publishes; the processes restart, find the draw, apply it
   and post through the rate-limited fake. Printed: the posts, the time from the first process's
   launch to the last turn post, the floor Discord's 50 requests a second allow for every request
   the bot made meanwhile (turn posts and status edits), and the ratio. Checked: every game awarded
   once, every turn post delivered once (no nonce made two messages), no outbox post unsent.

Run: python benchmarks/load_test.py [--quick] [--json] [--database sqlite|postgresql] [--games N]
     [--orders N] [--fanout-games N] [--processes N] [--clients N] [--logs DIR]
Exits non-zero when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_service_order import percentile  # noqa: E402
from load_support import (  # noqa: E402
    AP,
    CELLS,
    Answer,
    LoadFake,
    Seated,
    add_status,
    load_database,
    owed,
    refusal_key,
    row_counts,
    rule_of,
    seed_order_games,
)
from sqlalchemy import select  # noqa: E402

from bot.store import Store  # noqa: E402
from bot.store.models import LogEntry  # noqa: E402
from draws import FDJ_LOTO  # noqa: E402
from tests.bot.draws.games import make_running_game  # noqa: E402
from tests.e2e.botproc import BotProcess, write_config  # noqa: E402
from tests.e2e.fdj_file import FdjFile, past_evenings  # noqa: E402
from tests.e2e.test_shards import acknowledged_twice, draws_per_game, turn_post_text, turn_posts  # noqa: E402
from tests.fake_discord.payloads import Channel, Guild  # noqa: E402
from tests.fake_discord.ratelimits import GLOBAL_PER_SECOND  # noqa: E402

DATABASE_ENV = "SPACECHESS_TEST_DATABASE_URL"
#: one order in this many names a cell off the board: refused, never logged
BAD_EVERY = 10
BAD_ORDER, BAD_KEY = "move Z99", "error.bad_cell"
#: how long a player waits for a final answer (a deferred answer may come up to 15 minutes later)
ANSWER_TIMEOUT = 120.0
#: how long the bot may take to send what it owes (status edits after their 10 s debounce, the outbox):
#: this much, plus four times the floor of one edit a game at Discord's 50 requests a second
SETTLE_TIMEOUT = 120.0


@dataclass
class Outcome:
    """One order of a player: what the plan expected ("ok" or a refusal's key) and what came."""

    player: Seated
    text: str
    expected: str
    answer: Answer

    @property
    def key(self) -> str:
        """What came, in the plan's terms: "ok" (a public answer), the refusal's catalog key (a private
        one), or "timeout" (no final answer)."""
        return answer_key(self.answer)


def answer_key(answer: Answer, *, private_ok: bool = False) -> str:
    """What came of an interaction: "ok" (a public answer; with `private_ok`, also a private one that
    is no refusal: SpaceBlast's secret orders), a refusal's catalog key, or "timeout" (no final answer)."""
    if answer.final is None:
        return "timeout"
    if not answer.private:
        return "ok"
    key = refusal_key(answer.message["content"] if answer.message else "")
    return "ok" if private_ok and key == "unrecognised" else key


class Check:
    """Named pass/fail lines, printed with the figures; the exit status is their conjunction."""

    def __init__(self) -> None:
        self.results: dict[str, tuple[bool, str]] = {}

    def __call__(self, name: str, passed: bool, detail: Any = "") -> None:
        self.results[name] = (bool(passed), "" if passed else str(detail)[:400])

    @property
    def passed(self) -> bool:
        return all(ok for ok, _ in self.results.values())


# --- the bot processes -------------------------------------------------------------------------------------


@contextmanager
def bot_processes(fake: LoadFake, folder: Path, url: str, count: int, fdj: FdjFile,
                  keep_logs: Path | None) -> Iterator[list[BotProcess]]:
    """`count` bot processes on one database, one gateway shard each when more than one; stopped
    (SIGTERM, then SIGKILL) on the way out whatever happened, their logs copied to `keep_logs`.
    Not started: the caller starts them."""
    processes = []
    for shard in range(count):
        home = folder / f"bot{shard}"
        home.mkdir()
        config = write_config(home, fake, draws_file=fdj.path, database_url=url,
                              shard_count=count if count > 1 else 0, shard_ids=[shard] if count > 1 else ())
        processes.append(BotProcess(fake, config, shards=[shard] if count > 1 else ()))
    try:
        yield processes
    finally:
        for process in processes:
            process.stop()
        if keep_logs is not None:
            keep_logs.mkdir(parents=True, exist_ok=True)
            for shard, process in enumerate(processes):
                if process.log_path.exists():
                    shutil.copyfile(process.log_path, keep_logs / f"bot{shard}.log")


def start_all(processes: Sequence[BotProcess]) -> None:
    for process in processes:
        process.start()


def any_died(processes: Sequence[BotProcess]) -> str | None:
    return next((reason for process in processes if (reason := process.died())), None)


def log_problems(processes: Sequence[BotProcess]) -> dict[str, dict[str, Any]]:
    """ERROR and WARNING lines of the processes' logs by level and logger, each with its first line
    as an example (the bot logs there what went wrong: a refused post, a retry)."""
    found: dict[str, dict[str, Any]] = {}
    for process in processes:
        for run in process.runs:
            for line in run:
                parts = line.split(" ", 4)
                if len(parts) > 4 and parts[2] in ("ERROR", "WARNING", "CRITICAL"):
                    kind, example = f"{parts[2]} {parts[3].rstrip(':')}", parts[4]
                elif line.startswith("Traceback"):
                    kind, example = "traceback", line
                else:
                    continue
                entry = found.setdefault(kind, {"count": 0, "example": example[:160]})
                entry["count"] += 1
    return found


def wait_settled(store: Store, processes: Sequence[BotProcess], games: int) -> float:
    """Seconds until nothing is owed: every outbox post sent, every status message up to date (or
    the time given up waiting, when the checks then fail)."""
    timeout = SETTLE_TIMEOUT + 4 * games / GLOBAL_PER_SECOND
    started = time.monotonic()
    while owed(store) != (0, 0):
        if (reason := any_died(processes)) is not None:
            raise RuntimeError(reason)
        if time.monotonic() - started > timeout:
            break
        time.sleep(0.5)
    return time.monotonic() - started


def discord_errors(fake: LoadFake, start: float, end: float) -> Counter[str]:
    """Discord's refusals the fake answered between `start` and `end`, by status, code and route."""
    found: Counter[str] = Counter()
    for request in fake.requests_since(start, end):
        if request.status >= 400:
            scope = f" {request.scope}" if request.scope else ""
            found[f"{request.status}/{request.code or 0}{scope} {rule_of(request.method, request.path).name}"] += 1
    return found


# --- phase 1: orders ---------------------------------------------------------------------------------------


def plan_orders(players: Sequence[Seated], orders: int) -> None:
    """Deal `orders` round the players; every BAD_EVERY-th order dealt is off the board."""
    for number in range(orders):
        player = players[number % len(players)]
        if number % BAD_EVERY == BAD_EVERY - 1:
            player.orders.append(BAD_ORDER)
        else:
            moves = sum(1 for order in player.orders if order != BAD_ORDER)
            player.orders.append(f"move {CELLS[player.actor][moves % 2]}")


async def play(fake: LoadFake, players: Sequence[Seated], clients: int) -> list[Outcome]:
    """Every player's orders, each after the answer to the one before; `clients` players typing at once."""
    gate = asyncio.Semaphore(clients)
    outcomes: list[Outcome] = []

    async def player_task(player: Seated) -> None:
        ap = AP
        for text in player.orders:
            expected = BAD_KEY if text == BAD_ORDER else ("ok" if ap > 0 else "error.not_enough_ap")
            async with gate:
                answer = await fake.ask(player.member, "sc order", {"text": text}, player.channel, ANSWER_TIMEOUT)
            outcome = Outcome(player, text, expected, answer)
            outcomes.append(outcome)
            if outcome.key == "ok":
                ap -= 1

    await asyncio.gather(*(player_task(player) for player in players))
    return outcomes


def logged_orders(store: Store, game_ids: Sequence[int]) -> dict[tuple[int, int], list[str]]:
    """Each (game, user)'s order texts in the log, in log order."""
    found: dict[tuple[int, int], list[str]] = defaultdict(list)
    query = (select(LogEntry.game_id, LogEntry.user_id, LogEntry.payload).where(LogEntry.kind == "order")
             .where(LogEntry.game_id.in_(game_ids)).order_by(LogEntry.game_id, LogEntry.seq))
    with store.engine.connect() as connection:
        for game_id, user_id, payload in connection.execute(query):
            found[(game_id, user_id)].append(payload.get("text"))
    return found


def extra_channel_posts(fake: LoadFake, channels: Sequence[Channel], allowed: int) -> list[int]:
    """Channels holding more messages of the bot's own (not answers to interactions) than `allowed`."""
    wanted = {str(channel.id) for channel in channels}
    with fake._cond:
        own = Counter(m["channel_id"] for m in fake.store.messages.values()
                      if m["channel_id"] in wanted and not m.get("interaction_metadata"))
    return [int(channel) for channel in wanted if own[channel] > allowed]


def run_orders(fake: LoadFake, store: Store, players: list[Seated], processes: Sequence[BotProcess],
               args: argparse.Namespace, check: Check) -> dict[str, Any]:
    plan_orders(players, args.orders)
    before = row_counts(store)
    started = time.time()
    outcomes = asyncio.run(play(fake, players, args.clients))
    ended = time.time()
    settle = wait_settled(store, processes, args.games)
    after = row_counts(store)
    accepted = [o for o in outcomes if o.key == "ok"]
    initial = [(o.answer.initial - o.answer.created) * 1000 for o in outcomes if o.answer.initial is not None]
    final = [(o.answer.final - o.answer.created) * 1000 for o in outcomes if o.answer.final is not None]
    with fake._cond:
        deferred = sum(1 for o in outcomes if fake.interactions[o.answer.interaction_id].callback_type == 5)

    expected: dict[tuple[int, int], list[str]] = defaultdict(list)
    for outcome in accepted:
        expected[(outcome.player.game_id, outcome.player.member.user.id)].append(outcome.text)
    logged = logged_orders(store, sorted({p.game_id for p in players}))
    differing = [key for key in set(expected) | set(logged) if expected.get(key, []) != logged.get(key, [])]
    check("orders: every order answered", all(o.key != "timeout" for o in outcomes),
          f"{sum(o.key == 'timeout' for o in outcomes)} without a final answer in {ANSWER_TIMEOUT:g} s")
    check("orders: accepted orders are the log's, each once and in order", not differing,
          f"{len(differing)} players differ, e.g. {differing[:3]}")
    check("orders: game_log grew by the accepted orders", after["game_log"] - before["game_log"] == len(accepted),
          f"{after['game_log'] - before['game_log']} entries for {len(accepted)} accepted")
    unexpected = Counter(f"{o.expected} -> {o.key}" for o in outcomes if o.key != o.expected)
    check("orders: each refused or accepted as planned", not unexpected, dict(unexpected))
    check("orders: no outbox post unsent, no status owed", owed(store) == (0, 0), owed(store))
    check("orders: no interaction answered twice (40060)", not acknowledged_twice(fake), len(acknowledged_twice(fake)))
    channels = list({p.channel.id: p.channel for p in players}.values())
    doubled = extra_channel_posts(fake, channels, allowed=1)
    check("orders: one status message a game (none posted again)", not doubled, doubled[:5])
    return {
        "players": len(players), "clients": args.clients, "orders": len(outcomes), "accepted": len(accepted),
        "elapsed_s": ended - started, "orders_per_s": len(outcomes) / (ended - started),
        "initial_p50_ms": statistics.median(initial) if initial else None,
        "initial_p99_ms": percentile(initial, 0.99) if initial else None,
        "initial_max_ms": max(initial, default=None),
        "final_p50_ms": statistics.median(final) if final else None,
        "final_p99_ms": percentile(final, 0.99) if final else None,
        "deferred": deferred,
        "outcomes": dict(Counter(o.key for o in outcomes)),
        "discord_errors": dict(discord_errors(fake, started, time.time())),
        "settle_s": settle, "rows_before": before, "rows_after": after,
    }


# --- phase 2: the draw fan-out -----------------------------------------------------------------------------


def seed_fan_out(store: Store, fake: LoadFake, guilds: Sequence[Guild], count: int,
                 evening: dt.date) -> tuple[list[Channel], list[int]]:
    """`count` running games (the e2e draw tests' four characters) started the day before `evening`."""
    channels, game_ids = [], []
    for number in range(count):
        guild = guilds[number % len(guilds)]
        channel = fake.add_channel(f"draw-{number}", guild=guild)
        game = make_running_game(store, channel.id, per_team=2, guild_id=guild.id,
                                 started=FDJ_LOTO.at(evening) - dt.timedelta(days=1))
        add_status(store, fake, game, channel)
        channels.append(channel)
        game_ids.append(game.id)
    return channels, game_ids


def duplicated_nonces(fake: LoadFake) -> list[tuple[str, str]]:
    """(channel, nonce) pairs Discord made more than one message of: a post delivered twice."""
    made: dict[tuple[str, str], set[str]] = defaultdict(set)
    for call in fake.calls_to("POST", r"/channels/\d+/messages"):
        if call.status < 300 and isinstance(call.json, dict) and call.json.get("nonce"):
            made[(call.path, str(call.json["nonce"]))].add(str((call.answer or {}).get("id")))
    return [key for key, ids in made.items() if len(ids) > 1]


def run_fan_out(fake: LoadFake, store: Store, url: str, guilds: Sequence[Guild], processes: Sequence[BotProcess],
                fdj: FdjFile, order_games: Sequence[int], args: argparse.Namespace, check: Check) -> dict[str, Any]:
    for process in processes:
        process.stop()
    (evening,) = past_evenings(1)
    seeding = time.perf_counter()
    channels, game_ids = seed_fan_out(store, fake, guilds, args.fanout_games, evening)
    seeding = time.perf_counter() - seeding
    draw = fdj.publish(evening, 1)
    before = row_counts(store)
    fake.watch_posts(channels)
    launched = time.time()
    start_all(processes)  # each one's draw poll at its start finds the evening's draw
    timeout = 120 + 4 * args.fanout_games * 2 / GLOBAL_PER_SECOND
    fake.wait_until(lambda: len(fake.first_posts) >= len(channels), timeout=timeout,
                    what="a turn post in every game channel", abort=lambda: any_died(processes))
    last = max(fake.first_posts.values())
    first = min(fake.first_posts.values())
    settle = wait_settled(store, processes, args.games + args.fanout_games)
    after = row_counts(store)
    window = [r for r in fake.requests_since(launched, last)
              if r.status < 300 and rule_of(r.method, r.path).global_limit]
    floor = len(window) / GLOBAL_PER_SECOND
    elapsed = last - launched

    awarded = draws_per_game(url)
    wrong = {game: awarded.get(game, 0) for game in game_ids if awarded.get(game, 0) != 1}
    wrong.update({game: count for game, count in awarded.items() if game in set(order_games)})
    check("fan-out: every game awarded once (and no game started after the draw)", not wrong,
          f"{len(wrong)} games, e.g. {list(wrong.items())[:5]}")
    posts = turn_posts(fake, channels, turn_post_text(draw))
    check("fan-out: every turn post delivered once",
          len(posts) == len(channels) and set(posts.values()) == {1},
          f"{len(posts)} channels posted, counts {Counter(posts.values())}")
    check("fan-out: no nonce made two messages", not duplicated_nonces(fake), duplicated_nonces(fake)[:5])
    check("fan-out: outbox grew by the turn posts, none unsent",
          after["outbox"] - before["outbox"] == len(channels) and after["outbox (unsent)"] == 0,
          f"outbox {before['outbox']} -> {after['outbox']}, unsent {after['outbox (unsent)']}")
    check("fan-out: no status owed", owed(store) == (0, 0), owed(store))
    check("fan-out: no interaction answered twice (40060)", not acknowledged_twice(fake),
          len(acknowledged_twice(fake)))
    return {
        "games": len(channels), "seeding_s": seeding, "turn_posts": sum(posts.values()),
        "requests_under_global_limit": len(window),
        "start_to_first_post_s": first - launched, "elapsed_s": elapsed,
        "turn_posts_per_s": len(channels) / (last - first) if last > first else None,
        "floor_s": floor, "turn_post_floor_s": len(channels) / GLOBAL_PER_SECOND,
        "ratio": elapsed / floor if floor else None,
        "discord_errors": dict(discord_errors(fake, launched, time.time())),
        "settle_s": settle, "rows_before": before, "rows_after": after,
    }


# --- main ---------------------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> tuple[dict[str, Any], Check]:
    check = Check()
    figures: dict[str, Any] = {"database": args.database, "processes": args.processes}
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="load-test-")))
        url = stack.enter_context(load_database(args.database, folder, os.environ.get(DATABASE_ENV)))
        fake = stack.enter_context(LoadFake(shards=args.processes))
        guilds = ([fake.add_guild(f"server {shard}", shard=shard) for shard in range(args.processes)]
                  if args.processes > 1 else [fake.guild])
        fdj = FdjFile(folder / "loto.csv")
        fdj.create()
        store = Store(url)  # migrated here, before any bot process starts
        stack.callback(store.close)
        seeding = time.perf_counter()
        players = seed_order_games(store, fake, guilds, args.games)
        figures["seeding_s"] = time.perf_counter() - seeding
        processes = stack.enter_context(bot_processes(fake, folder, url, args.processes, fdj, args.logs))
        start_all(processes)
        figures["orders"] = run_orders(fake, store, players, processes, args, check)
        order_games = sorted({p.game_id for p in players})
        figures["fan_out"] = run_fan_out(fake, store, url, guilds, processes, fdj, order_games, args, check)
        figures["bot_log"] = log_problems(processes)
        with fake._cond:
            invalid = list(fake.invalid_answers)
        check("fake: every answer valid by Discord's spec", not invalid, invalid[:3])
    return figures, check


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def report(figures: dict[str, Any], check: Check) -> None:
    orders, fan = figures["orders"], figures["fan_out"]
    print(f"load test on {figures['database']}, {figures['processes']} bot process(es); "
          f"{orders['players'] // 2} games seeded in {figures['seeding_s']:.1f} s")
    print(f"\norders: {orders['orders']} from {orders['players']} players, {orders['clients']} typing at once, "
          f"in {orders['elapsed_s']:.1f} s ({orders['orders_per_s']:.1f}/s); {orders['deferred']} deferred")
    print(f"  latency ms        p50    p99    max\n  initial response {_ms(orders['initial_p50_ms']):>5} "
          f"{_ms(orders['initial_p99_ms']):>6} {_ms(orders['initial_max_ms']):>6}\n"
          f"  final answer     {_ms(orders['final_p50_ms']):>5} {_ms(orders['final_p99_ms']):>6}")
    for key, count in sorted(orders["outcomes"].items()):
        print(f"  {'accepted' if key == 'ok' else key:<40} {count:>7}")
    for phase, found in (("orders", orders), ("fan-out", fan)):
        for kind, count in sorted(found["discord_errors"].items()):
            print(f"  Discord answered ({phase}) {kind:<40} {count:>6}")
    print(f"\nfan-out: {fan['games']} games (seeded in {fan['seeding_s']:.1f} s), {fan['turn_posts']} turn posts")
    print(f"  requests under the global limit {fan['requests_under_global_limit']:>7}\n"
          f"  elapsed, launch to last post    {fan['elapsed_s']:>7.1f} s (first post after "
          f"{fan['start_to_first_post_s']:.1f} s; then {fan['turn_posts_per_s'] or 0:.1f} posts/s)\n"
          f"  floor, requests / {GLOBAL_PER_SECOND}            {fan['floor_s']:>7.1f} s (turn posts alone: "
          f"{fan['turn_post_floor_s']:.1f} s)\n"
          f"  ratio                           {fan['ratio'] or 0:>7.2f}\n"
          f"  settled (status edits, outbox)  {fan['settle_s']:>7.1f} s later")
    print(f"\n{'rows':<18} {'start':>8} {'after orders':>13} {'after draw':>11}")
    for table in orders["rows_before"]:
        print(f"{table:<18} {orders['rows_before'][table]:>8} {orders['rows_after'].get(table, 0):>13} "
              f"{fan['rows_after'].get(table, 0):>11}")
    if figures["bot_log"]:
        print("\nbot log lines (count, first one)")
        for kind, entry in sorted(figures["bot_log"].items()):
            print(f"  {kind:<34} {entry['count']:>6}  {entry['example']}")
    print()
    for name, (passed, detail) in check.results.items():
        print(f"{'ok  ' if passed else 'FAIL'} {name}{'' if passed else ': ' + detail}")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games the players order in (1000)")
    parser.add_argument("--orders", type=int, default=None, help="orders in all (10000)")
    parser.add_argument("--fanout-games", type=int, default=None, help="games the draw reaches (5000)")
    parser.add_argument("--processes", type=int, default=None,
                        help="bot processes, one shard each (2 on PostgreSQL; SQLite runs 1)")
    parser.add_argument("--clients", type=int, default=32, help="players typing at once (32)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--quick", action="store_true", help="50 games, 300 orders, 200 in the fan-out")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--logs", type=Path, default=None, help="copy the bot processes' logs to this folder")
    args = parser.parse_args(argv)
    sizes = (50, 300, 200) if args.quick else (1000, 10_000, 5000)
    args.games = args.games or sizes[0]
    args.orders = args.orders or sizes[1]
    args.fanout_games = args.fanout_games or sizes[2]
    args.processes = args.processes or (2 if args.database == "postgresql" else 1)
    if args.database == "sqlite" and args.processes > 1:
        parser.error("several processes share one PostgreSQL database: SQLite runs one process")
    if min(args.games, args.orders, args.fanout_games, args.processes, args.clients) < 1:
        parser.error("every size is at least 1")
    return args


def _terminated(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    signal.signal(signal.SIGTERM, _terminated)  # a `timeout` or a kill still stops the bots and cleans up
    figures, check = run(args)
    if args.json:
        print(json.dumps({"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "figures": figures,
                          "checks": {name: {"passed": ok, "detail": detail}
                                     for name, (ok, detail) in check.results.items()}}, indent=1))
    else:
        report(figures, check)
    return 0 if check.passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
