"""Issue 23.12: uploaded files — a map without a floor cell, a setup, map or export too large to be
worth parsing, an imported seed the bot could never have drawn — refused in words, nothing changed."""

from __future__ import annotations

import json

import pytest

from bot.i18n import LANGUAGES, translate
from bot.service import Attachment
from bot.service.commands import ATTACHMENT_MAX_BYTES, SETUP_MAX_BYTES
from tests.bot.service.test_game_state_hardening import ELSEWHERE, started
from tests.bot.service.test_spacechess_commands import (
    ANN,
    CHANNEL,
    GM,
    GUILD,
    game,
    keys,
    ok,
    svc,  # noqa: F401 — the Space Chess service fixture
)

NO_FLOOR = "####\n####\n####\n####\n"


def in_words(reply) -> dict[str, str]:
    """The refusal as each language shows it: no catalog key nor placeholder left."""
    assert not reply.ok
    [message] = reply.messages
    shown = {lang: translate(message.key, lang, message.params) for lang in LANGUAGES}
    for text in shown.values():
        assert "{" not in text and "setup." not in text and "error." not in text and "export." not in text, text
    return shown


def state_of(service) -> tuple:
    current = game(service)
    return current, service.store.log(current.id)


def test_a_map_without_a_floor_cell_is_refused_and_nothing_changes(svc):  # noqa: F811
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    before = state_of(svc)
    reply = svc.handle(GM, "sc map", {"file": Attachment("walls.map", NO_FLOOR.encode())})
    assert keys(reply) == ["error.setup"] and reply.messages[0].params["where"] == "map"
    shown = in_words(reply)
    assert "no floor cell" in shown["en"] and "aucune case de sol" in shown["fr"]
    assert state_of(svc) == before


def test_a_new_game_on_a_map_without_a_floor_cell_is_refused_too(svc):  # noqa: F811
    setup = f'map = """\n{NO_FLOOR}"""\n'
    reply = svc.handle(GM, "sc new", {"name": "Orion", "setup": Attachment("walls.toml", setup.encode())})
    assert keys(reply) == ["error.setup"] and reply.messages[0].params["where"] == "map"
    assert game(svc) is None


def too_large(limit: int) -> bytes:
    return b"#" * (limit + 1)


@pytest.fixture
def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any parser reached fails the test: an oversized file must be refused before it is read."""
    def parsed(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the file was parsed before its size was checked")

    monkeypatch.setattr("bot.service.lifecycle._setup_from_attachment", parsed)
    monkeypatch.setattr("bot.service.gm.read_export", parsed)
    monkeypatch.setattr("engine.spacechess.setupdoc.parse_map", parsed)


def test_an_oversized_setup_is_refused_before_parsing_with_its_limit(svc, no_parsing):  # noqa: F811
    reply = svc.handle(GM, "sc new", {"name": "Orion", "setup": Attachment("big.toml", too_large(SETUP_MAX_BYTES))})
    assert keys(reply) == ["error.attachment_too_large"]
    assert reply.messages[0].params == {"name": "big.toml", "size_kb": 65, "limit_kb": 64}
    assert "64 KB" in in_words(reply)["en"] and "64 Ko" in in_words(reply)["fr"]
    assert game(svc) is None


def test_an_oversized_map_is_refused_before_parsing(svc, no_parsing):  # noqa: F811
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    before = state_of(svc)
    reply = svc.handle(GM, "sc map", {"file": Attachment("big.map", too_large(SETUP_MAX_BYTES))})
    assert keys(reply) == ["error.attachment_too_large"] and reply.messages[0].params["limit_kb"] == 64
    assert state_of(svc) == before


def test_an_oversized_export_is_refused_before_parsing(svc, no_parsing):  # noqa: F811
    reply = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("big.json", too_large(ATTACHMENT_MAX_BYTES))})
    assert keys(reply) == ["error.attachment_too_large"] and reply.messages[0].params["limit_kb"] == 8192
    assert svc.store.game_in_channel(GUILD, CHANNEL + 10) is None


def test_a_file_at_the_limit_is_read(svc):  # noqa: F811
    padding = "#" * (SETUP_MAX_BYTES - len('name = "x"\n') - 1)
    setup = f'{padding}\nname = "x"\n'.encode()
    assert len(setup) == SETUP_MAX_BYTES
    reply = svc.handle(GM, "sc new", {"name": "Orion", "setup": Attachment("edge.toml", setup)})
    assert keys(reply) != ["error.attachment_too_large"]


def exported(svc) -> dict:  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "gm pause", {}))
    return json.loads(ok(svc.handle(GM, "gm export", {})).files[0].data)


@pytest.mark.parametrize("seed", [-1, 2**62])
def test_an_imported_seed_the_bot_could_not_have_drawn_is_refused(svc, seed):  # noqa: F811
    """The bot draws seeds of 62 bits (`secrets.randbits(62)`): 0 to 2^62 - 1."""
    doc = exported(svc)
    doc["game"]["seed"] = seed
    reply = svc.handle(ELSEWHERE, "gm import", {"file": Attachment("seed.json", json.dumps(doc).encode())})
    assert keys(reply) == ["error.bad_export"] and reply.messages[0].params["where"] == "game.seed"
    shown = in_words(reply)
    assert "4611686018427387903" in shown["en"] and "4611686018427387903" in shown["fr"]
    assert svc.store.game_in_channel(GUILD, CHANNEL + 10) is None


@pytest.mark.parametrize("seed", [0, 2**62 - 1])
def test_the_seeds_at_the_ends_of_the_range_are_imported(svc, seed):  # noqa: F811
    doc = exported(svc)
    doc["game"]["seed"] = seed
    ok(svc.handle(ELSEWHERE, "gm import", {"file": Attachment("seed.json", json.dumps(doc).encode())}))
    assert svc.store.game_in_channel(GUILD, CHANNEL + 10).seed == seed
