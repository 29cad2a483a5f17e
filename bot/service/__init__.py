"""The transport-independent service layer.

The names below are imported lazily (PEP 562): presenters and command modules import the
service's small value types, and the service imports presenters, so eager re-exports here would
make the import order matter.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Attachment": "bot.service.replies",
    "Button": "bot.service.replies",
    "Choice": "bot.service.replies",
    "Embed": "bot.service.replies",
    "Select": "bot.service.replies",
    "Message": "bot.service.replies",
    "Reply": "bot.service.replies",
    "ServiceError": "bot.service.replies",
    "Visibility": "bot.service.replies",
    "Context": "bot.service.context",
    "GameService": "bot.service.core",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
