"""legal_orders agrees with play: every listed order is accepted, every accepted order is listed.

Named cases pin each rule's subtleties (SC-17..SC-33); a seeded random walk over real games (the
scenario files' positions and a standard-map skirmish) checks both directions of the agreement at
every step, with candidates drawn at random as well as by the listing.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from engine.core.errors import OrderError
from engine.core.squaregrid import Cell, distance, format_cell, parse_cell
from engine.spacechess import SPACECHESS, legal
from engine.spacechess.maps import standard_map
from engine.spacechess.orders import DIRECTIONS, GRAMMAR, Order, format_order, parse_orders
from engine.spacechess.ruleset import ITEMS, WEAPONS
from engine.spacechess.state import RUNNING, GameState

SCENARIOS = Path(__file__).parents[2] / "scenarios" / "spacechess"


def accepted(state: GameState, actor: str, order: Order) -> bool:
    try:
        SPACECHESS.play(state, actor, [order])
    except OrderError:
        return False
    return True


def texts(state: GameState, actor: str, verb: str | None = None) -> list[str]:
    """The listing as players would type it, optionally one kind only."""
    return [format_order(o) for o in legal.legal_orders(state, actor) if verb is None or o.verb == verb]


def targets(state: GameState, actor: str, verb: str) -> list[str]:
    return [o.target for o in legal.legal_orders(state, actor, (verb,)) if o.target is not None]


def cells(*names: str) -> set[Cell]:
    return {parse_cell(name) for name in names}


def rich(sc) -> GameState:
    """One position where every kind of order is open to someone (names with spaces included)."""
    return sc.build(
        sc.general("G1", 1, "E2", ap=9),
        sc.soldier("Jean Luc", 1, "E3", hp=12, items=["logistics", "grenades"], ability="friendship", ap=4),
        sc.soldier("v", 1, "F2", items=["jetpack", "scope"], ability="vehicle", ap=5),
        sc.soldier("e", 2, "E6", ap=3),
        sc.general("G2", 2, "J9"),
        map_text=sc.open_map(obstacles=("D4", "F7")),
        pickups=[
            {"at": "B2", "kind": "item", "item": "perforating"},
            {"at": "C5", "kind": "weapon", "weapon": "grizzly_bolter"},
            {"at": "H4", "kind": "ap", "amount": 2},
        ],
    )


# -- SC-17..SC-19 moves ----------------------------------------------------------------------------
def test_sc_17_moves_reach_every_affordable_cell_diagonals_included(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "E5", ap=2))
    here = parse_cell("E5")
    expected = {
        format_cell(Cell(x, y)): distance(here, Cell(x, y))
        for x in range(10)
        for y in range(10)
        if 0 < distance(here, Cell(x, y)) <= 2
    }
    assert legal.reach(state, "s") == expected
    assert {"D4", "F6", "C3", "G7"} <= set(texts(state, "s", "move")) | set(expected)


def test_sc_17_no_squeeze_between_an_obstacle_and_a_character(sc) -> None:
    state = sc.build(
        sc.soldier("s", 1, "A1", ap=9), sc.soldier("w", 1, "A2"), map_text=sc.open_map(obstacles=("B1",))
    )
    assert texts(state, "s", "move") == [] and legal.reach(state, "s") == {}
    # SC-18: a flier crosses the obstacle, so a single character is no wall
    flier = sc.build(
        sc.soldier("s", 1, "A1", ap=9, items=["jetpack", "scope"]),
        sc.soldier("w", 1, "A2"),
        map_text=sc.open_map(obstacles=("B1",)),
    )
    assert "B2" in legal.reach(flier, "s") and "B1" not in legal.reach(flier, "s")


def test_sc_17_no_squeeze_between_two_characters_even_flying(sc) -> None:
    state = sc.build(
        sc.soldier("s", 1, "A1", ap=9, items=["jetpack", "scope"]), sc.soldier("w", 1, "A2"), sc.soldier("x", 2, "B1")
    )
    assert legal.reach(state, "s") == {}


def test_sc_18_jetpack_flies_over_a_wall_but_never_stops_on_it(sc) -> None:
    wall = sc.open_map(obstacles=tuple(f"{column}3" for column in "ABCDEFGHI"))
    flier = sc.build(sc.soldier("s", 1, "E2", ap=9, items=["jetpack", "scope"]), map_text=wall)
    reach = legal.reach(flier, "s")
    assert reach["E4"] == 1  # 2 cells, speed +1 (SC-17 cost max(1, n - s))
    assert not any(name.endswith("3") and name != "J3" for name in reach)
    grounded = sc.build(sc.soldier("s", 1, "E2", ap=9, armour="heavy", items=["jetpack", "scope"]), map_text=wall)
    assert "E4" not in legal.reach(grounded, "s")  # heavy armour grounds the jet pack; J3 is 5 cells away


def test_sc_19_vehicle_halves_the_cells_paid(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "A1", ap=9, ability="vehicle"))
    assert legal.reach(state, "s")["A5"] == 4
    driving = sc.play(state, "s", "vehicle").state
    assert legal.reach(driving, "s")["A5"] == 2 and legal.reach(driving, "s")["A10"] == 5


def test_sc_17_reach_prices_each_cell_as_the_move_does(sc) -> None:
    state = rich(sc)
    for name, cost in legal.reach(state, "v").items():
        (moved, *_) = sc.play(state, "v", f"move {name}").events
        assert moved.params["cost"] == cost, name


# -- SC-20..SC-23 shots and grenades -----------------------------------------------------------------
def test_sc_20_shots_at_allies_not_oneself_within_the_shot_limit(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "B2", ap=9), sc.soldier("ally", 1, "B4"), sc.soldier("e", 2, "D8"))
    assert legal.shot_targets(state, "s") == ["ally", "e", "G1", "G2"]
    for _ in range(3):  # bolter: 3 shots a turn
        state = sc.play(state, "s", "shoot ally").state
    assert legal.shot_targets(state, "s") == []
    raging = sc.play(state, "s", "rage").state  # SC-25: the limit doubles
    assert legal.shot_targets(raging, "s") == ["ally", "e", "G1", "G2"]


def test_sc_20_scope_adds_six_to_the_range(sc) -> None:
    plain = sc.build(sc.soldier("s", 1, "A1", ap=9, items=["grenades", "jetpack"]), sc.soldier("e", 2, "A9"))
    assert "e" not in legal.shot_targets(plain, "s")  # distance 8 > 7
    scoped = sc.build(sc.soldier("s", 1, "A1", ap=9), sc.soldier("e", 2, "A9"))
    assert "e" in legal.shot_targets(scoped, "s")


def test_sc_20_no_shot_without_the_ap(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "B2"), sc.soldier("e", 2, "B3"))
    assert legal.shot_targets(state, "s") == [] and texts(state, "s") == ["rage"]


def test_sc_21_an_obstacle_or_a_character_on_the_line_hides_the_target(sc) -> None:
    state = sc.build(
        sc.soldier("s", 1, "B2", ap=9),
        sc.soldier("hidden", 2, "E2"),
        sc.soldier("ally", 1, "B4"),
        sc.soldier("screened", 2, "B6"),
        map_text=sc.open_map(obstacles=("D2",)),
    )
    assert legal.shot_targets(state, "s") == ["ally", "G2"]


def test_sc_22_perforating_ammo_shoots_through_characters_not_obstacles(sc) -> None:
    state = sc.build(
        sc.soldier("s", 1, "B2", ap=9, items=["perforating", "scope"]),
        sc.soldier("hidden", 2, "E2"),
        sc.soldier("ally", 1, "B4"),
        sc.soldier("screened", 2, "B6"),
        map_text=sc.open_map(obstacles=("D2",)),
    )
    assert legal.shot_targets(state, "s") == ["ally", "screened", "G2"]


def test_sc_23_grenade_squares_wholly_within_reach_and_on_the_board(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "E5", ap=9))
    listed = {o.cell for o in legal.legal_orders(state, "s", ("grenade",))}
    # the named cell is the top-left of the square: columns B..G, rows 3..8
    assert listed == {Cell(x, y) for x in range(1, 7) for y in range(2, 8)}
    corner = sc.build(sc.soldier("s", 1, "A1", ap=9))
    assert {format_cell(o.cell) for o in legal.legal_orders(corner, "s", ("grenade",))} == {
        f"{column}{row}" for column in "ABC" for row in (2, 3, 4)
    }
    thrown = sc.play(state, "s", "grenade B3").state  # SC-23: one a turn
    assert texts(thrown, "s", "grenade") == []
    unarmed = sc.build(sc.soldier("s", 1, "E5", ap=9, items=["scope", "jetpack"]))
    assert texts(unarmed, "s", "grenade") == []


# -- SC-25 abilities -------------------------------------------------------------------------------------
def test_sc_25_abilities_are_free_and_once_a_turn(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "E5"))  # 0 AP: nothing else
    assert texts(state, "s") == ["rage"]
    assert texts(sc.play(state, "s", "rage").state, "s") == []
    assert texts(state, "G1") == []  # a general has no soldier ability


def test_sc_25_friendship_only_to_an_adjacent_soldier_ally(sc) -> None:
    state = sc.build(
        sc.soldier("f", 1, "B2", ability="friendship", ap=3),
        sc.soldier("r", 1, "C2"),
        sc.general("G1", 1, "B3"),
        sc.soldier("e", 2, "A2"),
        sc.soldier("far", 1, "H8"),
    )
    assert texts(state, "f", "friendship") == ["friendship r"]
    broke = sc.build(sc.soldier("f", 1, "B2", ability="friendship"), sc.soldier("r", 1, "C2"))
    assert texts(broke, "f", "friendship") == []  # giving 0 AP is pointless


# -- SC-26 general powers ----------------------------------------------------------------------------------
def test_sc_26_airstrike_every_line_of_four_on_the_board(sc) -> None:
    state = sc.build(sc.general("g", 1, "E5", ap=9))
    strikes = list(legal.legal_orders(state, "g", ("airstrike",)))
    # straight: 10 x 7 start cells in each of 4 directions; diagonal: 7 x 7 in each of 4
    assert len(strikes) == len(set(strikes)) == 4 * 70 + 4 * 49
    assert Order("airstrike", cell=parse_cell("A1"), direction="NE") in strikes
    assert Order("airstrike", cell=parse_cell("A1"), direction="SW") not in strikes
    assert texts(sc.build(sc.general("g", 1, "E5", ap=6)), "g", "airstrike") == []
    assert texts(sc.build(sc.soldier("s", 1, "E5", ap=9)), "s", "airstrike") == []


def test_sc_26_logistics_discount_opens_a_power(sc) -> None:
    helped = sc.build(
        sc.general("g", 1, "E5", ap=6), sc.soldier("l", 1, "E6", items=["logistics", "scope"])
    )
    assert len(texts(helped, "g", "airstrike")) == 476
    assert texts(sc.build(sc.general("g", 1, "E5", ap=6)), "g", "airstrike") == []


def test_sc_26_encourage_and_hack_once_a_turn(sc) -> None:
    state = sc.build(sc.general("g", 1, "E5", ap=9), sc.soldier("l", 1, "E6", items=["logistics", "scope"]))
    assert texts(state, "g", "encourage") == ["encourage"] and texts(state, "g", "hack") == ["hack"]
    encouraged = sc.play(state, "g", "encourage").state  # 3 AP with the discount: 6 left
    assert texts(encouraged, "g", "encourage") == [] and texts(encouraged, "g", "hack") == ["hack"]


def test_sc_26_intimidate_enemy_soldiers_in_radius_to_free_cells_in_shift(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "C3", ap=9),
        sc.soldier("near", 2, "C6"),
        sc.soldier("out", 2, "H9"),  # distance 6
        sc.soldier("brain", 2, "D5", items=["psycho_brain", "scope"]),
        sc.soldier("mate", 1, "B3"),
        sc.general("G2", 2, "E4"),  # a general is never intimidated
        rules={"loadout_pickups": True},
    )
    orders = list(legal.legal_orders(state, "g", ("intimidate",)))
    assert {o.target for o in orders} == {"near"}
    here = parse_cell("C6")
    expected = {
        Cell(x, y)
        for x in range(10)
        for y in range(10)
        if 0 < distance(here, Cell(x, y)) <= 3
    } - cells("C3", "D5", "B3", "E4")
    assert {o.cell for o in orders} == expected


def test_sc_26_heal_only_a_hurt_adjacent_teammate(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "B2", ap=9),
        sc.soldier("hurt", 1, "C2", hp=10),
        sc.soldier("fine", 1, "B3"),
        sc.soldier("faraway", 1, "E5", hp=10),
        sc.soldier("enemy", 2, "A2", hp=10),
    )
    assert texts(state, "g", "heal") == ["heal hurt"]


def test_sc_26_teleport_an_adjacent_teammate_to_every_free_floor_cell(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "B2", ap=9),
        sc.soldier("t", 1, "C2"),
        sc.soldier("enemy", 2, "A2"),
        map_text=sc.open_map(obstacles=("D4", "F7")),
    )
    orders = list(legal.legal_orders(state, "g", ("teleport",)))
    assert {o.target for o in orders} == {"t"}
    # 100 cells, 2 obstacles, 4 characters (G2 added by `build`)
    assert len({o.cell for o in orders}) == len(orders) == 100 - 2 - 4
    assert texts(sc.build(sc.general("g", 1, "B2", ap=4), sc.soldier("t", 1, "C2")), "g", "teleport") == []


# -- SC-33 pickups -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mover", "pickup", "expected"),
    [
        ("soldier", {"kind": "item", "item": "jetpack"}, ["", " drop grenades", " drop scope"]),
        ("soldier", {"kind": "item", "item": "scope"}, [""]),  # already held
        ("colonel", {"kind": "item", "item": "jetpack"}, [""]),  # SC-27: never another item
        ("general", {"kind": "item", "item": "jetpack"}, [""]),  # takes no pickup
        ("soldier", {"kind": "weapon", "weapon": "grizzly_bolter"}, ["", " drop bolter"]),
        ("soldier", {"kind": "weapon", "weapon": "bolter"}, [""]),  # the same weapon
        ("general", {"kind": "weapon", "weapon": "grizzly_bolter"}, [""]),
        ("soldier", {"kind": "ap", "amount": 2}, [""]),
        ("soldier", {"kind": "hp", "amount": 2}, [""]),
    ],
)
def test_sc_33_a_move_onto_a_pickup_with_each_thing_it_may_drop(sc, mover, pickup, expected) -> None:
    character = {
        "soldier": sc.soldier("m", 1, "B2", ap=9),
        "colonel": sc.soldier("m", 1, "B2", ap=9, items=["grade", "scope"], grade="colonel"),
        "general": sc.general("m", 1, "B2", ap=9),
    }[mover]
    state = sc.build(character, pickups=[{"at": "C3", **pickup}])
    assert [t for t in texts(state, "m", "move") if t.startswith("move C3")] == [f"move C3{e}" for e in expected]


def test_sc_33_play_refuses_a_drop_on_an_ap_pickup(sc) -> None:
    state = sc.build(sc.soldier("m", 1, "B2", ap=9), pickups=[{"at": "C3", "kind": "ap", "amount": 2}])
    assert not accepted(state, "m", Order("move", cell=parse_cell("C3"), drop="scope"))
    with pytest.raises(OrderError) as refused:
        SPACECHESS.play(state, "m", [Order("move", cell=parse_cell("C3"), drop="scope")])
    assert (refused.value.code, refused.value.params["reason"]) == ("bad_drop", "no_swap")


# -- SC-28 and the game's phases -------------------------------------------------------------------------------
def test_sc_28_nobody_acts_when_dead_before_the_start_or_after_the_end(sc) -> None:
    state = rich(sc)
    assert texts(state, "v") and texts(state, "nobody") == []
    dead = SPACECHESS.apply_input(state, "gm_set", None, {"id": "v", "hp": 0, "reason": "test"}).state
    assert texts(dead, "v") == [] and legal.reach(dead, "v") == {} and legal.shot_targets(dead, "v") == []
    finished = SPACECHESS.apply_input(state, "limit_reached", None, {}).state
    assert SPACECHESS.result(finished).finished
    assert all(texts(finished, c.id) == [] for c in finished.characters)
    lobby = SPACECHESS.setup(
        {"phase": "setup", "map": sc.open_map(), "characters": [sc.soldier("s", 1, "A1", ap=9)]}
    )
    assert texts(lobby, "s") == []


def test_names_are_read_as_play_reads_them(sc) -> None:
    state = rich(sc)
    assert texts(state, "jean luc") == texts(state, "Jean Luc") != []


# -- the listing as a whole -------------------------------------------------------------------------------------
def test_every_kind_of_the_order_language_is_listed_in_the_rich_position(sc) -> None:
    state = rich(sc)
    kinds = {o.verb for c in state.characters for o in legal.legal_orders(state, c.id)}
    assert kinds == set(GRAMMAR)


def test_every_listed_order_is_accepted_and_reads_back_from_its_text(sc) -> None:
    state = rich(sc)
    for character in state.characters:
        orders = list(legal.legal_orders(state, character.id))
        assert len(orders) == len(set(orders)), character.id
        for order in orders:
            assert accepted(state, character.id, order), (character.id, format_order(order))
            assert parse_orders(format_order(order)) == (order,)


def test_the_protocol_method_is_this_listing(sc) -> None:
    state = rich(sc)
    for character in state.characters:
        assert list(SPACECHESS.legal_orders(state, character.id)) == list(legal.legal_orders(state, character.id))


def test_the_hints_are_the_listing_seen_two_ways(sc) -> None:
    state = rich(sc)
    for character in state.characters:
        orders = list(legal.legal_orders(state, character.id))
        moves = {format_cell(o.cell) for o in orders if o.verb == "move"}
        assert set(legal.reach(state, character.id)) == moves
        assert legal.shot_targets(state, character.id) == [o.target for o in orders if o.verb == "shoot"]


# -- random walks over real games ----------------------------------------------------------------------------
STEPS = 25
SOUND_SAMPLE = 150  # orders of the crowded kinds (air strike, teleport) checked per step
RANDOM_CANDIDATES = 40
DROPPABLE = sorted(set(ITEMS) | set(WEAPONS))


def scenario_starts() -> list[tuple[str, GameState]]:
    starts = []
    for path in sorted(SCENARIOS.glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        try:
            state = SPACECHESS.setup(doc.get("setup", {}))
        except Exception:  # noqa: BLE001 - scenarios about refused setups have no position to walk
            continue
        if state.status == RUNNING:
            starts.append((path.stem, state))
    return starts


STARTS = scenario_starts()


def skirmish() -> GameState:
    """A mid-game fight on the standard map: 7 a side around the middle rows, generals near the front."""
    loadouts = [
        ("bolter", "light", ["grenades", "jetpack"], "vehicle"),
        ("heavy_bolter", "medium", ["perforating", "scope"], "rage"),
        ("sniper", "heavy", ["scope", "logistics"], "friendship"),
    ]
    game_map = standard_map()
    floor = [Cell(x, y) for y in range(game_map.height) for x in range(game_map.width) if game_map.is_floor(Cell(x, y))]
    taken: set[Cell] = set()

    def near(x: int, y: int) -> str:
        cell = min((c for c in floor if c not in taken), key=lambda c: (abs(c.y - y), abs(c.x - x)))
        taken.add(cell)
        return format_cell(cell)

    characters = []
    for team, rows in ((1, (17, 16, 18, 19, 20, 21, 17)), (2, (26, 27, 25, 24, 23, 22, 26))):
        characters.append({"id": f"g{team}", "team": team, "role": "general", "at": near(11, rows[0]),
                           "ap": 9, "cards": [1, 2]})
        for index, row in enumerate(rows[1:]):
            weapon, armour, items, ability = loadouts[index % 3]
            characters.append({"id": f"s{team}{index}", "team": team, "role": "soldier", "at": near(9 + index, row),
                               "weapon": weapon, "armour": armour, "items": items, "ability": ability,
                               "cards": [index % 7 + 1, (index + 3) % 7 + 1], "ap": 9})
    pickups = [
        {"at": near(4, 20), "kind": "item", "item": "reserve_magazines"},
        {"at": near(18, 23), "kind": "weapon", "weapon": "grizzly_bolter"},
        {"at": near(12, 21), "kind": "ap", "amount": 3},
    ]
    return SPACECHESS.setup({"map": "standard", "characters": characters, "pickups": pickups})


def random_candidate(rng: random.Random, state: GameState, actor: str) -> Order:
    """Any order of the language with parameters drawn around the board, legal or not."""
    game_map = state.game_map
    verb = rng.choice(sorted(GRAMMAR))
    cell = Cell(rng.randrange(-1, game_map.width + 1), rng.randrange(-1, game_map.height + 1))
    target = rng.choice([*(c.id for c in state.characters), "nobody"])
    fields: dict[str, object] = {}
    for kind in GRAMMAR[verb]:
        if kind == "cell":
            fields["cell"] = cell
        elif kind == "character":
            fields["target"] = target
        elif kind == "direction":
            fields["direction"] = rng.choice(sorted(DIRECTIONS))
        elif kind == "drop" and rng.random() < 0.3:
            fields["drop"] = rng.choice(DROPPABLE)
    return Order(verb, **fields)  # type: ignore[arg-type]


def check_position(rng: random.Random, state: GameState, actor: str) -> list[Order]:
    """Both directions of the agreement for one actor: listed => accepted, and for the sampled
    candidates (every move destination on small boards, every shot, random orders of every kind)
    accepted => listed."""
    listed = list(legal.legal_orders(state, actor))
    listed_set = set(listed)
    assert len(listed) == len(listed_set)
    crowded = [o for o in listed if o.verb in ("airstrike", "teleport")]
    sound = [o for o in listed if o.verb not in ("airstrike", "teleport")]
    sound += rng.sample(crowded, min(SOUND_SAMPLE, len(crowded)))
    for order in sound:
        assert accepted(state, actor, order), (actor, format_order(order))
    game_map = state.game_map
    board = [Cell(x, y) for x in range(game_map.width) for y in range(game_map.height)]
    destinations = board if len(board) <= 200 else rng.sample(board, 60)
    candidates = [Order("move", cell=cell) for cell in destinations]
    me = state.find(actor)
    assert me is not None
    for pickup in state.pickups:
        if pickup.kind in ("item", "weapon"):
            candidates += [Order("move", cell=pickup.at, drop=d) for d in (*me.items, me.weapon, "vigour") if d]
    candidates += [Order("shoot", target=c.id) for c in state.characters]
    candidates += [random_candidate(rng, state, actor) for _ in range(RANDOM_CANDIDATES)]
    for order in candidates:
        assert accepted(state, actor, order) == (order in listed_set), (actor, order)
    return listed


def walk(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(STEPS):
        if state.status != RUNNING:
            break
        actor = rng.choice([c.id for c in state.characters if c.alive])
        listed = check_position(rng, state, actor)
        if not listed or rng.random() < 0.2:
            numbers = rng.sample(range(1, 50), 5)
            state = SPACECHESS.apply_input(state, "draw", None, {"numbers": numbers, "bonus": None}).state
            continue
        verb = rng.choice(sorted({o.verb for o in listed}))
        order = rng.choice([o for o in listed if o.verb == verb])
        state = SPACECHESS.play(state, actor, [order]).state
    if state.status != RUNNING:
        assert all(list(legal.legal_orders(state, c.id)) == [] for c in state.characters)


@pytest.mark.parametrize(("name", "start"), STARTS, ids=[name for name, _ in STARTS])
def test_random_walk_from_a_scenario_position(name: str, start: GameState) -> None:
    walk(start, seed=sum(map(ord, name)))


@pytest.mark.parametrize("seed", range(4))
def test_random_walk_in_a_standard_map_skirmish(seed: int) -> None:
    walk(skirmish(), seed)


def test_the_walks_start_from_many_positions() -> None:
    assert len(STARTS) >= 30
