"""Computer ships never give an illegal order: over seeded random games with every variant, each
order they choose is one of their legal orders and the engine accepts it."""

from __future__ import annotations

import random

import pytest

from bot.games.spaceblast.computer import choose
from engine import registry

SB = registry.get("spaceblast")


def seated(variants: list[str], ships: int, seed: int):
    state = SB.setup({"radius": 5, "variants": variants}, seed)
    for n in range(ships):
        state = SB.apply_input(state, "join", f"S{n}", {"id": f"S{n}"}).state
    return SB.apply_input(state, "start", None, {}).state


@pytest.mark.parametrize("variants", [[], ["asteroids"], ["powers"], ["bigbang"], ["bigbang3", "asteroids"]])
def test_every_computer_order_is_legal(variants: list[str]) -> None:
    for seed in range(3):
        state = seated(variants, 4, seed)
        rng = random.Random(seed)
        for _ in range(12):
            if SB.result(state).finished or not SB.waiting_on(state):
                break
            for ship in SB.waiting_on(state):
                if ship == "S0":
                    inputs = choose(SB, state, ship, rng.choice(["easy", "normal"]), seed=seed, stop=lambda: False)
                    legal = {SB.format_order(o) for o in SB.legal_orders(state, ship)}
                    if legal:
                        assert inputs[0][0] == "order" and inputs[0][1]["text"] in legal
                    assert inputs[-1] == ("ready", {})
                    for kind, payload in inputs:
                        state = SB.apply_input(state, kind, ship, payload).state
                else:
                    options = list(SB.legal_orders(state, ship))
                    if options:
                        state = SB.apply_input(state, "order", ship, {"text": SB.format_order(rng.choice(options))}).state
                    else:  # a time jump's wait: nothing to order, only to confirm
                        state = SB.apply_input(state, "ready", ship, {}).state
            state = SB.apply_input(state, "resolve", None, {}).state


def test_a_computer_player_gives_each_of_its_two_ships_a_legal_order() -> None:
    """SB-15: one order per ship still flying, each among the player's legal orders, then ready."""
    for seed in range(2):
        state = seated(["twoships"], 3, seed)
        for _ in range(6):
            if SB.result(state).finished:
                break
            for player in SB.waiting_on(state):
                legal = {SB.format_order(o) for o in SB.legal_orders(state, player)}
                inputs = choose(SB, state, player, "easy", seed=seed, stop=lambda: False)
                texts = [payload["text"] for kind, payload in inputs if kind == "order"]
                assert inputs[-1] == ("ready", {}) and all(text in legal for text in texts)
                flying = sorted(s.id for s in state.ships if s.owner == player and s.on_board)
                assert sorted(text.split(":")[0] for text in texts) == flying
                for kind, payload in inputs:
                    state = SB.apply_input(state, kind, player, payload).state
            state = SB.apply_input(state, "resolve", None, {}).state
