"""One poll of the draw source: fetch, store what is new, apply what games are owed, alert when a draw
never came.

Everything here is derived from the database on every call (stored draws, claims), so a poll can run
any number of times, in any number of processes, after any crash: the tables are the truth and the
claims make each effect happen once (PRODUCT.md, Scheduling).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from dataclasses import dataclass, field, replace

from bot.config import DrawSettings
from bot.lottery import lottery_kinds
from bot.lottery.apply import GAMES_PER_BATCH, DrawApplier, TurnPost
from bot.lottery.turn_post import draw_missing_alert
from bot.outbox import GM_ALERT, announce, post_of
from bot.store.draws import alert_claim_key, applied_evenings_of, save_draws, started_at_of, stored_draws
from bot.store.repo import GameRecord
from draws import Draw, DrawSchedule, DrawSourceError, FdjSource, FetchMemo, FileSource, FutureDrawError
from draws.sources import DrawSource

log = logging.getLogger("spacechess.draws")

#: How far back a poll looks for expected draws that never came (older gaps were alerted already).
LOOKBACK = dt.timedelta(days=7)


def schedule_from(settings: DrawSettings) -> DrawSchedule:
    return DrawSchedule(weekdays=settings.weekdays, time=settings.draw_time, timezone=settings.timezone)


def source_from(settings: DrawSettings) -> DrawSource | None:
    """The configured source; None for "manual" (game masters enter every draw with /gm draw)."""
    if settings.source == "fdj":
        return FdjSource(
            urls=settings.urls, timeout=settings.timeout_seconds, retries=settings.retries,
            max_bytes=settings.max_bytes, user_agent=settings.user_agent, deadline=settings.fetch_deadline_seconds,
        )
    if settings.source == "file":
        assert settings.file is not None  # load_settings refuses source = "file" without a file
        return FileSource(settings.file)
    return None


@dataclass(frozen=True)
class PollReport:
    new_draws: int = 0
    posts: list[TurnPost] = field(default_factory=list)
    error: DrawSourceError | None = None


class DrawPoller:
    """Polls for one process; several processes may poll the same database at once."""

    def __init__(self, applier: DrawApplier, source: DrawSource | None, *, give_up: dt.timedelta) -> None:
        self.applier = applier
        self.store = applier.store
        self.source = source
        self.give_up = give_up
        self.memo: FetchMemo | None = None  # per process: a restart costs one full download
        # The scheduler may start a retry while the regular poll runs: a poll never waits on another.
        self._fetching = threading.Lock()  # held by the poll whose fetch is in flight
        self._flags = threading.Lock()  # guards the two flags below
        self._applying = False  # a pass over the games is running
        self._again = False  # draws may have been stored during that pass: it takes one more

    def poll(self) -> PollReport:
        """Fetch (unless manual), store new draws, then apply every game's pending draws — even when the
        fetch failed or found nothing new, since another process or `draws import` may have stored some.

        A poll that finds a fetch in flight in this process does not fetch (nor wait for that one: a
        download can take up to its deadline) and goes on to the stored draws; one that finds a pass over
        the games running hands it over to that pass, which takes one more."""
        new, error = 0, None
        if self.source is not None:
            if self._fetching.acquire(blocking=False):
                try:
                    new, error = self._fetch(self.source)
                finally:
                    self._fetching.release()
            else:
                log.info("draw poll: a fetch is still in flight, only the stored draws are applied")
        posts = self._apply()
        log.info("draw poll: %d new draw(s), %d turn post(s), error=%s", new, len(posts), error and error.code)
        return PollReport(new, posts, error)

    def _fetch(self, source: DrawSource) -> tuple[int, DrawSourceError | None]:
        try:
            result = source.fetch(self.memo)
        except DrawSourceError as err:
            log.warning("draw source failed: %s", err)
            return 0, err
        new, error = self._store(result.draws or [], result.url)
        if error is None:
            self.memo = result.memo
        return new, error

    def _apply(self) -> list[TurnPost]:
        """Passes over every game's pending draws until no poll asked for one more meanwhile; nothing
        when another poll's pass is running (it takes one more pass for this one)."""
        with self._flags:
            if self._applying:
                self._again = True
                return []
            self._applying = True
        posts: list[TurnPost] = []
        try:
            while True:
                posts.extend(self._kept(post) for post in self.applier.apply_each())
                with self._flags:
                    if not self._again:
                        self._applying = False
                        return posts
                    self._again = False
        except BaseException:
            with self._flags:
                self._applying = False
            raise

    def _kept(self, post: TurnPost) -> TurnPost:
        """What the report keeps of a post the hooks already have: which game and draw, not the board
        image nor the game's snapshot, so a pass over thousands of games holds none of them."""
        if self.applier.hooks is None:
            return post
        return TurnPost(replace(post.game, state={}, setup={}), post.draw, replace(post.reply, files=()))

    def _store(self, fetched: list[Draw], url: str | None) -> tuple[int, DrawSourceError | None]:
        """Store a fetch's draws: an answer holding a draw dated after now (the service's clock, the
        bot's time everywhere else) is refused whole (its memo is not kept, so the next poll reads the
        source again); conflicts are reported."""
        try:
            report = save_draws(self.store, fetched, schedule=self.applier.schedule,
                                now=self.applier.service.clock())
        except FutureDrawError as err:
            log.error("draw source answered a draw from the future, nothing stored: %s", err)
            return 0, DrawSourceError("future_draw", url=url, detail=str(err))
        for conflict in report.conflicts:
            log.warning("draw source answered %s for %s, but %s is stored: the stored draw is kept",
                        conflict.offered.numbers, conflict.stored.key, conflict.stored.numbers)
        return report.new, None

    # -- expected draws -----------------------------------------------------------------------------
    def missing(self, now: dt.datetime) -> list[dt.datetime]:
        """Expected draws of the last LOOKBACK up to `now` whose evening has no stored draw, oldest first."""
        schedule = self.applier.schedule
        expected = schedule.between(now - LOOKBACK, now)
        if not expected:
            return []
        first = schedule.local_date(expected[0])
        have = {d.date for d in stored_draws(self.store, source=self.applier.source, since=first) if d.index == 1}
        return [moment for moment in expected if schedule.local_date(moment) not in have]

    def overdue(self, now: dt.datetime) -> list[dt.datetime]:
        return [moment for moment in self.missing(now) if moment + self.give_up <= now]

    def waiting(self, now: dt.datetime) -> list[dt.datetime]:
        return [moment for moment in self.missing(now) if moment + self.give_up > now]

    def alert_overdue(self, now: dt.datetime) -> list[tuple[GameRecord, dt.date]]:
        """Tell every game that should have had an overdue draw how to enter it by hand, once per game
        and evening (claimed), unless a game master already did: game by game, oldest evening first.

        Every tick runs this while an evening is overdue, and a restart too: the running games are read
        a page at a time without their documents, with when each started, the draws each got and the
        alerts already claimed read for the whole page in three statements — a tick costs a few
        statements a page, and reads whole and writes only the games whose alert is not sent yet."""
        overdue = [(moment, self.applier.schedule.local_date(moment)) for moment in self.overdue(now)]
        if not overdue:
            return []
        hooks = self.applier.hooks
        hours = int(self.give_up.total_seconds() // 3600)
        sent = []
        for heads in self.store.iter_game_heads(statuses=("running",), kinds=lottery_kinds(), batch=GAMES_PER_BATCH):
            started = started_at_of(self.store, heads)
            applied = applied_evenings_of(self.store, [head.id for head in heads])
            taken = self.store.claimed([alert_claim_key(head.id, day) for head in heads for _, day in overdue])
            owed = {head.id: [day for moment, day in overdue if alert_claim_key(head.id, day) not in taken
                              and started[head.id] < moment and all(date != day for date, _ in applied[head.id])]
                    for head in heads}
            for game in self.store.games_by_id([game_id for game_id, days in owed.items() if days]).values():
                for day in owed[game.id]:
                    key = alert_claim_key(game.id, day)
                    alert = [post_of(game, draw_missing_alert(game, day, hours), GM_ALERT)] if hooks else []
                    if not self.store.claim(key, game_id=game.id, outbox=alert):
                        continue
                    announce(self.store, hooks)
                    sent.append((game, day))
        return sent
