"""Issue 9 points 10-12 through the service: names, setup documents, end dates, reasons, pickups.

Every refusal here is checked twice: its message reads in both languages with no placeholder left
unfilled, and nothing changed (no game row, or the same game version).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import LANGUAGES, catalog, format_day, placeholders, translate
from bot.lottery.apply import applier_for
from bot.service import Attachment, Context, GameService, Message
from bot.service.refusals import setup_refusal
from engine import registry
from engine.core.documents import INT_MAX, INT_MIN
from engine.core.errors import OrderError, SetupError
from engine.spacechess import SPACECHESS

GUILD, CHANNEL = 10, 30
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, locale="en-US")


def player(user_id: int, name: str) -> Context:
    return Context(user_id=user_id, user_name=name, guild_id=GUILD, channel_id=CHANNEL, locale="en-US")


ANN, BOB, DEE = player(2, "ann"), player(3, "bob"), player(5, "dee")
RUNNING_GAME = b"""
[[characters]]
id = "Jean Luc"
team = 1
role = "soldier"
at = "L2"
weapon = "bolter"
armour = "light"
items = ["grenades", "scope"]
ability = "rage"
cards = [1, 2]
[[characters]]
id = "Dee Dee"
team = 2
role = "soldier"
at = "L5"
ap = 5
weapon = "bolter"
armour = "light"
items = ["grenades", "scope"]
ability = "rage"
cards = [1, 2]
[[characters]]
id = "Ann"
team = 1
role = "general"
at = "A1"
cards = [3, 4]
[[characters]]
id = "Bob"
team = 2
role = "general"
at = "X44"
cards = [5, 6]
"""


@pytest.fixture
def svc(store):
    return GameService(store, seed_source=lambda: 99)


def game(svc, channel: int = CHANNEL):
    return svc.store.game_in_channel(GUILD, channel)


def rendered(reply) -> list[str]:
    """The reply as each language shows it."""
    return [translate(m.key, language, m.params) for language in LANGUAGES for m in reply.messages]


def unfilled(message: Message, language: str) -> set[str]:
    """Placeholders of a message (and of the messages nested in it) that its parameters leave empty."""
    assert message.key in catalog(language), message.key
    template = catalog(language)[message.key]
    missing = placeholders(template) - set(message.params)
    for value in message.params.values():
        if isinstance(value, Message):
            missing |= unfilled(value, language)
    return missing


def refused(reply, key: str) -> list[str]:
    """A refusal with `key` whose text reads: every placeholder filled, no internals shown."""
    assert not reply.ok and [m.key for m in reply.messages] == [key], [(m.key, dict(m.params)) for m in reply.messages]
    for language in LANGUAGES:
        for message in reply.messages:
            assert unfilled(message, language) == set(), message
    texts = rendered(reply)
    raw = [k for k in catalog("en") if k.startswith("setup.")]
    assert not any("Message(" in text or any(k in text for k in raw) for text in texts), texts
    return texts


def create_with_setup(svc, name: str, data: bytes, channel: int = CHANNEL):
    ctx = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=channel, manage_server=True, locale="en-US")
    return svc.handle(ctx, "sc new", {"name": "Orion", "setup": Attachment(name, data)})


# -- point 10: names --------------------------------------------------------------------------------

def test_a_name_with_spaces_joins_as_the_guides_promise(svc):
    assert svc.handle(GM, "sc new", {"name": "Orion Nebula"}).ok
    reply = svc.handle(ANN, "sc join", {"name": "Jean   Luc", "team": "1", "role": "soldier"})
    assert reply.ok, rendered(reply)
    assert [seat.actor for seat in svc.store.seats(game(svc).id)] == ["Jean Luc"]
    sheet = svc.handle(ANN, "game sheet", {"character": "JEAN LUC"})
    assert sheet.ok and sheet.messages[0].params["id"] == "Jean Luc"
    assert sheet.files[0].filename == "sheet-Jean_Luc.png"  # an attachment name Discord keeps as it is


@pytest.mark.parametrize("lookalike", ["Ｃｉｄ", "cid", "CID", " Cid "])
def test_lookalike_names_cannot_sit_side_by_side(svc, lookalike):
    assert svc.handle(GM, "sc new", {"name": "Orion"}).ok
    assert svc.handle(ANN, "sc join", {"name": "Cid", "team": "1", "role": "soldier"}).ok
    before = game(svc).version
    refused(svc.handle(BOB, "sc join", {"name": lookalike, "team": "2", "role": "soldier"}), "error.name_taken")
    assert game(svc).version == before and len(svc.store.seats(game(svc).id)) == 1


def test_a_fullwidth_name_is_stored_normalised(svc):
    assert svc.handle(GM, "sc new", {"name": "Orion"}).ok
    assert svc.handle(ANN, "sc join", {"name": "Ｃｉｄ", "team": "1", "role": "soldier"}).ok
    assert [c.id for c in SPACECHESS.from_json(game(svc).state).characters] == ["Cid"]


def test_orders_name_characters_with_spaces(svc):
    """`shoot Jean Luc`: the order language reads a name of several words (the name runs to the end)."""
    assert create_with_setup(svc, "setup.toml", RUNNING_GAME).ok
    assert svc.handle(GM, "gm replace", {"character": "Dee Dee", "user": DEE.user_id}).ok
    shot = svc.handle(DEE, "sc shoot", {"target": "jean  luc"})
    assert shot.ok, rendered(shot)
    state = SPACECHESS.from_json(game(svc).state)
    assert state.find("Jean Luc").hp < state.find("Jean Luc").max_hp


@pytest.mark.parametrize("name", ["<@&42>", "@everyone", "**Cid**"])
def test_refused_names_say_why(svc, name):
    assert svc.handle(GM, "sc new", {"name": "Orion"}).ok
    before = game(svc).version
    refused(svc.handle(ANN, "sc join", {"name": name, "team": "1", "role": "soldier"}), "error.bad_name_char")
    assert game(svc).version == before


def test_game_names_follow_the_same_rule(svc):
    refused(svc.handle(GM, "sc new", {"name": "x" * 33}), "error.option_too_long")  # at most 32, as a join
    refused(svc.handle(GM, "sc new", {"name": "x;y"}), "error.bad_name_char")
    assert game(svc) is None
    assert svc.handle(GM, "sc new", {"name": "Orion  Nebula"}).ok
    assert game(svc).name == "Orion Nebula"


def test_the_engines_name_refusal_fills_its_message():
    """`That name cannot be used ({reason})` showed its placeholder: the engine's parameters now fill it."""
    state = SPACECHESS.setup({"phase": "setup"})
    for name in ("<@&42>", "x" * 40, 7):
        with pytest.raises(OrderError) as caught:
            SPACECHESS.apply_input(state, "join", None, {"id": name, "team": 1, "role": "soldier"})
        for language in LANGUAGES:
            text = translate(f"error.{caught.value.code}", language, caught.value.params)
            assert "{" not in text and "32" in text, text


# -- point 11: setup documents -----------------------------------------------------------------------

HUGE = 2**70
CRAFTED = [
    ("rules = 1\n", "rules"),
    ('characters = {"a" = 1}\n', "characters"),
    ("[[characters]]\nid = 5\nteam = 1\nrole = \"soldier\"\n", "characters[0].id"),
    ('phase = "setup"\n[[characters]]\nid = "<@&42>"\nteam = 1\nrole = "soldier"\n', "characters[0].id"),
    ('phase = "setup"\n[[characters]]\nid = "' + "a" * 60_000 + '"\nteam = 1\nrole = "soldier"\n',
     "characters[0].id"),
    (f'phase = "setup"\nhp_soldier = {HUGE}\n', "hp_soldier"),
    (f'phase = "setup"\n[rules]\nap_cap = {HUGE}\n', "rules.ap_cap"),
    (f"seed = {HUGE}\n", "seed"),
    ('phase = "setup"\n[[characters]]\nid = "a"\nteam = 1\nrole = "soldier"\nweapon = "laser"\n',
     "characters[0].weapon"),
    ('phase = "setup"\n[[characters]]\nid = "a"\nteam = 1\nrole = "soldier"\nitems = [{a = 1}]\n',
     "characters[0].items[0]"),
    ('phase = "setup"\n[[characters]]\nid = "a"\nteam = 1\nrole = "soldier"\ngrade = [1]\n', "characters[0].grade"),
    ('phase = "setup"\n[[pickups]]\nat = "A1"\nkind = ["ap"]\n', "pickups[0].kind"),
    ('phase = "setup"\nstart = 2024-01-01\n', "start"),
    ('phase = "setup"\nmap = "nope"\n', "map"),
    ('phase = "setup"\nmap = "....\\n..x.\\n....\\n....\\n"\n', "map, line 2, column 3"),
    ("", "characters"),
]


@pytest.mark.parametrize(("text", "where"), CRAFTED, ids=range(len(CRAFTED)))
def test_crafted_setup_documents_are_located_localised_refusals(svc, text, where):
    reply = create_with_setup(svc, "setup.toml", text.encode())
    texts = refused(reply, "error.setup")
    assert reply.messages[0].params["where"].startswith(where[:100])
    assert all(len(t) < 600 for t in texts)  # a name of 60,000 letters (a setup takes 64 KB) is not quoted back
    assert game(svc) is None


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"[1, 2]", "error.setup_not_table"),
        (b'{"setup": 5}', "error.setup_not_table"),
        (b"[" * 30_000 + b"]" * 30_000, "error.setup_too_deep"),  # within the 64 KB a setup may weigh
        (b'{"phase": "setup", "hp_soldier": NaN}', "error.setup"),
        (b'{"phase": "setup", "rules": ' + b"[" * 40 + b"]" * 40 + b"}", "error.setup"),
        (b"{}", "error.setup"),  # a running game without its generals
    ],
)
def test_json_documents_of_any_shape_are_refused_before_a_game_exists(svc, data, key):
    refused(create_with_setup(svc, "setup.json", data), key)
    assert game(svc) is None


def test_a_document_level_fault_has_no_empty_location():
    reply = setup_refusal(SetupError("bad_document", ""))
    assert "The game setup is invalid: the document must be a table of keys (map, characters…)." in refused(
        reply, "error.setup_document")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)
CHARACTER = st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "Jean Luc", "Ａ", "<@&42>"]) | JSON_VALUES,
     "team": st.sampled_from([1, 2]) | JSON_VALUES,
     "role": st.sampled_from(["soldier", "general"]) | JSON_VALUES},
    optional={"at": st.sampled_from(["A1", "X44", "B2"]) | JSON_VALUES, "cards": JSON_VALUES, "items": JSON_VALUES,
              "hp": JSON_VALUES, "ap": JSON_VALUES},
)
DOCUMENTS = st.fixed_dictionaries(
    {"phase": st.sampled_from(["setup", "running"]) | JSON_VALUES},
    optional={"rules": st.dictionaries(st.sampled_from(["ap_cap", "hp_general", "weapons"]), JSON_VALUES) | JSON_VALUES,
              "hp_soldier": JSON_VALUES, "characters": st.lists(CHARACTER | JSON_VALUES, max_size=3) | JSON_VALUES,
              "pickups": JSON_VALUES, "seed": JSON_VALUES},
)


CHANNELS = itertools.count(1000)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=DOCUMENTS, wrapped=st.booleans())
def test_no_document_escapes_as_an_exception(svc, document, wrapped):
    """Whatever the document, /sc new answers; a refusal creates no game, an accepted game's stored
    setup rebuilds the same game."""
    channel = next(CHANNELS)  # a fresh channel each time: accepted documents leave their game
    data = json.dumps({"setup": document} if wrapped else document).encode()
    reply = create_with_setup(svc, "setup.json", data, channel)
    created = game(svc, channel)
    if not reply.ok:
        refused(reply, reply.messages[0].key)
        assert created is None
        return
    rules = registry.get(created.kind)
    assert rules.to_json(rules.setup(created.setup)) == created.state
    for value in _leaves(created.setup):  # what was stored is what any store keeps intact
        assert not (isinstance(value, float) and not math.isfinite(value))
        assert not (isinstance(value, int) and not INT_MIN <= value <= INT_MAX)


def _leaves(value):
    if isinstance(value, dict):
        for child in value.values():
            yield from _leaves(child)
    elif isinstance(value, list):
        for child in value:
            yield from _leaves(child)
    else:
        yield value


# -- point 12: accepted but wrong ----------------------------------------------------------------------

def _today(svc) -> dt.date:
    return applier_for(svc).schedule.local_date(dt.datetime.now(dt.UTC))


def test_an_end_date_in_the_past_is_refused(svc):
    yesterday = (_today(svc) - dt.timedelta(days=1)).isoformat()
    for end in ("2000-01-01", yesterday):
        reply = svc.handle(GM, "sc new", {"name": "Timed", "end_date": end})
        texts = refused(reply, "error.end_date_past")
        assert format_day(dt.date.fromisoformat(end), "fr") in texts[0]  # as French readers write dates
        assert game(svc) is None
    assert svc.handle(GM, "sc new", {"name": "Timed", "end_date": _today(svc).isoformat()}).ok


@pytest.mark.parametrize("reason", ["", "   "])
def test_gm_set_needs_a_reason(svc, reason):
    assert create_with_setup(svc, "setup.toml", RUNNING_GAME).ok
    before = game(svc)
    refused(svc.handle(GM, "sc set", {"character": "Jean Luc", "reason": reason, "ap": 4}), "error.empty_reason")
    after = game(svc)
    assert (after.version, after.state) == (before.version, before.state)
    assert svc.handle(GM, "sc set", {"character": "jean luc", "reason": "lag", "ap": 4}).ok


def test_gm_pickup_on_a_character_is_refused(svc):
    assert create_with_setup(svc, "setup.toml", RUNNING_GAME).ok
    before = game(svc)
    texts = refused(svc.handle(GM, "sc pickup", {"cell": "L2", "kind": "ap", "amount": 2}), "error.occupied")
    assert "L2" in texts[0]
    after = game(svc)
    assert (after.version, after.state) == (before.version, before.state)
    assert svc.handle(GM, "sc pickup", {"cell": "L3", "kind": "ap", "amount": 2}).ok
