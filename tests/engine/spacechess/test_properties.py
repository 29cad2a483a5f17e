"""Property tests: random order sequences and draws keep the game's invariants.

Invariants: 0 <= AP <= cap (SC-11), 0 <= HP <= max_hp (SC-8), one living character per cell
(SC-3) and only on floor, the dead off the board (SC-28), the JSON round trip is identical, the
same inputs give the same state, and a refused input leaves the serialised state byte-identical.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.spacechess import SPACECHESS

MAP = "".join(
    row + "\n"
    for row in (
        "..........",
        "..........",
        "...##.....",
        "..........",
        ".....#....",
        "....#.....",
        "..........",
        ".....##...",
        "..........",
        "..........",
    )
)
CHARACTERS = [
    {"id": "g1", "team": 1, "role": "general", "at": "E1", "ap": 9, "cards": [1, 2]},
    {"id": "g2", "team": 2, "role": "general", "at": "F10", "ap": 9, "cards": [3, 4]},
    {
        "id": "a",
        "team": 1,
        "role": "soldier",
        "at": "B2",
        "weapon": "bolter",
        "armour": "light",
        "items": ["grenades", "jetpack"],
        "ability": "vehicle",
        "cards": [1, 5],
        "ap": 9,
    },
    {
        "id": "b",
        "team": 1,
        "role": "soldier",
        "at": "F2",
        "weapon": "heavy_bolter",
        "armour": "medium",
        "items": ["perforating", "logistics"],
        "ability": "friendship",
        "cards": [2, 6],
        "ap": 6,
    },
    {
        "id": "c",
        "team": 2,
        "role": "soldier",
        "at": "C9",
        "weapon": "sniper",
        "armour": "heavy",
        "items": ["scope", "grenades"],
        "ability": "rage",
        "cards": [3, 7],
        "ap": 9,
    },
    {
        "id": "d",
        "team": 2,
        "role": "soldier",
        "at": "H9",
        "weapon": "bolter",
        "armour": "light",
        "items": ["grade", "vigour"],
        "grade": "lieutenant",
        "ability": "friendship",
        "cards": [4, 7],
        "ap": 4,
    },
]
IDS = [c["id"] for c in CHARACTERS]
START = SPACECHESS.setup(
    {"map": MAP, "characters": CHARACTERS, "pickups": [{"at": "E4", "kind": "ap", "amount": 4}]}
)
CAP = START.rules.ap_cap

DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
SOLDIER_VERBS = ["move", "move", "move", "shoot", "shoot", "grenade", "ability", "friendship"]
GENERAL_VERBS = ["move", "shoot", "airstrike", "encourage", "hack", "heal", "intimidate", "teleport"]


def near(draw: st.DrawFn, cell, spread: int) -> str:
    """A cell name around `cell` (mostly on the board, sometimes off it)."""
    x = cell.x + draw(st.integers(-spread, spread))
    y = cell.y + draw(st.integers(-spread, spread))
    return f"{chr(ord('A') + max(0, min(25, x)))}{max(0, y) + 1}"


@st.composite
def order_text(draw: st.DrawFn, state, actor) -> str:
    """An order that is often legal for this actor in this state, and sometimes not."""
    verb = draw(st.sampled_from(GENERAL_VERBS if actor.is_general else SOLDIER_VERBS))
    other = draw(st.sampled_from(IDS))
    if verb == "move":
        return f"move {near(draw, actor.at, 3)}"
    if verb == "shoot":
        return f"shoot {other}"
    if verb == "grenade":
        return f"grenade {near(draw, actor.at, 3)}"
    if verb == "ability":
        return draw(st.sampled_from(["vehicle", "rage"]))
    if verb == "airstrike":
        return f"airstrike {near(draw, actor.at, 9)} {draw(st.sampled_from(DIRECTIONS))}"
    if verb in ("friendship", "heal"):
        return f"{verb} {other}"
    if verb in ("intimidate", "teleport"):
        target = state.find(other)
        around = target.at if target is not None and target.at is not None else actor.at
        return f"{verb} {other} {near(draw, around, 3)}"
    return verb


@st.composite
def next_input(draw: st.DrawFn, state):
    if draw(st.integers(0, 4)) == 0:
        numbers = draw(st.lists(st.integers(1, 49), min_size=5, max_size=5, unique=True))
        return "draw", None, {"numbers": numbers, "bonus": None}
    living = [c for c in state.characters if c.alive] or list(state.characters)
    actor = draw(st.sampled_from(living))
    count = draw(st.integers(1, 2))
    text = "; ".join(draw(order_text(state, actor)) for _ in range(count))
    return "order", actor.id, {"text": text}


def dumped(state) -> str:
    return json.dumps(SPACECHESS.to_json(state), sort_keys=True)


def check_invariants(state) -> None:
    seen = set()
    for character in state.characters:
        assert 0 <= character.ap <= CAP
        assert 0 <= character.hp <= character.max_hp
        if character.alive:
            assert character.at is not None and state.game_map.is_floor(character.at)
            assert character.at not in seen
            seen.add(character.at)
        else:
            assert character.at is None
    data = json.loads(dumped(state))
    assert dumped(SPACECHESS.from_json(data)) == dumped(state)


def replay(steps):
    state = START
    for kind, actor, payload in steps:
        try:
            state = SPACECHESS.apply_input(state, kind, actor, payload).state
        except OrderError:
            continue
    return state


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_inputs_keep_the_invariants(data) -> None:
    state = START
    steps = []
    for _ in range(data.draw(st.integers(1, 30), label="length")):
        step = data.draw(next_input(state))
        steps.append(step)
        kind, actor, payload = step
        before = dumped(state)
        try:
            state = SPACECHESS.apply_input(state, kind, actor, payload).state
        except OrderError:
            assert dumped(state) == before
            continue
        check_invariants(state)
    assert dumped(replay(steps)) == dumped(state)
