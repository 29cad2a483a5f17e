"""Draw offers in the bot: ``/game offer-draw``, ``/game accept-draw``, ``/game decline-draw``.

One command set for every game whose rules take the draw inputs (`engine.core.drawoffer`: Arkeon
and HexArena), so no game repeats it and a new two-sided game gets it by accepting the inputs. The
rules decide everything (who may offer, when an offer lapses); the bot words it, pings the member
asked to answer, shows a pending offer in the status message — and lets a computer player answer
at once: it accepts when its game's computer module says so (``accepts_draw(rules, state, side,
level)``; Arkeon: its evaluation of the position is below 0, i.e. it stands worse; HexArena: it stands
worse by more than the edge of having the move), else declines.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.service.commands import command
from bot.service.context import Context
from bot.service.core import Applied, GameService
from bot.service.dms import route
from bot.service.orders import require_running
from bot.service.pings import members_for, mentions
from bot.service.replies import Button, Message, Reply, ServiceError
from bot.store import outbox as rows
from engine import registry
from engine.core.drawoffer import ACCEPT, DECLINE, DRAW_INPUTS, OFFER
from engine.core.protocol import GameRules


def has_draw_offers(rules: GameRules) -> bool:
    return rules.draw_inputs == DRAW_INPUTS


def draw_status_lines(rules: GameRules, state: Any) -> list[Message]:
    """The status message's line about a pending offer (nothing when none stands)."""
    side = rules.pending_draw_offer(state) if has_draw_offers(rules) else None
    if side is None:
        return []
    return [Message("status.draw_offer", {"side": Message(f"word.side.{side}"),
                                          "player": rules.players(state).get(side) or side})]


def _draw(kind: str):  # noqa: ANN202 - returns a command handler
    def handle(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        game = svc.channel_game(ctx)
        rules = registry.get(game.kind)
        if not has_draw_offers(rules):
            raise ServiceError("error.no_draw_offers", kind=game.kind)
        applied = svc.apply_input(ctx, game, kind, svc.actor_of(ctx, game), {}, check=require_running)
        reply = svc.describe(applied, ctx)
        if kind != OFFER or applied.posts:  # a computer asked answered at once (a follow-up of the offer)
            return reply
        asked = next(str(e.params["to"]) for e in applied.outcome.events if e.kind == "draw_offered")
        return _ping(svc, applied, asked, reply)

    return handle


def _ping(svc: GameService, applied: Applied, side: str, reply: Reply) -> Reply:
    """The members who play `side` are asked to answer (as `bot.service.pings` pings anyone): in the
    offer's reply, or by direct message for those who chose reminders by DM (`bot.service.dms`; sent
    after the offer is committed — the status message shows a pending offer all the same)."""
    users = members_for(svc.store, applied.game, applied.rules, applied.outcome.state, (side,))
    if not users:
        return reply
    routed = route(svc.store, applied.game, users, Message("dm.draw_offer"), _ping_line)
    if routed.dms:
        rows.enqueue(svc.store, routed.dms)
    # the answer a click away under the offer, for the members asked only (a click by anyone else is refused)
    buttons = tuple(button for user in users for button in (
        Button(Message("button.accept_draw"), "game accept-draw", style="primary", shown_to=user),
        Button(Message("button.decline_draw"), "game decline-draw", style="secondary", shown_to=user)))
    lines = (_ping_line(routed.channel),) if routed.channel else ()
    return replace(reply, messages=(*reply.messages, *lines), mentions=(*reply.mentions, *routed.channel),
                   buttons=(*reply.buttons, *buttons))


def _ping_line(users: tuple[int, ...]) -> Message:
    return Message("game.draw_offer.ping", {"users": mentions(users)})


command("game offer-draw")(_draw(OFFER))
command("game accept-draw")(_draw(ACCEPT))
command("game decline-draw")(_draw(DECLINE))
