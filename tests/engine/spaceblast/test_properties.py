"""Property tests: random positions and random legal orders keep the game's invariants.

Invariants, after every input: the same inputs give the same state; the JSON round trip is exact;
tokens stay within 0 and the starting material; a hit is never undone except by super armour (one
``repaired`` event per hit point given back); the change of the total score equals the ``scored``
events less the points a disqualification wiped; every order legal_orders lists is accepted; a
refused input leaves the state unchanged; one ship per cell, one mine per cell, all on the arena.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.core.hexgrid import Direction
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.events import EVENT_KINDS
from engine.spaceblast.material import BRAKES, MINES, MISSILES, POWERS, TURNS
from engine.spaceblast.state import JUMP, RUNNING, GameState, arena

VARIANTS = ([], ["powers"], ["asteroids", "powers"], ["bigbang", "powers"], ["bigbang3"])
JUNK = ("left left", "left right brake mine", "missile missile missile missile", "power warp", "mine mine",
        "power timejump", "brake brake", "mine", "power shield")
DIRECTIONS = [d.name for d in Direction]


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    radius = draw(st.integers(4, 6))
    board = arena(radius)
    cells = [board.format(cell) for cell in board]
    variants = draw(st.sampled_from(VARIANTS))
    bigbang = any(v.startswith("bigbang") for v in variants)
    count = draw(st.integers(2, 6))
    at = draw(st.lists(st.sampled_from(cells), min_size=count, max_size=count, unique=True))
    ships = [
        {
            "id": f"s{index}",
            "at": cell,
            "facing": draw(st.sampled_from(DIRECTIONS)),
            "hits": draw(st.integers(0, 3)),
            "turns": draw(st.integers(0, 3 if bigbang else TURNS)),
            "brakes": draw(st.integers(0, BRAKES)),
            "missiles": draw(st.integers(0, MISSILES)),
            "mines": draw(st.integers(0, MINES)),
            "score": draw(st.integers(0, 3)),
            "powers": draw(st.lists(st.sampled_from(POWERS), max_size=2, unique=True)) if "powers" in variants else [],
        }
        for index, cell in enumerate(at)
    ]
    owners = st.sampled_from([s["id"] for s in ships])
    free = [cell for cell in cells if cell not in at]
    asteroids = draw(st.lists(st.sampled_from(free), max_size=3, unique=True))
    open_cells = [cell for cell in cells if cell not in asteroids]
    missiles = draw(st.lists(st.fixed_dictionaries(
        {"owner": owners, "at": st.sampled_from(open_cells), "facing": st.sampled_from(DIRECTIONS)}), max_size=4))
    mine_cells = draw(st.lists(st.sampled_from(open_cells), max_size=3, unique=True))
    mines = [{"owner": draw(owners), "at": cell, "active": draw(st.booleans())} for cell in mine_cells]
    return {"radius": radius, "variants": variants, "ships": ships, "asteroids": asteroids, "missiles": missiles,
            "mines": mines}


def dumped(state: GameState) -> str:
    return json.dumps(SPACEBLAST.to_json(state), sort_keys=True)


def check_state(state: GameState) -> None:
    assert SPACEBLAST.load_state(json.loads(json.dumps(SPACEBLAST.dump_state(state)))) == state
    board = state.board
    cells = [ship.at for ship in state.on_board()]
    assert len(cells) == len(set(cells)) and all(cell in board for cell in cells)
    assert not set(cells) & state.asteroids
    for ship in state.ships:
        assert 0 <= ship.turns <= TURNS and 0 <= ship.brakes <= BRAKES
        assert 0 <= ship.missiles <= MISSILES and 0 <= ship.mines <= MINES
        assert ship.hits >= 0 and ship.score >= 0
        assert ship.alive == (ship.at is not None)
        assert not ship.disqualified or ship.score == 0
    assert all(missile.at in board for missile in state.missiles)
    mines = [mine.at for mine in state.mines]
    assert len(mines) == len(set(mines))


def check_outcome(before: GameState, kind: str, actor: str | None, payload: dict[str, Any], log: list) -> GameState:
    """Apply one input: a refusal must change nothing; an accepted one must keep every invariant."""
    snapshot = dumped(before)
    try:
        outcome = SPACEBLAST.apply_input(before, kind, actor, payload)
    except OrderError:
        assert dumped(before) == snapshot
        return before
    log.append((kind, actor, payload))
    after = outcome.state
    events = outcome.events
    assert all(event.kind in EVENT_KINDS for event in events)
    json.dumps([event.to_json() for event in events])
    scored = sum(e.params["points"] for e in events if e.kind == "scored")
    wiped = sum(e.params["lost"] for e in events if e.kind == "disqualified")
    assert sum(s.score for s in after.ships) - sum(s.score for s in before.ships) == scored - wiped
    repaired = {e.params["ship"] for e in events if e.kind == "repaired"}
    for old, new in zip(before.ships, after.ships, strict=True):
        assert new.hits >= old.hits - (1 if old.id in repaired else 0), (old, new)
    check_state(after)
    return after


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(document=documents(), data=st.data())
def test_random_games_keep_the_invariants(document: dict[str, Any], data: st.DataObject) -> None:
    start = SPACEBLAST.setup(document)
    check_state(start)
    state = start
    log: list = []
    for _ in range(data.draw(st.integers(1, 6), label="turns")):
        if state.status != RUNNING:
            break
        for ship in list(state.on_board()):
            junk = data.draw(st.sampled_from(JUNK), label="junk")
            state = check_outcome(state, "order", ship.id, {"text": junk}, log)
            options = list(SPACEBLAST.legal_orders(state, ship.id))
            pick = data.draw(st.integers(-1, len(options) - 1), label="order")
            if pick >= 0:
                text = SPACEBLAST.format_order(options[pick])
                accepted = SPACEBLAST.apply_input(state, "order", ship.id, {"text": text})  # must not raise
                assert accepted.state.orders[ship.id] == options[pick]
                state = check_outcome(state, "order", ship.id, {"text": text}, log)
        state = check_outcome(state, "resolve", None, {}, log)
        if state.phase == JUMP:
            for holder in state.jumpers:
                text = data.draw(st.sampled_from(("none", "brake", "missile", "left", "mine")), label="jump")
                state = check_outcome(state, "time_jump", holder, {"text": text}, log)
            state = check_outcome(state, "resolve", None, {}, log)
    replayed = start
    for kind, actor, payload in log:
        replayed = SPACEBLAST.apply_input(replayed, kind, actor, payload).state
    assert dumped(replayed) == dumped(state)
    assert replayed == state
