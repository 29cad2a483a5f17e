"""`/gm posts`: the posts a game owes its channel, and those Discord refused for good, with why — and
a retry once the cause is fixed (a permission given back, the game moved to a new channel).

A refused post is never lost without someone knowing (`bot.outbox` tells the GMs once); this is
where they see what is still owed and bring back what was given up, in the game's channel now.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Count
from bot.outbox import KEEP_SENT, REFUSALS, first_line
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Button, Message, Reply, Visibility, discord_time
from bot.store import outbox as rows
from bot.store.outbox import OutboxRecord

#: how many posts one answer lists (the oldest first: those hold the others back)
SHOWN = 15


def _state(post: OutboxRecord) -> Message:
    cause = Message(f"post.cause.{post.refused}") if post.refused in REFUSALS else Message("post.cause.other")
    if post.given_up:
        return Message("gm.posts.given_up", {"cause": cause})
    if post.refused is not None or post.last_error:
        return Message("gm.posts.refused", {"cause": cause, "attempts": Count(post.attempts, "word.attempts")})
    return Message("gm.posts.owed")


def _entry(post: OutboxRecord) -> Message:
    text = first_line(post.payload)
    return Message("gm.posts.entry", {
        "id": post.id, "kind": Message(f"post.kind.{post.kind}"),
        "when": discord_time(post.created_at) if post.created_at is not None else "",
        "text": text if text is not None else "", "state": _state(post)})


@command("gm posts", Option("retry", "boolean"), gm_only=True, private=True)
def gm_posts(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """What the game owes its channel and what was given up in the last days; `retry:` sends the owed
    ones now and the given-up ones again, in the game's channel as it is now."""
    game = svc.channel_game(ctx)
    now = svc.clock()
    if opts.get("retry"):
        count = rows.retry(svc.store, game.id, game.channel_id, now - KEEP_SENT, now)
        return Reply((Message("gm.posts.retried", {"name": game.name, "n": Count(count, "word.posts")}),),
                     visibility=Visibility.PRIVATE)
    posts = rows.owed_and_given_up(svc.store, game.id, now - KEEP_SENT, limit=SHOWN + 1)
    if not posts:
        return Reply.private("gm.posts.none", name=game.name)
    shown = [_entry(post) for post in posts[:SHOWN]]
    more = (Message("gm.posts.more", {"n": SHOWN}),) if len(posts) > SHOWN else ()
    button = Button(Message("button.retry_posts"), "gm posts", {"retry": True})
    return Reply((Message("gm.posts.title", {"name": game.name}), *shown, *more), buttons=(button,),
                 visibility=Visibility.PRIVATE)
