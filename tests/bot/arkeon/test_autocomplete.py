"""`/ak place` and `/ak swap` suggest from the legal turns, given the options already filled: every
suggestion plays, and nothing the rules would refuse is offered."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.service.commands import MAX_CHOICES
from engine import registry
from tests.bot.arkeon.test_play import ANN, BOB, CHANNEL, GM, GUILD, mover

RULES = registry.get("arkeon")
FRENCH = {"E": "E", "NE": "NE", "NW": "NO", "W": "O", "SW": "SO", "SE": "SE"}


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 1)
    assert service.handle(GM, "ak new", {"name": "Duel"}).ok
    assert service.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert service.handle(BOB, "ak join", {"name": "Bob"}).ok
    assert service.handle(GM, "gm start", {}).ok
    return service


def legal(svc: GameService, actor: str) -> list[str]:
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    return [RULES.format_order(order) for order in RULES.legal_orders(RULES.from_json(game.state), actor)]


def past_the_placements(svc: GameService) -> None:
    """Both sides place their three setup basics (AK-10), from the suggestions."""
    while RULES.from_json(svc.store.game_in_channel(GUILD, CHANNEL).state).phase == "placing":
        who = mover(svc)
        cell = svc.complete(who, "ak place", "cell", "", {"kind": "basic"})[0]
        direction = svc.complete(who, "ak place", "direction", "", {"kind": "basic", "cell": cell})[0]
        assert svc.handle(who, "ak place", {"kind": "basic", "cell": cell, "direction": direction}).ok


def test_place_suggests_the_cells_of_the_chosen_kind_then_its_directions(svc: GameService) -> None:
    first = mover(svc)
    other = BOB if first is ANN else ANN
    assert svc.complete(other, "ak place", "cell", "", {"kind": "basic"}) == []  # not their move
    setup = svc.complete(first, "ak place", "cell", "", {"kind": "basic"})
    assert setup and svc.complete(first, "ak place", "cell", "", {"kind": "triple"}) == []  # AK-10: basics only
    past_the_placements(svc)
    who = mover(svc)
    name = "Ann" if who is ANN else "Bob"
    orders = legal(svc, name)
    for kind in ("basic", "triple", "pacifier"):
        cells = svc.complete(who, "ak place", "cell", "", {"kind": kind})
        expected = list(dict.fromkeys(o.split()[2] for o in orders if o.startswith(f"place {kind} ")))
        assert cells == expected[:MAX_CHOICES] and cells
    cell = svc.complete(who, "ak place", "cell", "", {"kind": "triple"})[0]
    facings = svc.complete(who, "ak place", "direction", "", {"kind": "triple", "cell": cell.lower()})
    # the players have no client locale: the server's language, French, names the directions (O for W)
    assert facings == [FRENCH[o.split()[3]] for o in orders if o.startswith(f"place triple {cell} ")]
    assert svc.complete(who, "ak place", "direction", "", {"kind": "pacifier", "cell": cell}) == []  # no facing
    assert svc.complete(who, "ak place", "cell", "z", {"kind": "basic"}) == []  # what was typed filters
    played = svc.handle(who, "ak place", {"kind": "triple", "cell": cell, "direction": facings[-1].lower()})
    assert played.ok and played.files


def test_swap_suggests_only_ones_own_pieces_that_may_be_swapped(svc: GameService) -> None:
    past_the_placements(svc)
    who = mover(svc)
    name = "Ann" if who is ANN else "Bob"
    orders = legal(svc, name)
    cells = svc.complete(who, "ak swap", "cell", "")
    assert cells == list(dict.fromkeys(o.split()[1] for o in orders if o.startswith("swap ")))
    state = RULES.from_json(svc.store.game_in_channel(GUILD, CHANNEL).state)
    side = RULES.side_of(state, name)
    assert cells and all(RULES.view(state)["cells"][cell]["side"] == side for cell in cells)
    assert svc.complete(who, "ak swap", "cell", "", {"kind": "basic"}) == []  # all its pieces are basics
    facings = svc.complete(who, "ak swap", "direction", "", {"cell": cells[0], "kind": "triple"})
    assert facings and svc.handle(who, "ak swap", {"cell": cells[0], "kind": "triple", "direction": facings[0]}).ok


def test_a_mistyped_direction_is_refused_in_words_and_changes_nothing(svc: GameService) -> None:
    who = mover(svc)
    cell = svc.complete(who, "ak place", "cell", "", {"kind": "basic"})[0]
    before = svc.store.game_in_channel(GUILD, CHANNEL)
    reply = svc.handle(who, "ak place", {"kind": "basic", "cell": cell, "direction": "xx"})
    assert not reply.ok and reply.messages[0].key == "error.bad_syntax"
    assert svc.store.game_in_channel(GUILD, CHANNEL).state == before.state
