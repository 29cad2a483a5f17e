"""Reads that scale with the games go a page at a time (issue 28, point 3): a draw tick while an
evening is overdue (at start, and at every tick until the draw comes) and the status resume after a
restart cost a few statements a page of games, not a few a game — counted in SQL statements, never
timed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy import event

from bot.discord_adapter.status import StatusBoard
from bot.lottery import apply
from bot.lottery.scheduler import DrawScheduler
from bot.outbox import RateLimiter
from bot.service import GameService
from bot.store import GameRecord, NewEntry, Store
from bot.store.discord_state import keep_status_message
from bot.store.draws import alert_claim_key, save_draws
from tests.bot.draws.games import GUILD, RecordingHooks, draw, make_running_game
from tests.bot.draws.test_poll_and_scheduler import RETRY, WEDNESDAY_DRAW, poller

GAMES = 50
#: the draw of Wednesday 2024-03-06 never came; the give-up time (6 h) is past
LATE = WEDNESDAY_DRAW + dt.timedelta(hours=7)


@contextmanager
def counted(store: Store) -> Iterator[list[str]]:
    """Every SQL statement the store sends while the block runs."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    event.listen(store.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", record)


def writes(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]


@pytest.fixture
def games(sqlite_store: Store) -> list[GameRecord]:
    """`GAMES` running Space Chess games that got Monday's draw and wait for Wednesday's."""
    made = [make_running_game(sqlite_store, channel, per_team=2, seats=False) for channel in range(1, GAMES + 1)]
    save_draws(sqlite_store, [draw("2024-03-04")])
    poller(sqlite_store).poll()
    return made


class WakingHooks(RecordingHooks):
    """The adapter's way: posts written to the outbox wake its sender (nothing read here)."""

    woken = 0

    def outbox_ready(self) -> None:
        self.woken += 1


def tick(store: Store, hooks: RecordingHooks) -> None:
    """One tick of a freshly started process's draw scheduler (what a restart runs at once)."""
    DrawScheduler(poller(store, hooks=hooks), retry=RETRY, scheduler=AsyncIOScheduler(timezone=dt.UTC),
                  clock=lambda: LATE).tick()


@pytest.mark.parametrize("page", [apply.GAMES_PER_BATCH, 20])
def test_a_draw_tick_over_every_game_reads_them_a_page_at_a_time(sqlite_store: Store, games: list[GameRecord],
                                                                  page: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apply, "GAMES_PER_BATCH", page)
    monkeypatch.setattr("bot.lottery.poll.GAMES_PER_BATCH", page)
    pages = -(-GAMES // page)
    hooks = WakingHooks()
    with counted(sqlite_store) as first:
        tick(sqlite_store, hooks)
    keys = {alert_claim_key(game.id, dt.date(2024, 3, 6)) for game in games}
    assert hooks.woken == GAMES and sqlite_store.claimed(keys) == keys, "every game alerted once"
    reads = [s for s in first if s not in writes(first) and not s.startswith("BEGIN")]
    # the stored draws, then a page of games and its facts for the draw pass and for the alerts: a few
    # statements a page where a read per game would be two a game (100 here) — each alert's claim aside
    assert len(reads) <= 4 + 9 * pages, reads
    with counted(sqlite_store) as again:
        tick(sqlite_store, hooks)  # the next tick, the draw still missing: nothing new to write
    assert hooks.woken == GAMES, "no alert twice"
    assert writes(again) == []
    assert len(again) <= 4 + 9 * pages, again
    assert not [s for s in again if "games.state" in s], "a tick that owes nothing reads no game's documents"


def test_the_status_resume_reads_the_games_without_a_message_a_page_at_a_time(sqlite_store: Store) -> None:
    """Of the games under way in this process's servers, those with no status message yet — in one
    statement a page, whether 3 or 50 games are stored."""
    def owed(store: Store, held: set[int]) -> tuple[set[int], list[str]]:
        board = StatusBoard(SimpleNamespace(guilds=[]), GameService(store), 1.0, RateLimiter(45.0))  # type: ignore[arg-type]
        with counted(store) as sent:
            found = board._unposted(held)
        return found, sent

    made = [make_running_game(sqlite_store, channel, per_team=2, seats=False) for channel in range(1, GAMES + 1)]
    elsewhere = make_running_game(sqlite_store, 900, per_team=2, seats=False, guild_id=GUILD + 1)
    posted, finished, paused = made[:10], made[10], made[11]
    for game in posted:
        keep_status_message(sqlite_store, game.id, game.channel_id or 0, 10_000 + game.id, dt.datetime.now(dt.UTC))
    sqlite_store.commit(finished.id, finished.version, state=finished.state, status="finished", entries=[])
    sqlite_store.commit(paused.id, paused.version, state=paused.state, status="paused",
                        entries=[NewEntry("pause", None, 1, {})])
    found, sent = owed(sqlite_store, {GUILD})
    assert found == {game.id for game in made[11:]}, "posted, finished and other servers' games left out"
    assert len(sent) == 1, sent
    assert owed(sqlite_store, {GUILD, GUILD + 1})[0] == found | {elsewhere.id}
    found, sent = owed(sqlite_store, set())
    assert found == set() and len(sent) == 1
