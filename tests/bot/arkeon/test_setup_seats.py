"""Issue 26 point 6: an Arkeon game made from a setup position opens its seats, as HexArena's does —
players join (or challenge the computer), then a GM starts it and play goes on from the position."""

from __future__ import annotations

import json

import pytest

from bot.i18n import translate
from bot.service import Attachment, GameService
from engine import registry
from tests.bot.arkeon.test_play import ANN, BOB, CHANNEL, GM, GUILD, keys

RULES = registry.get("arkeon")
CID = 4  # a member who joined nothing
POSITION = {"phase": "setup", "to_move": "blue", "pieces": [
    {"side": "blue", "kind": "base", "at": "C2"}, {"side": "red", "kind": "base", "at": "C6"},
    {"side": "red", "kind": "basic", "at": "C5", "facing": "W"}]}


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 3)
    setup = Attachment("position.json", json.dumps(POSITION).encode())
    assert service.handle(GM, "ak new", {"name": "Puzzle", "setup": setup}).ok
    return service


def game(svc: GameService):
    return svc.store.game_in_channel(GUILD, CHANNEL)


def test_its_seats_are_open_to_join_then_it_plays_from_the_position(svc: GameService) -> None:
    assert game(svc).status == "setup"
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ak join", {"name": "Bob"}).ok
    started = svc.handle(GM, "gm start", {})
    assert started.ok and game(svc).status == "running", started.messages
    view = RULES.view(RULES.from_json(game(svc).state))
    assert (view["phase"], view["to_move"]) == ("running", "blue")  # no setup placements: the position's move
    assert svc.handle(ANN, "ak place", {"kind": "basic", "cell": "C3", "direction": "e"}).ok  # blue, as set


def test_a_computer_may_take_the_other_seat(svc: GameService) -> None:
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    challenged = svc.handle(ANN, "ak challenge", {"level": "easy"})
    assert keys(challenged)[0] == "game.computer_joined", challenged.messages
    assert svc.handle(GM, "gm start", {}).ok and game(svc).status == "running"


def test_a_gm_hands_a_side_of_a_running_position_named_in_words(store) -> None:
    """Without `phase = "setup"` the position runs at once; `/gm replace` seats a member, and the
    reply names the side in words (it read `<@5> now plays blue.`)."""
    svc = GameService(store, seed_source=lambda: 3)
    running = {key: value for key, value in POSITION.items() if key != "phase"}
    assert svc.handle(GM, "ak new", {"name": "Puzzle", "setup": Attachment("p.json", json.dumps(running).encode())}).ok
    assert game(svc).status == "running"
    reply = svc.handle(GM, "gm replace", {"character": "bleu", "user": ANN.user_id})
    said = {lang: translate(reply.messages[0].key, lang, reply.messages[0].params) for lang in ("en", "fr")}
    assert said["en"] == f"<@{ANN.user_id}> now plays Blue.", said
    assert "Bleu" in said["fr"] and "blue" not in said["fr"], said


def test_the_status_of_a_running_position_names_the_members_a_gm_seated(store) -> None:
    """Issue 26 point 6: after `/gm replace` the status named each side's player "**none**"."""
    svc = GameService(store, seed_source=lambda: 3)
    running = {key: value for key, value in POSITION.items() if key != "phase"}
    assert svc.handle(GM, "ak new", {"name": "Puzzle", "setup": Attachment("p.json", json.dumps(running).encode())}).ok
    assert svc.handle(GM, "gm replace", {"character": "bleu", "user": ANN.user_id}).ok

    def sides(language: str) -> list[str]:
        status = svc.handle(BOB, "game status", {})
        return [translate(m.key, language, m.params) for m in status.messages if m.key == "ak.status.side"]

    blue, red = sides("en")
    assert blue.startswith(f"🔵 Blue — **<@{ANN.user_id}>** ·") and red.startswith("🔴 Red — **nobody** ·"), sides("en")
    assert sides("fr")[1].startswith("🔴 Rouge — **personne** ·")
    assert svc.handle(GM, "gm replace", {"character": "red", "user": BOB.user_id}).ok
    assert sides("en")[1].startswith(f"🔴 Red — **<@{BOB.user_id}>** ·")
    assert not any("none" in line for line in sides("en"))


def test_a_joined_side_handed_to_another_member_is_named_by_them(store) -> None:
    """Issue 26: after `/gm replace` the status still named the player who joined the side."""
    svc = GameService(store, seed_source=lambda: 3)
    assert svc.handle(GM, "ak new", {"name": "Temple"}).ok
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ak join", {"name": "Bob"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    side = RULES.side_of(RULES.from_json(game(svc).state), "Ann")
    assert svc.handle(GM, "gm replace", {"character": side, "user": CID}).ok
    lines = [translate(m.key, "en", m.params) for m in svc.handle(BOB, "game status", {}).messages
             if m.key == "ak.status.side"]
    assert sum(f"**<@{CID}>**" in line for line in lines) == 1 and not any("Ann" in line for line in lines), lines
    assert sorted(seat.user_id for seat in svc.store.seats(game(svc).id)) == sorted([BOB.user_id, CID])
    sheet = svc.handle(BOB, "game sheet", {"character": side}).messages[0]
    assert f"**<@{CID}>**" in translate(sheet.key, "en", sheet.params), sheet
