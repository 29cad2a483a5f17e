"""The web companion under load (issue 29, point 7): page answers with many games stored and many
live pages open, and the time from a commit to every open page's event stream having the change.

    python benchmarks/bench_web.py [--games 1000] [--streams 200] [--requests 300] [--moves 20]
                                   [--database URL] [--writer-process]

SQLite (a temporary file) by default; `--database` names an empty PostgreSQL database to run on
instead (its schema is made there). With `--writer-process` (PostgreSQL only) the moves are made by
a second process, so the change reaches this process's pages by LISTEN/NOTIFY, as between two bot
processes. A page's first view reads its game's history (replayed once, then kept by the service's
checkpoints); its board is drawn when the browser asks for the image, not counted here. "commit →
all streams" is measured from
the commit (the store's change listener in the committing process) to the last stream receiving
the new version; the page's script then fetches the page again (one "repeat view").
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

import bot.compose  # noqa: F401  (declares the commands)
from bot.service import Context, GameService
from bot.store.repo import Store
from bot.store.web_links import issue_link
from bot.web.app import make_app
from bot.web.limits import RateLimit
from bot.web.server import WebServer

GUILD, CHANNEL = 10, 100
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=10, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=11, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)


def live_game(svc: GameService) -> int:
    """A SpaceBlast game, started, that the moves change (Ann's orders, given again and again)."""
    svc.handle(GM, "sb new", {"name": "Nebula", "radius": 5})
    svc.handle(ANN, "sb join", {"name": "Ann"})
    svc.handle(BOB, "sb join", {"name": "Bob"})
    svc.handle(GM, "gm start", {})
    return svc.store.game_in_channel(GUILD, CHANNEL).id


def stored_games(store: Store, model_id: int, count: int) -> list[str]:
    """`count` more games like the live one, each with its link: the tokens."""
    model = store.get_game(model_id)
    tokens = []
    for index in range(count):
        game = store.create_game(kind=model.kind, name=f"Game {index}", guild_id=GUILD, channel_id=1000 + index,
                                 setup=model.setup, state=model.state, seed=model.seed, created_by=1,
                                 status=model.status)
        tokens.append(issue_link(store, game.id, 1))
    return tokens


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000, ordered[-1] * 1000


async def page_times(base: str, tokens: list[str], requests: int) -> tuple[list[float], list[float]]:
    """First views of `requests` pages of random games, then the same pages again."""
    chosen = random.Random(1).sample(tokens, min(requests, len(tokens)))
    first, repeat = [], []
    async with aiohttp.ClientSession() as session:
        for times in (first, repeat):
            for token in chosen:
                started = time.perf_counter()
                async with session.get(f"{base}/g/{token}") as answer:
                    await answer.read()
                    assert answer.status == 200, answer.status
                times.append(time.perf_counter() - started)
    return first, repeat


async def read_versions(session: aiohttp.ClientSession, url: str, seen: dict[int, list[float]],
                        opened: asyncio.Event, count: list[int], total: int) -> None:
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as stream:
        async for line in stream.content:
            if line.startswith(b"data: "):
                version = int(line[6:])
                seen.setdefault(version, []).append(time.time())
                count[0] += 1
                if count[0] == total:
                    opened.set()


def writer(url: str, pipe: Any) -> None:
    """The second process (it imports this module, commands declared): makes a move at each request,
    answers with its commit's wall time."""
    store = Store(url, migrate=False)
    svc = GameService(store, seed_source=lambda: 2024)
    committed: list[float] = []
    store.add_change_listener(lambda _game_id: committed.append(time.time()))
    while (turn := pipe.recv()) is not None:
        svc.handle(ANN, "sb orders", {"turn": turn})
        pipe.send(committed[-1])
    store.close()


async def commit_times(svc: GameService, base: str, token: str, streams: int, moves: int,
                       url: str | None) -> list[float]:
    """Per move: from its commit to the last of `streams` event streams receiving its version."""
    seen: dict[int, list[float]] = {}
    count = [0]
    opened = asyncio.Event()
    committed: list[float] = []
    listener = lambda _game_id: committed.append(time.time())  # noqa: E731
    svc.store.add_change_listener(listener)
    child = pipe = None
    if url is not None:
        context = multiprocessing.get_context("spawn")
        pipe, theirs = context.Pipe()
        child = context.Process(target=writer, args=(url, theirs))
        child.start()
    connector = aiohttp.TCPConnector(limit=0)
    delays = []
    async with aiohttp.ClientSession(connector=connector) as session:
        readers = [asyncio.create_task(read_versions(session, f"{base}/g/{token}/events", seen, opened, count,
                                                     streams)) for _ in range(streams)]
        await asyncio.wait_for(opened.wait(), 60)  # every stream has its first version
        for move in range(moves):
            turn = ("left", "right")[move % 2]
            if pipe is not None:
                pipe.send(turn)
                started = await asyncio.to_thread(pipe.recv)
            else:
                await asyncio.to_thread(svc.handle, ANN, "sb orders", {"turn": turn})
                started = committed[-1]
            version = svc.store.get_game(svc.store.game_in_channel(GUILD, CHANNEL).id).version
            while len(seen.get(version, ())) < streams:
                await asyncio.sleep(0.002)
            delays.append(max(seen[version]) - started)
        for reader in readers:
            reader.cancel()
    svc.store.remove_change_listener(listener)
    if pipe is not None and child is not None:
        pipe.send(None)
        child.join(30)
    return delays


async def run(args: argparse.Namespace) -> None:
    folder = tempfile.TemporaryDirectory()
    url = args.database or f"sqlite:///{Path(folder.name) / 'bench.sqlite'}"
    store = Store(url)
    svc = GameService(store, seed_source=lambda: 2024)
    game_id = live_game(svc)
    started = time.perf_counter()
    tokens = stored_games(store, game_id, args.games)
    made = time.perf_counter() - started
    live_token = issue_link(store, game_id, 1)
    server = WebServer(svc, "127.0.0.1", 0, app=make_app(svc, limit=RateLimit(rate=1e9, burst=10**9))).start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        first, repeat = await page_times(base, tokens, args.requests)
        delays = await commit_times(svc, base, live_token, args.streams, args.moves,
                                    url if args.writer_process else None)
    finally:
        server.stop()
        store.close()
        folder.cleanup()
    backend = store.dialect + (" (moves by a second process)" if args.writer_process else "")
    print(f"web companion on {backend}: {args.games} games stored (made in {made:.1f} s), "
          f"{args.streams} live pages open")
    print(f"{'measure':<32}{'n':>6}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, samples in (("page, first view", first), ("page, repeat view", repeat),
                          (f"commit → all {args.streams} streams", delays)):
        p50, p99, worst = percentiles(samples)
        print(f"{name:<32}{len(samples):>6}{p50:>10.1f}{p99:>10.1f}{worst:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--database", help="an empty PostgreSQL database's URL (default: a temporary SQLite file)")
    parser.add_argument("--writer-process", action="store_true", help="moves made by a second process (PostgreSQL)")
    args = parser.parse_args()
    if args.writer_process and not (args.database or "").startswith("postgres"):
        parser.error("--writer-process needs --database postgresql://...")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
