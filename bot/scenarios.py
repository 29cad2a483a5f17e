"""The scenario runner: rules conformance files (TOML) played against the registered engines.

Each file sets up a position, plays steps and checks the public view; see the scenario format
document. A malformed file is a FAIL with its reason, never a crash, so one bad file cannot hide
the verdict on the others.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games import rules_named
from engine.core.errors import OrderError, SetupError
from engine.core.protocol import GameRules

#: `input` is this project's extension of the format: any other logged input of the game
#: (``input = "limit_reached"``, ``input = "start"``...), with optional `by` and `payload`.
STEP_KINDS = ("order", "draw", "orders", "expect", "input")
_MISSING = object()


@dataclass(frozen=True)
class ScenarioResult:
    path: Path
    title: str
    passed: bool
    reason: str = ""
    rules: tuple[str, ...] = ()

    def line(self) -> str:
        if self.passed:
            return f"PASS {self.path} — {self.title}"
        return f"FAIL {self.path} — {self.reason}"


class _Fail(Exception):
    pass


def scenario_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given, folders searched recursively for ``*.toml``, in a stable order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(path.rglob("*.toml"))
        else:
            yield path


def run_file(path: Path) -> ScenarioResult:
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        return ScenarioResult(path, "", False, f"cannot read the file: {err}")
    except tomllib.TOMLDecodeError as err:
        return ScenarioResult(path, "", False, f"not valid TOML: {err}")
    title = str(doc.get("title", path.stem))
    rules_ids = tuple(doc.get("rules", ()))
    try:
        run_document(doc)
    except _Fail as fail:
        return ScenarioResult(path, title, False, str(fail), rules_ids)
    return ScenarioResult(path, title, True, "", rules_ids)


def run_document(doc: Mapping[str, Any]) -> None:
    """Play one parsed scenario; raises _Fail with the FAIL reason."""
    try:
        rules = rules_named(str(doc.get("game", "")))
    except SetupError as err:
        raise _Fail(f"unknown game {doc.get('game')!r} (known: {err.params.get('known')})") from None
    setup = doc.get("setup", {})
    if not isinstance(setup, dict):
        raise _Fail("[setup] must be a table")
    try:
        state = rules.setup(setup, int(setup.get("seed", 0)))
    except SetupError as err:
        raise _Fail(f"setup: {err}") from None
    steps = doc.get("step", [])
    if not isinstance(steps, list):
        raise _Fail("`step` must be an array of tables ([[step]])")
    for number, step in enumerate(steps, start=1):
        state = _run_step(rules, state, number, step)


def _run_step(rules: GameRules, state: Any, number: int, step: Any) -> Any:
    where = f"step {number}"
    if not isinstance(step, dict):
        raise _Fail(f"{where}: not a table")
    kinds = [k for k in STEP_KINDS if k in step]
    if len(kinds) != 1:
        raise _Fail(f"{where}: expected exactly one of {', '.join(STEP_KINDS)}, got {kinds or 'none'}")
    kind = kinds[0]
    if kind == "expect":
        _check_expect(rules, state, where, step["expect"])
        return state
    if kind == "order":
        if "by" not in step:
            raise _Fail(f"{where}: an order step needs `by`")
        inputs = [("order", str(step["by"]), {"text": str(step["order"])})]
    elif kind == "input":
        payload = step.get("payload", {})
        if not isinstance(payload, dict):
            raise _Fail(f"{where}: payload must be a table")
        by = step.get("by")
        inputs = [(str(step["input"]), None if by is None else str(by), payload)]
    elif kind == "draw":
        draw = step["draw"]
        if not isinstance(draw, dict) or "numbers" not in draw:
            raise _Fail(f"{where}: draw expected a table with numbers")
        inputs = [("draw", None, {"numbers": list(draw["numbers"]), "bonus": draw.get("bonus")})]
    else:
        orders = step["orders"]
        if not isinstance(orders, dict):
            raise _Fail(f"{where}: orders expected a table of ship = \"orders\"")
        inputs = [("order", str(ship), {"text": str(text)}) for ship, text in orders.items()]
        inputs.append(("resolve", None, {}))
    return _play(rules, state, where, inputs, step.get("error", False))


def _play(rules: GameRules, state: Any, where: str, inputs: list, expected_error: Any) -> Any:
    before = rules.to_json(state)
    new_state = state
    try:
        for kind, actor, payload in inputs:
            new_state = rules.apply_input(new_state, kind, actor, payload).state
    except OrderError as err:
        if expected_error is False:
            raise _Fail(f"{where}: accepted expected, got error {err.code} {err.params}") from None
        if expected_error is not True and err.code != expected_error:
            raise _Fail(f"{where}: error expected {expected_error} got {err.code}") from None
        if rules.to_json(state) != before:
            raise _Fail(f"{where}: state unchanged expected after a refusal, got a modified state") from None
        return state
    if expected_error is not False:
        raise _Fail(f"{where}: error expected {expected_error} got accepted")
    return new_state


def _check_expect(rules: GameRules, state: Any, where: str, expect: Any) -> None:
    if not isinstance(expect, dict):
        raise _Fail(f"{where}: expect must be a table of \"path\" = value")
    view = rules.view(state)
    for path, wanted in expect.items():
        got = lookup(view, path)
        if not _same(wanted, got, path.split(".")[-1] in rules.unordered_view_keys):
            raise _Fail(f"{where}: {path} expected {_show(wanted)} got {_show(got)}")


def lookup(view: Any, path: str) -> Any:
    """Follow a dotted path; lists of objects are addressed by their `id` (or an index)."""
    current = view
    for key in path.split("."):
        if isinstance(current, Mapping):
            current = current.get(key, _MISSING)
        elif isinstance(current, list):
            current = next((item for item in current if isinstance(item, Mapping) and str(item.get("id")) == key),
                           current[int(key)] if key.isdigit() and int(key) < len(current) else _MISSING)
        else:
            current = _MISSING
        if current is _MISSING:
            return None
    return current


def _same(wanted: Any, got: Any, unordered: bool) -> bool:
    if wanted == "none":
        return got is None
    if isinstance(wanted, list) and isinstance(got, list):
        if unordered:
            return len(wanted) == len(got) and all(any(_same(w, g, False) for g in got) for w in wanted) and all(
                any(_same(w, g, False) for w in wanted) for g in got
            )
        return len(wanted) == len(got) and all(_same(w, g, False) for w, g in zip(wanted, got, strict=True))
    if isinstance(wanted, dict) and isinstance(got, dict):
        return wanted.keys() == got.keys() and all(_same(wanted[k], got[k], False) for k in wanted)
    if isinstance(wanted, bool) or isinstance(got, bool):
        return wanted is got  # 1 == True in Python, but not in a rules check
    return wanted == got


def _show(value: Any) -> str:
    return "null" if value is None else repr(value)


def run_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    return [run_file(p) for p in scenario_files(paths)]
