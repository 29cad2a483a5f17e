"""SB-15's two ships each through the service: three members, two ships each. A member's seat is
the player; its orders name the ship (an option of `/sb orders`, suggested, or the text's ship
part), its one Ready covers both ships, its sheet shows both, a reminder pings it once — and
nobody else reads anything of either ship's orders before the reveal."""

from __future__ import annotations

import datetime as dt
import json
import logging

import pytest

from bot.i18n import translate
from bot.service import Context, GameService, Reply, Visibility
from bot.store.timers import TimerRecord, game_timers
from tests.bot.every_game.test_turn_drivers import Clock, Hooks, fire_at
from tests.support.computers import computers_play

GUILD, CHANNEL = 10, 150
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN, BOB, CID = (Context(user_id=20 + n, user_name=name, guild_id=GUILD, channel_id=CHANNEL)
                 for n, name in enumerate(("ann", "bob", "cid")))
EVE = Context(user_id=99, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)
SECRETS = ("left missile", "brake mine")
#: the same orders as a French reader reads them
FRENCH_SECRETS = ("gauche missile", "frein mine")


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def timers(svc: GameService) -> dict[str, TimerRecord]:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    return {t.kind: t for t in game_timers(svc.store, game.id)}


def english(value: object) -> str:
    """A reply's value (an order in words, a list of them) as an English reader reads it."""
    return translate("sb.order.quoted", "en", {"order": value})


def everything(reply: Reply) -> str:
    """All a reply carries, words (in both languages) and files, as text to search for a leak."""
    words = [translate(m.key, language, m.params) for m in (*reply.messages, *reply.aside) for language in ("en", "fr")]
    return "\n".join(words) + repr([m.params for m in (*reply.messages, *reply.aside)]) + "".join(
        f.data.decode("latin-1") for f in reply.files)


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 11, clock=Clock())
    created = service.handle(GM, "sb new", {"name": "Pairs", "radius": 5, "two_ships": True, "powers": True,
                                            "reminders": "6"})
    assert created.ok, created.messages
    for member, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid")):
        joined = service.handle(member, "sb join", {"name": name})
        assert "event.spaceblast.joined.fleet" in keys(joined), joined.messages
    assert service.handle(GM, "gm start", {}).ok
    return service


def test_each_member_plays_one_seat_with_two_ships_on_opposite_corners(svc: GameService) -> None:
    info = svc.handle(EVE, "game info", {})
    assert sorted(m.params["actor"] for m in info.messages if m.key == "game.info.seat") == ["Ann", "Bob", "Cid"]
    board = svc.handle(EVE, "game board", {})
    assert [f.filename for f in board.files] == ["arena.png"]
    status = svc.handle(EVE, "game status", {})
    totals = {m.params["id"]: m.params["ships"] for m in status.messages if m.key == "sb.status.player"}
    assert totals == {"Ann": ["Ann 1", "Ann 2"], "Bob": ["Bob 1", "Bob 2"], "Cid": ["Cid 1", "Cid 2"]}


def test_an_order_names_its_ship_and_a_bare_one_is_refused_changing_nothing(svc: GameService) -> None:
    version = svc.store.game_in_channel(GUILD, CHANNEL).version
    bare = svc.handle(ANN, "sb orders", {"turn": "left"})
    assert keys(bare) == ["error.not_allowed.which_ship"] and bare.visibility is Visibility.PRIVATE
    other = svc.handle(ANN, "sb order", {"text": "Bob 1: brake"})
    assert keys(other) == ["error.not_allowed.not_your_ship"]
    assert svc.store.game_in_channel(GUILD, CHANNEL).version == version
    assert svc.complete(ANN, "sb orders", "ship", "") == ["Ann 1", "Ann 2"]
    assert svc.complete(ANN, "sb order", "text", "ann 2:")[0].startswith("Ann 2: ")
    one = svc.handle(ANN, "sb orders", {"turn": "left", "missile": 1, "ship": "Ann 1"})
    assert one.visibility is Visibility.PRIVATE and keys(one) == ["event.spaceblast.orders_set"]
    assert (one.messages[0].params["ship"], english(one.messages[0].params["text"])) == ("Ann 1", "left missile")
    two = svc.handle(ANN, "sb order", {"text": "2: brake mine"})
    assert [m.params["ship"] for m in two.messages] == ["Ann 2"] and [b.command for b in two.buttons] == ["sb ready"]


def test_nobody_else_reads_anything_of_either_ships_orders_before_the_reveal(
        svc: GameService, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    replies = [svc.handle(ANN, "sb order", {"text": "1: left missile; 2: brake mine"}), svc.handle(ANN, "sb ready", {})]
    assert all(r.visibility is Visibility.PRIVATE or not any(s in everything(r) for s in SECRETS) for r in replies)
    own = svc.handle(ANN, "game sheet", {})
    assert own.visibility is Visibility.PRIVATE
    assert [english(m.params["orders"]) for m in own.messages if m.key == "sb.sheet.orders"] == list(SECRETS)
    assert [f.filename for f in own.files] == ["ship-Ann 1.png", "ship-Ann 2.png"]
    for reader in (BOB, CID, EVE, GM):
        for path, options in (("game history", {}), ("game status", {}), ("game board", {}), ("game info", {}),
                              ("game sheet", {"character": "Ann"})):
            reply = svc.handle(reader, path, options)
            assert not any(secret in everything(reply) for secret in SECRETS + FRENCH_SECRETS), (reader.user_name, path)
        assert "sb.sheet.orders" not in keys(svc.handle(reader, "game sheet", {"character": "Ann"}))
    export = svc.handle(GM, "gm export", {})
    assert not any(secret in export.files[0].data.decode() for secret in SECRETS)
    assert not any(secret in caplog.text for secret in SECRETS)
    svc.handle(BOB, "sb ready", {})
    revealed = svc.handle(CID, "sb ready", {})  # the last player ready: the turn resolves
    said = next(m for m in revealed.messages if m.key == "event.spaceblast.revealed").params["orders"]
    orders = {item.params["ship"]: english(item.params["order"]) for item in said.items}
    assert (orders["Ann 1"], orders["Ann 2"]) == SECRETS and len(orders) == 6
    assert [f.filename for f in revealed.files] == ["arena.png", "resolution.gif"]
    after = json.loads(svc.handle(GM, "gm export", {}).files[0].data)
    assert "1: left missile; 2: brake mine" in json.dumps(after)


def test_one_ready_covers_both_ships_and_the_reminder_pings_each_late_player_once(svc: GameService) -> None:
    hooks = Hooks()
    svc.handle(ANN, "sb ready", {})
    status = svc.handle(EVE, "game status", {})
    ready = {m.params["id"]: m.params["ready"].key for m in status.messages if m.key == "sb.status.ship"}
    assert ready["Ann 1"] == ready["Ann 2"] == "sb.status.ready" and ready["Bob 2"] == "sb.status.waiting"
    fire_at(svc, hooks, timers(svc)["reminder1"].due_at)
    [(_, post)] = hooks.posts
    assert keys(post) == ["turn.deadline_reminder"] and post.mentions == (BOB.user_id, CID.user_id)
    svc.handle(BOB, "sb order", {"text": "1: brake"})
    fire_at(svc, hooks, timers(svc)["deadline"].due_at + dt.timedelta(seconds=1))
    resolved = [post for _, post in hooks.posts if "event.spaceblast.revealed" in keys(post)]
    assert len(resolved) == 1


def test_a_computer_player_plays_both_ships_of_its_seat(store) -> None:
    service = GameService(store, seed_source=lambda: 5)
    service.handle(GM, "sb new", {"name": "Bots", "radius": 5, "two_ships": True})
    service.handle(ANN, "sb join", {"name": "Ann"})
    for level in ("easy", "normal"):
        assert keys(service.handle(GM, "sb challenge", {"level": level}))[0] == "game.computer_joined"
    assert service.handle(GM, "gm start", {}).ok
    computers_play(service)
    game = service.store.game_in_channel(GUILD, CHANNEL)
    given = [(e.actor, e.payload["text"]) for e in service.store.log(game.id) if e.kind == "order"]
    # "Computer 2" is the first computer's second ship: the second computer takes the next free name
    assert {actor for actor, _ in given} == {"Computer", "Computer 3"}
    assert sorted(text.split(":")[0] for _, text in given) == ["Computer 1", "Computer 2", "Computer 3 1",
                                                               "Computer 3 2"]
    status = service.handle(EVE, "game status", {})
    waiting = {m.params["id"] for m in status.messages
               if m.key == "sb.status.ship" and m.params["ready"].key == "sb.status.waiting"}
    assert waiting == {"Ann 1", "Ann 2"}
    assert "event.spaceblast.revealed" in keys(service.handle(ANN, "sb ready", {}))
