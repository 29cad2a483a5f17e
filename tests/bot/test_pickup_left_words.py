"""A bonus left on the board says why in words, never as the engine's reason code."""

from __future__ import annotations

import pytest

import bot.games.spacechess  # noqa: F401 — registers the Space Chess presenter
from bot.games import presenter_for
from bot.i18n import translate
from engine import registry
from engine.core.protocol import Event

REASONS = ("general", "same_weapon", "needs_drop", "already_held", "full_hands")


@pytest.mark.parametrize("reason", REASONS)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_reason_reads_as_a_sentence(reason: str, language: str) -> None:
    rules = registry.get("spacechess")
    left = Event("pickup_left", {"id": "Cid", "at": "K3", "pickup": {"kind": "item"}, "reason": reason})
    [message] = presenter_for("spacechess").describe(rules, [left])
    text = translate(message.key, language, message.params)
    assert f": {reason}." not in text and "_" not in text and "{" not in text and text.startswith("Cid")
