"""Issue 9 point 9: who may do what.

Server settings (the GM role above all) belong to the server's game masters — the GM role, Manage
Server — and not to whoever created a game: a creator who lost the role could otherwise give it to a
role they hold and become GM of every game. A game's creator is GM of that game only. A button or
menu acts only for the member it was shown to; anyone else is refused privately and nothing changes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.service import Context, GameService, Visibility

GUILD, HERE, ELSEWHERE, SPACE = 10, 20, 21, 22
GM_ROLE, OTHER_ROLE = 55, 66
ADMIN = Context(user_id=1, user_name="admin", guild_id=GUILD, channel_id=HERE, manage_server=True)
#: held the GM role when they created the game here, then lost it; still holds another role
CREATOR = Context(user_id=7, user_name="creator", guild_id=GUILD, channel_id=HERE, role_ids=frozenset({OTHER_ROLE}))
ROLE_GM = Context(user_id=8, user_name="role gm", guild_id=GUILD, channel_id=HERE, role_ids=frozenset({GM_ROLE}))
ALICE = Context(user_id=2, user_name="alice", guild_id=GUILD, channel_id=HERE)
ANN = Context(user_id=3, user_name="ann", guild_id=GUILD, channel_id=SPACE)
BOB = Context(user_id=4, user_name="bob", guild_id=GUILD, channel_id=SPACE)


@pytest.fixture
def svc(store):
    """A server whose GM role is GM_ROLE, a game here created by CREATOR while they held it, and the
    admin's game in another channel."""
    service = GameService(store, seed_source=lambda: 1234)
    assert service.handle(ADMIN, "gm settings", {"gm_role": GM_ROLE}).ok
    with_role = replace(CREATOR, role_ids=CREATOR.role_ids | {GM_ROLE})
    assert service.handle(with_role, "tl new", {"name": "Mine"}).ok
    assert service.handle(replace(ADMIN, channel_id=ELSEWHERE), "tl new", {"name": "Theirs"}).ok
    return service


def keys(reply):
    return [m.key for m in reply.messages]


def snapshot(svc: GameService, channel: int = HERE):
    game = svc.store.game_in_channel(GUILD, channel)
    return game.version, game.status, game.state, svc.store.log(game.id)


def test_a_creator_without_the_gm_role_cannot_change_server_settings(svc):
    before = svc.store.guild_settings(GUILD)
    for options in ({"gm_role": OTHER_ROLE}, {"language": "en"}, {"pings": "none"}, {}):
        reply = svc.handle(CREATOR, "gm settings", options)
        assert keys(reply) == ["error.server_gm_only"] and reply.visibility is Visibility.PRIVATE
    assert svc.store.guild_settings(GUILD) == before
    assert not svc.is_gm(replace(CREATOR, channel_id=ELSEWHERE))  # their own role did not become the GM role
    # the server's GMs still can: the role's holders and those who manage the server
    assert svc.handle(ROLE_GM, "gm settings", {"pings": "none"}).ok
    assert svc.handle(ADMIN, "gm settings", {"language": "en"}).ok
    assert keys(svc.handle(ALICE, "gm settings", {"language": "fr"})) == ["error.gm_only"]  # not even a creator


def test_a_creator_is_gm_of_their_own_game_only(svc):
    assert svc.handle(CREATOR, "gm export", {}).ok
    assert keys(svc.handle(CREATOR, "gm undo", {})) == ["error.nothing_to_undo"]  # past the GM check
    elsewhere = replace(CREATOR, channel_id=ELSEWHERE)
    before = snapshot(svc, ELSEWHERE)
    for path in ("gm export", "gm pause", "gm end"):
        assert keys(svc.handle(elsewhere, path, {})) == ["error.gm_only"], path
    assert snapshot(svc, ELSEWHERE) == before


def test_a_creator_cannot_create_a_game_after_theirs_ended(svc):
    """Creating a game is a server GM's act: the creator of the channel's ended game is not one."""
    ask = svc.handle(CREATOR, "gm end", {})
    assert svc.handle(CREATOR, "gm end", dict(ask.buttons[0].options), shown_to=CREATOR.user_id).ok
    reply = svc.handle(CREATOR, "tl new", {"name": "Another"})
    assert keys(reply) == ["error.server_gm_only"]
    exported = svc.handle(ADMIN, "gm export", {}).files[0]
    reply = svc.handle(CREATOR, "gm import", {"file": exported})
    assert keys(reply) == ["error.server_gm_only"]
    assert svc.store.game_in_channel(GUILD, HERE).name == "Mine"


def test_every_button_is_for_the_member_it_was_shown_to(svc):
    """A GM's confirmation clicked by another GM is refused, naming its GM, and changes nothing."""
    assert svc.handle(ALICE, "tl join", {"name": "Alice"}).ok
    ask = svc.handle(CREATOR, "gm undo", {})
    [button] = ask.buttons
    assert button.shown_to == CREATOR.user_id
    before = snapshot(svc)
    for other in (ROLE_GM, ADMIN, ALICE):
        reply = svc.handle(other, button.command, dict(button.options), shown_to=button.shown_to)
        assert (reply.ok, reply.visibility) == (False, Visibility.PRIVATE)
        assert keys(reply) == ["error.not_your_component"] and reply.messages[0].params == {"user": CREATOR.user_id}
        assert not reply.mentions  # the refusal names the member without pinging them
    assert snapshot(svc) == before
    done = svc.handle(CREATOR, button.command, dict(button.options), shown_to=button.shown_to)
    assert keys(done)[0] == "gm.undo.done"


def test_a_menu_picks_only_for_the_member_it_was_shown_to(svc):
    """Bob picking the cards in Ann's loadout menu equipped Bob; now he is refused and nobody is equipped."""
    assert svc.handle(replace(ADMIN, channel_id=SPACE), "sc new", {"name": "Orion"}).ok
    assert svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}).ok
    assert svc.handle(BOB, "sc join", {"name": "Bob", "team": "2", "role": "general"}).ok
    [menu] = svc.handle(ANN, "sc loadout", {}).selects  # a general's form: the cards only
    assert menu.shown_to == ANN.user_id
    picked = {**menu.options, menu.option: "1,2"}
    before = snapshot(svc, SPACE)
    assert keys(svc.handle(BOB, menu.command, picked, shown_to=menu.shown_to)) == ["error.not_your_component"]
    assert snapshot(svc, SPACE) == before
    assert svc.handle(ANN, menu.command, picked, shown_to=menu.shown_to).ok
