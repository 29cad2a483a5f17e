"""Applying stored draws to Space Chess games, each draw to each game exactly once and in draw order.

Which draws a game gets (documented in docs/draws.md):
- draws of the bot's automatic source (`AUTO_SOURCE`: FDJ's results, whether downloaded or read from a
  file) that count for the game (SC-13: the first draw of the evening), plus manual entries a game
  master made for that game with `/gm draw` (stored under the game's own source, so an entry whose
  application was deferred is still applied by its retry);
- whose expected result time (the draw calendar's time on the draw's date) is after the game started
  to run: its `start` input, or its creation for a game created already running;
- later than the last draw the game got (a draw never jumps back before one already applied), so a
  game's draws are applied in order with no gap: a draw the pipeline could not commit (stale even
  holding the game, or its lock not had in time: `DrawDeferred`) stops that game's pass, and the
  game's `DRAW_RETRY` timer (durable, in the database) retries it within minutes, backing off,
  until it lands;
- only while the game is running: a paused game gets nothing, and its missed draws are applied in
  order by `catch_up` when it resumes.

Each draw is a change like any other, through the one pipeline (`GameService.apply_input`): the
engine applies it, the lottery driver plans its effects (`bot.lottery.driver`: at the draw reaching
the game's time limit, SC-31, the end it causes is an input `within` the same change) and words its
turn post (`turn_post_of`, with the reads of the applier's pass), and one commit writes the entries,
the snapshot, the claim of (game, evening) and the posts. So duplicate polls, racing threads or
processes and crashes between games can neither skip a game nor award one twice: whatever was not
committed is simply still pending at the next poll or start. Nothing here commits by itself.
"""

from __future__ import annotations

import datetime as dt
import logging
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import OperationalError

from bot.drivers import TurnHooks
from bot.lottery import is_lottery_game, lottery_kinds
from bot.lottery.turn_post import build_turn_post, later_drawing, limit_reached, what_comes_next
from bot.outbox import announce, post_language
from bot.service.context import Context
from bot.service.core import Applied, GameService
from bot.service.dms import dm_posts
from bot.service.effects import ChangePost
from bot.service.pings import muted_members, your_turn
from bot.service.replaying import Step, public_events
from bot.service.replies import Message, Reply, ServiceError
from bot.service.scene import scene_of
from bot.store.draws import (
    applied_evenings,
    applied_evenings_of,
    draw_claim_key,
    started_at,
    started_at_of,
    stored_draws,
)
from bot.store.repo import AlreadyClaimed, GameHead, GameRecord, SeatRecord, Store
from bot.store.timers import get_timer, set_timer
from draws import FDJ_LOTO, Draw, DrawSchedule, counts_for_game, game_numbers, manual_source
from engine import registry
from engine.core.errors import OrderError

log = logging.getLogger("spacechess.draws")

#: `Draw.source` of FDJ's results, whether fetched over HTTP or read from a local file.
AUTO_SOURCE = "fdj"
#: Running games read at once by a pass over every game (memory is this batch, not every game).
GAMES_PER_BATCH = 100
#: The timer kind retrying a game's deferred draw: 1 minute after the deferral, doubling at each new one.
DRAW_RETRY = "draw-retry"
FIRST_RETRY = dt.timedelta(minutes=1)
LAST_RETRY = dt.timedelta(minutes=30)


def retry_delay(attempt: int) -> dt.timedelta:
    """How long after its `attempt`-th deferral in a row (from 0) a game's draw is tried again."""
    return min(FIRST_RETRY * 2**attempt, LAST_RETRY)


class DrawDeferred(Exception):
    """A draw the pipeline could not commit (`error.conflict`: still stale holding the game; or the
    game's lock not had in time): it stays the game's next pending draw."""

    def __init__(self, game_id: int, draw: Draw) -> None:
        super().__init__(f"game {game_id}: draw {draw.date.isoformat()}#{draw.index} not committed: "
                         f"the game stayed busy")
        self.game_id = game_id
        self.draw = draw


@dataclass(frozen=True)
class TurnPost:
    game: GameRecord
    draw: Draw
    reply: Reply


#: refusals of the pipeline meaning the game takes no draw any more (paused, ended meanwhile)
_GONE = frozenset({"error.not_running", "error.game_over"})


def takes_draws(game: GameRecord) -> None:
    """A draw's precondition, on the game as the command reads it and as its commit finds it: running
    (not in its setup before `/gm start`, not paused or ended meanwhile)."""
    if game.status != "running":
        raise ServiceError("error.not_running", status=Message(f"status.value.{game.status}"))


@dataclass(frozen=True)
class _Pass:
    """What the applier applying a draw knows that its post needs: itself (calendar, hooks), the
    reads of its pass (`DrawFacts`: a batch's seats and members read once) and the answer's language."""

    applier: DrawApplier
    facts: DrawFacts
    language: str | None


#: the draw being applied on this thread (`DrawApplier.apply_draw`), for its post (`turn_post_of`)
_PASS: ContextVar[_Pass | None] = ContextVar("draw_pass", default=None)


def turn_post_of(svc: GameService, change: Applied, *, later: bool) -> ChangePost | None:
    """A draw's turn post, as the lottery driver words it (`LotteryDriver.change_post`): made by the
    applier applying it, with its pass's reads; a draw given otherwise (not by an applier) reads for
    its game alone. None for a draw whose log entry does not say which it was (a scenario's input):
    the pipeline's post then."""
    if not isinstance(change.payload.get("draw"), Mapping):
        return None
    current = _PASS.get()
    if current is None:
        return applier_for(svc).turn_post(change, draw_of(change.payload), None, later=later)
    return current.applier.turn_post(change, draw_of(change.payload), current.facts, later=later,
                                     language=current.language)


def limit_payload(turn: int, day: dt.date) -> dict[str, object]:
    """The `limit_reached` entry's payload (SC-31): the turn and the draw's evening that reached it."""
    return {"turn": turn, "draw": day.isoformat()}


def draw_of(payload: Mapping[str, Any]) -> Draw:
    """The draw a "draw" input's payload was made of (`draw_payload`), as far as its post reads it; a
    record given without its index or source (an input typed by hand) is the evening's automatic draw,
    as `LotteryDriver.claims_of_log` reads it."""
    record = payload["draw"]
    return Draw(dt.date.fromisoformat(record["date"]), int(record.get("index", 1)), tuple(payload["numbers"]),
                payload.get("bonus"), source=str(record.get("source", AUTO_SOURCE)))


def draw_payload(draw: Draw) -> dict[str, object]:
    """The engine's "draw" input, plus which draw it was, so the log answers "why do I have 3 AP?"."""
    numbers, bonus = game_numbers(draw)
    return {
        "numbers": list(numbers),
        "bonus": bonus,
        "draw": {"date": draw.date.isoformat(), "index": draw.index, "source": draw.source},
    }


class DrawApplier:
    """Draw application for one service; the last applier built for a service is its `applier_for`."""

    def __init__(
        self,
        service: GameService,
        *,
        schedule: DrawSchedule = FDJ_LOTO,
        hooks: TurnHooks | None = None,
        source: str = AUTO_SOURCE,
    ) -> None:
        self.service = service
        self.store = service.store
        self.schedule = schedule
        self.hooks = hooks
        self.source = source
        _APPLIERS[service] = self

    # -- which draws -------------------------------------------------------------------------------
    def pending(self, game: GameRecord | GameHead, extra: Iterable[Draw] = (),
                facts: DrawFacts | None = None) -> list[Draw]:
        """The draws `game` should get now, in draw order (rule in the module docstring).

        `facts` are the reads of a pass over many games (`DrawFacts.preload`); without, they are made
        for this game alone."""
        facts = facts if facts is not None else DrawFacts(self.store, self.source)
        start = facts.started(game)
        applied = facts.applied(game.id)
        last = applied[-1] if applied else None
        since = self.schedule.local_date(start) if last is None else max(self.schedule.local_date(start), last[0])
        if game.options.get("draws") == "manual":  # a "manual" game only gets /gm draw entries
            automatic = []
        else:
            automatic = [d for d in facts.automatic(since) if counts_for_game(d) and self.schedule.at(d.date) > start]
        chosen: dict[tuple[object, int], Draw] = {}
        for draw in [*extra, *facts.manual(game.id, since), *automatic]:  # a manual entry stands in for the
            chosen.setdefault(draw.key, draw)                          # evening's automatic draw
        return sorted((d for d in chosen.values() if last is None or d.key > last), key=lambda d: d.key)

    # -- applying ----------------------------------------------------------------------------------
    def apply_draw(self, game: GameRecord, draw: Draw, *, ctx: Context | None = None,
                   post: bool = False, facts: DrawFacts | None = None, language: str | None = None) -> TurnPost | None:
        """Apply one draw to one game through the pipeline (`GameService.apply_input`, claiming the
        game's evening); None when the game already has it or is not running any more.

        The turn post is the lottery driver's (`LotteryDriver.change_post`, made by `turn_post_of`
        from the outcome before the commit); with `post` it is written to the outbox in the commit's
        transaction, so the draw and its post are kept or lost together. At the draw that reaches the
        game's time limit (SC-31) the driver has the same commit record the end (`Effects.within`).
        `ctx` is the game master's command that entered the draw (`/gm draw`): its member is the
        log entry's.

        `language` is the one the post's text will be read in when it is an answer (`/gm draw`), so
        its board speaks it too; a post sent later is drawn in the language it is sent in.

        An `OrderError` (the engine refusing the draw) propagates: nothing was written. `DrawDeferred`
        when the pipeline gave up on the game (still stale holding it, or its lock not had in time):
        the draw is still pending.
        """
        if game.status != "running":
            return None
        if self._settle_limit(game, draw):
            return None
        passing = _PASS.set(_Pass(self, facts if facts is not None else DrawFacts(self.store, self.source), language))
        try:
            applied = self.service.apply_input(ctx, game, "draw", None, draw_payload(draw), check=takes_draws,
                                               claims=[draw_claim_key(game.id, draw.date, draw.index)], post=post)
        except AlreadyClaimed:  # applied elsewhere (another poller, process or thread)
            return None
        except ServiceError as err:
            if err.key in _GONE:
                return None
            if err.key == "error.conflict":
                raise DrawDeferred(game.id, draw) from None
            raise
        except OperationalError as err:  # the game's lock not had in time: a busy game, try again later
            raise DrawDeferred(game.id, draw) from err
        finally:
            _PASS.reset(passing)
        assert applied.own_post is not None, "a draw's post is the lottery driver's"
        return TurnPost(applied.game, draw, applied.own_post)

    def _settle_limit(self, game: GameRecord, draw: Draw) -> bool:
        """True when an earlier draw reached the game's limit but its end was not recorded with it (a
        game from before both were one commit, a limit lowered since): the end is recorded now, as
        that draw's commit would have (`limit_reached`, through the pipeline), and `draw` is not
        applied (a game never gets a draw beyond its limit)."""
        if "limit_draws" not in game.options and "end_date" not in game.options:
            return False
        applied = applied_evenings(self.store, game.id)
        rules = registry.get(game.kind)
        turn = rules.turn_number(rules.from_json(game.state))
        if not applied or not limit_reached(game.options, turn, applied[-1][0]):
            return False
        try:
            self.service.apply_input(None, game, "limit_reached", None, limit_payload(turn, applied[-1][0]),
                                     check=takes_draws)
        except ServiceError as err:
            if err.key == "error.conflict":
                raise DrawDeferred(game.id, draw) from None
            if err.key not in _GONE:
                raise
        except OperationalError as err:
            raise DrawDeferred(game.id, draw) from err
        return True

    def turn_post(self, change: Applied, draw: Draw, facts: DrawFacts | None, *, later: bool,
                  language: str | None = None) -> ChangePost:
        """The turn post; with `later` (it goes to the outbox) its board as a drawing, drawn when it is
        sent, in the language its text is then read in, when the post allows it (`later_drawing`).
        A board drawn now speaks `language`, else the language its hooks show posts in (the
        console's), else the server's: the language of the post's text. With it, the direct messages of
        the members it pings who take theirs so (`bot.service.dms`). `facts` are the pass's reads
        (its batch's seats and members); None: read for this game."""
        game = change.game
        facts = facts if facts is not None else DrawFacts(self.store, self.source)
        policy = self.store.guild_settings(game.guild_id).ping_policy if game.guild_id is not None else "players"
        pending = Step(-1, "draw", None, tuple(public_events(change.outcome.events)), change.outcome.state)
        turn = change.rules.turn_number(change.outcome.state) if "limit_draws" in game.options else 0
        following = what_comes_next(self.schedule, game.options, turn, self.service.clock())
        scene = scene_of(self.service, game, language or post_language(self.hooks), pending=(pending,),
                         upcoming=following)
        drawing = later_drawing(change, scene, following) if later else None
        muted, by_dm = (facts.muted(game.id), facts.by_dm(game.id)) if policy != "none" else (frozenset(), frozenset())
        reply, written = build_turn_post(change, draw, seats=facts.seats(game.id), ping_policy=policy, scene=scene,
                                         pictures=drawing is None, muted=muted, by_dm=by_dm)
        return ChangePost(reply, drawing, dm_posts(game, written, Message("dm.draw"), your_turn))

    def apply_pending(
        self, game: GameRecord, extra: Sequence[Draw] = (), *, deliver: bool = True, ctx: Context | None = None,
        facts: DrawFacts | None = None, language: str | None = None,
    ) -> list[TurnPost]:
        """Every pending draw of `game` in order; with `deliver` (and hooks) each turn post goes to the
        outbox with its draw's commit and is announced at once, so no crash loses one. `ctx` (the
        command entering the `extra` draws) is theirs only: the draws it found pending are the bot's.

        A deferred draw ends the pass for this game: applying a later one would leave a gap that
        `pending` (which looks after the last applied draw) would never fill."""
        posts = []
        facts = facts if facts is not None else DrawFacts(self.store, self.source)
        for draw in self.pending(game, extra, facts):
            outboxed = deliver and self.hooks is not None
            try:
                post = self.apply_draw(game, draw, ctx=ctx if draw in extra else None, post=outboxed,
                                       facts=facts, language=language)
            except DrawDeferred as deferred:
                self._retry_later(deferred)
                break
            if post is not None:
                posts.append(post)
                if outboxed:
                    announce(self.store, self.hooks)
            fresh = post.game if post is not None else self.store.get_game(game.id)
            if fresh is None or fresh.status != "running":
                break
            game = fresh
        return posts

    def _retry_later(self, deferred: DrawDeferred) -> None:
        """Plan the game's retry timer, each deferral in a row waiting twice as long as the one before
        (the timer still there is the last retry, firing now, or one not due yet)."""
        planned = get_timer(self.store, deferred.game_id, DRAW_RETRY)
        attempt = 0 if planned is None else planned.payload.get("attempt", 0) + 1
        delay = retry_delay(attempt)
        set_timer(self.store, deferred.game_id, DRAW_RETRY, self.service.clock() + delay, {"attempt": attempt})
        self.service.timers_changed()
        log.warning("%s: retried in %s, with the draws after it", deferred, delay)

    def apply_all(self) -> list[TurnPost]:
        """Every running Space Chess game gets its pending draws (used after each poll and at start)."""
        return list(self.apply_each())

    def apply_each(self) -> Iterator[TurnPost]:
        """`apply_all` as a stream: running games are read a batch at a time without their documents,
        what deciding their draws needs is read for the whole batch in a few statements on one
        connection, then the games owed a draw whole (with their seats) in two more, and each turn post
        is handed on as soon as it is made: a pass over any number of games holds one batch of records,
        not every record and every post's image (the poll keeps none of them), and a pass that owes
        nothing (a tick while a draw is late) reads no game's state."""
        facts = DrawFacts(self.store, self.source)
        for heads in self.store.iter_game_heads(statuses=("running",), kinds=lottery_kinds(), batch=GAMES_PER_BATCH):
            with self.store.request():  # one connection for the batch's reads and its games' commits
                facts.preload(heads)
                owed = self.store.games_by_id([head.id for head in heads if self.pending(head, facts=facts)])
                facts.preload_seats(list(owed))
                for game in owed.values():
                    self.service.players.give_way()  # a member's command first (`bot.service.players_first`)
                    try:
                        posts = self.apply_pending(game, facts=facts)
                    except OrderError as err:  # one broken game must not keep the others from their draw
                        log.error("game=%s: the engine refused a draw: %s %s", game.id, err.code, err.params)
                        continue
                    yield from posts

    def catch_up(self, game_id: int, *, deliver: bool = True) -> list[TurnPost]:
        """For `/gm resume`: the draws a paused game missed, applied in order now that it runs again."""
        game = self.store.get_game(game_id)
        if game is None or not is_lottery_game(game.kind) or game.status != "running":
            return []
        return self.apply_pending(game, deliver=deliver)


class DrawFacts:
    """What deciding and posting a game's draws reads: when it started, the draws it got, the game
    master's entries for it, its seats and which of their members turned pings off. Read per game on demand, or for a whole batch of games in a
    few statements (`preload`), so that a pass over thousands of games costs a few reads per batch
    and one commit per game. The automatic draws since a date are read once for the whole pass: most
    games wait for the same draws."""

    def __init__(self, store: Store, source: str) -> None:
        self.store = store
        self.source = source
        self._automatic: dict[dt.date, list[Draw]] = {}
        self._started: dict[int, dt.datetime] = {}
        self._applied: dict[int, list[tuple[dt.date, int]]] = {}
        self._manual: dict[int, list[Draw]] = {}
        self._seats: dict[int, list[SeatRecord]] = {}
        self._members: dict[str, frozenset[int]] = {}  # muted, by_dm: of the batch's members, once read

    def preload(self, games: Sequence[GameRecord | GameHead]) -> None:
        """Read what deciding the draws of `games` needs at once; what an earlier batch read is dropped
        (memory stays one batch)."""
        ids = [game.id for game in games]
        self._started = started_at_of(self.store, games)
        self._applied = applied_evenings_of(self.store, ids)
        self.preload_seats(())
        owners = {manual_source(str(game_id)): game_id for game_id in ids}
        self._manual = {game_id: [] for game_id in ids}
        for draw in stored_draws(self.store, sources=list(owners)):
            self._manual[owners[draw.source]].append(draw)

    def preload_seats(self, game_ids: Sequence[int]) -> None:
        """Read the seats of the batch's games that are owed a draw (their turn posts ping them)."""
        self._seats = self.store.seats_of(game_ids) if game_ids else {}
        self._members = {}  # read for the whole batch by the first post that pings

    def started(self, game: GameRecord | GameHead) -> dt.datetime:
        found = self._started.get(game.id)
        return found if found is not None else started_at(self.store, game)

    def applied(self, game_id: int) -> list[tuple[dt.date, int]]:
        found = self._applied.get(game_id)
        return found if found is not None else applied_evenings(self.store, game_id)

    def manual(self, game_id: int, since: dt.date) -> list[Draw]:
        """The game master's `/gm draw` entries for the game, from `since` on."""
        found = self._manual.get(game_id)
        if found is None:
            return stored_draws(self.store, source=manual_source(str(game_id)), since=since)
        return [draw for draw in found if draw.date >= since]

    def automatic(self, since: dt.date) -> list[Draw]:
        if since not in self._automatic:
            self._automatic[since] = stored_draws(self.store, source=self.source, since=since)
        return self._automatic[since]

    def seats(self, game_id: int) -> list[SeatRecord]:
        found = self._seats.get(game_id)
        return found if found is not None else self.store.seats(game_id)

    def muted(self, game_id: int) -> frozenset[int]:
        """The members seated in `game_id` who turned pings off everywhere: for a preloaded game,
        read once for every member of its batch."""
        return self._of_members("muted", game_id, lambda seats: muted_members(self.store, seats))

    def by_dm(self, game_id: int) -> frozenset[int]:
        """The members seated in `game_id` who take their pings by direct message, read as `muted`."""
        return self._of_members("by_dm", game_id,
                                lambda seats: self.store.dm_members({seat.user_id for seat in seats}))

    def _of_members(self, name: str, game_id: int,
                    read: Callable[[Iterable[SeatRecord]], frozenset[int]]) -> frozenset[int]:
        if game_id not in self._seats:
            return read(self.seats(game_id))
        if name not in self._members:
            self._members[name] = read([seat for seats in self._seats.values() for seat in seats])
        return self._members[name]


_APPLIERS: weakref.WeakKeyDictionary[GameService, DrawApplier] = weakref.WeakKeyDictionary()


def applier_for(service: GameService) -> DrawApplier:
    """The applier the running bot built for this service, else one with the FDJ calendar and no hooks
    (commands then return their turn posts in their own reply)."""
    applier = _APPLIERS.get(service)
    return applier if applier is not None else DrawApplier(service)
