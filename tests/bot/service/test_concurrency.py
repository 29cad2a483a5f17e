"""Optimistic concurrency through the service: a stale write is retried once, holding the game, so that
players ordering at the same moment wait their turn; a retry that still fails is reported."""

from __future__ import annotations

import threading

import pytest

from bot.service import Context, GameService

GUILD, CHANNEL = 10, 20
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ALICE = Context(user_id=2, user_name="alice", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)




@pytest.fixture
def svc(store):
    service = GameService(store)
    assert service.handle(GM, "tl new", {"name": "Race"}).ok
    assert service.handle(ALICE, "tl join", {"name": "Alice"}).ok
    assert service.handle(BOB, "tl join", {"name": "Bob"}).ok
    return service


def tallies(svc):
    return svc.store.game_in_channel(GUILD, CHANNEL).state["state"]["tallies"]


def interleave(svc, monkeypatch, times: int):
    """Make Bob's order land between Alice's read and her commit, `times` times."""
    real = svc.store.commit
    left = [times]
    inside = []

    def racing(*args, **kwargs):
        if left[0] > 0 and not inside:
            left[0] -= 1
            inside.append(True)
            assert svc.handle(BOB, "tl order", {"text": "add 1"}).ok
            inside.clear()
        return real(*args, **kwargs)

    monkeypatch.setattr(svc.store, "commit", racing)


def test_a_stale_write_is_retried_on_fresh_data(svc, monkeypatch):
    interleave(svc, monkeypatch, times=1)
    reply = svc.handle(ALICE, "tl order", {"text": "add 2"})
    assert reply.ok
    assert tallies(svc) == {"Alice": 2, "Bob": 1}
    log = svc.store.log(svc.store.game_in_channel(GUILD, CHANNEL).id)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))


def test_a_writer_racing_the_retry_waits_its_turn(svc, monkeypatch):
    """The retry holds the game (row lock / write lock) from its read to its commit: an order racing
    it from another thread waits, then lands after it, instead of making it fail."""
    real = svc.store.commit
    calls, racers = [0], []

    def bob() -> None:
        assert svc.handle(BOB, "tl order", {"text": "add 1"}).ok

    def racing(*args, **kwargs):
        if kwargs["entries"][0].actor != "Alice":
            return real(*args, **kwargs)
        calls[0] += 1
        if calls[0] == 1:  # Alice's first attempt: Bob gets there first
            bob_first = threading.Thread(target=bob)
            bob_first.start()
            bob_first.join()
        elif calls[0] == 2:  # Alice's retry, holding the game: Bob's next order must wait for it
            racers.append(threading.Thread(target=bob))
            racers[0].start()
            racers[0].join(timeout=0.3)
            assert racers[0].is_alive()  # still waiting for the game Alice holds
        return real(*args, **kwargs)

    monkeypatch.setattr(svc.store, "commit", racing)
    reply = svc.handle(ALICE, "tl order", {"text": "add 2"})
    assert reply.ok, reply.messages
    racers[0].join()
    assert tallies(svc) == {"Alice": 2, "Bob": 2}
    log = svc.store.log(svc.store.game_in_channel(GUILD, CHANNEL).id)
    assert [e.actor for e in log if e.kind == "order"] == ["Bob", "Alice", "Bob"]


def test_a_failed_retry_is_reported_and_nothing_is_half_applied(svc, monkeypatch):
    from bot.store import Conflict

    interleave(svc, monkeypatch, times=1)
    racing = svc.store.commit
    calls = [0]

    def failing_retry(*args, **kwargs):
        calls[0] += kwargs["entries"][0].actor == "Alice"
        if calls[0] == 2:  # Alice's retry: a unique key taken meanwhile
            raise Conflict(args[0], args[1], "seat taken")
        return racing(*args, **kwargs)

    monkeypatch.setattr(svc.store, "commit", failing_retry)
    reply = svc.handle(ALICE, "tl order", {"text": "add 2"})
    assert [m.key for m in reply.messages] == ["error.conflict"] and not reply.ok
    assert tallies(svc) == {"Alice": 0, "Bob": 1}
    log = svc.store.log(svc.store.game_in_channel(GUILD, CHANNEL).id)
    assert [e.actor for e in log if e.kind == "order"] == ["Bob"]


def test_threads_racing_never_lose_or_double_an_order(svc):
    """Two players hammering orders at once: every accepted order counts exactly once."""
    accepted = {"Alice": 0, "Bob": 0}
    lock = threading.Lock()

    def play(ctx, name):
        for _ in range(8):
            reply = svc.handle(ctx, "tl order", {"text": "add 1"})
            if reply.ok:
                with lock:
                    accepted[name] += 1
            else:
                assert [m.key for m in reply.messages] == ["error.conflict"]

    threads = [threading.Thread(target=play, args=(ALICE, "Alice")), threading.Thread(target=play, args=(BOB, "Bob"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert tallies(svc) == accepted
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    log = svc.store.log(game.id)
    assert len([e for e in log if e.kind == "order"]) == sum(accepted.values())
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert game.version == len(log)
