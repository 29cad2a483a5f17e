"""HexArena: two fleets race for the enemy base on a 127-cell hexagon (reconstructed rules, hexarena.md).

``HEXARENA`` is the rules object the bot uses through the engine protocol; the modules hold the
parts: ``geometry`` (board, bases, opening), ``state``, ``orders`` (the language), ``actions``
(what each action does), ``actiontable`` (every writable action, built once), ``variants`` (base,
Blitz, Alpha, Omega as hook overrides), ``legal`` (every legal action and turn), ``turns`` (a whole
turn and the endings at its end), ``repetition`` (HA-18's counts of the positions that stood),
``setupdoc``, ``lobby``, ``events``.
"""

from engine.hexarena.rules import HEXARENA, HexArena
from engine.registry import register

__all__ = ["HEXARENA", "HexArena"]

register(HEXARENA)
