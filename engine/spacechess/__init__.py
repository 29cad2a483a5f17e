"""Space Chess: two teams on a square grid, action points from lottery draws (spacechess.md).

``SPACECHESS`` is the rules object the bot uses through the engine protocol; the modules hold the
parts: ``ruleset`` (numbers as data), ``state``, ``orders`` (language), ``movement``, ``combat``,
``actions`` and ``powers`` (what orders do), ``legal`` (every order a character may give now, and
the bot's reach and shot-target hints drawn from it), ``awards`` (draws), ``endings``, ``lobby`` and
``gm`` (setup and GM inputs), ``setupdoc`` (setup documents), ``previews`` (the line-of-fire report),
``events``.
"""

from engine.registry import register
from engine.spacechess.awards import apply_draw
from engine.spacechess.rules import SPACECHESS, SpaceChess

__all__ = ["SPACECHESS", "SpaceChess", "apply_draw"]

register(SPACECHESS)
