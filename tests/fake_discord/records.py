"""What the fake Discord records and answers: calls, faults, interactions, API errors (no transport here)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class UploadedFile:
    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class Call:
    """One REST request as the fake received it, with the status it answered."""

    method: str
    path: str  # after /api/v10
    query: Mapping[str, str]
    json: Any
    files: tuple[UploadedFile, ...]
    status: int
    answer: Any = None  # the JSON the fake answered
    injected: bool = False  # a fault the test asked for (`fail`), not a refusal of Discord's rules

    def matches(self, method: str, pattern: str) -> bool:
        return self.method == method and re.fullmatch(pattern, self.path) is not None


@dataclass
class Fault:
    """Answer the next `left` matching requests with `status` (and the JSON `code`) instead of serving them."""

    method: str
    pattern: str
    status: int
    retry_after: float
    left: int
    scope: str = "user"
    code: int = 0


@dataclass
class InteractionLog:
    """What the bot did with one interaction: its callback, the messages it created or edited."""

    payload: dict[str, Any]
    created: float  # when Discord created it (the fake's clock): its deadlines count from here
    callback_type: int | None = None
    original_id: int | None = None
    original_edited: bool = False  # by a PATCH @original (what ends a deferred update)
    original_deleted: bool = False
    expired: bool = False  # not answered within 3 s: Discord forgot it
    followups: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None


class ApiError(Exception):
    """A refusal as Discord words it: status, JSON error code, message, and for a form its error tree."""

    def __init__(self, status: int, code: int, text: str, *, errors: Mapping[str, Any] | None = None,
                 headers: Mapping[str, str] | None = None, retry_after: float | None = None) -> None:
        super().__init__(text)
        self.status = status
        self.code = code
        self.text = text
        self.errors = errors
        self.headers = dict(headers or {})
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.text, "code": self.code}
        if self.errors is not None:
            body["errors"] = dict(self.errors)
        if self.retry_after is not None:
            body.update(retry_after=round(self.retry_after, 3), **{"global": False})
        return body

