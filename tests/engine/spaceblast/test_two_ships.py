"""SB-15's two ships each: a player commands two ships, gives their orders (one text or two),
says ready for both, reads both ships' secrets and nobody else's, and is ranked on their points."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.protocol import EVERYONE, Audience
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.legal import ship_orders
from engine.spaceblast.orders import Order, format_order, parse_orders
from engine.spaceblast.state import JUMP, RUNNING, GameState
from tests.engine.spaceblast.test_properties import check_outcome, check_state, documents

PLAYERS = ("Ann", "Bob", "Cid")


def three(*variants: str, seed: int = 7) -> GameState:
    state = SPACEBLAST.setup({"variants": ["twoships", *variants]}, seed)
    for name in PLAYERS:
        state = SPACEBLAST.apply_input(state, "join", name, {"id": name}).state
    return SPACEBLAST.apply_input(state, "start", None, {}).state


def pair(**document: Any) -> GameState:
    """Red and blue, two ships each, on a radius-4 arena (cells given in the ships' order)."""
    cells = document.pop("cells", ("E3", "C3", "G3", "E7"))
    facings = document.pop("facings", ("E", "E", "E", "W"))
    extra = document.pop("ships", [{}, {}, {}, {}])
    names = ("red 1", "red 2", "blue 1", "blue 2")
    ships = [{"id": name, "player": name.split()[0], "at": at, "facing": facing, **more}
             for name, at, facing, more in zip(names, cells, facings, extra, strict=True)]
    return SPACEBLAST.setup({"radius": 4, "variants": ["twoships", *document.pop("variants", [])], "ships": ships,
                             **document})


def test_a_player_joins_with_two_ships_on_opposite_corners(sb) -> None:
    state = three()
    corners = {ship.id: (state.cell(ship.at), ship.facing.name) for ship in state.ships}
    assert corners == {"Ann 1": ("A1", "SE"), "Ann 2": ("M7", "NW"), "Bob 1": ("A7", "SW"),
                       "Bob 2": ("M1", "NE"), "Cid 1": ("G13", "W"), "Cid 2": ("G1", "E")}
    assert SPACEBLAST.actors(state) == PLAYERS and SPACEBLAST.waiting_on(state) == PLAYERS
    assert {ship.owner for ship in state.ships if ship.id.startswith("Ann")} == {"Ann"}


def test_the_lobby_refuses_a_fourth_player_a_clash_and_a_name_too_long_for_its_ships(sb) -> None:
    lobby = SPACEBLAST.setup({"variants": ["twoships"]})
    lobby = SPACEBLAST.apply_input(lobby, "join", "Ann", {"id": "Ann"}).state
    assert sb.refused(lobby, "start", None, {}).params["reason"] == "two_players"
    assert sb.refused(lobby, "join", "x", {"id": "ann 2"}).code == "duplicate_name"
    assert sb.refused(lobby, "join", "x", {"id": "N" * 31}).code == "bad_id"  # "N…N 1" is 33 long
    for name in ("Bob", "Cid"):
        lobby = SPACEBLAST.apply_input(lobby, "join", name, {"id": name}).state
    assert sb.refused(lobby, "join", "Dan", {"id": "Dan"}).params == {"reason": "full", "maximum": 6}
    left = SPACEBLAST.apply_input(lobby, "leave", "Bob", {"id": "Bob"})
    assert [ship.id for ship in left.state.ships] == ["Ann 1", "Ann 2", "Cid 1", "Cid 2"]
    assert left.events[0].params == {"id": "Bob"}


def test_an_order_names_its_ship_and_one_text_may_give_both(sb) -> None:
    state = three()
    assert sb.refused(state, "order", "Ann", {"text": "left"}).params["reason"] == "which_ship"
    assert sb.refused(state, "order", "Ann", {"text": "Bob 1: left"}).params["reason"] == "not_your_ship"
    assert sb.refused(state, "order", "Ann", {"text": "2: left; Ann 2: brake"}).params["reason"] == "ship_twice"
    error = sb.refused(state, "order", "Ann", {"text": "1: left; 2: warp"})
    assert (error.code, error.params["position"]) == ("bad_syntax", 12)  # the position in the whole text
    assert sb.refused(state, "order", "Ann", {"text": ": left"}).params["expected"] == "ship"
    outcome = SPACEBLAST.apply_input(state, "order", "Ann", {"text": "1: left missile; ann 2: brake"})
    assert {k: format_order(v) for k, v in outcome.state.orders.items()} == {"Ann 1": "left missile", "Ann 2": "brake"}
    again = SPACEBLAST.apply_input(outcome.state, "order", "Ann", {"text": "2: mine"}).state
    assert {k: format_order(v) for k, v in again.orders.items()} == {"Ann 1": "left missile", "Ann 2": "mine"}


def test_the_order_language_round_trips_with_a_ship_part() -> None:
    for order in (Order(left=1, missile=1, ship="Ann 1"), Order(ship="2"), Order(brake=1)):
        assert parse_orders(format_order(order)) == (order,)
    assert parse_orders("1: gauche ; 2 : frein;") == (Order(left=1, ship="1"), Order(brake=1, ship="2"))


def test_ready_covers_both_ships_and_an_order_withdraws_it(sb) -> None:
    state = three()
    ready = SPACEBLAST.apply_input(state, "ready", "Ann", {})
    assert ready.events[0].params == {"ship": "Ann"}
    assert ready.state.ready == {"Ann 1", "Ann 2"} and SPACEBLAST.waiting_on(ready.state) == ("Bob", "Cid")
    changed = SPACEBLAST.apply_input(ready.state, "order", "Ann", {"text": "1: brake"}).state
    assert changed.ready == frozenset() and SPACEBLAST.waiting_on(changed) == PLAYERS
    one = SPACEBLAST.apply_input(state, "ready", "Ann 2", {}).state  # a ship answers for itself only
    assert SPACEBLAST.waiting_on(one) == PLAYERS


def test_legal_orders_list_each_ship_in_turn_and_every_one_is_accepted(sb) -> None:
    state = three("powers")
    listed = list(SPACEBLAST.legal_orders(state, "Ann"))
    assert [order.ship for order in listed[:4]] == ["Ann 1", "Ann 2", "Ann 1", "Ann 2"]
    for ship in ("Ann 1", "Ann 2"):
        own = [order.for_ship(None) for order in listed if order.ship == ship]
        assert own == list(ship_orders(state, state.ship(ship))) == list(SPACEBLAST.legal_orders(state, ship))
    for order in listed[::7]:
        SPACEBLAST.play(state, "Ann", [order])  # must not raise


def test_a_players_secrets_reach_that_player_alone(sb) -> None:
    started = SPACEBLAST.setup({"variants": ["twoships", "powers"]}, 3)
    for name in PLAYERS:
        started = SPACEBLAST.apply_input(started, "join", name, {"id": name}).state
    dealt = SPACEBLAST.apply_input(started, "start", None, {})
    private = [e for e in dealt.events if e.audience != EVERYONE]
    assert {(e.audience.id, e.params["ship"]) for e in private} >= {("Ann", "Ann 1"), ("Ann", "Ann 2")}
    outcome = SPACEBLAST.apply_input(dealt.state, "order", "Ann", {"text": "1: left missile; 2: mine"})
    assert {e.audience for e in outcome.events if e.kind == "orders_set"} == {Audience.actor("Ann")}
    mine = SPACEBLAST.view_for(outcome.state, Audience.actor("Ann"))["fleet"]
    assert (mine["Ann 1"]["orders"], mine["Ann 2"]["orders"]) == ("left missile", "mine")
    assert all(mine[ship]["powers"] for ship in mine)
    for reader in (Audience.actor("Bob"), Audience.actor("Cid"), EVERYONE):
        view = SPACEBLAST.view_for(outcome.state, reader)
        assert "left missile" not in json.dumps(view) and '"mine"' not in json.dumps(view.get("fleet", {}))
        assert all("orders" not in own for own in view.get("fleet", {}).values())
        assert SPACEBLAST.view(outcome.state)["ships"]["Ann 1"]["powers_held"] == 1


def test_a_time_jump_held_by_one_of_a_players_ships(sb) -> None:
    state = pair(variants=["powers"], ships=[{"powers": ["timejump"]}, {}, {}, {}])
    state = SPACEBLAST.apply_input(state, "order", "red", {"text": "1: power timejump; 2: brake"}).state
    waiting = SPACEBLAST.apply_input(state, "resolve", None, {})
    assert waiting.state.phase == JUMP and SPACEBLAST.waiting_on(waiting.state) == ("red",)
    offer = next(e for e in waiting.events if e.kind == "time_jump_offer")
    assert offer.audience == Audience.actor("red") and offer.params["ship"] == "red 1"
    assert sb.refused(waiting.state, "time_jump", "blue", {"text": "left"}).params["reason"] == "no_time_jump"
    jumped = SPACEBLAST.apply_input(waiting.state, "time_jump", "red", {"text": "left"}).state
    assert format_order(jumped.orders["red 1"]) == "left power timejump" and SPACEBLAST.waiting_on(jumped) == ()


def test_own_hits_score_nothing_and_points_add_up_per_player(sb) -> None:
    # red 1 brakes and fires along row E into red 2, braking on E5; blue flies on far away
    state = pair(cells=("E3", "E5", "A1", "I5"), facings=("E", "E", "E", "W"))
    after = sb.turn(state, red="1: brake missile; 2: brake").state
    assert (after.ship("red 2").hits, after.ship("red 1").score) == (1, 0)
    view = SPACEBLAST.view(after)
    assert view["players"]["red"] == {"ships": ["red 1", "red 2"], "score": 0}
    assert view["ships"]["red 2"]["player"] == "red" and view["ships"]["red 2"]["mark"] == 2


def test_the_game_ends_when_one_players_ships_are_left(sb) -> None:
    out = {"turns": 0, "brakes": 0}
    state = pair(cells=("E3", "G5", "A5", "I5"), facings=("E", "W", "NE", "SE"), ships=[{}, {}, out, out])
    ended = sb.turn(state)
    assert ended.state.status == "finished" and ended.state.winner == "red"
    over = next(e for e in ended.events if e.kind == "game_over")
    assert over.params["ranking"][0] == {"player": "red", "ships": ["red 1", "red 2"], "score": 1,
                                         "out_turn": None, "disqualified": False}
    assert SPACEBLAST.result(ended.state).winner == "red"


def test_a_disqualified_ship_counts_nothing_but_its_player_plays_on(sb) -> None:
    # red 2 flies off the arena still holding tokens: disqualified; red is still ranked on red 1
    state = pair(cells=("E3", "A5", "G5", "I5"), facings=("E", "NE", "W", "SE"),
                 ships=[{"score": 1}, {"score": 3}, {}, {"turns": 0, "brakes": 0}])
    after = sb.turn(state).state
    assert after.ship("red 2").disqualified and after.ship("red 2").score == 0
    assert SPACEBLAST.view(after)["players"]["red"]["score"] == 1 and after.status == RUNNING
    both = pair(cells=("A3", "A5", "G5", "I5"), facings=("NW", "NE", "W", "W"), ships=[{"score": 2}, {}, {}, {}])
    ended = sb.turn(both).state
    assert ended.status == "finished" and ended.winner == "blue"
    over = SPACEBLAST.dump_state(ended)
    assert [s["disqualified"] for s in over["ships"]][:2] == [True, True]


def test_a_snapshot_without_players_still_loads_and_players_round_trip() -> None:
    state = three()
    data = json.loads(json.dumps(SPACEBLAST.dump_state(state)))
    assert SPACEBLAST.load_state(data) == state
    plain = SPACEBLAST.setup({"ships": [{"id": "a", "at": "A1", "facing": "SE"}, {"id": "b", "at": "M7", "facing": "NW"}]})
    old = SPACEBLAST.dump_state(plain)
    assert all("player" not in ship for ship in old["ships"])
    assert SPACEBLAST.load_state(old) == plain


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(document=documents(), data=st.data())
def test_random_two_ship_games_keep_the_invariants(document: dict[str, Any], data: st.DataObject) -> None:
    """The property test's random positions with the ships paired into players, played by players."""
    document = {**document, "variants": [*document["variants"], "twoships"]}
    for index, ship in enumerate(document["ships"]):
        ship["player"] = f"p{index // 2}"
    start = SPACEBLAST.setup(document)
    check_state(start)
    state, log = start, []
    for _ in range(data.draw(st.integers(1, 5), label="turns")):
        if state.status != RUNNING:
            break
        for player in SPACEBLAST.waiting_on(state):
            options = list(SPACEBLAST.legal_orders(state, player))
            picks = data.draw(st.lists(st.sampled_from(options), max_size=2, unique_by=lambda o: o.ship)
                              if options else st.just([]), label="orders")
            if picks:
                text = "; ".join(SPACEBLAST.format_order(order) for order in picks)
                state = check_outcome(state, "order", player, {"text": text}, log)
            state = check_outcome(state, "ready", player, {}, log)
        state = check_outcome(state, "resolve", None, {}, log)
        if state.phase == JUMP:
            for player in SPACEBLAST.waiting_on(state):
                state = check_outcome(state, "ready", player, {}, log)
            state = check_outcome(state, "resolve", None, {}, log)
    if state.status == "finished":
        owners = {ship.owner for ship in state.on_board()}
        assert len(owners) <= 1
    replayed = start
    for kind, actor, payload in log:
        replayed = SPACEBLAST.apply_input(replayed, kind, actor, payload).state
    assert replayed == state
