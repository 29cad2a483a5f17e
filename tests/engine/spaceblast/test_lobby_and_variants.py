"""The lobby (SB-3), and what the variants set up from the seed (SB-16, SB-17) or allow (SB-18)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core.protocol import Audience
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.material import ASTEROID_CLEARANCE, POWERS
from engine.spaceblast.variants import limits_for

NAMES = ("red", "blue", "green", "gold", "grey", "pink")


def test_registered_by_name_and_alias() -> None:
    assert registry.get("spaceblast") is SPACEBLAST
    assert registry.get("SB") is SPACEBLAST


def test_join_leave_start_and_the_result(sb) -> None:
    state = SPACEBLAST.setup({"radius": 6, "variants": []})
    assert SPACEBLAST.result(state).status == "setup" and SPACEBLAST.waiting_on(state) == ()
    outcome = SPACEBLAST.apply_input(state, "join", "red", {"id": "red"})
    assert sb.kinds(outcome) == ["joined"] and outcome.events[0].params == {"id": "red", "seat": 0}
    assert sb.refused(outcome.state, "start", None, {}).code == "not_ready"
    assert sb.refused(outcome.state, "join", "x", {"id": ""}).code == "bad_id"
    assert sb.refused(outcome.state, "resolve", None, {}).params["reason"] == "not_started"
    state = sb.lobby("red", "blue", radius=4)
    assert SPACEBLAST.result(state).status == "running"
    assert SPACEBLAST.actors(state) == ("red", "blue")
    assert SPACEBLAST.waiting_on(state) == ("red", "blue")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 6), per_ship=st.integers(1, 3))
def test_powers_are_dealt_without_replacement_from_the_seed(sb, seed: int, players: int, per_ship: int) -> None:
    document = {"variants": ["powers"], "seed": seed, "powers_per_ship": per_ship}
    state = SPACEBLAST.setup(document)
    for name in NAMES[:players]:
        state = SPACEBLAST.apply_input(state, "join", name, {"id": name}).state
    if per_ship * players > len(POWERS):
        assert sb.refused(state, "start", None, {}).params["reason"] == "too_many_powers"
        return
    outcome = SPACEBLAST.apply_input(state, "start", None, {})
    hands = [ship.powers for ship in outcome.state.ships]
    dealt = [power for hand in hands for power in hand]
    assert all(len(hand) == per_ship for hand in hands) and len(set(dealt)) == len(dealt)
    private = [e for e in outcome.events if e.kind == "powers_dealt"]
    assert [(e.audience, tuple(e.params["powers"])) for e in private] == [
        (Audience.actor(ship.id), ship.powers) for ship in outcome.state.ships]
    again = SPACEBLAST.setup(document)
    for name in NAMES[:players]:
        again = SPACEBLAST.apply_input(again, "join", name, {"id": name}).state
    assert SPACEBLAST.apply_input(again, "start", None, {}).state == outcome.state


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 6), radius=st.integers(4, 9), count=st.integers(0, 6))
def test_asteroids_keep_clear_of_every_ship(sb, seed: int, players: int, radius: int, count: int) -> None:
    state = sb.lobby(*NAMES[:players], radius=radius, variants=["asteroids"], seed=seed, asteroid_count=count)
    assert len(state.asteroids) == count
    for cell in state.asteroids:
        assert all(cell.distance(ship.at) >= ASTEROID_CLEARANCE for ship in state.ships)


def test_a_different_seed_gives_another_arena(sb) -> None:
    arenas = {frozenset(sb.lobby("a", "b", variants=["asteroids"], seed=seed).asteroids) for seed in range(8)}
    assert len(arenas) > 1


def test_variants_only_change_the_limits_they_name() -> None:
    standard = limits_for([])
    assert (standard.tokens, standard.repeats, standard.missile_ranges) == (3, False, (3,))
    assert limits_for(["asteroids", "powers"]) == standard
    bigbang = limits_for(["bigbang", "powers"])
    assert (bigbang.tokens, bigbang.repeats, bigbang.missile_ranges) == (None, True, (3,))
    assert limits_for(["bigbang3"]).missile_ranges == (3, 2, 1)
