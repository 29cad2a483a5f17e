"""Issue 23, Space Chess: option values stay values, draw entry follows the Loto of its date, and
the replies that misled or printed raw ids. Every refusal leaves the game as it was."""

from __future__ import annotations

import pytest

from bot.i18n import translate
from tests.bot.service.test_spacechess_commands import (
    ANN,
    CID,
    GM,
    game,
    keys,
    lobby,
    ok,
    svc,  # noqa: F401 — the Space Chess service fixture
)


def started(service):
    lobby(service)
    ok(service.handle(GM, "gm start", {}))
    ok(service.handle(GM, "sc set", {"character": "Cid", "ap": 9, "reason": "test"}))
    return service


def refused(service, ctx, path, options):
    """The refusal's message, checked to have changed nothing (version, state, log)."""
    before = game(service)
    log = service.store.log(before.id)
    reply = service.handle(ctx, path, options)
    assert not reply.ok, keys(reply)
    after = game(service)
    assert (after.version, after.state, service.store.log(after.id)) == (before.version, before.state, log)
    return reply.messages[0]


# -- 1. a slash option's value is one value, never order text ----------------------------------------

@pytest.mark.parametrize(("who", "path", "options", "option"), [
    (CID, "sc shoot", {"target": "Dee; move L5"}, "target"),
    (CID, "sc move", {"to": "L6;rage"}, "to"),
    (CID, "sc move", {"to": "L4 ; rage"}, "to"),
    (CID, "sc grenade", {"cell": "L5;rage"}, "cell"),
    (CID, "sc ability", {"ability": "friendship", "target": "Ann;rage"}, "target"),
    (ANN, "sc power", {"power": "heal", "target": "Cid; encourage"}, "target"),
    (ANN, "sc power", {"power": "teleport", "target": "Cid", "cell": "B2; hack"}, "cell"),
])
def test_an_option_value_never_runs_as_orders(svc, who, path, options, option):  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "sc set", {"character": "Ann", "ap": 9, "reason": "test"}))
    message = refused(svc, who, path, options)
    assert message.params.get("option") == option, message
    for lang in ("en", "fr"):
        assert f"`{option}`" in translate(message.key, lang, message.params)
