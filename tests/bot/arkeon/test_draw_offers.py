"""Draw offers through the shared `/game offer-draw|accept-draw|decline-draw` commands, on Arkeon:
the opponent pinged, the offer in the status message until answered, refusals that change nothing,
a move that declines it, an accepted offer ending the game drawn; a computer answers by its
evaluation. Both engines keep the offer in their state (JSON round trip)."""

from __future__ import annotations

import pytest

from bot.games.arkeon.computer import evaluate
from bot.i18n import translate
from bot.service import Context, GameService, Reply
from bot.service.status import status_messages
from bot.store.timers import game_timers
from engine import registry
from tests.bot.arkeon.test_play import ANN, BOB, CHANNEL, GM, GUILD, keys, mover
from tests.support.computers import computers_play, post_keys

RULES = registry.get("arkeon")


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 1)
    assert service.handle(GM, "ak new", {"name": "Duel", "clock_hours": 24}).ok
    return service


def game(svc: GameService):
    return svc.store.game_in_channel(GUILD, CHANNEL)


def refused(svc: GameService, ctx: Context, path: str, key: str) -> Reply:
    """A refusal with `key` that leaves the game exactly as it was."""
    before = game(svc)
    reply = svc.handle(ctx, path, {})
    assert not reply.ok and keys(reply) == [key], reply.messages
    after = game(svc)
    assert (after.version, after.state, after.status) == (before.version, before.state, before.status)
    return reply


def status_text(svc: GameService) -> str:
    return "\n".join(translate(m.key, "en", m.params) for m in status_messages(svc, game(svc)))


def test_an_offer_pings_the_opponent_shows_in_the_status_and_is_declined_or_accepted(svc: GameService) -> None:
    refused(svc, ANN, "game offer-draw", "error.not_a_player")
    svc.handle(ANN, "ak join", {"name": "Ann"})
    svc.handle(BOB, "ak join", {"name": "Bob"})
    refused(svc, ANN, "game offer-draw", "error.not_allowed.not_started")  # the lobby: nothing to draw
    svc.handle(GM, "gm start", {})
    refused(svc, ANN, "game accept-draw", "error.no_draw_offer")

    offered = svc.handle(ANN, "game offer-draw", {})
    assert offered.ok and keys(offered) == ["event.arkeon.draw_offered", "game.draw_offer.ping"]
    assert offered.mentions == (BOB.user_id,) and f"<@{BOB.user_id}>" in offered.messages[1].params["users"]
    assert "offers a draw, waiting for an answer" in status_text(svc) and "**Ann**" in status_text(svc)
    refused(svc, ANN, "game offer-draw", "error.draw_already_offered")
    refused(svc, BOB, "game offer-draw", "error.draw_offer_pending")
    refused(svc, ANN, "game accept-draw", "error.own_draw_offer")
    refused(svc, ANN, "game decline-draw", "error.own_draw_offer")
    # the answer is a click away, for the member asked only (issue 26 point 5)
    assert [(b.command, b.shown_to) for b in offered.buttons] == [("game accept-draw", BOB.user_id),
                                                                   ("game decline-draw", BOB.user_id)]
    assert translate(offered.buttons[0].label.key, "fr") == "Accepter la nulle"
    clicked_by_ann = svc.handle(ANN, "game decline-draw", {}, shown_to=BOB.user_id)
    assert keys(clicked_by_ann) == ["error.not_your_component"] and "offers a draw" in status_text(svc)

    declined = svc.handle(BOB, "game decline-draw", dict(offered.buttons[1].options), shown_to=BOB.user_id)
    assert keys(declined) == ["event.arkeon.draw_declined"] and game(svc).status == "running"
    assert "offers a draw" not in status_text(svc)

    assert svc.handle(BOB, "game offer-draw", {}).ok
    drawn = svc.handle(ANN, "game accept-draw", {})
    assert keys(drawn)[0] == "event.arkeon.game_over" and drawn.messages[0].params["reason"] == "agreed"
    over = game(svc)
    assert over.status == "finished" and RULES.result(RULES.from_json(over.state)).is_draw
    assert [t for t in game_timers(svc.store, over.id) if t.kind.startswith("clock")] == []  # the clock stopped
    refused(svc, BOB, "game offer-draw", "error.game_over")


def test_moving_instead_of_answering_declines_the_offer(svc: GameService) -> None:
    svc.handle(ANN, "ak join", {"name": "Ann"})
    svc.handle(BOB, "ak join", {"name": "Bob"})
    svc.handle(GM, "gm start", {})
    first = mover(svc)
    other = BOB if first is ANN else ANN
    assert svc.handle(other, "game offer-draw", {}).ok
    moved = svc.handle(first, "ak order", {"text": svc.complete(first, "ak order", "text", "")[0]})
    assert moved.ok and "event.arkeon.draw_offer_lapsed" in keys(moved)
    assert RULES.view(RULES.from_json(game(svc).state))["draw_offer"] is None
    refused(svc, other, "game decline-draw", "error.no_draw_offer")


def test_games_without_draw_offers_say_so(store) -> None:
    svc = GameService(store, seed_source=lambda: 1)
    assert svc.handle(GM, "sb new", {"name": "Nebula"}).ok
    refused(svc, GM, "game offer-draw", "error.no_draw_offers")


def test_the_computer_declines_while_it_stands_level_and_accepts_once_it_stands_worse(svc: GameService) -> None:
    svc.handle(ANN, "ak join", {"name": "Ann"})
    svc.handle(ANN, "ak challenge", {"level": "easy"})
    svc.handle(GM, "gm start", {})
    computers_play(svc)
    state = RULES.from_json(game(svc).state)
    computer = RULES.side_of(state, "Computer")
    assert evaluate(RULES, state, computer) >= 0  # the start: level
    assert keys(svc.handle(ANN, "game offer-draw", {})) == ["event.arkeon.draw_offered"]
    assert "event.arkeon.draw_declined" in post_keys(computers_play(svc))  # its answer, after the offer's
    assert game(svc).status == "running"
    for _ in range(20):  # play on until the computer stands worse
        if evaluate(RULES, RULES.from_json(game(svc).state), computer) < 0:
            break
        assert svc.handle(ANN, "ak order", {"text": svc.complete(ANN, "ak order", "text", "")[-1]}).ok
        computers_play(svc)
    assert evaluate(RULES, RULES.from_json(game(svc).state), computer) < 0
    assert keys(svc.handle(ANN, "game offer-draw", {})) == ["event.arkeon.draw_offered"]
    assert "event.arkeon.game_over" in post_keys(computers_play(svc))
    assert game(svc).status == "finished"
    answer = [e for e in svc.store.log(game(svc).id) if e.kind == "draw_accept"]
    assert [(e.actor, e.user_id) for e in answer] == [("Computer", None)]  # the bot answered for its seat


@pytest.mark.parametrize("kind", ["arkeon", "hexarena"])
def test_a_pending_offer_survives_a_restart(kind: str) -> None:
    rules = registry.get(kind)
    state = rules.setup({}, 3)
    side = rules.waiting_on(state)[0]
    offered = rules.apply_input(state, "draw_offer", side, {}).state
    stored = rules.to_json(offered)
    assert stored["state"]["draw_offer"] == side and rules.from_json(stored) == offered
    assert rules.view(rules.from_json(stored))["draw_offer"] == side
    older = {**stored, "state": {k: v for k, v in stored["state"].items() if k != "draw_offer"}}
    assert rules.from_json(older) == state  # a game stored before draw offers loads with none pending


def test_an_offer_goes_by_direct_message_to_a_member_who_chose_reminders_by_dm(svc: GameService) -> None:
    from bot.outbox import decode_reply
    from bot.store import outbox as rows

    svc.handle(ANN, "ak join", {"name": "Ann"})
    svc.handle(BOB, "ak join", {"name": "Bob"})
    svc.handle(GM, "gm start", {})
    assert svc.handle(BOB, "game settings", {"reminders": "dm", "language": "fr"}).ok
    before = {post.id for post in rows.unsent(svc.store)}
    offered = svc.handle(ANN, "game offer-draw", {})
    assert keys(offered) == ["event.arkeon.draw_offered"] and offered.mentions == ()  # no ping in the channel
    assert [b.shown_to for b in offered.buttons] == [BOB.user_id, BOB.user_id]  # the answer under the offer still
    [dm] = [post for post in rows.unsent(svc.store) if post.kind == rows.DM and post.id not in before]
    assert rows.recipient(dm) == BOB.user_id
    [line] = decode_reply(dm.payload).messages
    assert translate(line.key, "fr", line.params) == (
        f"🤝 Une nulle vous est proposée dans **Duel** : répondez avec les boutons sous la proposition. "
        f"https://discord.com/channels/{GUILD}/{CHANNEL}")
    fallback = decode_reply(dm.payload[rows.FALLBACK])  # Discord refusing it: the channel's ping instead
    assert fallback.mentions == (BOB.user_id,) and [m.key for m in fallback.messages] == ["game.draw_offer.ping"]
    assert dm.owed_by == rows.commit_cause(game(svc).version)  # written by the offer's own commit


def test_a_crash_between_the_offer_and_its_direct_message_loses_neither(svc: GameService, monkeypatch) -> None:
    """The offer and the direct messages it owes are one transaction: a crash as the messages are
    written leaves no offer standing that nobody was told of (it was the offer's commit, then the
    messages in a transaction of their own)."""
    from bot.service import draw_offers

    svc.handle(ANN, "ak join", {"name": "Ann"})
    svc.handle(BOB, "ak join", {"name": "Bob"})
    svc.handle(GM, "gm start", {})
    assert svc.handle(BOB, "game settings", {"reminders": "dm"}).ok
    before = game(svc)

    def crash(*args, **kwargs):
        raise RuntimeError("the process died here")

    monkeypatch.setattr(draw_offers, "route", crash)
    with pytest.raises(RuntimeError):
        svc.handle(ANN, "game offer-draw", {})
    after = game(svc)
    assert (after.version, after.state) == (before.version, before.state)
    assert RULES.view(RULES.from_json(after.state))["draw_offer"] is None
