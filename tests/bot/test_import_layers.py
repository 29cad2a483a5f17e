"""The bot's modules import one another one way (issue 22): no cycle, not even one held together by
imports inside functions. The registries (rules, games, drivers, commands) import nothing above
them; `bot.compose`, the composition root, is imported by nothing of the bot."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"


def modules() -> dict[str, Path]:
    found = {}
    for path in BOT.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        name = ".".join(path.relative_to(BOT.parent).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The bot modules `path` imports anywhere but under ``if TYPE_CHECKING:`` (type hints only)."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            for name in names:
                while name and name not in known:
                    name = name.rpartition(".")[0]
                if name:
                    found.add(name)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(child, field, None)
                    if isinstance(inner, list):
                        visit([n for n in inner if isinstance(n, ast.stmt)])

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def cycle_through(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph, as the modules along it; empty when there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node], _ = 1, path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = walk(target)
                if found:
                    return found
        state[node], _ = 2, path.pop()
        return []

    for start in sorted(graph):
        if start not in state:
            found = walk(start)
            if found:
                return found
    return []


def test_the_bot_imports_itself_one_way_only() -> None:
    known = modules()
    graph = {name: imports(path, known) - {name} for name, path in known.items()}
    assert cycle_through(graph) == []


def test_nothing_of_the_bot_imports_its_composition_root() -> None:
    known = modules()
    importers = [name for name, path in known.items() if "bot.compose" in imports(path, known) and name != "bot.compose"]
    assert sorted(importers) == ["bot.app", "bot.cli", "bot.demo"]


def test_a_cycle_is_found_where_there_is_one() -> None:
    assert cycle_through({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def commit_calls(source: str) -> list[str]:
    """The functions of a module's `source` that call a ``.commit(...)`` (a store's commit: a game change written),
    by name, ``<module>`` for a call outside any function."""
    found: list[str] = []

    def visit(node: ast.AST, within: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) and child.func.attr == "commit":
                found.append(within)
            visit(child, within)

    visit(ast.parse(source), "<module>")
    return found


def test_only_the_pipeline_commits_a_game_change() -> None:
    """Issue 22's one pipeline: a change reaches the store through `GameService.apply_input` only, whose
    `_committed` is the one caller of `Store.commit` outside the store itself. A module committing on
    its own (the draws once did, with their own retries, posts and time-limit end) re-implements
    part of the pipeline and misses the rest."""
    callers = {f"{name}.{function}" for name, path in modules().items() if not name.startswith("bot.store")
               for function in commit_calls(path.read_text(encoding="utf-8"))}
    assert callers == {"bot.service.core._committed"}


def test_a_commit_outside_the_pipeline_is_found() -> None:
    source = "class Applier:\n    def apply(self):\n        return self.store.commit(1, 2, state={}, entries=[])\n"
    assert commit_calls(source) == ["apply"]
