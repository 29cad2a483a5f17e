"""Secrets (issue "one platform"): before the reveal, nothing another member can see holds a sealed
order — replies, images, history, undo listings, exports, the status message, INFO log lines.

Played on the sealed tally test game (`tests/support/variants.py`): every turn each player bids in
secret (``add N``, an ``order``), says ``ready``, and the turn resolves (the reveal) once all are
ready. A bid is spotted by its text (``add 4``) and by its private event (``event.sealed.bid``).
"""

from __future__ import annotations

import json
import logging

import pytest

from bot.i18n import translate
from bot.service import Attachment, Context, GameService, Reply, Visibility
from bot.service.status import status_messages

GUILD, CHANNEL = 10, 70
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)
EVE = Context(user_id=4, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)  # a spectator
SECRET = "add 4"


def text_of(reply: Reply, *, aside: bool = True) -> str:
    """Everything a reply shows, rendered in both languages, files included."""
    messages = [*reply.messages, *(reply.aside if aside else ())]
    texts = [translate(m.key, lang, m.params) for m in messages for lang in ("en", "fr")]
    texts += [m.key for m in messages]
    texts += [f.data.decode("utf-8", "replace") for f in reply.files]
    return "\n".join(texts)


def public_text(reply: Reply) -> str:
    """What the channel sees of a reply: nothing of a private one, never its aside."""
    return "" if reply.visibility is Visibility.PRIVATE else text_of(reply, aside=False)


def leaks(text: str) -> bool:
    return SECRET in text or "event.sealed.bid" in text


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 7)
    assert service.handle(GM, "ts new", {"name": "Bids"}).ok
    assert service.handle(ANN, "ts join", {"name": "Ann"}).ok
    assert service.handle(BOB, "ts join", {"name": "Bob"}).ok
    return service


def test_a_sealed_bid_is_told_to_its_owner_only(svc: GameService, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    reply = svc.handle(ANN, "ts order", {"text": SECRET})
    assert reply.ok
    assert not leaks(public_text(reply))  # the channel reads "Ann ✉"
    assert [m.key for m in reply.messages] == ["event.sealed.submitted"]
    assert [m.key for m in reply.aside] == ["event.sealed.bid"]  # Ann alone reads her bid
    assert SECRET not in caplog.text


@pytest.mark.parametrize("reader", [BOB, EVE, GM], ids=["other player", "spectator", "game master"])
def test_before_the_reveal_no_view_of_another_member_holds_the_bid(svc: GameService, reader: Context,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    svc.handle(ANN, "ts order", {"text": SECRET})
    svc.handle(ANN, "ts ready", {})
    seen = [svc.handle(reader, path, {}) for path in ("game history", "game status", "game board", "game info")]
    seen.append(svc.handle(GM, "gm undo", {}))  # the confirmation lists what would be undone
    export = svc.handle(GM, "gm export", {})
    assert export.ok and [m.key for m in export.messages] == ["gm.exported", "gm.exported_sealed"]
    seen.append(export)
    for reply in seen:
        assert reply.ok, reply.messages
        assert not leaks(text_of(reply)), text_of(reply)
    history = svc.handle(reader, "game history", {})
    assert "game.history.sealed" in [m.key for m in history.messages]
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert not leaks(text_of(Reply(status_messages(svc, game))))
    assert SECRET not in caplog.text


def test_the_owner_reads_their_own_sealed_entry(svc: GameService) -> None:
    svc.handle(ANN, "ts order", {"text": SECRET})
    assert SECRET in text_of(svc.handle(ANN, "game history", {}))
    assert not leaks(text_of(svc.handle(BOB, "game history", {})))


def test_the_reveal_shows_every_bid_to_everyone(svc: GameService) -> None:
    svc.handle(ANN, "ts order", {"text": SECRET})
    svc.handle(BOB, "ts order", {"text": "add 2"})
    svc.handle(ANN, "ts ready", {})
    last = svc.handle(BOB, "ts ready", {})  # every seat is ready: the turn resolves at once
    assert "event.sealed.resolved" in [m.key for m in last.messages]
    assert "Ann 4, Bob 2" in public_text(last)  # the resolution names every bid
    for reader in (BOB, EVE):
        assert SECRET in text_of(svc.handle(reader, "game history", {}))
    export = svc.handle(GM, "gm export", {})
    assert [m.key for m in export.messages] == ["gm.exported"]
    assert SECRET in export.files[0].data.decode()


def test_an_export_before_the_reveal_carries_the_bid_sealed_and_imports_the_same_game(svc: GameService) -> None:
    svc.handle(ANN, "ts order", {"text": SECRET})
    export = svc.handle(GM, "gm export", {})
    document = json.loads(export.files[0].data)
    [order] = [entry for entry in document["log"] if entry.get("kind") == "order"]
    assert set(order["payload"]) == {"sealed"} and SECRET not in export.files[0].data.decode()
    elsewhere = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 1, manage_server=True)
    imported = svc.handle(elsewhere, "gm import", {"file": export.files[0]})
    assert imported.ok, imported.messages
    copy, game = svc.store.game_in_channel(GUILD, CHANNEL + 1), svc.store.game_in_channel(GUILD, CHANNEL)
    assert copy.state == game.state  # the bid is in the imported game, still Ann's secret
    assert SECRET not in text_of(svc.handle(Context(user_id=BOB.user_id, user_name="bob", guild_id=GUILD,
                                                    channel_id=CHANNEL + 1), "game history", {}))
    # a sealed payload edited by hand does not open: refused where it is, nothing created
    order["payload"]["sealed"] = order["payload"]["sealed"][:-4] + "AAAA"
    third = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 2, manage_server=True)
    refused = svc.handle(third, "gm import", {"file": Attachment("x.json", json.dumps(document).encode())})
    assert [m.key for m in refused.messages] == ["error.bad_export"]
    assert refused.messages[0].params["where"] == f"log[{order['seq'] - 1}].payload"
    assert svc.store.game_in_channel(GUILD, CHANNEL + 2) is None


def test_ones_own_sheet_shows_ones_secret_privately_and_no_one_elses(svc: GameService) -> None:
    svc.handle(ANN, "ts order", {"text": SECRET})
    own = svc.handle(ANN, "game sheet", {})
    assert own.visibility is Visibility.PRIVATE and "Ann 4" in text_of(own)
    for reader in (BOB, EVE, GM):
        other = svc.handle(reader, "game sheet", {"character": "Ann"})
        assert other.visibility is Visibility.PUBLIC and "Ann ?" in text_of(other)
