"""Runs every Space Chess scenario file through the engine (scenarios.md semantics).

The project's runner (bot/scenarios.py) is the reference for users; this small copy keeps the
rules' conformance files exercised by the engine's own test suite, and adds one step kind the
format needs for Space Chess: ``input = "<kind>"`` with optional ``by`` and ``payload`` applies any
other logged input (``limit_reached``, ``deploy``, ``start``, ``pickup``...).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import OrderError
from engine.spacechess import SPACECHESS

FOLDER = Path(__file__).parents[2] / "scenarios" / "spacechess"
FILES = sorted(FOLDER.glob("*.toml"))
RULE_IDS = [f"SC-{n}" for n in range(1, 35)]
UNORDERED = SPACECHESS.unordered_view_keys
_MISSING = object()


def lookup(view: Any, path: str) -> Any:
    current = view
    for key in path.split("."):
        current = current.get(key, _MISSING) if isinstance(current, dict) else _MISSING
        if current is _MISSING:
            return None
    return current


def same(wanted: Any, got: Any, unordered: bool = False) -> bool:
    if wanted == "none":
        return got is None
    if isinstance(wanted, list) and isinstance(got, list):
        if unordered:
            key = lambda value: json.dumps(value, sort_keys=True)  # noqa: E731
            return sorted(map(key, wanted)) == sorted(map(key, got))
        return len(wanted) == len(got) and all(same(w, g) for w, g in zip(wanted, got, strict=True))
    if isinstance(wanted, bool) or isinstance(got, bool):
        return wanted is got
    return wanted == got


def step_input(step: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
    if "order" in step:
        return "order", step["by"], {"text": step["order"]}
    if "draw" in step:
        return "draw", None, {"numbers": step["draw"]["numbers"], "bonus": step["draw"].get("bonus")}
    return step["input"], step.get("by"), step.get("payload", {})


def play(path: Path) -> None:
    document = tomllib.loads(path.read_text(encoding="utf-8"))
    assert document["game"] == "spacechess"
    state = SPACECHESS.setup(document["setup"])
    for number, step in enumerate(document.get("step", []), start=1):
        where = f"{path.name} step {number}"
        if "expect" in step:
            view = SPACECHESS.view(state)
            for dotted, wanted in step["expect"].items():
                got = lookup(view, dotted)
                assert same(wanted, got, dotted.split(".")[-1] in UNORDERED), f"{where}: {dotted} = {got!r}"
            continue
        kind, actor, payload = step_input(step)
        expected = step.get("error", False)
        if expected is False:
            state = SPACECHESS.apply_input(state, kind, actor, payload).state
            continue
        before = json.dumps(SPACECHESS.to_json(state), sort_keys=True)
        with pytest.raises(OrderError) as refused:
            SPACECHESS.apply_input(state, kind, actor, payload)
        assert expected is True or refused.value.code == expected, f"{where}: {refused.value}"
        assert json.dumps(SPACECHESS.to_json(state), sort_keys=True) == before, where


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_file(path: Path) -> None:
    play(path)


def test_every_rule_id_has_a_scenario() -> None:
    """SC-1..SC-34: each rule id appears in the `rules` list of at least one file."""
    covered = set()
    for path in FILES:
        covered.update(tomllib.loads(path.read_text(encoding="utf-8")).get("rules", []))
    assert [rule for rule in RULE_IDS if rule not in covered] == []


def test_scenario_titles_cite_their_rules() -> None:
    """A title names the rule ids it exercises, so a FAIL line says which rule broke."""
    for path in FILES:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        assert re.search(r"SC-\d+", document["title"]), path.name
