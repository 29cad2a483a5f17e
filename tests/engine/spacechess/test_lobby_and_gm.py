"""Setup-phase inputs (SC-5..SC-10, SC-27) and GM inputs (gm_set, pickups SC-33)."""

from __future__ import annotations

from engine.spacechess import SPACECHESS

MAP = "......\n" * 6
LOADOUT = {
    "weapon": "bolter",
    "armour": "light",
    "items": ["grade", "vigour"],
    "grade": "colonel",
    "ability": "rage",
    "cards": [1, 2],
}


def lobby():
    return SPACECHESS.setup({"phase": "setup", "map": MAP})


def apply(state, kind, payload):
    return SPACECHESS.apply_input(state, kind, None, payload)


def test_sc5_sc10_sc27_a_whole_lobby(sc) -> None:
    state = lobby()
    for ident, team, role in (("g1", 1, "general"), ("g2", 2, "general"), ("col", 1, "soldier")):
        state = apply(state, "join", {"id": ident, "team": team, "role": role}).state
    error = sc.refused(state, "start", None, {})
    assert error.code == "not_ready"
    assert error.params["missing"] == [
        "cards:g1",
        "deploy:g1",
        "cards:g2",
        "deploy:g2",
        "cards:col",
        "weapon:col",
        "armour:col",
        "ability:col",
        "items:col",
        "deploy:col",
    ]
    state = apply(state, "equip", {"id": "col", **LOADOUT}).state
    state = apply(state, "equip", {"id": "g1", "cards": [3, 4]}).state
    state = apply(state, "equip", {"id": "g2", "cards": [5, 6]}).state
    for ident, cell in (("g1", "A1"), ("col", "B2"), ("g2", "F5")):
        state = apply(state, "deploy", {"id": ident, "at": cell}).state
    outcome = apply(state, "start", {})
    assert outcome.events[0].params == {"destroyed": [{"id": "col", "items": ["vigour"]}], "vigour": []}
    view = SPACECHESS.view(outcome.state)
    assert view["status"] == "running"
    assert (view["characters"]["col"]["items"], view["characters"]["col"]["max_hp"]) == (["grade"], 20)


def test_sc5_missing_generals_are_listed(sc) -> None:
    assert sc.refused(lobby(), "start", None, {}).params == {"missing": ["general:1", "general:2"]}


def test_sc10_deployment_rows(sc) -> None:
    state = apply(
        apply(lobby(), "join", {"id": "a", "team": 1, "role": "soldier"}).state,
        "join",
        {"id": "b", "team": 2, "role": "soldier"},
    ).state
    error = sc.refused(state, "deploy", None, {"id": "a", "at": "A3"})
    assert (error.code, error.params) == ("bad_deployment", {"cell": "A3", "rows": [1, 2]})
    assert sc.refused(state, "deploy", None, {"id": "b", "at": "A4"}).params["rows"] == [5, 6]
    assert sc.refused(state, "deploy", None, {"id": "a", "at": "G1"}).code == "bad_cell"
    state = apply(state, "join", {"id": "c", "team": 1, "role": "soldier"}).state
    state = apply(state, "deploy", {"id": "a", "at": "A2"}).state
    assert sc.refused(state, "deploy", None, {"id": "c", "at": "A2"}).code == "occupied"


def test_lobby_input_faults(sc) -> None:
    state = lobby()
    assert sc.refused(state, "join", None, {"id": "a;b", "team": 1, "role": "soldier"}).code == "bad_id"
    assert sc.refused(state, "join", None, {"id": "a", "team": 3, "role": "soldier"}).code == "bad_input"
    assert sc.refused(state, "join", None, {"id": "a", "team": 1}).params == {
        "key": "role",
        "reason": "missing",
    }
    assert sc.refused(state, "leave", None, {"id": "nobody"}).code == "unknown_character"
    state = apply(state, "join", {"id": "a", "team": 1, "role": "soldier"}).state
    error = sc.refused(state, "equip", None, {"id": "a", **LOADOUT, "items": ["scope", "scope"]})
    assert (error.code, error.params["field"], error.params["reason"]) == ("bad_loadout", "items", "repeated")


def test_names_hold_spaces_and_are_normalised_as_the_guides_say(sc) -> None:
    """Issue 9 point 10: "Jean Luc" joins (the guides allow spaces), stored NFKC with single spaces;
    full-width or other-case look-alikes of a taken name are the same name."""
    state = apply(lobby(), "join", {"id": "  Jean   Luc ", "team": 1, "role": "soldier"}).state
    state = apply(state, "join", {"id": "Ｃｉｄ", "team": 1, "role": "general"}).state
    assert [c.id for c in state.characters] == ["Jean Luc", "Cid"]
    for taken in ("cid", "CID", "ｃｉｄ", "jean luc", "JEAN  LUC"):
        assert sc.refused(state, "join", None, {"id": taken, "team": 2, "role": "soldier"}).code == "duplicate_name"


def test_refused_names_say_why_without_echoing_them(sc) -> None:
    for name, reason in (("<@&42>", "char"), ("x" * 1_000_000, "length"), ("", "length"), (42, "not_text")):
        error = sc.refused(lobby(), "join", None, {"id": name, "team": 1, "role": "soldier"})
        assert (error.code, error.params["reason"], error.params["maximum"]) == ("bad_id", reason, 32)
        assert "id" not in error.params


def test_sc33_gm_cannot_put_a_pickup_under_a_character(sc) -> None:
    """Issue 9 point 12: a pickup is taken by a move that ends on it; one put under a character's
    feet would lie there untakeable, so the cell counts as occupied (the state is unchanged)."""
    state = sc.build(sc.soldier("s", 1, "B2"))
    error = sc.refused(state, "pickup", None, {"at": "B2", "kind": "ap", "amount": 3})
    assert (error.code, error.params) == ("occupied", {"cell": "B2", "by": "s"})
    assert state.pickups == ()


def test_phases_guard_inputs(sc) -> None:
    running = sc.build(sc.soldier("s", 1, "A1", ap=9))
    assert sc.refused(running, "join", None, {"id": "z", "team": 1, "role": "soldier"}).code == "not_allowed"
    assert sc.refused(running, "start", None, {}).code == "not_allowed"
    assert sc.refused(running, "teleport", None, {}).code == "not_allowed"
    assert sc.refused(lobby(), "order", "s", {"text": "move A2"}).code == "not_allowed"
    assert sc.refused(running, "order", None, {"text": "move A2"}).code == "unknown_character"


def test_gm_set_checks_caps_and_cells(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "A1"), sc.soldier("t", 2, "B5"))
    outcome = apply(state, "gm_set", {"id": "s", "ap": 4, "at": "C3", "reason": "typo"})
    assert outcome.events[0].params == {"id": "s", "changes": {"ap": 4, "at": "C3"}, "reason": "typo"}
    assert sc.refused(state, "gm_set", None, {"id": "s", "ap": 10}).params["maximum"] == 9
    assert sc.refused(state, "gm_set", None, {"id": "s", "hp": 21}).code == "bad_input"
    assert sc.refused(state, "gm_set", None, {"id": "s", "at": "B5"}).code == "occupied"
    assert sc.refused(state, "gm_set", None, {"id": "s"}).code == "bad_input"


def test_sc28_gm_set_to_zero_kills_and_ends(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "A1"), sc.soldier("t", 2, "B5"))
    outcome = apply(state, "gm_set", {"id": "t", "hp": 0, "reason": "left the server"})
    assert sc.kinds(outcome) == ["gm_set", "died", "game_over"]
    assert outcome.state.winner == 1


def test_sc33_gm_places_pickups(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "A1"), map_text=sc.open_map(obstacles=("C3",)))
    outcome = apply(state, "pickup", {"at": "B2", "kind": "ap", "amount": 3})
    assert SPACECHESS.view(outcome.state)["pickups"] == [{"at": "B2", "kind": "ap", "amount": 3}]
    assert (
        sc.refused(outcome.state, "pickup", None, {"at": "B2", "kind": "hp", "amount": 3}).code == "occupied"
    )
    assert sc.refused(state, "pickup", None, {"at": "C3", "kind": "hp", "amount": 3}).code == "path_blocked"
    error = sc.refused(state, "pickup", None, {"at": "B2", "kind": "item", "item": "laser"})
    assert (error.code, error.params["field"]) == ("bad_pickup", "item")


def test_sc33_pickup_rules_when_a_move_ends_there(sc) -> None:
    state = sc.build(
        sc.soldier("s", 1, "A1", ap=9, items=["grenades", "scope"]),
        sc.soldier("one", 1, "E1", ap=9, items=["grade", "scope"], grade="colonel"),
        sc.general("g", 1, "H1", ap=9),
        pickups=[
            {"at": "A2", "kind": "item", "item": "scope"},
            {"at": "E2", "kind": "item", "item": "jetpack"},
            {"at": "H2", "kind": "hp", "amount": 5},
        ],
    )
    held = sc.play(state, "s", "move A2")
    assert held.events[-1].params["reason"] == "already_held"
    assert (
        sc.refused(state, "order", "s", {"text": "move A2 drop grenades"}).params["reason"] == "already_held"
    )
    colonel = sc.play(state, "one", "move E2")  # SC-27: a colonel never holds another item
    assert sc.view_of(colonel.state, "one")["items"] == ["grade"]
    assert colonel.events[-1].kind == "pickup_left_colonel"
    jetpack = {"at": "E2", "kind": "item", "item": "jetpack"}
    assert colonel.events[-1].params == {"id": "one", "at": "E2", "pickup": jetpack}
    assert len(colonel.state.pickups) == 3
    assert sc.refused(state, "order", "one", {"text": "move E2 drop grade"}).params["reason"] == "colonel"
    general = sc.play(state, "g", "move H2")
    assert general.events[-1].params["reason"] == "general"
    assert len(general.state.pickups) == 3


def test_sc9_pickup_only_equipment_needs_the_ruleset_option(sc) -> None:
    loadout = {
        **LOADOUT,
        "weapon": "grizzly_bolter",
        "items": ["psycho_brain", "reserve_magazines"],
        "grade": None,
    }
    state = apply(lobby(), "join", {"id": "a", "team": 1, "role": "soldier"}).state
    error = sc.refused(state, "equip", None, {"id": "a", **loadout})
    assert (error.params["field"], error.params["reason"]) == ("weapon", "pickup_only")
    allowed = SPACECHESS.setup({"phase": "setup", "map": MAP, "rules": {"loadout_pickups": True}})
    allowed = apply(allowed, "join", {"id": "a", "team": 1, "role": "soldier"}).state
    assert (
        SPACECHESS.view(apply(allowed, "equip", {"id": "a", **loadout}).state)["characters"]["a"]["weapon"]
        == "grizzly_bolter"
    )
