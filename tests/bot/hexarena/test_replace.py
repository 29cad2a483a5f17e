"""`/gm replace` in HexArena, where players join by name and play a side: the side changes hands
whole — the member or computer who held it stops playing it — and the status names the member a GM
seated, not the name the first player joined with (issue 26)."""

from __future__ import annotations

from bot.i18n import translate
from bot.service import Context, GameService
from engine import registry
from tests.bot.hexarena.test_play import ANN, BOB, CHANNEL, GM, GUILD
from tests.support.computers import fire_computers

CID = Context(user_id=4, user_name="cid", guild_id=GUILD, channel_id=CHANNEL)
RULES = registry.get("hexarena")


def said(svc: GameService, key: str, command: str = "game status") -> list[str]:
    reply = svc.handle(BOB, command, {})
    return [translate(m.key, "en", m.params) for m in reply.messages if m.key == key]


def first_order(svc: GameService) -> str:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    state = RULES.from_json(game.state)
    [side] = RULES.waiting_on(state)
    return min(RULES.format_order(order) for order in RULES.legal_orders(state, side))


def test_a_side_handed_to_another_member_is_theirs_alone_and_named_by_them(store) -> None:
    svc = GameService(store, seed_source=lambda: 3)
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "hx join", {"name": "Bob"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    assert svc.handle(GM, "gm replace", {"character": "red", "user": CID.user_id}).ok
    red, blue = said(svc, "hx.status.side")
    assert red.startswith(f"🔴 Red — **<@{CID.user_id}>** ·") and blue.startswith("🔵 Blue — **Bob** ·"), (red, blue)
    refused = svc.handle(ANN, "hx order", {"text": first_order(svc)})  # Ann plays no more
    assert not refused.ok, refused.messages
    assert svc.handle(ANN, "game mine", {}).messages[0].key == "game.mine.none"
    mine = svc.handle(CID, "game mine", {}).messages[1]
    assert mine.key == "game.mine.your_turn" and ", as Red)" in translate(mine.key, "en", mine.params)
    assert svc.handle(CID, "game offer-draw", {}).ok
    [offer] = said(svc, "status.draw_offer")
    assert offer == f"🤝 Red (**<@{CID.user_id}>**) offers a draw, waiting for an answer", offer
    assert svc.handle(BOB, "game decline-draw", {}).ok
    sheet = svc.handle(BOB, "game sheet", {"character": "Red"}).messages[0]
    assert translate(sheet.key, "en", sheet.params).startswith(f"🔴 **Red** fleet — <@{CID.user_id}> "), sheet
    assert svc.handle(CID, "hx order", {"text": first_order(svc)}).ok


def test_a_computers_side_handed_to_a_member_is_no_longer_played_by_the_computer(store) -> None:
    svc = GameService(store, seed_source=lambda: 3)
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(ANN, "hx challenge", {"level": "easy"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    assert svc.handle(GM, "gm replace", {"character": "blue", "user": CID.user_id}).ok
    assert svc.handle(ANN, "hx order", {"text": first_order(svc)}).ok
    fire_computers(svc)  # a computer's turn, were one still due, plays after the answer
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert RULES.waiting_on(RULES.from_json(game.state)) == ("blue",)  # the computer did not answer: Cid is to move
    _, blue = said(svc, "hx.status.side")
    assert blue.startswith(f"🔵 Blue — **<@{CID.user_id}>** ·"), blue
    assert svc.handle(CID, "hx order", {"text": first_order(svc)}).ok


def test_a_kicked_players_side_handed_to_a_member_leaves_its_stand_in_computer(store) -> None:
    """`/gm kick` lets the computer play the side under the kicked player's name; `/gm replace`
    naming the side stops it."""
    svc = GameService(store, seed_source=lambda: 3)
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "hx join", {"name": "Bob"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    kicked = svc.handle(GM, "gm kick", {"user": BOB.user_id})
    kicked = svc.handle(GM, kicked.buttons[0].command, dict(kicked.buttons[0].options)) if kicked.buttons else kicked
    assert kicked.ok, kicked.messages
    assert svc.handle(GM, "gm replace", {"character": "Blue", "user": CID.user_id}).ok
    assert svc.store.get_game(svc.store.game_in_channel(GUILD, CHANNEL).id).options.get("computers") == {}
    assert svc.handle(ANN, "hx order", {"text": first_order(svc)}).ok
    fire_computers(svc)
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert RULES.waiting_on(RULES.from_json(game.state)) == ("blue",)  # Cid's move, not the computer's


def test_game_info_counts_a_side_played_under_a_joined_name_as_held(store) -> None:
    """`/game info` listed Red and Blue as "no player" beside Ann and Bob who play them, and the
    computer's side too: a side is held by whoever plays it under the name they joined with."""
    svc = GameService(store, seed_source=lambda: 3)
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(ANN, "hx challenge", {"level": "easy"}).ok

    def players(language: str) -> list[str]:
        info = svc.handle(BOB, "game info", {})
        return [translate(m.key, language, m.params) for m in info.messages if m.key.startswith("game.info.")
                and m.key not in ("game.info.clock",)]

    assert players("en") == [f"• **Ann** — <@{ANN.user_id}>", "• **Computer** — computer (easy)"], players("en")
    assert players("fr")[1] == "• **Computer** — ordinateur (facile)"
    assert svc.handle(GM, "gm replace", {"character": "Bleu", "user": CID.user_id}).ok
    assert players("fr") == [f"• **Ann** — <@{ANN.user_id}>", f"• **Bleu** — <@{CID.user_id}>"], players("fr")
