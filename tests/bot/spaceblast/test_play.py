"""SpaceBlast through the service: a GM creates the game, players take ships, the GM starts it;
each turn's orders are secret (private answers with a Ready button) until the turn resolves —
at once when every ship is ready — and the resolution posts the orders, the events, the arena and
the turn's animation."""

from __future__ import annotations

import datetime as dt
import io
import logging

import pytest
from PIL import Image

from bot.i18n import alt_text, translate
from bot.service import Context, GameService, Reply, Visibility
from renders.common import recording_text
from tests.support.computers import computers_play

GUILD, CHANNEL = 10, 100
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
PLAYERS = [Context(user_id=10 + n, user_name=name, guild_id=GUILD, channel_id=CHANNEL)
           for n, name in enumerate(["ann", "bob", "cid"])]
ANN, BOB, CID = PLAYERS
EVE = Context(user_id=99, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def english(value: object) -> str:
    """A reply's value (an order in words, a list of them) as an English reader reads it."""
    return translate("sb.order.quoted", "en", {"order": value})


def orders_of(message) -> dict[str, str]:
    """The revealed orders of a `revealed` event or a time jump's sheet, by ship, in English."""
    return {item.params["ship"]: english(item.params["order"]) for item in message.params["orders"].items}


def read(reply: Reply) -> str:
    """Everything a reply says, in both languages: where a secret order must not be."""
    return "\n".join(translate(m.key, language, m.params) for m in reply.messages for language in ("en", "fr"))


def shown(reply: Reply) -> str:
    """What the channel reads of a reply (nothing of a private one)."""
    if reply.visibility is Visibility.PRIVATE:
        return ""
    return "\n".join(translate(m.key, "en", m.params) for m in reply.messages)


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 2024)
    assert service.handle(GM, "sb new", {"name": "Nebula", "radius": 5}).ok
    for member, name in zip(PLAYERS, ("Ann", "Bob", "Cid"), strict=True):
        assert service.handle(member, "sb join", {"name": name}).ok
    started = service.handle(GM, "gm start", {})
    assert started.ok, started.messages
    return service


def test_the_start_places_the_ships_and_posts_the_arena(store) -> None:
    service = GameService(store, seed_source=lambda: 2024)
    service.handle(GM, "sb new", {"name": "Nebula"})
    service.handle(ANN, "sb join", {"name": "Ann"})
    assert keys(service.handle(GM, "gm start", {}))[-1].startswith("error.not_ready")
    service.handle(BOB, "sb join", {"name": "Bob"})
    started = service.handle(GM, "gm start", {})
    assert "event.spaceblast.started" in keys(started)
    assert [f.filename for f in started.files] == ["arena.png"]
    game = service.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "running"
    assert any(t for t in __import__("bot.store.timers", fromlist=["x"]).game_timers(store, game.id)
               if t.kind == "deadline")


def test_orders_are_private_with_a_ready_button_and_the_tokens_left(svc: GameService,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    reply = svc.handle(ANN, "sb orders", {"turn": "left", "missile": 1})
    assert reply.ok and reply.visibility is Visibility.PRIVATE
    assert keys(reply) == ["event.spaceblast.orders_set"]
    assert english(reply.messages[0].params["text"]) == "left missile"
    assert [b.command for b in reply.buttons] == ["sb ready"]
    same = svc.handle(BOB, "sb order", {"text": "droite mine"})
    assert same.visibility is Visibility.PRIVATE and english(same.messages[0].params["text"]) == "right mine"
    for reader in (BOB, CID, EVE, GM):
        for path in ("game history", "game status", "game board", "game info"):
            said = read(svc.handle(reader, path, {}))
            assert "left missile" not in said and "gauche missile" not in said
    assert "left missile" not in caplog.text


def test_a_bad_order_is_refused_with_its_rule_and_changes_nothing(svc: GameService) -> None:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    for text, key in (("left right", "error.duplicate_token"), ("left brake missile mine", "error.too_many_tokens"),
                      ("fly", "error.bad_syntax")):
        reply = svc.handle(ANN, "sb order", {"text": text})
        assert not reply.ok and keys(reply)[0].startswith(key), (text, keys(reply))
    assert svc.store.game_in_channel(GUILD, CHANNEL).version == game.version


def test_the_turn_resolves_once_every_ship_is_ready_and_reveals_everything(svc: GameService) -> None:
    svc.handle(ANN, "sb orders", {"turn": "left", "missile": 1})
    svc.handle(BOB, "sb order", {"text": "brake"})
    assert "event.spaceblast.ready" in keys(svc.handle(ANN, "sb ready", {}))
    svc.handle(BOB, "sb ready", {})
    with recording_text() as drawn:
        last = svc.handle(CID, "sb ready", {})  # Cid gave nothing: flies straight on (SB-6)
    # the animation's reveal frame lists each ship's orders, its last frame sums up the turn (issue 27)
    assert {"Ann : gauche missile", "Bob : frein", "Cid : rien"} <= set(drawn)  # the channel reads French
    assert "Ann : 0 coup reçu, 0 point marqué ce tour" in drawn
    alt = alt_text(last.files[1].description, "fr")
    assert "Ann : gauche missile" in alt and "Cid : 0 coup reçu, 0 point marqué ce tour" in alt  # its alt text too
    assert "event.spaceblast.revealed" in keys(last)
    revealed = next(m for m in last.messages if m.key == "event.spaceblast.revealed")
    assert orders_of(revealed)["Ann"] == "left missile" and "Cid" in english(revealed.params["defaulted"])
    assert [f.filename for f in last.files] == ["arena.png", "resolution.gif"]
    gif = Image.open(io.BytesIO(last.files[1].data))
    assert gif.n_frames >= 6
    assert "**Ann** left missile" in shown(last)
    history = svc.handle(BOB, "game history", {})
    said = read(history)  # revealed: in everyone's history now, in the reader's order words
    assert "left missile" in said and "gauche missile" in said


def test_a_ship_sheet_shows_its_orders_to_its_owner_only(svc: GameService) -> None:
    svc.handle(ANN, "sb orders", {"turn": "right"})
    own = svc.handle(ANN, "game sheet", {})
    assert own.visibility is Visibility.PRIVATE and "sb.sheet.orders" in keys(own)
    other = svc.handle(BOB, "game sheet", {"character": "Ann"})
    assert other.visibility is Visibility.PUBLIC and "sb.sheet.orders" not in keys(other)
    assert other.files and other.files[0].filename == "ship-Ann.png"


def test_the_status_message_says_who_is_awaited(svc: GameService) -> None:
    svc.handle(ANN, "sb ready", {})
    status = svc.handle(EVE, "game status", {})
    ready = {m.params["id"]: m.params["ready"].key for m in status.messages if m.key == "sb.status.ship"}
    assert ready == {"Ann": "sb.status.ready", "Bob": "sb.status.waiting", "Cid": "sb.status.waiting"}


def test_computer_ships_fill_the_arena_and_play_each_turn_in_secret(store) -> None:
    service = GameService(store, seed_source=lambda: 77)
    service.handle(GM, "sb new", {"name": "Crowd", "radius": 5})
    service.handle(ANN, "sb join", {"name": "Ann"})
    for level in ("easy", "normal", "hard"):
        seated = service.handle(GM, "sb challenge", {"level": level})
        assert keys(seated)[0] == "game.computer_joined", seated.messages
    assert service.handle(GM, "gm start", {}).ok
    computers_play(service)
    game = service.store.game_in_channel(GUILD, CHANNEL)
    computers = set(game.options["computers"])
    assert computers == {"Computer", "Computer 2", "Computer 3"}
    waiting = service.handle(EVE, "game status", {})
    awaited = {m.params["id"] for m in waiting.messages
               if m.key == "sb.status.ship" and m.params["ready"].key == "sb.status.waiting"}
    assert awaited == {"Ann"}  # the computers gave their orders and are ready
    history = str(service.handle(ANN, "game history", {}).messages)
    assert "game.history.sealed" in history  # their orders are as secret as anyone's
    turns_before = sum(1 for e in service.store.log(game.id) if e.kind == "resolve")
    resolved = service.handle(ANN, "sb ready", {})
    assert "event.spaceblast.revealed" in keys(resolved)
    log = service.store.log(game.id)
    assert sum(1 for e in log if e.kind == "resolve") == turns_before + 1
    assert {e.actor for e in log if e.kind == "order" and e.user_id is None} == computers


def test_a_time_jump_shows_its_holder_every_order_then_takes_the_change(store) -> None:
    from bot.service import Attachment

    service = GameService(store, seed_source=lambda: 5)
    setup = (b'[setup]\nradius = 5\nvariants = ["powers"]\n'
             b'[[setup.ships]]\nid = "Ann"\nat = "E5"\nfacing = "E"\npowers = ["timejump"]\n'
             b'[[setup.ships]]\nid = "Bob"\nat = "E8"\nfacing = "W"\n')
    assert service.handle(GM, "sb new", {"name": "Jump", "setup": Attachment("jump.toml", setup)}).ok
    for member, ship in ((ANN, "Ann"), (BOB, "Bob")):
        assert service.handle(GM, "gm replace", {"character": ship, "user": member.user_id}).ok
    service.handle(ANN, "sb order", {"text": "power timejump"})
    service.handle(BOB, "sb order", {"text": "brake missile"})
    service.handle(ANN, "sb ready", {})
    waiting = service.handle(BOB, "sb ready", {})
    assert "event.spaceblast.time_jump_wait" in keys(waiting)
    jump = next(m for m in service.handle(ANN, "game sheet", {}).messages if m.key == "sb.sheet.jump")
    assert orders_of(jump)["Bob"] == "brake missile"
    assert "sb.sheet.jump" not in keys(service.handle(BOB, "game sheet", {}))
    done = service.handle(ANN, "sb timejump", {"text": "power timejump left"})
    assert done.ok  # the holder answered: nobody is awaited any more, so the turn resolves at once
    revealed = next(m for m in done.messages if m.key == "event.spaceblast.revealed")
    assert orders_of(revealed)["Ann"].split()[0] == "left"  # the changed order is the one played


class _Posts:
    """Turn hooks that keep what the timers post."""

    def __init__(self) -> None:
        self.posts: list[Reply] = []

    def on_turn_post(self, game, reply: Reply) -> None:
        self.posts.append(reply)

    def on_gm_alert(self, game, reply: Reply) -> None:
        self.posts.append(reply)


def test_sb17_a_time_jump_waits_its_short_deadline_only_then_plays_the_orders_as_they_stand(store) -> None:
    """**D** the holder answers before a short GM-set deadline (`interlude_minutes`), not a whole turn."""
    from bot.drivers import timer_handlers
    from bot.service import Attachment
    from bot.store.timers import game_timers
    from bot.timers import TimerRunner

    service = GameService(store, seed_source=lambda: 5)
    setup = (b'[setup]\nradius = 5\nvariants = ["powers"]\n'
             b'[[setup.ships]]\nid = "Ann"\nat = "E5"\nfacing = "E"\npowers = ["timejump"]\n'
             b'[[setup.ships]]\nid = "Bob"\nat = "E8"\nfacing = "W"\n')
    assert service.handle(GM, "sb new", {"name": "Jump", "setup": Attachment("jump.toml", setup),
                                         "turn_hours": 24, "interlude_minutes": 15}).ok
    for member, ship in ((ANN, "Ann"), (BOB, "Bob")):
        assert service.handle(GM, "gm replace", {"character": ship, "user": member.user_id}).ok
    service.handle(ANN, "sb order", {"text": "power timejump"})
    service.handle(BOB, "sb order", {"text": "brake missile"})
    service.handle(ANN, "sb ready", {})
    before = service.clock()
    assert "event.spaceblast.time_jump_wait" in keys(service.handle(BOB, "sb ready", {}))
    game = service.store.game_in_channel(GUILD, CHANNEL)
    deadline = {t.kind: t for t in game_timers(store, game.id)}["deadline"]
    assert before + dt.timedelta(minutes=15) <= deadline.due_at <= service.clock() + dt.timedelta(minutes=15)
    assert "15" in " ".join(shown(Reply((m,))) for m in service.handle(ANN, "game info", {}).messages)

    hooks = _Posts()
    TimerRunner(store, timer_handlers(service, hooks), clock=service.clock).run_due(deadline.due_at)
    # the wait, too short for a reminder, told its holder at once (the wait's post names the ship already);
    # the holder never answered: the turn plays Ann's order unchanged
    told, post = hooks.posts
    assert [m.key for m in told.messages] == ["turn.your_turn"] and told.mentions == (ANN.user_id,)
    revealed = next(m for m in post.messages if m.key == "event.spaceblast.revealed")
    assert orders_of(revealed)["Ann"] == "power timejump"
    after = {t.kind: t for t in game_timers(store, game.id)}["deadline"]
    assert after.due_at >= deadline.due_at + dt.timedelta(hours=23)  # the next turn has its whole length


def test_an_export_before_the_reveal_holds_no_order_and_after_it_every_one(svc: GameService) -> None:
    svc.handle(ANN, "sb order", {"text": "left missile"})
    before = svc.handle(GM, "gm export", {})
    assert "left missile" not in before.files[0].data.decode() and "gm.exported_sealed" in keys(before)
    for member in PLAYERS:
        svc.handle(member, "sb ready", {})
    after = svc.handle(GM, "gm export", {})
    assert "left missile" in after.files[0].data.decode() and keys(after) == ["gm.exported"]


def test_the_status_and_the_board_say_the_turn_the_game_is_at(svc: GameService) -> None:
    """The shared layer asks the game its turn (`turn_number`, a hook of `GameRules`), not a key of
    its view read by convention (issue 22, point 2)."""
    for member in PLAYERS:
        svc.handle(member, "sb ready", {})
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    from engine import registry

    rules = registry.get(game.kind)
    turn = rules.turn_number(rules.from_json(game.state))
    assert turn >= 1
    for path in ("game status", "game board"):
        header = svc.handle(EVE, path, {}).messages[0]
        assert header.params["turn"] == turn, (path, header)
