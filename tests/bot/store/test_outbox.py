"""The outbox (issue 13.8): posts written with the change that causes them (or not at all), and the
sender's rules — each channel in order, a failure put off with back-off or Discord's retry_after, a
refused post given up, a post cut by a crash resumed after its last recorded part."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from bot.i18n import Listing
from bot.outbox import (
    BACKOFF_FIRST,
    BOT_BURST,
    BOT_RATE_PER_SECOND,
    FINAL,
    Failure,
    OutboxSender,
    RateLimiter,
    decode_reply,
    encode_reply,
    flush,
    process_rate,
)
from bot.service.replies import Attachment, Message, Reply
from bot.store import GameRecord, NewEntry, StaleWrite, Store
from bot.store import outbox as rows
from bot.store.discord_state import clear_status_dirty, dirty_games, mark_status_dirty
from bot.store.outbox import NewPost

MakeGame = Callable[..., GameRecord]
REPLY = Reply((Message("turn.draw", {"date": "2024-03-06", "inner": Message("word.x", {"n": 1}),
                                      "names": Listing(("Ann", Message("word.y")), conjunction=True)}),),
              files=(Attachment("board.png", b"\x89PNG..."),), mentions=(7, 8))


def post(game: GameRecord, text: str = "hello", channel: int | None = None) -> NewPost:
    return NewPost(channel_id=channel or game.channel_id, kind="turn_post", game_id=game.id,
                   payload=encode_reply(Reply((Message(text),))))


def test_a_reply_survives_the_round_trip_through_json() -> None:
    assert decode_reply(encode_reply(REPLY)) == REPLY


def test_an_images_alt_text_survives_the_round_trip_and_an_older_row_without_one_still_reads() -> None:
    described = Reply((Message("turn.draw"),), files=(
        Attachment("board.png", b"\x89PNG...", Message("alt.image", {"game": Message("alt.game.spacechess"),
                                                                    "name": "Orion", "turn": 3})),))
    payload = encode_reply(described)
    assert decode_reply(payload) == described
    older = {**payload, "files": [{k: v for k, v in f.items() if k != "description"} for f in payload["files"]]}
    assert decode_reply(older).files == (Attachment("board.png", b"\x89PNG..."),)


def test_a_post_is_written_with_its_commit_and_never_without(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    store.commit(game.id, game.version, state={"turn": 1}, entries=[NewEntry("draw", None, None, {})],
                 outbox=[post(game)])
    [owed] = rows.unsent(store)
    assert owed.game_id == game.id and owed.channel_id == game.channel_id and owed.attempts == 0
    with pytest.raises(StaleWrite):  # a stale change writes neither itself nor its post
        store.commit(game.id, game.version, state={"turn": 9}, entries=[], outbox=[post(game, "lost")])
    assert [p.id for p in rows.unsent(store)] == [owed.id]
    assert store.get_game(game.id).state == {"turn": 1}


def test_posts_a_commit_owes_after_it_are_kept_or_lost_with_it(store: Store, make_game: MakeGame) -> None:
    """`owe_posts` writes in the held transaction of the commit (`locked_game`), owed by its version;
    the block failing loses the commit and the posts together, and outside a block it is refused."""
    game = make_game(store)
    with store.locked_game(game.id) as fresh:
        committed = store.commit(fresh.id, fresh.version, state={"turn": 1}, entries=[])
        store.owe_posts(committed, [post(game)])
    [owed] = rows.unsent(store)
    assert owed.owed_by == rows.commit_cause(committed.version)
    with pytest.raises(RuntimeError, match="crash"), store.locked_game(game.id) as fresh:
        store.owe_posts(store.commit(fresh.id, fresh.version, state={"turn": 2}, entries=[]), [post(game, "lost")])
        raise RuntimeError("crash")
    assert [p.id for p in rows.unsent(store)] == [owed.id] and store.get_game(game.id).state == {"turn": 1}
    with pytest.raises(RuntimeError, match="locked_game"):
        store.owe_posts(committed, [post(game)])


def test_a_claim_taken_twice_writes_its_post_once(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    assert store.claim("timer:1:reminder1:1", game_id=game.id, outbox=[post(game)])
    assert not store.claim("timer:1:reminder1:1", game_id=game.id, outbox=[post(game)])
    assert len(rows.unsent(store)) == 1


def test_flush_hands_each_post_to_the_hooks_once(sqlite_store: Store, make_game: MakeGame) -> None:
    game = make_game(sqlite_store)
    rows.enqueue(sqlite_store, [post(game, "a"), post(game, "b")])
    seen: list[str] = []

    class Hooks:
        def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
            seen.append(reply.messages[0].key)

        def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
            raise AssertionError("no alert")

    assert flush(sqlite_store, Hooks()) == 2 and flush(sqlite_store, Hooks()) == 0
    assert seen == ["a", "b"]


def test_the_status_mark_is_kept_until_a_refresh_after_it(sqlite_store: Store, make_game: MakeGame) -> None:
    game = make_game(sqlite_store)
    first = mark_status_dirty(sqlite_store, game.id)
    later = mark_status_dirty(sqlite_store, game.id)
    assert not clear_status_dirty(sqlite_store, game.id, first), "a refresh older than the last change"
    assert dirty_games(sqlite_store) == {game.id: later}
    assert clear_status_dirty(sqlite_store, game.id, later) and dirty_games(sqlite_store) == {}


class FakeChannels:
    """Discord for the sender: message ids, failures to raise, and what each channel got in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str, str]] = []  # channel, text, nonce
        self.failing: dict[int, Exception] = {}  # channel -> its next send's failure
        self.ids = iter(range(1000, 2000))
        self.crash_at: int | None = None

    async def render(self, record: rows.OutboxRecord) -> list[str]:
        return [m.key for m in decode_reply(record.payload).messages] * record.payload.get("parts", 1)

    async def send_part(self, record: rows.OutboxRecord, index: int, part: str) -> int:
        if record.channel_id in self.failing:
            raise self.failing.pop(record.channel_id)
        if index == self.crash_at:
            raise asyncio.CancelledError  # not an Exception: nothing is recorded, as when the process dies
        assert record.channel_id is not None
        self.sent.append((record.channel_id, part, record.nonce(index)))
        return next(self.ids)


class Refused(Exception):
    pass


class Limited(Exception):
    pass


def classify(err: Exception) -> Failure:
    return {Refused: Failure(FINAL), Limited: Failure(retry_after=42.0)}.get(type(err), Failure())


def sender(store: Store, channels: FakeChannels, now: list[dt.datetime]) -> OutboxSender[Any]:
    return OutboxSender(store, render=channels.render, send_part=channels.send_part, classify=classify,
                        limiter=RateLimiter(1000.0), clock=lambda: now[0])


def test_each_channel_keeps_its_order_and_a_failure_waits_its_back_off(sqlite_store: Store,
                                                                     make_game: MakeGame) -> None:
    game = make_game(sqlite_store)
    rows.enqueue(sqlite_store, [post(game, "a1", 1), post(game, "b1", 2), post(game, "a2", 1)])
    channels, now = FakeChannels(), [dt.datetime.now(dt.UTC)]
    channels.failing = {1: OSError("network")}  # channel 1's first send fails (channels go side by side)
    delay = asyncio.run(sender(sqlite_store, channels, now).drain())
    # channel 1's head failed: its next post waits behind it; channel 2 went on
    assert [(c, t) for c, t, _ in channels.sent] == [(2, "b1")]
    assert delay == pytest.approx(BACKOFF_FIRST, abs=0.5)
    [head, _] = rows.unsent(sqlite_store)
    assert head.attempts == 1 and head.last_error and "network" in head.last_error
    now[0] += dt.timedelta(seconds=BACKOFF_FIRST)
    assert asyncio.run(sender(sqlite_store, channels, now).drain()) is None
    assert [t for c, t, _ in channels.sent if c == 1] == ["a1", "a2"]
    assert rows.unsent(sqlite_store) == []


def test_discords_retry_after_and_a_refusal(sqlite_store: Store, make_game: MakeGame) -> None:
    game = make_game(sqlite_store)
    rows.enqueue(sqlite_store, [post(game, "limited", 1), post(game, "refused", 2)])
    channels, now = FakeChannels(), [dt.datetime.now(dt.UTC)]
    channels.failing = {1: Limited(), 2: Refused()}
    delay = asyncio.run(sender(sqlite_store, channels, now).drain())
    assert delay == pytest.approx(42.0, abs=0.5), "never sooner than Discord's retry_after"
    [limited] = rows.unsent(sqlite_store)  # the refused one is given up, not retried forever
    assert limited.channel_id == 1
    assert rows.get_post(sqlite_store, limited.id + 1).last_error.startswith("gave up")


def test_a_post_cut_after_some_parts_resumes_after_them_with_the_same_nonces(sqlite_store: Store,
                                                                            make_game: MakeGame) -> None:
    game = make_game(sqlite_store)
    long = NewPost(channel_id=1, kind="turn_post", game_id=game.id,
                   payload={**encode_reply(Reply((Message("part"),))), "parts": 3})
    rows.enqueue(sqlite_store, [long])
    channels, now = FakeChannels(), [dt.datetime.now(dt.UTC)]
    channels.crash_at = 2  # the process dies as it sends the third part

    async def two_parts_then_crash() -> None:
        [head] = rows.heads(sqlite_store)
        with pytest.raises(asyncio.CancelledError):
            await sender(sqlite_store, channels, now).send(head)

    asyncio.run(two_parts_then_crash())
    channels.crash_at = None
    [cut] = rows.unsent(sqlite_store)
    assert cut.message_ids == [1000, 1001]
    now[0] += dt.timedelta(minutes=1)  # the dead process's lease is over
    asyncio.run(sender(sqlite_store, channels, now).drain())
    assert [nonce for _, _, nonce in channels.sent] == [cut.nonce(0), cut.nonce(1), cut.nonce(2)]
    assert all(len(nonce) <= 25 for _, _, nonce in channels.sent)
    sent = rows.get_post(sqlite_store, cut.id)
    assert sent.message_ids == [1000, 1001, 1002] and sent.sent_at is not None and "files" not in sent.payload


def test_the_limiter_keeps_to_its_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    limiter = RateLimiter(10.0, burst=1, clock=lambda: clock[0])
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)
        clock[0] += seconds
        await real_sleep(0)

    async def run() -> None:
        for _ in range(5):
            await limiter.acquire()

    monkeypatch.setattr("bot.outbox.asyncio.sleep", fake_sleep)
    asyncio.run(run())
    assert clock[0] == pytest.approx(0.4), "5 sends at 10/s with a burst of 1 take 0.4 s"
    assert len(waits) == 4


def test_the_bots_limiter_leaves_discord_room_in_any_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord refuses a bot's 51st request of a second (and discord.py then holds every request for
    the retry_after): the bot's rate and its burst together, a full bucket spent at once then the rate,
    stay a few requests under 50 in any second, room for the sends that arrive late (a busy loop)."""
    clock = [0.0]
    limiter = RateLimiter(BOT_RATE_PER_SECOND, burst=BOT_BURST, clock=lambda: clock[0])
    granted: list[float] = []
    real_sleep = asyncio.sleep

    async def fake_sleep(seconds: float) -> None:
        clock[0] += seconds
        await real_sleep(0)

    async def run() -> None:
        while clock[0] < 3.0:
            await limiter.acquire()
            granted.append(clock[0])

    monkeypatch.setattr("bot.outbox.asyncio.sleep", fake_sleep)
    asyncio.run(run())
    busiest = max(sum(1 for at in granted if start <= at < start + 1.0) for start in granted)
    assert busiest <= 48, f"{busiest} requests in one second"


def test_an_idle_sender_finds_posts_another_process_wrote_without_waking_it(
    sqlite_store: Store, make_game: MakeGame, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Processes share one outbox: a post written (then orphaned) by another process, whose wake-up
    never reaches this one, is still sent by this idle sender within its idle look."""
    import bot.outbox

    monkeypatch.setattr(bot.outbox, "IDLE_LOOK_SECONDS", 0.05)
    game = make_game(sqlite_store)
    channels, now = FakeChannels(), [dt.datetime.now(dt.UTC)]

    async def run() -> None:
        idle = sender(sqlite_store, channels, now)
        idle.start()
        await asyncio.sleep(0.1)  # the outbox is empty: the sender is idle
        await asyncio.to_thread(rows.enqueue, sqlite_store, [post(game, "from elsewhere", 1)])
        now[0] = dt.datetime.now(dt.UTC)  # the sender's clock: the post is due
        for _ in range(100):
            if channels.sent:
                break
            await asyncio.sleep(0.02)
        await idle.close()

    asyncio.run(run())
    assert [(c, t) for c, t, _ in channels.sent] == [(1, "from elsewhere")]


def test_each_process_sends_at_its_shards_share_of_the_bots_rate() -> None:
    """Discord counts a bot's requests over all its processes: three processes of one shard each
    together stay at the bot's rate."""
    assert process_rate(0, []) == BOT_RATE_PER_SECOND
    assert process_rate(3, [0, 1, 2]) == BOT_RATE_PER_SECOND
    assert sum(process_rate(3, [shard]) for shard in range(3)) == pytest.approx(BOT_RATE_PER_SECOND)
    assert process_rate(4, [0, 1]) == BOT_RATE_PER_SECOND / 2


class SlowChannels(FakeChannels):
    """Channel 1 answers only when the test lets it (a long `retry_after` slept inside a send)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def send_part(self, record: rows.OutboxRecord, index: int, part: str) -> int:
        if record.channel_id == 1:
            await self.release.wait()
        return await super().send_part(record, index, part)


def test_a_slow_channel_never_holds_another_back(sqlite_store: Store, make_game: MakeGame) -> None:
    """Channel 1's send hangs: channel 2's posts all go out meanwhile, one written after the pass
    started too (it wakes the sender), and channel 1's follow in order once it answers."""
    game = make_game(sqlite_store)
    rows.enqueue(sqlite_store, [post(game, "a1", 1), post(game, "b1", 2), post(game, "a2", 1), post(game, "b2", 2)])
    channels, now = SlowChannels(), [dt.datetime.now(dt.UTC)]
    outbox = sender(sqlite_store, channels, now)

    async def scenario() -> None:
        drained = asyncio.create_task(outbox.drain())
        async with asyncio.timeout(5):
            while [t for c, t, _ in channels.sent] != ["b1", "b2"]:
                await asyncio.sleep(0.01)
            rows.enqueue(sqlite_store, [post(game, "c1", 3)])
            now[0] = dt.datetime.now(dt.UTC)  # it is due: written before this moment of the sender's clock
            outbox.wake()
            while len(channels.sent) < 3:
                await asyncio.sleep(0.01)
        assert not drained.done() and channels.sent[2][:2] == (3, "c1"), "channel 3 did not wait for channel 1"
        channels.release.set()
        await drained

    asyncio.run(scenario())
    assert [t for c, t, _ in channels.sent if c == 1] == ["a1", "a2"]
    assert rows.unsent(sqlite_store) == []
