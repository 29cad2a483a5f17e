"""`/game mine`: every game a member plays, on every server the bot has them in — those waiting on
them first — each with what comes next (the deadline, the move clock, the next draw: its turn
driver's `next_moment`, as the status message says it, in Discord timestamps) and a link to its
channel; a page at a time, privately. A correspondence player's "my games" (Lichess lists the games
where it is your move first).

Whether a game waits on the member is its rules' `waiting_on` (who the game waits for now: the
player to move, the ships not ready), read for the member's seat: public, as the status message
shows it — nothing here can tell a secret.
"""

from __future__ import annotations

from typing import Any

from bot.drivers import plays_as
from bot.games import driver_of, presenter_for
from bot.i18n import Count
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply, Visibility
from bot.store.repo import GameRecord, SeatRecord
from engine import registry

MINE_PAGE = 10
#: the games a member still plays (an ended one is done with)
PLAYED = ("setup", "running", "paused")


def waits_on(game: GameRecord, seat: SeatRecord) -> bool:
    """Whether `game` waits on the member holding `seat` now (a running game only)."""
    if game.status != "running":
        return False
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    return any(plays_as(rules, state, seat.actor, actor) for actor in rules.waiting_on(state))


@command("game mine", Option("page", "integer", min_value=1, max_value=1000), private=True)
def game_mine(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The member's games on every server, those waiting on them first (each group oldest first),
    `MINE_PAGE` a page; only they see it."""
    played = [(game, seat, waits_on(game, seat))
              for game, seat in svc.store.games_of_member(ctx.user_id, statuses=PLAYED)]
    if not played:
        return Reply.private("game.mine.none")
    played.sort(key=lambda row: not row[2])  # stable: the waiting ones first, each group in its order
    pages = -(-len(played) // MINE_PAGE)
    page = max(1, min(opts.get("page", 1), pages))
    waiting = sum(1 for _, _, yours in played if yours)
    lines = [Message("game.mine.header", {"games": Count(len(played), "game.mine.games"),
                                          "waiting": Count(waiting, "game.mine.waiting"),
                                          "page": page, "pages": pages})]
    now = svc.clock()
    for game, seat, yours in played[(page - 1) * MINE_PAGE:page * MINE_PAGE]:
        upcoming = driver_of(game.kind).next_moment(svc, game, now) if game.status == "running" else None
        # a side a GM seated the member in reads in the reader's words (Bleu), a joined name as it is
        params = {"name": game.name, "kind": game.kind,
                  "actor": presenter_for(game.kind).actor_name(registry.get(game.kind), seat.actor),
                  "status": Message(f"status.value.{game.status}"),
                  "next": upcoming if upcoming is not None else Message("game.mine.no_moment"),
                  "channel": f"<#{game.channel_id}>" if game.channel_id is not None else "—"}
        lines.append(Message("game.mine.your_turn" if yours else "game.mine.game", params))
    if page < pages:  # the next page's command, as the reader's Discord names it (`/partie mes-parties`)
        lines.append(Message("game.mine.more", {"next": page + 1}))
    return Reply(tuple(lines), visibility=Visibility.PRIVATE)
