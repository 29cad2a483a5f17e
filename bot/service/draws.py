"""`/gm draw`: a game master enters an evening's results by hand (FDJ down, a private game).

The entry is stored like any draw (source "manual") and applied through the same exactly-once path as
polled draws (`DrawApplier`); it stands in for the automatic draw of that evening, which the game
then never gets as well. A draw is a fact of its evening: if that evening's results are already
stored (from FDJ or another game master) with other numbers, the entry is refused and shows them.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bot.draw_apply import GAME_KIND, applier_for
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.orders import require_running
from bot.service.replies import Button, Message, Reply, ServiceError, Visibility
from bot.store.draws import applied_evenings, save_draws, stored_draws
from draws import Draw, ManualDrawError, manual_draw

_NUMBER_SEPARATORS = re.compile(r"[\s,;]+")


def parse_numbers(text: str) -> list[int]:
    """ "3 12 19 33 45" (spaces, commas or semicolons between numbers)."""
    words = [w for w in _NUMBER_SEPARATORS.split(text.strip()) if w]
    if not words or not all(w.isdigit() for w in words):
        raise ServiceError("error.draw_bad_numbers", text=text)
    return [int(w) for w in words]


def parse_date(text: str | None, today: dt.date) -> dt.date:
    if text is None:
        return today
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError("error.draw_bad_date", text=text) from None
    if day > today:
        raise ServiceError("error.draw_in_future", date=day.isoformat())
    return day


def _evening_draw(svc: GameService, entry: Draw, source: str) -> Draw:
    """The draw to apply for the entry's evening: the one already stored when it agrees, else the entry
    (stored now). Refused when the evening is known with other numbers."""
    for known in stored_draws(svc.store, since=entry.date):
        if known.date != entry.date or known.index != 1 or known.source not in (source, "manual"):
            continue
        if (known.numbers, known.complementary) != (entry.numbers, entry.complementary):
            raise ServiceError(
                "error.draw_differs",
                date=entry.date.isoformat(),
                numbers=" ".join(str(n) for n in known.numbers),
                bonus=known.complementary,
            )
        return known
    save_draws(svc.store, [entry])
    return entry


@command(
    "gm draw",
    Option("numbers", required=True, max_length=40),
    Option("bonus", "integer", min_value=1, max_value=49),
    Option("date", max_length=10),
    Option("confirm", "integer"),
    gm_only=True,
)
def gm_draw(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The first call checks everything and asks for confirmation (the button carries the game
    version, so a click after the game moved on is refused); the confirmed call applies."""
    game = svc.channel_game(ctx)
    if game.kind != GAME_KIND:
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    require_running(game)
    applier = applier_for(svc)
    day = parse_date(opts.get("date"), applier.schedule.local_date(dt.datetime.now(dt.UTC)))
    try:
        entry = manual_draw(day, parse_numbers(opts["numbers"]), opts.get("bonus"))
    except ManualDrawError as err:
        raise ServiceError("error.draw_invalid", reason=err.code, detail=str(err)) from None
    applied = applied_evenings(svc.store, game.id)
    if (day, 1) in applied:
        raise ServiceError("error.draw_already_applied", date=day.isoformat())
    if applied and (day, 1) < applied[-1]:
        raise ServiceError("error.draw_out_of_order", date=day.isoformat(), last=applied[-1][0].isoformat())
    numbers = " ".join(str(n) for n in entry.numbers)
    if "confirm" not in opts:
        # the button carries the numbers as parsed, not as typed: its id must stay within 100 characters
        button = Button(Message("button.confirm_draw", {"date": day.isoformat()}), "gm draw",
                        {**{k: v for k, v in opts.items() if k != "confirm"}, "numbers": numbers,
                         "date": day.isoformat(), "confirm": game.version})
        summary = Message("gm.draw.confirm", {"name": game.name, "date": day.isoformat(), "numbers": numbers,
                                              "bonus": entry.complementary})
        return Reply((summary,), buttons=(button,), visibility=Visibility.PRIVATE)
    if opts["confirm"] != game.version:
        raise ServiceError("error.stale_confirmation")
    draw = _evening_draw(svc, entry, applier.source)
    posts = applier.apply_pending(game, [draw], deliver=False, user_id=ctx.user_id)
    if not any(post.draw.key == draw.key for post in posts):
        raise ServiceError("error.conflict")  # the game changed meanwhile (paused, another entry): retry
    messages = [Message("gm.draw.done", {"date": day.isoformat(), "numbers": numbers})]
    mentions: dict[int, None] = {}
    for post in posts:  # earlier pending draws first, then this one: one post each, the last board
        messages.extend(post.reply.messages)
        mentions.update(dict.fromkeys(post.reply.mentions))
    return Reply(tuple(messages), files=posts[-1].reply.files, mentions=tuple(mentions))
