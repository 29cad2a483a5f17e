"""Checkpoints (bot.service.checkpoints): a stretch of the log replayed from the last checkpoint before
it gives what replaying the whole log gives, whatever undos and setup changes came in between; so
does the state an undo computes."""

from __future__ import annotations

import random
from typing import Any

from bot.service import GameService
from bot.service.checkpoints import Checkpoints
from bot.service.replaying import Step
from bot.service.scene import history_of
from bot.store import NewEntry, Store
from engine import registry


def _seen(steps: dict[int, Step] | list[Step]) -> dict[int, Any]:
    rules = registry.get("tally")
    found = steps.values() if isinstance(steps, dict) else steps
    return {step.seq: (step.events, rules.to_json(step.state)) for step in found}


def test_a_stretch_replayed_from_checkpoints_is_the_whole_replays_stretch(sqlite_store: Store) -> None:
    store = sqlite_store
    service = GameService(store)
    service.checkpoints = Checkpoints(every=3)  # many checkpoints, so undos and pages cross them
    rng = random.Random(7)
    joins = [NewEntry("join", "Ann", 1, {"id": "Ann"}), NewEntry("join", "Bob", 2, {"id": "Bob"})]
    game = store.create_game(kind="tally", name="Long", guild_id=1, channel_id=1, setup={"goal": 10**6},
                             state={}, seed=1, created_by=1, status="running", entries=joins)
    undone: set[int] = set()
    for step in range(150):
        game = store.get_game(game.id)
        last = store.log_count(game.id)
        inputs = [seq for seq in range(3, last + 1) if seq not in undone]
        roll = rng.random()
        if roll < 0.15 and inputs:  # an undo, of recent inputs or of one far back
            taken = rng.sample(inputs[-4:], k=min(len(inputs[-4:]), rng.randint(1, 2))) if roll < 0.1 \
                else [rng.choice(inputs)]
            rules = registry.get("tally")
            assert rules.to_json(service.checkpoints.state_without(service, game, taken)) == rules.to_json(
                service.replay(game, store.log(game.id), skip=taken)), f"step {step}, undoing {taken}"
            undone |= set(taken)
            entry = NewEntry("undo", None, 1, {"seqs": sorted(taken)})
        else:
            entry = NewEntry("order", rng.choice(["Ann", "Bob"]), 1, {"text": f"add {rng.randint(1, 5)}"})
        # at step 90 a game master loads another setup: every checkpoint is of the old one
        store.commit(game.id, game.version, state=game.state, entries=[entry],
                     setup={"goal": 10**7} if step == 90 else None)
        game = store.get_game(game.id)
        whole = _seen(history_of(game, service))
        end = store.log_count(game.id)
        start = end - 2 if step == 90 else rng.randint(1, end)
        page = range(start, min(end, start + rng.randint(0, 12)) + 1)  # any page, newest or old
        assert _seen(service.checkpoints.steps(service, game, page)) == {
            seq: seen for seq, seen in whole.items() if seq in page}, f"step {step}, page {page}"


def test_a_history_page_reads_the_page_not_the_log(sqlite_store: Store) -> None:
    """Once checkpoints are taken, a page replays at most `every` inputs before its own entries."""
    store = sqlite_store
    service = GameService(store)
    service.checkpoints = Checkpoints(every=10)
    log = [NewEntry("join", "Ann", 1, {"id": "Ann"})] + [NewEntry("order", "Ann", 1, {"text": "add 1"})] * 200
    game = store.create_game(kind="tally", name="Long", guild_id=1, channel_id=1, setup={"goal": 10**6},
                             state={}, seed=1, created_by=1, status="running", entries=log)
    service.checkpoints.steps(service, game, [201])  # the first look replays the whole log once
    rules = registry.get("tally")
    applied: list[str] = []
    original = rules.apply_input

    def counted(*args: Any) -> Any:
        applied.append(args[1])
        return original(*args)

    rules.apply_input = counted  # type: ignore[method-assign]
    try:
        steps = service.checkpoints.steps(service, game, range(195, 202))
    finally:
        del rules.apply_input
    assert len(applied) <= 10 + 7 and sorted(steps) == list(range(195, 202))
    assert steps[201].events[0].params["total"] == 200
