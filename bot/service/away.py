"""Away days: a player of a correspondence game goes on holiday without losing on time.

A game master gives each seat a budget of away days (the ``away_days`` option of every game whose
driver waits on its seats — a move clock, a deadline — 0 unless set; `/gm away budget:` changes it
later). A player declares `/game away days:N`: from now, for N days, their clock waits (a clock
running for them ends N days later; one started for them meanwhile starts when they are back), the
game's deadline waits (the turn's deadline moves N days on when the turn waits on them; a turn begun
meanwhile runs from their return), and the reminders skip them. Lichess and ICCF give
correspondence players the same. Both are bookkeeping changes through the one path of changes, so
the driver moves its timers in the change's own transaction and the history says who did it.

The periods live in the game's options (``away``: seat → until when, how many days used), public
like the status message that lists them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from bot.drivers import plays_as
from bot.games import driver_of
from bot.i18n import Count
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply, ServiceError, discord_time
from bot.store.repo import GameRecord

#: the options key of the declared periods, and the bookkeeping kinds of the log
AWAY, BUDGET = "away", "away_days"
DECLARE, SET_BUDGET = "away", "away_budget"
MAX_AWAY_DAYS = 60
#: the game option each waiting driver's ``new`` takes
AWAY_OPTION = Option(BUDGET, "integer", min_value=0, max_value=MAX_AWAY_DAYS, describe="opt.away_days")


def budget(game: GameRecord) -> int:
    return int(game.options.get(BUDGET, 0))


def periods(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {seat: dict(period) for seat, period in options.get(AWAY, {}).items()}


def used(game: GameRecord, seat: str) -> int:
    return int(periods(game.options).get(seat, {}).get("used", 0))


def back_at(game: GameRecord, seat: str) -> dt.datetime | None:
    """When the member seated as `seat` is back (None: never away)."""
    period = periods(game.options).get(seat)
    return dt.datetime.fromisoformat(period["until"]) if period else None


def away_seats(game: GameRecord, now: dt.datetime) -> dict[str, dt.datetime]:
    """The seats away at `now`, with when each is back."""
    return {seat: until for seat in periods(game.options)
            if (until := back_at(game, seat)) is not None and until > now}


def start_of(game: GameRecord, rules: Any, state: Any, actors: Iterable[str], now: dt.datetime) -> dt.datetime:
    """When a wait on `actors` begins: now, or when the last of their members away is back."""
    away = away_seats(game, now)
    backs = [until for seat, until in away.items() for actor in actors if plays_as(rules, state, seat, actor)]
    return max([now, *backs])


def options_with(options: Mapping[str, Any], seat: str, until: dt.datetime, days: int) -> dict[str, Any]:
    """The game's options with `seat` away until `until`, `days` more of its budget used."""
    held = periods(options)
    spent = int(held.get(seat, {}).get("used", 0)) + days
    return {**options, AWAY: {**held, seat: {"until": until.isoformat(), "used": spent}}}


def option_fault(options: Mapping[str, Any]) -> tuple[str, str] | None:
    """An imported game's away periods as `options_with` writes them, or the reason they are not."""
    held = options.get(AWAY, {})
    if not isinstance(held, dict):
        return AWAY, "bad_option"
    for period in held.values():
        try:
            fine = (isinstance(period, dict) and set(period) == {"until", "used"} and type(period["used"]) is int
                    and 0 <= period["used"] <= MAX_AWAY_DAYS and dt.datetime.fromisoformat(period["until"]).tzinfo)
        except (TypeError, ValueError):
            fine = False
        if not fine:
            return AWAY, "bad_option"
    return None


def status_lines(game: GameRecord, now: dt.datetime) -> list[Message]:
    """One line per member away now, for the status message."""
    return [Message("status.away", {"actor": seat, "until": discord_time(until)})
            for seat, until in sorted(away_seats(game, now).items(), key=lambda item: item[1])]


def _waiting_game(svc: GameService, ctx: Context) -> GameRecord:
    game = svc.channel_game(ctx)
    if not driver_of(game.kind).waits_on_seats:
        raise ServiceError("error.away_not_here", kind=game.kind)
    if game.status == "finished":
        raise ServiceError("error.not_running", status=Message(f"status.value.{game.status}"))
    return game


@command("game away", Option("days", "integer", min_value=1, max_value=MAX_AWAY_DAYS, required=True))
def game_away(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Declare `days` away days from now, out of the seat's budget: the game waits for the player."""
    game = _waiting_game(svc, ctx)
    seat = svc.actor_of(ctx, game)
    days, now = opts["days"], svc.clock()
    left = budget(game) - used(game, seat)
    if days > left:
        raise ServiceError("error.away_budget", days=Count(days, "game.away.days"), left=Count(left, "game.away.days"),
                           budget=budget(game))
    current = back_at(game, seat)
    until = max(now, current or now) + dt.timedelta(days=days)  # a second declaration adds to the first

    def still_left(fresh: GameRecord) -> None:
        if days > budget(fresh) - used(fresh, seat):
            raise ServiceError("error.away_budget", days=Count(days, "game.away.days"),
                               left=Count(budget(fresh) - used(fresh, seat), "game.away.days"), budget=budget(fresh))

    svc.apply_input(ctx, game, DECLARE, seat, {"seat": seat, "days": days, "until": until.isoformat()},
                    check=still_left, options=lambda fresh: options_with(fresh.options, seat, until, days))
    return Reply.say("game.away.declared", user=ctx.user_id, actor=seat, until=discord_time(until),
                     left=Count(budget(game) - used(game, seat) - days, "game.away.days"))


@command("gm away", Option("budget", "integer", min_value=0, max_value=MAX_AWAY_DAYS, required=True), gm_only=True)
def gm_away(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Set the away days each seat of the game may use (days already used stay used)."""
    game = _waiting_game(svc, ctx)
    days = opts["budget"]
    svc.apply_input(ctx, game, SET_BUDGET, None, {"days": days},
                    options=lambda fresh: {**fresh.options, BUDGET: days})
    return Reply.say("gm.away.budget", name=game.name, days=Count(days, "game.away.days"))
