"""Space Chess: two teams on a square grid, action points from lottery draws (spacechess.md).

``SPACECHESS`` is the rules object the bot uses through the engine protocol; the modules hold the
parts: ``ruleset`` (numbers as data), ``state``, ``orders`` (language), ``movement``, ``combat``,
``actions`` and ``powers`` (what orders do), ``awards`` (draws), ``endings``, ``lobby`` and ``gm``
(setup and GM inputs), ``setupdoc`` (setup documents), ``previews`` (UI helpers), ``events``.
"""

from engine.registry import register
from engine.spacechess.awards import apply_draw
from engine.spacechess.rules import SPACECHESS, SpaceChess

__all__ = ["SPACECHESS", "SpaceChess", "apply_draw"]

register(SPACECHESS)
