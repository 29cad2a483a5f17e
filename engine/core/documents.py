"""Documents that outlive a command: setup documents, logs and exports are kept as JSON.

SQLite and PostgreSQL store them, exports travel to other servers and other programs read them, so
a document is held to what every one of them keeps intact: integers within signed 64 bits (a
seed of 2**70 overflows a BIGINT column), finite numbers (PostgreSQL's JSON has no NaN), text keys,
and a bounded nesting depth (readers recurse). Checking this before anything is stored turns a
database exception into a located refusal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engine.core.errors import SetupError

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
MAX_DEPTH = 16
_SCALARS = (str, bool, int, float, type(None))


def _child(where: str, key: str | int) -> str:
    """``characters[2].id``: the key path `SetupError.where` uses everywhere."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _check_scalar(value: Any, where: str) -> None:
    if not isinstance(value, _SCALARS):
        raise SetupError("not_storable", where, reason="type", type=type(value).__name__)
    if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
        raise SetupError("not_storable", where, reason="int_range", minimum=INT_MIN, maximum=INT_MAX)
    if isinstance(value, float) and not math.isfinite(value):
        raise SetupError("not_storable", where, reason="not_finite")


def check_storable(document: Any, where: str = "") -> None:
    """Refuse the first value (in document order) that JSON storage would not keep intact, with the
    key path to it; walks without recursion, so no nesting depth can crash the check itself."""
    stack: list[tuple[Any, str, int]] = [(document, where, 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                raise SetupError("not_storable", path, reason="depth", maximum=MAX_DEPTH)
            items = value.items() if isinstance(value, Mapping) else enumerate(value)
            children = []
            for key, child in items:
                if isinstance(value, Mapping) and not isinstance(key, str):
                    raise SetupError("not_storable", path, reason="key", type=type(key).__name__)
                children.append((child, _child(path, key), depth + 1))
            stack.extend(reversed(children))
        else:
            _check_scalar(value, path)
