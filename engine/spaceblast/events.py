"""Every event SpaceBlast emits, with its parameters: the list the bot's messages are written from.

A resolved turn returns its events in the order things happened, so the bot can tell the story
and animate it. Cells are row-letter strings ("G7"), directions "E", "NE"..., ships their ids;
every value is plain JSON. Events are public unless noted; :func:`event` refuses a kind that is
not listed here, so this table and the engine stay in step.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import EVERYONE, Audience, Event

EVENT_KINDS: dict[str, str] = {
    # -- lobby ----------------------------------------------------------------------------------
    "joined": "id, seat (0-based, SB-3 seat order), ships (its two ship ids, only with two ships each, SB-15)",
    "left": "id (a player leaves with its ships)",
    "started": "ships (list of {id, at, facing}), asteroids (cells)",
    "powers_dealt": "ship, powers (list) — private to the ship's owner (SB-17; its player, SB-15)",
    # -- orders ---------------------------------------------------------------------------------
    "submitted": "ship: it gave (or changed) its orders for this turn; what they are stays secret",
    "orders_set": "ship, tokens (list), text, left ({turns, brakes, missiles, mines, powers} after this turn) — private",
    "ready": "ship: its orders are final (SB-19); a player's two ships at once (SB-15), named by the player",
    # -- time jump (SB-17) -----------------------------------------------------------------------
    "time_jump_wait": "ships (holders of a played time jump): every order is revealed to them, the turn waits",
    "time_jump_offer": "ship, orders ({ship: tokens}) — private to the holder: what everyone plays this turn",
    "time_jumped": "ship: it used its time jump (the new order shows in `revealed`)",
    # -- resolution (SB-7..SB-14), in this order ------------------------------------------------
    "revealed": "turn (the turn resolving), orders ({ship: text}), tokens ({ship: [tokens]}), "
    "defaulted (ships with no orders received: they fly straight on, SB-6)",
    "power_played": "ship, power",
    "recovered": "ship, power (energy | recharge), kind (turns | missiles), amount, now",
    "rotated": "ship, from, to (directions), steps (+ clockwise / - counter-clockwise)",
    "mine_laid": "ship, at",
    "slipped": "ship, from, to, side (left | right)",
    "slip_blocked": "ship, side, to (cell or null off the arena)",
    "collision": "ships (ids), cell (the cell they tried to enter), kind (same_cell | face_to_face | blocked)",
    "ram": "ship (the rammer), target, cell",
    "damaged": "ship, cause (collision | ram | mine | missile), by (ship or null), hits (total now)",
    "shielded": "ship, cause, by: a loss the shield took (SB-17)",
    "scored": "ship, points, reason (ram | mine | missile | survivor), victim (ship or null), total",
    "mine_armed": "owner, at: its layer left the cell (or was destroyed)",
    "moved": "ship, from, to (null: off the arena), facing, step (move | turbo)",
    "mine_hit": "ship, owner, at",
    "missile_hit": "ship, owner, at, phase (movement | flight | firing)",
    "asteroid_hit": "ship, at",
    "eliminated": "ship, from (its last cell), reason (left_arena)",
    "disqualified": "ship, lost (points it had): it left the arena still holding a turn or brake token",
    "missile_moved": "owner, from, path (cells entered, in order), facing",
    "missile_removed": "owner, at (its last cell on the arena), reason (left_arena | asteroid)",
    "fired": "ship, at, facing, range, rear (bool)",
    "repaired": "ship, hits (total now): super armour (SB-17)",
    "destroyed": "ship, at, cause (hits | asteroid), hits",
    "frames": "views (the public view after each phase, named by its `frame`: reveal, rotation, mines, movement, "
    "missiles, firing, damage, and end when the game ends): for the turn's animation",
    "game_over": "winner (ship, SB-15 player, or draw), reason (last_ship | no_ship), ranking (list of {ship, "
    "score, out_turn, disqualified}, best first; with two ships each {player, ships, ...} instead of ship)",
}


def event(kind: str, audience: Audience = EVERYONE, /, **params: Any) -> Event:
    if kind not in EVENT_KINDS:
        raise ValueError(f"undocumented SpaceBlast event kind {kind!r}")
    return Event(kind, params, audience)
