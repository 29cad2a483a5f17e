"""Optimistic concurrency under real contention (PRODUCT.md, Storage model: "two processes (or two fast
clicks) can never both apply on the same version"). Each writer has its own Store, i.e. its own
engine and connection pool, as separate bot processes would; threads start together on a barrier.
The outcome asserted never depends on timing: whoever wins, exactly one write per version lands."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.store import GameRecord, NewEntry, StaleWrite, Store

MakeGame = Callable[..., GameRecord]


def run_together(workers: list[Callable[[], Any]]) -> list[Any]:
    """Run the callables in threads released at once; return their results or the exceptions they raised."""
    barrier = threading.Barrier(len(workers))
    results: list[Any] = [None] * len(workers)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = workers[index]()
        except Exception as exc:  # noqa: BLE001 — handed back to the test, which asserts on it
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_writers_on_one_version_exactly_one_wins(database_url: str, make_game: MakeGame) -> None:
    stores = [Store(database_url), Store(database_url, migrate=False)]
    try:
        game = make_game(stores[0])
        rounds = 15
        for round_number in range(rounds):
            version = 1 + round_number

            def attempt(store: Store, name: str, version: int = version) -> GameRecord:
                entry = NewEntry("order", name, None, {"by": name, "on": version})
                return store.commit(game.id, version, state={"by": name, "on": version}, entries=[entry])

            results = run_together(
                [partial(attempt, stores[0], "first"), partial(attempt, stores[1], "second")]
            )
            winners = [r for r in results if isinstance(r, GameRecord)]
            losers = [r for r in results if isinstance(r, StaleWrite)]
            assert len(winners) == 1 and len(losers) == 1, results
            assert (losers[0].expected_version, losers[0].actual_version) == (version, version + 1)
            assert stores[1].get_game(game.id) == winners[0]
        log = stores[0].log(game.id)
        assert [entry.seq for entry in log] == list(range(1, rounds + 2))  # no gap, no duplicate
        final = stores[0].get_game(game.id)
        assert final is not None and final.version == rounds + 1
        assert log[-1].payload == final.state  # the entry that landed is the winner's
    finally:
        for store in stores:
            store.close()


def test_retrying_writers_lose_no_update(database_url: str, make_game: MakeGame) -> None:
    """Four writers increment a counter five times each, re-reading on StaleWrite: all 20 increments land,
    in log order, each entry recording the count it produced."""
    stores = [Store(database_url)] + [Store(database_url, migrate=False) for _ in range(3)]
    try:
        game = make_game(stores[0], state={"count": 0})
        increments = 5

        def writer(store: Store, name: str) -> int:
            stale = 0
            done = 0
            while done < increments:
                current = store.get_game(game.id)
                assert current is not None
                count = current.state["count"] + 1
                try:
                    store.commit(
                        game.id,
                        current.version,
                        state={"count": count},
                        entries=[NewEntry("increment", name, None, {"count": count})],
                    )
                    done += 1
                except StaleWrite:
                    stale += 1
            return stale

        results = run_together([partial(writer, store, f"w{i}") for i, store in enumerate(stores)])
        assert all(isinstance(r, int) for r in results), results
        total = increments * len(stores)
        final = stores[0].get_game(game.id)
        assert final is not None and final.state == {"count": total} and final.version == 1 + total
        log = stores[0].log(game.id, after_seq=1)
        assert [entry.seq for entry in log] == list(range(2, total + 2))
        assert [entry.payload["count"] for entry in log] == list(range(1, total + 1))
        per_writer = {f"w{i}": 0 for i in range(len(stores))}
        for entry in log:
            per_writer[entry.actor or ""] += 1
        assert set(per_writer.values()) == {increments}
    finally:
        for store in stores:
            store.close()
