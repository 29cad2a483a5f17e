"""`/game help` read whole: its pages followed by their "next page" buttons, as a reader would."""

from __future__ import annotations

from typing import Any

from bot.service import Context, GameService, Message


def every_help_entry(svc: GameService, ctx: Context, **options: Any) -> list[Message]:
    """The entries of every page of `/game help` (each page's header and footer left out)."""
    entries: list[Message] = []
    reply = svc.handle(ctx, "game help", options)
    for _ in range(50):
        assert reply.ok, reply.messages
        entries += [m for m in reply.messages if m.key in ("game.help.entry", "game.help.bare")]
        following = [b for b in reply.buttons if b.label.key == "button.page_next"]
        if not following:
            return entries
        [button] = following
        reply = svc.handle(ctx, button.command, dict(button.options), shown_to=button.shown_to)
    raise AssertionError("/game help never reached its last page")
