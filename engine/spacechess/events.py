"""Every event Space Chess emits, with its parameters: the list the fr/en messages are written from.

An accepted input returns events in the order things happened; the bot renders each as
``event.spacechess.<kind>`` with these params. Cells are strings ("C12"), characters are ids,
teams are 1 or 2; every value is plain JSON. Keep this table and the engine in step:
:func:`event` refuses a kind that is not listed here.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Event

EVENT_KINDS: dict[str, str] = {
    # -- orders -------------------------------------------------------------------------------
    "moved": "id, from, to, path (cells entered, in order), cells (len(path)), cost (AP), ap (left)",
    "shot": "id, target, weapon, damage (before armour), from, to, line (cells crossed), hits (ids hit, in order), ap (left)",
    "damaged": "id, amount (after armour, may be 0), hp (left), cause (shot | grenade | airstrike), by",
    "died": "id, at (the cell it left), cause (shot | grenade | airstrike | gm), by (id or null)",
    "grenade": "id, cell (named top-left cell), area (4 cells), hits (ids), cost (AP), ap (left)",
    "airstrike": "id, power (airstrike), cell, direction, area (4 cells), hits (ids), cost, ap (left), plus "
                 "full_cost and helper (the logistics tool's holder) when SC-26's discount lowered the cost",
    "ability": "id, ability (vehicle | rage): active until the next draw, which the user skips",
    "friendship": "id, target, given (AP given), received (AP the target gained), lost (over the cap)",
    "ap_overflow": "id, lost (AP above the cap that vanished), source (friendship | pickup)",
    "power": (
        "id, power, cost, ap (left), full_cost and helper (the logistics tool's holder next to the general) "
        "when SC-26's discount lowered the cost, plus per power (the air strike has its own kind): "
        "encourage/hack: team (the general's team); "
        "heal: target, healed, hp; intimidate/teleport: target, from, to"
    ),
    "pickup_taken": "id, at, pickup ({at, kind, item|weapon|amount}), gained (AP/HP actually added), dropped",
    "pickup_left": "id, at, pickup, reason (general | already_held | full_hands | same_weapon | needs_drop)",
    "pickup_left_colonel": "id, at, pickup: an item a colonel leaves where it lies (SC-27: it never holds another)",
    "batch_cut": "skipped (order texts not run because the game ended mid-batch)",
    "game_over": "winner (1 | 2 | draw), reasons (list of {team, reason: general_dead | soldiers_dead | sudden_death | hp_total}), totals (hp_total only)",
    # -- draws --------------------------------------------------------------------------------
    "draw_award": (
        "turn (the turn that starts), numbers, bonus, breakdown: list per character of "
        "{id, dead, skipped, zeroed, cards: [{card, numbers, bonus, ap}], base, grade, "
        "encouragement, hacking, hack_immune, award, ap_before, ap_after, lost_to_cap}"
    ),
    # -- setup and GM -------------------------------------------------------------------------
    "joined": "id, team, role",
    "left": "id",
    "equipped": "id, weapon, armour, items, ability, cards, grade",
    "deployed": "id, at",
    "started": "destroyed (list of {id, items} lost to the colonel grade), vigour (ids with +HP)",
    "pickup_placed": "pickup ({at, kind, item|weapon|amount})",
    "gm_set": "id, changes ({hp?, ap?, at?}), reason",
}


def event(kind: str, **params: Any) -> Event:
    if kind not in EVENT_KINDS:
        raise ValueError(f"undocumented Space Chess event kind {kind!r}")
    return Event(kind, params)
