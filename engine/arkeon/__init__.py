"""Arkeon: two players place and swap pieces on a 29-cell hex board until a base is pointed at (arkeon.md).

``ARKEON`` is the rules object the bot uses through the engine protocol; the modules hold the
parts: ``pieces`` (board, sides, kinds, what a piece points at), ``state`` (and its JSON),
``orders`` (the language), ``placement`` (a turn's checks, AK-11..AK-14), ``resolution`` (AK-13's
steps and AK-6..AK-8's actions), ``placements`` (AK-10's setup placements), ``lobby``, ``endings``
(AK-15..AK-17, resignation, the clock), ``legal`` (every legal turn), ``setupdoc``, ``events``.
"""

from engine.arkeon.rules import ARKEON, Arkeon
from engine.registry import register

__all__ = ["ARKEON", "Arkeon"]

register(ARKEON)
