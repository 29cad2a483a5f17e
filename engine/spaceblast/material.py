"""What each ship starts with and what the arena may hold (SB-1, SB-4, SB-16, SB-17): numbers as data.

Kept apart from the state so the setup document, the lobby, the order checks and the powers that
give tokens back (energy reserve, recharge) all read the same caps.
"""

from __future__ import annotations

#: SB-1: the GM picks the arena radius in this range; 6 gives the 127-cell arena of the board game
RADIUS_MIN, RADIUS_MAX, RADIUS_DEFAULT = 4, 9, 6
#: SB-3: seats at the six corners
SEATS_MIN, SEATS_MAX = 2, 6

#: SB-4: tokens per ship at the start, which are also the most a ship can ever hold
TURNS, BRAKES, MISSILES, MINES = 10, 2, 8, 3
#: SB-4: 3 armour tokens and the ship itself: the 4th hit destroys it
HULL = 4

#: SB-5: tokens per turn, powers aside
TOKENS_PER_TURN = 3
#: SB-10/SB-11: cells a missile flies per turn
MISSILE_RANGE = 3

#: SB-16: asteroids placed at random, and how far from every ship they must land
ASTEROIDS_DEFAULT = 2
ASTEROID_CLEARANCE = 2

#: SB-17: the nine power tiles, by their canonical names in the order language
POWERS: tuple[str, ...] = (
    "energy",  # energy reserve: 2 spent turn tokens back
    "turbo",  # a second step after every ship has moved
    "superturn",  # 120° or 180° for one turn token
    "slip",  # side slip to the front-left or front-right cell
    "timejump",  # change one token after every order is revealed
    "shield",  # no loss and no point scored on the ship this turn
    "recharge",  # 3 spent missiles back
    "armour",  # super armour: 1 lost hit point back
    "rearshot",  # a missile fired backwards
)
ENERGY_TURNS = 2
RECHARGE_MISSILES = 3
