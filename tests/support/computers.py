"""Computers' turns in service tests: what the bot's timer runner does after a command's answer.

A computer's turn is a timer its change sets due at once (`bot.service.computers.computer_timers`);
`computers_play` fires the due ones as the runner would, pass after pass until none is left (the
computers playing each other take one turn a pass), and returns the channel posts they wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.drivers import timer_handlers
from bot.outbox import flush
from bot.service import GameService, Reply
from bot.service.computers import COMPUTER
from bot.store.timers import due_timers
from bot.timers import TimerRunner

#: a safety net against a computer that never stops being due
MAX_PASSES = 1000


@dataclass
class Posted:
    """The adapter's side: each post the outbox hands over, in order."""

    posts: list[Reply] = field(default_factory=list)

    def on_turn_post(self, game: object, reply: Reply) -> None:
        self.posts.append(reply)

    def on_gm_alert(self, game: object, reply: Reply) -> None:
        self.posts.append(reply)

    def on_dm(self, user_id: int, game: object, reply: Reply) -> None:
        self.posts.append(reply)


class Owed:
    """The adapter's side that leaves the posts in the outbox, for the test to read as it likes."""

    def outbox_ready(self) -> None: ...


def fire_computers(svc: GameService) -> None:
    """Fire every computer's turn now due, and what they make due, oldest first, as the bot's timer
    runner does after a command's answer; their posts are left in the outbox."""
    runner = TimerRunner(svc.store, timer_handlers(svc, Owed()), clock=svc.clock)
    for _ in range(MAX_PASSES):
        if not [t for t in due_timers(svc.store, svc.clock()) if t.kind == COMPUTER]:
            return
        runner.run(svc.clock())
    raise AssertionError(f"computers still due after {MAX_PASSES} passes")


def computers_play(svc: GameService) -> list[Reply]:
    """`fire_computers`, then the posts the outbox holds (theirs, and any the commands before wrote),
    delivered in order."""
    fire_computers(svc)
    hooks = Posted()
    flush(svc.store, hooks)
    return hooks.posts


def post_keys(posts: list[Reply]) -> list[str]:
    """The catalog keys of the posts' messages, in order."""
    return [m.key for post in posts for m in post.messages]
