"""`/gm draw`: a game master enters an evening's results by hand (FDJ down, a private game).

The entry is stored like any draw, under the game's own source (``manual:<game id>``: what one game
master types never stands in another game's way), and applied through the same exactly-once path as
polled draws (`DrawApplier`); it stands in for the automatic draw of that evening, which the game
then never gets as well. A draw is a fact of its evening: if that evening's results are already
stored (from FDJ, or an earlier entry for this game) with other numbers, the entry is refused and
shows them. Only an evening the game can get is accepted: a draw day of the calendar, after the game
started, whose results are out (not this evening before the draw time).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bot.i18n import Day
from bot.lottery import is_lottery_game
from bot.lottery.apply import applier_for, takes_draws
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.orders import require_running
from bot.service.refusals import known as in_catalog
from bot.service.replies import Button, Message, Reply, ServiceError, Visibility
from bot.store.draws import applied_evenings, save_draws, started_at, stored_draws
from bot.store.repo import GameRecord
from draws import FIRST_LOTO_DRAW, Draw, DrawSchedule, ManualDrawError, loto_format, manual_draw

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
        raise ServiceError("error.draw_in_future", date=Day(day))
    if day < FIRST_LOTO_DRAW:  # no Loto, so no format of its draw to check the numbers against
        raise ServiceError("error.draw_before_loto", date=Day(day), first=Day(FIRST_LOTO_DRAW))
    return day


def check_evening(svc: GameService, game: GameRecord, schedule: DrawSchedule, day: dt.date,
                  now: dt.datetime) -> None:
    """Refuse an evening this game cannot get: not a draw day, results not out yet (this evening before
    the draw time), or before the game started — unless the game's draws are all typed by its game
    masters ("manual"), who may then play it on any past Loto evenings (the demo campaign does)."""
    if day.weekday() not in schedule.weekdays:
        raise ServiceError("error.draw_not_a_draw_day", date=Day(day))
    expected = schedule.at(day)
    if expected > now:
        raise ServiceError("error.draw_not_yet", date=Day(day), time=f"<t:{int(expected.timestamp())}:t>")
    started = started_at(svc.store, game)
    if game.options.get("draws") != "manual" and expected <= started:
        raise ServiceError("error.draw_before_start", date=Day(day),
                           start=Day(schedule.local_date(started)))


def _evening_draw(svc: GameService, entry: Draw, source: str, schedule: DrawSchedule) -> Draw:
    """The draw to apply for the entry's evening: the one already stored when it agrees, else the entry
    (stored now). Refused when the evening is known with other numbers."""
    for known in stored_draws(svc.store, since=entry.date):
        if known.date != entry.date or known.index != 1 or known.source not in (source, entry.source):
            continue
        if (known.numbers, known.complementary) != (entry.numbers, entry.complementary):
            raise ServiceError(
                "error.draw_differs",
                date=Day(entry.date),
                numbers=" ".join(str(n) for n in known.numbers),
                bonus=known.complementary,
            )
        return known
    save_draws(svc.store, [entry], schedule=schedule, now=svc.clock())
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
    if not is_lottery_game(game.kind):
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    require_running(game)
    takes_draws(game)  # a game in its setup gets no draw before /gm start
    applier = applier_for(svc)
    now = svc.clock()  # the bot's time, as the poll's: whether the evening's results are out
    day = parse_date(opts.get("date"), applier.schedule.local_date(now))
    try:
        entry = manual_draw(day, parse_numbers(opts["numbers"]), opts.get("bonus"), scope=str(game.id))
    except ManualDrawError as err:
        raise ServiceError("error.draw_invalid", date=Day(day), reason=draw_entry_reason(err),
                           format=Message(f"draw.format.{loto_format(day).name}", {"date": Day(day)})) from None
    check_evening(svc, game, applier.schedule, day, now)
    applied = applied_evenings(svc.store, game.id)
    if (day, 1) in applied:
        raise ServiceError("error.draw_already_applied", date=Day(day))
    if applied and (day, 1) < applied[-1]:
        raise ServiceError("error.draw_out_of_order", date=Day(day), last=Day(applied[-1][0]))
    numbers = " ".join(str(n) for n in entry.numbers)
    if "confirm" not in opts:
        # the button carries the numbers as parsed, not as typed: its id must stay within 100 characters
        button = Button(Message("button.confirm_draw", {"date": Day(day)}), "gm draw",
                        {**{k: v for k, v in opts.items() if k != "confirm"}, "numbers": numbers,
                         "date": day.isoformat(), "confirm": game.version})
        summary = Message("gm.draw.confirm", {"name": game.name, "date": Day(day), "numbers": numbers,
                                              "bonus": entry.complementary})
        return Reply((summary,), buttons=(button,), visibility=Visibility.PRIVATE)
    if opts["confirm"] != game.version:
        raise ServiceError("error.stale_confirmation")
    draw = _evening_draw(svc, entry, applier.source, applier.schedule)
    # the posts come back in this answer: their boards speak its language, as its pictures do
    posts = applier.apply_pending(game, [draw], deliver=False, ctx=ctx, language=svc.language(ctx))
    if not any(post.draw.key == draw.key for post in posts):
        raise ServiceError("error.conflict")  # the game changed meanwhile (paused, another entry): retry
    messages = [Message("gm.draw.done", {"date": Day(day), "numbers": numbers})]
    mentions: dict[int, None] = {}
    for post in posts:  # earlier pending draws first, then this one: one post each, the last board
        messages.extend(post.reply.messages)
        mentions.update(dict.fromkeys(post.reply.mentions))
    return Reply(tuple(messages), files=posts[-1].reply.files, mentions=tuple(mentions))


def draw_entry_reason(err: ManualDrawError) -> Message:
    """Why typed numbers are not a Loto draw, with the number at fault: ``draw.invalid.<code>.<field>``
    (the complementary number's own wording), else ``draw.invalid.<code>``."""
    params = {**err.params, "field": err.params.get("field"), "number": _ordinal(err.params.get("position"))}
    for key in (f"draw.invalid.{err.code}.{params['field']}", f"draw.invalid.{err.code}"):
        if in_catalog(key):
            return Message(key, params)
    return Message("draw.invalid.other", params)


def _ordinal(position: Any) -> Any:
    """The 1-based rank a person counts with (the error's position is 0-based)."""
    return position + 1 if isinstance(position, int) else position
