"""The dispatch every game shares (issue 22): `GameRules.apply_input` refuses a kind the game does
not take, a payload that is not a table, and a kind out of its phase the same way in every game of
the registry, the test-only ones included — no game re-implements it, or skips it.

The checks come before the game reads its state, except the phase, which reads only `result`: each
case stands the game in a phase by its `result` alone, so no game's setup document is needed.
"""

from __future__ import annotations

import pytest

from engine import registry
from engine.core.errors import OrderError
from engine.core.protocol import GameRules, Result


def refusal(rules: GameRules, kind: str, payload: object = None) -> OrderError:
    with pytest.raises(OrderError) as refused:
        rules.apply_input(None, kind, "someone", {} if payload is None else payload)  # type: ignore[arg-type]
    return refused.value


def in_phase(rules: GameRules, status: str, monkeypatch: pytest.MonkeyPatch) -> GameRules:
    monkeypatch.setattr(rules, "result", lambda state: Result(status))  # type: ignore[arg-type]
    monkeypatch.setattr(rules, "winner", lambda state: None)
    return rules


def every_game() -> list[GameRules]:
    """The registry's games as the test runs (the test-only ones are registered by then, not yet when
    tests are collected)."""
    games = [registry.get(name) for name in registry.names()]
    assert {"duel", "sealed", "tally", "spaceblast", "spacechess"} <= {rules.name for rules in games}
    return games


def test_a_kind_the_game_does_not_take_and_a_payload_not_a_table_are_refused_alike() -> None:
    for rules in every_game():
        assert_refuses_kind_and_payload(rules)


def assert_refuses_kind_and_payload(rules: GameRules) -> None:
    assert (refusal(rules, "no_such_input").code, refusal(rules, "no_such_input").params) == (
        "not_allowed", {"input": "no_such_input"})
    bad = refusal(rules, "order", payload="oops")
    assert (bad.code, bad.params) == ("bad_input", {"key": "payload", "reason": "not_a_table"})


def test_each_kind_is_refused_out_of_its_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    for rules in every_game():
        with monkeypatch.context() as patch:
            assert_refuses_out_of_phase(rules, patch)


def assert_refuses_out_of_phase(rules: GameRules, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = rules.input_kinds - rules.own_phase_inputs  # those the game checks itself, after its own checks
    in_phase(rules, "finished", monkeypatch)
    assert {refusal(rules, kind).code for kind in shared} == {"game_over"}
    in_phase(rules, "setup", monkeypatch)
    for kind in shared - rules.setup_inputs - rules.anytime_inputs:
        assert refusal(rules, kind).params == {"reason": "not_started", "input": kind, "status": "setup"}, kind
    in_phase(rules, "running", monkeypatch)
    for kind in rules.setup_inputs:
        assert refusal(rules, kind).params == {"reason": "started", "input": kind, "status": "running"}, kind
