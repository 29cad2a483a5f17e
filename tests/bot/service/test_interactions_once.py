"""Every interaction acts at most once (issue 25, point 4): a change claims the interaction that gave
it, so the same interaction delivered again is answered "already done" and changes nothing; and a
commit the database answered with an error as it went away is recognised, by that claim, as done."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy.exc import OperationalError

from bot.service import Context, GameService
from tests.support.clock import Clock

GUILD, CHANNEL = 10, 80
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, interaction_id=501)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL, interaction_id=502)


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 3, clock=Clock())
    assert service.handle(GM, "tl new", {"name": "Tally"}).ok
    return service


def entries(svc: GameService) -> list[tuple[str, str | None]]:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    return [(e.kind, e.actor) for e in svc.store.log(game.id)]


def test_the_same_interaction_delivered_again_acts_once(svc: GameService) -> None:
    assert svc.handle(ANN, "tl join", {"name": "Ann"}).ok
    before = entries(svc)
    again = svc.handle(ANN, "tl join", {"name": "Ann"})
    assert [m.key for m in again.messages] == ["error.already_done"]
    assert entries(svc) == before
    # a new interaction of the same member is a new command: it runs (and is refused on its merits)
    other = svc.handle(dataclasses.replace(ANN, interaction_id=503), "tl join", {"name": "Ann"})
    assert [m.key for m in other.messages] != ["error.already_done"]


def test_without_an_interaction_id_nothing_is_claimed(svc: GameService) -> None:
    console = dataclasses.replace(ANN, interaction_id=None)
    assert svc.handle(console, "tl join", {"name": "Ann"}).ok
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert not svc.store.claim_taken("interaction:None")
    assert entries(svc)[-1] == ("join", "Ann") and game is not None


def test_a_commit_answered_with_an_error_as_the_database_went_away_is_known_done(
        svc: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    real, read = svc.store.commit, svc.store.get_game
    gone = OperationalError("COMMIT", {}, ConnectionError("server closed the connection unexpectedly"))
    dead: list[bool] = []

    def commit_then_lose_the_answer(*args, **kwargs):
        real(*args, **kwargs)
        dead.append(True)  # the request's connection went with the database: nothing more through it
        raise gone

    def read_through_the_request(game_id):
        if dead:
            raise gone
        return read(game_id)

    monkeypatch.setattr(svc.store, "commit", commit_then_lose_the_answer)
    monkeypatch.setattr(svc.store, "get_game", read_through_the_request)
    reply = svc.handle(ANN, "tl join", {"name": "Ann"})
    assert reply.ok, reply.messages  # it was done: the member is told so, not "unexpected error"
    monkeypatch.setattr(svc.store, "commit", real)
    monkeypatch.setattr(svc.store, "get_game", read)
    assert entries(svc).count(("join", "Ann")) == 1
    assert [m.key for m in svc.handle(ANN, "tl join", {"name": "Ann"}).messages] == ["error.already_done"]


def test_a_commit_that_failed_for_good_is_no_success(svc: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    def lost(*args, **kwargs):
        raise OperationalError("COMMIT", {}, ConnectionError("server closed the connection unexpectedly"))

    monkeypatch.setattr(svc.store, "commit", lost)
    with pytest.raises(OperationalError):
        svc.handle(ANN, "tl join", {"name": "Ann"})
    assert ("join", "Ann") not in entries(svc)


def test_a_commit_whose_answer_was_lost_waits_for_the_restarting_database_to_tell(
        svc: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database went away as it answered the commit and is not back yet: whether it committed is
    asked again until it is (a restart takes seconds), rather than answered "nothing was changed"."""
    real, connect = svc.store.commit, svc.store.engine.connect
    gone = OperationalError("COMMIT", {}, ConnectionError("connection refused"))
    refusals = [3]  # the server refuses connections three more times, then it is back

    def restarting(*args, **kwargs):
        if refusals[0]:
            refusals[0] -= 1
            raise gone
        return connect(*args, **kwargs)

    def commit_then_lose_the_answer(*args, **kwargs):
        real(*args, **kwargs)
        monkeypatch.setattr(svc.store.engine, "connect", restarting)
        raise gone

    monkeypatch.setattr("bot.store.repo.UNREACHABLE_FIRST_WAIT", 0.001)
    monkeypatch.setattr(svc.store, "commit", commit_then_lose_the_answer)
    reply = svc.handle(ANN, "tl join", {"name": "Ann"})
    assert reply.ok, reply.messages
    assert refusals == [0]
    monkeypatch.setattr(svc.store, "commit", real)
    assert entries(svc).count(("join", "Ann")) == 1
