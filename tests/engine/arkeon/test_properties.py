"""Property tests over seeded random games, from the lobby to the end.

At every step: each listed turn is accepted (all of them, every few steps), a random order text
that `play` refuses leaves the serialised state byte-identical and is not listed, the state keeps
its invariants (below) and survives the JSON round trip; at the end, replaying the log from the
same document and seed rebuilds the same state (determinism from the seed).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.arkeon import ARKEON
from engine.arkeon.endings import attackers_of_base
from engine.arkeon.grid import INDEX, to_board
from engine.arkeon.pieces import ADVANCED, AGGRESSIVE, BASE, BASIC, BASICS_PER_SIDE, SIDES
from engine.arkeon.resolution import connected
from engine.arkeon.state import FINISHED, RUNNING, ArkeonState
from engine.core.errors import OrderError
from tests.engine.arkeon.builders import dumped
from tests.engine.arkeon.oracle import TEXTS

Input = tuple[str, str | None, dict[str, Any]]


def check_invariants(state: ArkeonState) -> None:
    for side in SIDES:
        mine = [p for p in state.cells.values() if p.side == side]
        assert sum(1 for p in mine if p.kind == BASE) == 1
        # AK-3: the twelve basics are on the board or in the reserve, never lost nor made
        assert sum(1 for p in mine if p.kind == BASIC) + state.reserves[side].basic == BASICS_PER_SIDE
        advanced = [p.kind for p in mine if p.kind in ADVANCED]
        assert len(advanced) == len(set(advanced))
        removed = state.reserves[side].removed
        assert not removed & set(advanced) and removed != frozenset(ADVANCED)  # AK-14
    for piece in state.cells.values():
        assert (piece.facing is not None) == (piece.kind in AGGRESSIVE)
    if state.phase == RUNNING:
        board = to_board(state.cells)
        for side in SIDES:  # AK-13 steps 3 and 5 leave nobody cut off
            joined = connected(board, side)
            assert all(INDEX[c] in joined for c, p in state.cells.items() if p.side == side)
            assert attackers_of_base(state, side) == []  # AK-15 would have ended the game
        assert state.base_of("blue").distance(state.base_of("red")) > 1  # AK-16 likewise
        assert next(ARKEON.legal_orders(state, state.to_move), None) is not None  # AK-17
        assert ARKEON.waiting_on(state) == (state.to_move,)
    if state.phase == FINISHED:
        result = ARKEON.result(state)
        assert result.finished and result.reason is not None and state.to_move is None
        assert ARKEON.waiting_on(state) == ()
    json.dumps(ARKEON.view(state))
    assert ARKEON.from_json(json.loads(dumped(state))) == state


def random_game(seed: int, full_listing_every: int = 6) -> tuple[ArkeonState, list[Input]]:
    rng = random.Random(seed)
    state = ARKEON.setup({"phase": "setup"}, seed)
    log: list[Input] = [("join", None, {"id": "Ann"}), ("join", None, {"id": "Ben"}), ("start", None, {})]
    for kind, actor, payload in log:
        state = ARKEON.apply_input(state, kind, actor, payload).state
    step = 0
    resign_at = rng.randrange(30, 300)  # most games end by the rules first
    while state.to_move is not None and step < 200:
        step += 1
        side = state.to_move
        listed = [ARKEON.format_order(o) for o in ARKEON.legal_orders(state, side)]
        assert listed, "AK-17: a side to move always has a move"
        if step % full_listing_every == 0:
            for text in listed:
                ARKEON.play(state, side, ARKEON.parse_orders(text))  # never raises
        for _ in range(2):
            text = rng.choice(TEXTS)
            before = dumped(state)
            try:
                ARKEON.apply_input(state, "order", side, {"text": text})
            except OrderError:
                assert dumped(state) == before
                assert ARKEON.format_order(ARKEON.parse_orders(text)[0]) not in listed
            else:
                assert ARKEON.format_order(ARKEON.parse_orders(text)[0]) in listed
        entry: Input = ("order", side, {"text": rng.choice(listed)})
        if step == resign_at:
            entry = ("resign", rng.choice(SIDES), {})
        state = ARKEON.apply_input(state, *entry).state
        log.append(entry)
        check_invariants(state)
    return state, log


@pytest.mark.parametrize("seed", range(10))
def test_random_games_keep_the_invariants_and_replay_identically(seed: int) -> None:
    state, log = random_game(seed)
    assert state.phase == FINISHED
    replayed = ARKEON.setup({"phase": "setup"}, seed)
    for kind, actor, payload in log:
        replayed = ARKEON.apply_input(replayed, kind, actor, payload).state
    assert dumped(replayed) == dumped(state)


def test_the_seed_alone_decides_the_starter() -> None:
    starters = {}
    for seed in range(16):
        games = []
        for _ in range(2):
            state = ARKEON.setup({"phase": "setup"}, seed)
            for name in ("Ann", "Ben"):
                state = ARKEON.apply_input(state, "join", None, {"id": name}).state
            games.append(ARKEON.apply_input(state, "start", None, {}).state)
        assert dumped(games[0]) == dumped(games[1])
        starters[seed] = games[0].starter
    assert set(starters.values()) == {"blue", "red"}


def test_refused_inputs_of_every_kind_leave_the_state_unchanged() -> None:
    state, _ = random_game(3)
    for kind, actor, payload in [
        ("order", "blue", {"text": "place basic C3 E"}),
        ("resign", "blue", {}),
        ("timeout", None, {"actor": "red"}),
        ("join", None, {"id": "Zed"}),
        ("start", None, {}),
        ("nonsense", None, {}),
    ]:
        before = dumped(state)
        with pytest.raises(OrderError):
            ARKEON.apply_input(state, kind, actor, payload)
        assert dumped(state) == before
