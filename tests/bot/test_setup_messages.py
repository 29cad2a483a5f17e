"""Every fault of a setup document reads as a sentence (issue 9 points 11 and 13).

`error.setup` shows the fault's reason from the catalog (`setup.<code>.<reason>`, else
`setup.<code>`, see `bot.service.refusals.setup_refusal`). This test reads every ``SetupError(...)`` the
engines raise and checks that the message chosen for it exists in both languages and that the
parameters given at that very place fill all its placeholders.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalog, placeholders

ROOT = Path(__file__).resolve().parents[2]


def raise_sites() -> list[tuple[str, str, str | None, frozenset[str]]]:
    """(place, code, reason, parameter names) of each SetupError built with a literal code."""
    sites = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "SetupError" and node.args):
                continue
            code = node.args[0]
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue  # a re-raise with the code of another error: checked where that one is raised
            names = frozenset(k.arg for k in node.keywords if k.arg is not None)
            reason = next((k.value.value for k in node.keywords if k.arg == "reason"
                           and isinstance(k.value, ast.Constant)), None)
            sites.append((f"{path.relative_to(ROOT)}:{node.lineno}", code.value, reason, names))
    return sites


SITES = raise_sites()


def test_the_engines_raise_setup_errors_at_all():
    assert len(SITES) > 40 and {"bad_id", "not_storable", "bad_loadout", "map_bad_char"} <= {s[1] for s in SITES}


@pytest.mark.parametrize(("place", "code", "reason", "names"), SITES, ids=[s[0] for s in SITES])
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_setup_fault_has_a_filled_message(language, place, code, reason, names):
    texts = catalog(language)
    key = f"setup.{code}.{reason}" if f"setup.{code}.{reason}" in texts else f"setup.{code}"
    assert key in texts, f"{place}: no message for {code}"
    assert placeholders(texts[key]) <= names, f"{place}: {key} needs {placeholders(texts[key]) - names}"


def test_the_setup_int_checks_have_messages():
    """`_int` in setupdoc builds its code as f"bad_{key}" for the hp and ap of a character."""
    for language in LANGUAGES:
        for key in ("setup.bad_hp", "setup.bad_ap"):
            assert placeholders(catalog(language)[key]) <= {"value", "minimum", "maximum"}
