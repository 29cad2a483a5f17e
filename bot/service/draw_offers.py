"""Draw offers in the bot: ``/game offer-draw``, ``/game accept-draw``, ``/game decline-draw``.

One command set for every game whose rules take the draw inputs (`engine.core.drawoffer`: Arkeon
and HexArena), so no game repeats it and a new two-sided game gets it by accepting the inputs. The
rules decide everything (who may offer, when an offer lapses); the bot words it, pings the member
asked to answer, shows a pending offer in the status message — and lets a computer player answer
(in its turn, a timer of the offer's commit: `bot.service.computers`): it accepts when its game's
computer module says so (``accepts_draw(rules, state, side, level)``; Arkeon: its evaluation of the
position is below 0, i.e. it stands worse; HexArena: it stands worse by more than the edge of having
the move), else declines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games import seated_player
from bot.service.commands import command
from bot.service.context import Context
from bot.service.core import Applied, GameService
from bot.service.dms import route
from bot.service.orders import require_running
from bot.service.pings import members_for, mentions
from bot.service.replies import Button, Message, Reply, ServiceError
from bot.store.repo import GameRecord
from engine import registry
from engine.core.drawoffer import ACCEPT, DECLINE, DRAW_INPUTS, OFFER
from engine.core.protocol import GameRules


def has_draw_offers(rules: GameRules) -> bool:
    return rules.draw_inputs == DRAW_INPUTS


def draw_status_lines(rules: GameRules, state: Any, seats: Mapping[str, int]) -> list[Message]:
    """The status message's line about a pending offer (nothing when none stands), its player named
    as the side lines name them (`seated_player`: `seats` maps actor → member)."""
    side = rules.pending_draw_offer(state) if has_draw_offers(rules) else None
    if side is None:
        return []
    return [Message("status.draw_offer", {"side": Message(f"word.side.{side}"),
                                          "player": seated_player(rules.players(state), side, seats) or side})]


def _draw(kind: str):  # noqa: ANN202 - returns a command handler
    def handle(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        game = svc.channel_game(ctx)
        rules = registry.get(game.kind)
        if not has_draw_offers(rules):
            raise ServiceError("error.no_draw_offers", kind=game.kind)
        if kind != OFFER:
            return svc.describe(svc.apply_input(ctx, game, kind, svc.actor_of(ctx, game), {}, check=require_running),
                                ctx)
        applied, asked = _offer(svc, ctx, game)
        reply = svc.describe(applied, ctx)
        return _asking(reply, asked) if asked is not None else reply

    return handle


@dataclass(frozen=True)
class Asked:
    """The members an offer asks to answer, and those of them pinged in the channel (the others
    had a direct message)."""

    users: tuple[int, ...]
    in_channel: tuple[int, ...]


def _offer(svc: GameService, ctx: Context, game: GameRecord) -> tuple[Applied, Asked | None]:
    """The offer, committed with the direct messages of the members asked who chose them
    (`bot.service.dms`) in one transaction — the game's, held for it (`Store.locked_game`) — so no
    crash between them can lose one; who is asked is the offer's outcome (its ``draw_offered``).
    No member is asked where none plays the side (a computer answers in its own turn)."""
    with svc.store.locked_game(game.id) as fresh:
        if fresh is None:
            raise ServiceError("error.conflict")
        applied = svc.apply_input(ctx, fresh, OFFER, svc.actor_of(ctx, fresh), {}, check=require_running)
        side = next(str(e.params["to"]) for e in applied.outcome.events if e.kind == "draw_offered")
        users = members_for(svc.store, applied.game, applied.rules, applied.outcome.state, (side,))
        routed = route(svc.store, applied.game, users, Message("dm.draw_offer"), _ping_line) if users else None
        if routed is not None:
            svc.store.owe_posts(applied.game, routed.dms)
    return applied, Asked(tuple(users), routed.channel) if routed is not None else None


def _asking(reply: Reply, asked: Asked) -> Reply:
    """The offer's reply asking its members (as `bot.service.pings` pings anyone): those pinged in the
    channel named, and the answer a click away under the offer, for the members asked only (a click
    by anyone else is refused)."""
    buttons = tuple(button for user in asked.users for button in (
        Button(Message("button.accept_draw"), "game accept-draw", style="primary", shown_to=user),
        Button(Message("button.decline_draw"), "game decline-draw", style="secondary", shown_to=user)))
    lines = (_ping_line(asked.in_channel),) if asked.in_channel else ()
    return replace(reply, messages=(*reply.messages, *lines), mentions=(*reply.mentions, *asked.in_channel),
                   buttons=(*reply.buttons, *buttons))


def _ping_line(users: tuple[int, ...]) -> Message:
    return Message("game.draw_offer.ping", {"users": mentions(users)})


command("game offer-draw")(_draw(OFFER))
command("game accept-draw")(_draw(ACCEPT))
command("game decline-draw")(_draw(DECLINE))
