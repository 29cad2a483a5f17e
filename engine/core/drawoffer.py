"""Draw offers in two-sided alternating games (Arkeon, HexArena): a product decision of the bot,
in neither rulebook, so both games share these rules rather than each writing its own.

A side in a game being played may offer a draw at any moment (its turn or not); the offer is part
of the game's state (it survives a restart and shows in the view) until the other side answers:

- ``draw_accept`` by the other side ends the game drawn (reason ``agreed``);
- ``draw_decline`` by the other side withdraws it;
- the other side playing a move instead of answering declines it too: the offer *lapses* (as in
  over-the-board chess, where moving is the usual way of declining). The author's own moves leave
  it standing, so a player may offer and then move on their turn, as chess players do.

Refusals (each with its own code, so the bot words exactly what went wrong): offering while one's
own offer stands (``draw_already_offered``) or while the opponent's does (``draw_offer_pending``:
answer it instead), answering when nothing is offered (``no_draw_offer``), answering one's own
offer (``own_draw_offer``). Whether the game is being played at all is the game's own check, made
before these (``not_allowed``/``game_over`` as for any input).

Pure functions over the pending offer (the side that made it, or None): each game keeps the value
in its state and applies the decision to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import OrderError
from engine.core.protocol import Event

OFFER, ACCEPT, DECLINE = "draw_offer", "draw_accept", "draw_decline"
#: the input kinds a game accepts when it has draw offers (the bot offers its draw commands to those)
DRAW_INPUTS = frozenset({OFFER, ACCEPT, DECLINE})
#: the reason of a game drawn by agreement
AGREED = "agreed"
#: the events of draw offers and their parameters, for each game's event table
DRAW_EVENTS: dict[str, str] = {
    "draw_offered": "side (who offers), to (the side asked to answer)",
    "draw_declined": "side (who declines), by (whose offer it was)",
    "draw_offer_lapsed": "side (whose offer lapsed), by (the side that moved instead of answering)",
}


@dataclass(frozen=True)
class DrawDecision:
    """What a draw input does: the offer pending afterwards, its events, and whether the game
    ends drawn now (the game then finishes itself, with its own ``game_over`` event)."""

    offer: str | None
    events: tuple[Event, ...] = ()
    agreed: bool = False


def decide(kind: str, side: str, opponent: str, pending: str | None) -> DrawDecision:
    """`side` gives the draw input `kind` while `pending` (a side or None) has an offer standing;
    raises OrderError with the state left to the caller unchanged."""
    if kind == OFFER:
        if pending == side:
            raise OrderError("draw_already_offered", side=side)
        if pending is not None:
            raise OrderError("draw_offer_pending", side=side, by=pending)
        return DrawDecision(side, (Event("draw_offered", {"side": side, "to": opponent}),))
    if kind not in DRAW_INPUTS:
        raise OrderError("not_allowed", input=kind)
    if pending is None:
        raise OrderError("no_draw_offer", side=side)
    if pending == side:
        raise OrderError("own_draw_offer", side=side, input=kind)
    if kind == ACCEPT:
        return DrawDecision(None, agreed=True)
    return DrawDecision(None, (Event("draw_declined", {"side": side, "by": pending}),))


def after_move(pending: str | None, mover: str) -> DrawDecision:
    """The offer once `mover` has played a move: the opponent's offer lapses, one's own stands."""
    if pending is None or pending == mover:
        return DrawDecision(pending)
    return DrawDecision(None, (Event("draw_offer_lapsed", {"side": pending, "by": mover}),))
