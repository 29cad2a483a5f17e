"""SpaceBlast: ships on a hexagonal arena, secret simultaneous orders (spaceblast.md, SB-1..SB-20).

``SPACEBLAST`` is the rules object the bot uses through the engine protocol; the modules hold the
parts: ``material`` (numbers as data), ``state``, ``orders`` (the language), ``tokens`` (what an
order costs), ``checks`` (what a submitted order must pass), ``variants`` (asteroids, powers,
BigBang, two ships each as small hook classes), ``seats`` (SB-3 corners), ``fleets`` (who
commands which ship, SB-15), ``setupdoc`` and ``lobby`` (how a game starts), ``dice``
(randomness from the stored seed), the resolution — ``resolution`` (the phases in order) over
``turn`` (its scratch pad: hits and points), ``movement`` (who moves), ``moves`` (what moving
does), ``missiles``, ``powers``, ``timejump``, ``endings`` — then ``legal`` (every order a ship
may give), ``views`` and ``events``.
"""

from engine.registry import register
from engine.spaceblast.rules import SPACEBLAST, SpaceBlast

__all__ = ["SPACEBLAST", "SpaceBlast"]

register(SPACEBLAST)
