"""Variants as small subclasses of the base game's hooks (python-chess style), and their costs."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderError, SetupError
from engine.hexarena.variants import (
    OMEGA_COSTS,
    Alpha,
    Blitz,
    Omega,
    Variant,
    canonical,
    find_variant,
    variant_for,
)


def test_each_variant_is_found_by_name_and_alias() -> None:
    assert find_variant("BLITZ") is Blitz and find_variant("neutralization") is Blitz
    assert find_variant("stratege-alpha") is Alpha and find_variant("strategist-omega") is Omega
    assert find_variant("classic") is Variant and find_variant("gamma") is None


def test_a_combination_is_the_subclass_of_both_built_once() -> None:
    combined = variant_for(("blitz", "omega"))
    assert isinstance(combined, Blitz) and isinstance(combined, Omega)
    assert combined is variant_for(("blitz", "omega"))
    assert (combined.action_points, combined.max_actions, combined.name) == (5, None, "blitz+omega")
    assert type(variant_for(())) is Variant


def test_alpha_and_omega_do_not_combine() -> None:
    with pytest.raises(SetupError) as caught:
        canonical(["omega", "stratege-alpha"])
    assert caught.value.params == {"reason": "alpha_with_omega"}


def test_the_omega_cost_table() -> None:
    """HA-17: per cell for the admiral and the fighter, per move for cargo and patrol; D: recycling
    3 and ramming 2."""
    omega = Omega()
    assert [omega.cost("admiral", "move", 1), omega.cost("fighter", "move", 4), omega.cost("cargo", "move", 2),
            omega.cost("patrol", "move", 1)] == [1, 4, 2, 2]
    assert {omega.cost(t, "rotate", 0) for t in ("admiral", "fighter", "cargo")} == {2}
    assert [omega.cost("admiral", v, 0) for v in ("board", "leave", "fire", "recycle")] == [3, 3, 3, 3]
    assert [omega.cost("fighter", "fire", 0), omega.cost("patrol", "ram", 0)] == [3, 2]
    assert ("patrol", "rotate") not in OMEGA_COSTS and ("cargo", "fire") not in OMEGA_COSTS


def test_budgets_count_actions_points_and_activated_ships() -> None:
    alpha, omega, base = Alpha(), Omega(), Variant()
    budget = alpha.pay(alpha.new_budget(), "a", 0)
    alpha.admit(budget, "b")
    with pytest.raises(OrderError) as caught:
        alpha.admit(budget, "a")
    assert caught.value.code == "already_used"
    with pytest.raises(OrderError) as caught:
        alpha.admit(alpha.pay(budget, "b", 0), "c")
    assert caught.value.code == "too_many_actions"
    with pytest.raises(OrderError) as caught:
        base.admit(base.pay(base.new_budget(), "a", 0), "b")
    assert caught.value.params == {"maximum": 1}
    spent = omega.pay(omega.new_budget(), "a", 4)
    assert spent.ap == 1 and omega.room_after(omega.new_budget(), 4) and not omega.room_after(spent, 1)
    with pytest.raises(OrderError) as caught:
        omega.pay(spent, "b", 2)
    assert (caught.value.code, caught.value.params) == ("not_enough_ap", {"need": 2, "have": 1})
