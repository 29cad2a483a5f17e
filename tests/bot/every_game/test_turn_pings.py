"""Your turn (issue 26, point 1): after each change the members the game now waits on are pinged,
once per turn handed over, in a channel post written with the change that handed it (a new
message: Discord notifies no mention in an edited reply) — never a computer, never a member who
muted pings, nobody when the server's `pings` setting is ``none``.

On the test games: the duel's move clock (alternating: the next player), the sealed bids' deadline
(simultaneous: a wait no reminder fits in is told at its start; one with reminders is left to them).
"""

from __future__ import annotations

import pytest

from bot.drivers import timer_handlers
from bot.outbox import flush
from bot.service import Context, GameService, Reply
from bot.store.repo import GameRecord, SeatRecord
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from tests.support.clock import Clock
from tests.support.computers import fire_computers

GUILD, CHANNEL = 10, 81
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)
YOUR_TURN = "turn.your_turn"


class Hooks:
    def __init__(self) -> None:
        self.posts: list[Reply] = []

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.posts.append(reply)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self.posts.append(reply)


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def told(svc: GameService, reply: Reply | None = None) -> list[str]:
    """The turn lines the channel got since the last look — in posts, each as the members it
    names; the pings of each post are those it names — and none in the command's own `reply`."""
    assert reply is None or YOUR_TURN not in keys(reply)
    hooks = Hooks()
    flush(svc.store, hooks)
    lines = []
    for post in hooks.posts:
        named = [str(m.params["users"]) for m in post.messages if m.key == YOUR_TURN]
        if named:
            assert len(named) == 1 and " ".join(f"<@{u}>" for u in post.mentions) == named[0], post
        lines += named
    return lines


def game(svc: GameService) -> GameRecord:
    return svc.store.game_in_channel(GUILD, CHANNEL)


def mute(svc: GameService, user: Context) -> None:
    """The member's stored choice (`mute_pings`), as an import or a future setting writes it."""
    current = game(svc)
    seat = svc.store.seat_of_user(current.id, user.user_id)
    svc.store.commit(current.id, current.version, state=current.state, entries=[],
                     seats_set=[SeatRecord(current.id, user.user_id, seat.actor, True)])


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 3, clock=Clock())


def duel(svc: GameService) -> list[str]:
    """A duel, Ann to move first; the turn lines its start posted."""
    assert svc.handle(GM, "td new", {"name": "Duel", "clock_hours": 10}).ok
    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    started = svc.handle(BOB, "td join", {"name": "Bob"})
    assert started.ok and game(svc).status == "running"
    return told(svc, started)


# -- alternating (the move clock) ----------------------------------------------------------------
def test_each_move_pings_the_next_player_once(svc: GameService) -> None:
    started = duel(svc)
    assert started == [f"<@{ANN.user_id}>"]
    for mover, nxt in ((ANN, BOB), (BOB, ANN), (ANN, BOB)):
        reply = svc.handle(mover, "td order", {"text": "add 1"})
        assert keys(reply) == ["event.duel.added"] and reply.mentions == ()  # the move, in its reply
        assert told(svc, reply) == [f"<@{nxt.user_id}>"] and reply.mentions == ()


def test_a_refused_move_or_a_look_pings_nobody(svc: GameService) -> None:
    duel(svc)
    refused = svc.handle(BOB, "td order", {"text": "add 1"})  # Ann's move
    assert not refused.ok and refused.mentions == () and told(svc, refused) == []
    looked = svc.handle(BOB, "game status", {})
    assert looked.mentions == () and told(svc, looked) == []


def test_a_muted_member_is_never_pinged_and_the_other_still_is(svc: GameService) -> None:
    duel(svc)
    mute(svc, BOB)
    to_bob = svc.handle(ANN, "td order", {"text": "add 1"})
    assert told(svc, to_bob) == [] and to_bob.mentions == ()
    to_ann = svc.handle(BOB, "td order", {"text": "add 1"})
    assert told(svc, to_ann) == [f"<@{ANN.user_id}>"] and to_ann.mentions == ()


def test_a_server_that_pings_nobody_gets_no_turn_ping(svc: GameService) -> None:
    assert svc.handle(GM, "gm settings", {"pings": "none"}).ok
    started = duel(svc)
    moved = svc.handle(ANN, "td order", {"text": "add 1"})
    assert started == told(svc, moved) == [] and moved.mentions == ()


def test_against_a_computer_only_the_human_is_pinged_once_per_turn_handed_back(svc: GameService) -> None:
    assert svc.handle(GM, "td new", {"name": "Duel", "clock_hours": 10}).ok
    assert svc.handle(GM, "td challenge", {"level": "easy"}).ok  # the computer moves first
    joined = svc.handle(ANN, "td join", {"name": "Ann"})
    assert told(svc, joined) == [] and joined.mentions == ()  # the computer is to move: nobody is told
    fire_computers(svc)
    # the computer played its opening move after the answer, and handed Ann the turn: told once
    assert told(svc) == [f"<@{ANN.user_id}>"]
    while game(svc).status == "running":
        reply = svc.handle(ANN, "td order", {"text": "add 1"})
        assert reply.ok and told(svc, reply) == []
        fire_computers(svc)
        if game(svc).status == "running":  # the computer answered: the turn is Ann's again
            assert told(svc) == [f"<@{ANN.user_id}>"]
        else:
            assert told(svc) == []
    # nobody but Ann was ever named: the computer holds no seat
    assert {s.user_id for s in svc.store.seats(game(svc).id)} == {ANN.user_id}


def test_a_pause_pings_nobody_and_the_resume_tells_the_player_to_move(svc: GameService) -> None:
    duel(svc)
    paused = svc.handle(GM, "gm pause", {})
    assert told(svc, paused) == [] and paused.mentions == ()
    resumed = svc.handle(GM, "gm resume", {})
    assert told(svc, resumed) == [f"<@{ANN.user_id}>"]


def test_a_win_pings_the_winner_and_tells_no_one_it_is_their_turn(svc: GameService) -> None:
    duel(svc)
    movers = [ANN, BOB]
    while game(svc).status == "running":
        last = svc.handle(movers[0], "td order", {"text": "add 5"})
        pinged = told(svc, last)
        movers.reverse()
        assert last.ok and pinged == ([] if game(svc).status == "finished" else [f"<@{movers[0].user_id}>"])
    assert "game.over.winners" in keys(last)


# -- simultaneous (the deadline) -----------------------------------------------------------------
def sealed(svc: GameService, **options) -> Reply:
    assert svc.handle(GM, "ts new", {"name": "Bids", **options}).ok
    assert svc.handle(ANN, "ts join", {"name": "Ann"}).ok
    return svc.handle(BOB, "ts join", {"name": "Bob"})


def test_with_reminders_a_new_turn_is_left_to_them(svc: GameService) -> None:
    """The reminders before the deadline ping those not ready (tests/bot/every_game/test_turn_drivers.py)."""
    sealed(svc, turn_hours=24, reminders="6")
    svc.handle(ANN, "ts ready", {})
    resolved = svc.handle(BOB, "ts ready", {})
    assert "event.sealed.resolved" in keys(resolved) and told(svc, resolved) == [] and resolved.mentions == ()


def test_a_turn_too_short_for_its_reminders_is_told_at_its_start_once(svc: GameService) -> None:
    sealed(svc, turn_hours=1)  # the default reminder, 2 h before, does not fit
    assert not [t for t in game_timers(svc.store, game(svc).id) if t.kind.startswith("reminder")]
    ready = svc.handle(ANN, "ts ready", {})
    assert told(svc, ready) == [] and ready.mentions == ()  # a seat ready is no new turn
    resolved = svc.handle(BOB, "ts ready", {})
    assert "event.sealed.resolved" in keys(resolved)  # the next turn opens: both are told, once
    assert told(svc, resolved) == [f"<@{ANN.user_id}> <@{BOB.user_id}>"]
    assert resolved.mentions == ()
    mute(svc, ANN)
    svc.handle(ANN, "ts ready", {})
    resolved = svc.handle(BOB, "ts ready", {})
    assert told(svc, resolved) == [f"<@{BOB.user_id}>"] and resolved.mentions == ()


def test_a_turn_resolved_at_its_deadline_posts_its_ping_once(svc: GameService) -> None:
    sealed(svc, turn_hours=1)
    hooks = Hooks()
    due = next(t for t in game_timers(svc.store, game(svc).id) if t.kind == "deadline").due_at
    svc.clock.now = due  # type: ignore[attr-defined]
    runner = TimerRunner(svc.store, timer_handlers(svc, hooks), clock=svc.clock)
    assert "deadline" in [t.kind for t in runner.run_due(due)]
    runner.run_due(due)
    [post] = hooks.posts  # the resolution's own post tells the next turn: one message, one ping each
    assert "event.sealed.resolved" in keys(post) and keys(post).count(YOUR_TURN) == 1
    assert post.messages[-1].params["users"] == f"<@{ANN.user_id}> <@{BOB.user_id}>"
    assert post.mentions == (ANN.user_id, BOB.user_id) and told(svc) == []


def test_reminders_follow_the_servers_setting(svc: GameService) -> None:
    assert svc.handle(GM, "gm settings", {"pings": "none"}).ok
    sealed(svc, turn_hours=24, reminders="6")
    hooks = Hooks()
    reminder = next(t for t in game_timers(svc.store, game(svc).id) if t.kind == "reminder1")
    svc.clock.now = reminder.due_at  # type: ignore[attr-defined]
    TimerRunner(svc.store, timer_handlers(svc, hooks), clock=svc.clock).run_due(reminder.due_at)
    assert hooks.posts == []


def test_an_undo_tells_the_player_to_move_again(svc: GameService) -> None:
    duel(svc)
    assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
    assert told(svc) == [f"<@{BOB.user_id}>"]
    ask = svc.handle(GM, "gm undo", {})
    undone = svc.handle(GM, "gm undo", dict(ask.buttons[0].options))
    assert keys(undone)[0] == "gm.undo.done"
    assert told(svc, undone) == [f"<@{ANN.user_id}>"] and undone.mentions == ()
