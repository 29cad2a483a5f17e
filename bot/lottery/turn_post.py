"""The turn post: what a game channel reads when a draw has been applied, and who gets pinged.

It is a service `Reply` like any command's, so the Discord adapter and the console show it the same
way; delivering it (and refreshing the pinned status message) is the adapter's `TurnHooks`.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Collection, Mapping, Sequence
from typing import Any, TextIO

from bot.games import presenter_for
from bot.games.spacechess import award_lines
from bot.i18n import Count, Day, translate
from bot.outbox import Drawing
from bot.service.computers import computers_of
from bot.service.core import Applied
from bot.service.game_over import game_over
from bot.service.pings import may_ping
from bot.service.replaying import public_events
from bot.service.replies import Message, Reply, discord_time
from bot.service.scene import Scene
from bot.store.repo import GameRecord, SeatRecord
from draws import Draw, DrawSchedule, game_numbers
from draws.calendar import next_expected_draw

AWARD_EVENT = "draw_award"


class PrintedHooks:
    """The console's hooks: print the reply in the reader's language, as the console shows any reply."""

    def __init__(self, language: str = "fr", stream: TextIO | None = None) -> None:
        self.language = language
        self.stream = stream if stream is not None else sys.stdout

    def _print(self, game: GameRecord, reply: Reply) -> None:
        print(f"[{game.name}]", file=self.stream)
        for message in reply.messages:
            print(translate(message.key, self.language, message.params), file=self.stream)
        for file in reply.files:
            print(f"  ({file.filename}, {len(file.data)} bytes)", file=self.stream)

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self._print(game, reply)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self._print(game, reply)


def ping_targets(policy: str, seats: Sequence[SeatRecord], breakdown: Sequence[Mapping[str, Any]],
                 muted: Collection[int] = frozenset()) -> tuple[int, ...]:
    """Who the post may ping: "none" nobody, "all" every seated player, "players" the players whose
    character gained AP; a player who muted pings — their seat, or everywhere (`muted`) — never is
    (PRODUCT.md, Discord conventions; `bot.service.pings.may_ping`)."""
    if policy == "none":
        return ()
    gained = {row["id"] for row in breakdown if row.get("award", 0) > 0}
    return tuple(
        seat.user_id for seat in seats if may_ping(seat, muted) and (policy == "all" or seat.actor in gained)
    )


def draw_header(draw: Draw) -> Message:
    numbers, bonus = game_numbers(draw)
    params: dict[str, Any] = {"date": Day(draw.date), "numbers": " ".join(str(n) for n in numbers)}
    if bonus is None:
        return Message("turn.draw", params)
    return Message("turn.draw_bonus", {**params, "bonus": bonus})


def build_turn_post(
    applied: Applied, draw: Draw, *, seats: Sequence[SeatRecord], ping_policy: str, scene: Scene | None = None,
    pictures: bool = True, muted: Collection[int] = frozenset(), by_dm: Collection[int] = frozenset(),
) -> tuple[Reply, tuple[int, ...]]:
    """Header, one line per character (the engine's own breakdown), then anything else the draw caused
    (an ending), the board image (unless `pictures` is false: `later_drawing` draws it when the post
    is sent) and the pings; and the members it would ping who take theirs by direct message
    (`by_dm`: `bot.service.dms`), left out of the post's pings."""
    game = applied.game
    presenter = presenter_for(game.kind)
    messages = [Message("turn.title", {"name": game.name, "turn": applied.rules.turn_number(applied.outcome.state)}),
                draw_header(draw)]
    if draw.manual:
        messages.append(Message("turn.manual"))
    breakdown: list[Mapping[str, Any]] = []
    for event in public_events(applied.outcome.events):
        if event.kind == AWARD_EVENT:
            breakdown = event.params["breakdown"]
            messages.extend(award_lines(breakdown))
        else:
            messages.extend(presenter.describe(applied.rules, [event]))
    mentions = ping_targets(ping_policy, seats, breakdown, muted)
    # a draw that ends the game (its time limit) names the winners and pings them, once
    end = game_over(presenter, applied.rules, applied.outcome.state, seats, computers_of(game.options),
                    pings=ping_policy, muted=muted)
    messages.extend(end.messages)
    gainers = tuple(user for user in mentions if user not in end.mentions)  # the winners' line names them
    written = tuple(user for user in gainers if user in by_dm)
    gainers = tuple(user for user in gainers if user not in by_dm)
    if gainers:
        messages.append(Message("turn.pings", {"users": " ".join(f"<@{user}>" for user in gainers)}))
    mentions = gainers + end.mentions
    # the board says which game, which turn, the draw's numbers and the next draw (`scene`)
    scene = scene or Scene(game.name)
    public, state = public_events(applied.outcome.events), applied.outcome.state
    files = presenter.described(presenter.images_for(applied.rules, state, public, scene), applied.rules, state,
                                scene, public) if pictures else ()
    return Reply(tuple(messages), files=files, mentions=mentions), written


def next_draw(schedule: DrawSchedule, now: dt.datetime) -> Message:
    """When the next draw is, as the status and the pictures say it."""
    return Message("status.next_draw", {"next": discord_time(next_expected_draw(now, schedule))})


def what_comes_next(schedule: DrawSchedule, options: Mapping[str, Any], turn: int, now: dt.datetime) -> Message:
    """What comes next in a game of these options once `turn` draws are played: the next draw (a
    manual game's are typed by its game masters whenever they do: no time to give), with the time
    limit's progress (SC-31). A turn post is made before its draw is committed: it says the turn its
    draw brings."""
    following = Message("sc.next.manual") if options.get("draws") == "manual" else next_draw(schedule, now)
    limit, end = options.get("limit_draws"), options.get("end_date")
    if limit is None and end is None:
        return following
    params: dict[str, Any] = {}
    if limit is not None:
        params.update(limit=limit, played=Count(min(turn, limit), "sc.limit.played"))
    if end is not None:
        params["date"] = Day(dt.date.fromisoformat(end))
    key = "sc.limit.end_date" if limit is None else "sc.limit.draws" if end is None else "sc.limit.both"
    return Message("sc.next.limited", {"next": following, "limit": Message(key, params)})


def limit_reached(options: Mapping[str, Any], turn: int, day: dt.date | None) -> bool:
    """SC-31: whether a game of these options is at its time limit once `turn` draws are played, the
    last of them on `day`: that many draws, or its end date reached."""
    limit, end = options.get("limit_draws"), options.get("end_date")
    return (limit is not None and turn >= limit) or (end is not None and day is not None and day.isoformat() >= end)


def later_drawing(applied: Applied, scene: Scene, upcoming: Message | None = None) -> Drawing | None:
    """The turn post's board as a `Drawing`, to draw when the post is sent (in the language it is
    sent in: `upcoming` says what comes next in any); None when the draw ends the game, whose
    pictures (the recap with them) need the game's whole history, read now."""
    events = public_events(applied.outcome.events)
    if any(event.kind == "game_over" for event in events):
        return None
    return Drawing(applied.game.kind, applied.rules.to_json(applied.outcome.state),
                   tuple(event.to_json() for event in events), scene.name, scene.language, scene.next,
                   upcoming if scene.next else None)


def draw_missing_alert(game: GameRecord, day: dt.date, hours: int) -> Reply:
    """The give-up alert: the evening's results never came; how to enter them by hand."""
    return Reply((Message("turn.draw_missing", {"name": game.name, "day": Day(day), "date": day.isoformat(),
                                                    "hours": hours}),))
