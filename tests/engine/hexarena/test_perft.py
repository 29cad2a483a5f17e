"""Perft: the number of legal turn sequences from the standard opening, pinned per variant.

perft(1) counts red's legal whole turns; perft(2) adds up blue's legal turns after each of them
(sequences, not positions: an Omega turn and the same actions in another order are two turns). The
numbers pin move generation: any change to what is legal moves them.

How they were cross-checked (once, by scripts kept out of the suite):
- perft(1), every variant: the set of turns equals the brute-force oracle's (oracle.py: every
  action the language can write, tried through the handlers at each step of the turn);
- perft(2) of the base game and Blitz: the oracle's count at both depths (the test below keeps it);
- perft(2) of Alpha and Omega: ``count_turns`` with positions reached twice merged (this test)
  equals the sum over every red turn, played through ``HEXARENA.play``, of ``len(list(
  HEXARENA.legal_orders(...)))`` for blue — another route, with no merging and no counting shortcut.
Alpha's and Omega's perft(2) take seconds to minutes: they run with HEXARENA_PERFT=1 only.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from engine.hexarena import HEXARENA
from engine.hexarena.legal import count_turns, legal_turns
from engine.hexarena.orders import Turn
from engine.hexarena.rules import variant_of
from engine.hexarena.state import ArenaState
from engine.hexarena.turns import play_turn
from tests.engine.hexarena.oracle import oracle_turns

PERFT: dict[str, tuple[int, int]] = {
    "base": (57, 3_223),
    "blitz": (57, 3_223),
    "alpha": (2_884, 8_084_090),
    "omega": (8_093, 65_874_288),
}
DEEP = os.environ.get("HEXARENA_PERFT") == "1"


def perft(variant: str, depth: int) -> int:
    state = HEXARENA.setup({"variant": variant})
    rules = variant_of(state)
    if depth == 1:
        return count_turns(state, "red", rules)
    positions: Counter[ArenaState] = Counter()
    for turn in legal_turns(state, "red", rules):
        positions[play_turn(state, "red", turn.actions, rules)[0]] += 1
    return sum(n * count_turns(p, "blue", rules) for p, n in positions.items() if p.status == "running")


@pytest.mark.parametrize("variant", sorted(PERFT))
def test_perft_1(variant: str) -> None:
    assert perft(variant, 1) == PERFT[variant][0]


@pytest.mark.parametrize("variant", ["base", "blitz"])
def test_perft_2(variant: str) -> None:
    assert perft(variant, 2) == PERFT[variant][1]


@pytest.mark.skipif(not DEEP, reason="HEXARENA_PERFT=1 runs Alpha's (seconds) and Omega's (minutes) perft(2)")
@pytest.mark.parametrize("variant", ["alpha", "omega"])
def test_perft_2_of_the_long_turns(variant: str) -> None:
    assert perft(variant, 2) == PERFT[variant][1]


def test_perft_2_of_the_base_game_by_the_oracle() -> None:
    state = HEXARENA.setup({})
    red = oracle_turns(state, "red")
    assert len(red) == PERFT["base"][0]
    leaves = sum(len(oracle_turns(HEXARENA.play(state, "red", [Turn(t)]).state, "blue")) for t in red)
    assert leaves == PERFT["base"][1]
