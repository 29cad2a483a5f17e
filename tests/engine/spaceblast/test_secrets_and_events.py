"""What each reader sees (SB-5, SB-17, SB-20) and the story a turn tells: events in resolution order."""

from __future__ import annotations

import json

from engine.core.protocol import EVERYONE, GM, Audience
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.events import EVENT_KINDS


def test_submitting_tells_everyone_who_and_only_the_ship_what(sb) -> None:
    state = sb.game(sb.ship("a", "G7", "E", powers=["shield"]), sb.ship("b", "J4", "W"), variants=["powers"])
    outcome = sb.order(state, "a", "left missile power shield")
    submitted, private = outcome.events
    assert (submitted.kind, submitted.params, submitted.audience) == ("submitted", {"ship": "a"}, EVERYONE)
    assert private.kind == "orders_set" and private.audience == Audience.actor("a")
    assert private.params["tokens"] == ["left", "missile", "power shield"]
    assert private.params["left"] == {"turns": 9, "brakes": 2, "missiles": 7, "mines": 3, "powers": []}
    public = SPACEBLAST.view(outcome.state)
    assert "shield" not in json.dumps(public) and "missile" not in json.dumps(public["revealed"])
    assert public["ships"]["a"]["powers_held"] == 1 and public["ships"]["a"]["submitted"] is True
    own = SPACEBLAST.view_for(outcome.state, Audience.actor("a"))["own"]
    assert own["orders"] == "left missile power shield" and own["powers"] == ["shield"]
    assert "orders" not in SPACEBLAST.view_for(outcome.state, Audience.actor("b"))["own"]
    assert SPACEBLAST.view_for(outcome.state, GM) == public
    assert not SPACEBLAST.sees(outcome.state, GM, Audience.actor("a"))


def test_a_turn_tells_its_story_in_resolution_order(sb) -> None:
    state = sb.game(
        sb.ship("a", "G6", "E"), sb.ship("b", "G7", "E"), sb.ship("c", "J3", "E"),
        missiles=[{"owner": "c", "at": "G10", "facing": "W"}],
    )
    outcome = sb.turn(state, a="missile", b="brake mine", c="left")
    assert sb.kinds(outcome) == [
        "revealed", "rotated", "mine_laid", "ram", "damaged", "damaged", "scored", "moved",
        "missile_moved", "missile_hit", "damaged", "scored", "fired", "missile_moved", "missile_hit", "damaged",
        "scored",
    ]
    revealed = outcome.events[0].params
    assert revealed == {"turn": 1, "orders": {"a": "missile", "b": "brake mine", "c": "left"},
                        "tokens": {"a": ["missile"], "b": ["brake", "mine"], "c": ["left"]}, "defaulted": []}
    assert all(e.kind in EVENT_KINDS and e.audience == EVERYONE for e in outcome.events)
    frames = outcome.events[-1]
    assert frames.kind == "frames"
    assert [f["frame"] for f in frames.params["views"]] == [
        "reveal", "rotation", "mines", "movement", "missiles", "firing", "damage"]
    assert frames.params["views"][-1] == {**SPACEBLAST.view(outcome.state), "frame": "damage"}
    json.dumps([e.to_json() for e in outcome.events])  # plain JSON all the way down


def test_waiting_on_and_the_result(sb) -> None:
    state = sb.game(sb.ship("a", "G7", "E"), sb.ship("b", "A7", "E", turns=0, brakes=0))
    assert SPACEBLAST.waiting_on(state) == ("a", "b")
    state = SPACEBLAST.apply_input(state, "ready", "b", {}).state
    assert SPACEBLAST.waiting_on(state) == ("a",)
    state = sb.order(state, "b", "none").state
    assert SPACEBLAST.waiting_on(state) == ("a", "b")
    outcome = sb.turn(state)
    assert SPACEBLAST.waiting_on(outcome.state) == ()
    result = SPACEBLAST.result(outcome.state)
    assert (result.status, result.winner, result.reason) == ("finished", "a", "last_ship")
    game_over = next(e for e in outcome.events if e.kind == "game_over")
    assert game_over.params["ranking"] == [
        {"ship": "a", "score": 1, "out_turn": None, "disqualified": False},
        {"ship": "b", "score": 0, "out_turn": 1, "disqualified": False},
    ]


def test_a_draw_has_no_winner(sb) -> None:
    state = sb.game(sb.ship("a", "A7", "E", turns=0, brakes=0), sb.ship("b", "M7", "E", turns=0, brakes=0))
    result = SPACEBLAST.result(sb.turn(state).state)
    assert (result.status, result.winner, result.is_draw) == ("finished", None, True)


def test_a_time_jump_shows_its_holder_every_order(sb) -> None:
    state = sb.game(sb.ship("a", "G7", "E", powers=["timejump"]), sb.ship("b", "J4", "W"), variants=["powers"])
    outcome = sb.turn(state, a="power timejump", b="missile")
    assert sb.kinds(outcome) == ["time_jump_wait", "time_jump_offer"]
    offer = outcome.events[1]
    assert offer.audience == Audience.actor("a")
    assert offer.params["orders"] == {"a": ["power timejump"], "b": ["missile"]}
    assert SPACEBLAST.view_for(outcome.state, Audience.actor("a"))["own"]["jump"] == {
        "a": "power timejump", "b": "missile"}
    assert "jump" not in SPACEBLAST.view_for(outcome.state, Audience.actor("b"))["own"]
    assert SPACEBLAST.waiting_on(outcome.state) == ("a",)
    jumped = SPACEBLAST.apply_input(outcome.state, "time_jump", "a", {"text": "brake"})
    assert sb.kinds(jumped) == ["time_jumped", "orders_set"] and SPACEBLAST.waiting_on(jumped.state) == ()
    assert sb.refused(jumped.state, "time_jump", "a", {"text": "none"}).params["reason"] == "no_time_jump"
