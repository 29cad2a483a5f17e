"""A draw offered to HexArena's computer is judged as Arkeon's computer judges one (the computer
module's `accepts_draw`, the one hook the service asks): declined while it stands level or better —
being a move behind, as the side asked nearly always is, is not standing worse — and accepted once
it stands worse, here a fleet down to its admiral and cargos."""

from __future__ import annotations

import json

import pytest

from bot.games.hexarena import computer
from bot.service import GameService
from bot.service.replies import Attachment
from engine import registry
from tests.bot.hexarena.test_play import ANN, GM, keys
from tests.support.computers import computers_play, post_keys

RULES = registry.get("hexarena")


def game(svc: GameService):
    return svc.store.game_in_channel(GM.guild_id, GM.channel_id)


def opening_without(*types: str, side: str = "blue") -> bytes:
    """A lobby on the standard opening with `side`'s ships of `types` gone (a setup document)."""
    view = RULES.view(RULES.setup({}))
    ships = [{"id": ident, **{k: ship[k] for k in ("side", "type", "at", "facing")}}
             for ident, ship in view["ships"].items() if not (ship["side"] == side and ship["type"] in types)]
    return json.dumps({"phase": "setup", "ships": ships}).encode()


def against_the_computer(svc: GameService, setup: bytes | None = None) -> GameService:
    new = {"name": "Arena"} if setup is None else {"name": "Arena", "setup": Attachment("arena.json", setup)}
    assert svc.handle(GM, "hx new", new).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok  # red
    assert keys(svc.handle(ANN, "hx challenge", {"level": "hard"}))[0] == "game.computer_joined"
    assert svc.handle(GM, "gm start", {}).ok
    computers_play(svc)
    return svc


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 5)


def test_the_judgement_reads_the_evaluation_less_the_edge_of_the_move() -> None:
    opening = RULES.setup({})  # red to move: blue, asked, is a move behind and otherwise level
    assert computer.evaluate(opening, "blue") == -computer.DRAW_MARGIN
    assert not any(computer.accepts_draw(RULES, opening, side, level) for side in ("red", "blue")
                   for level in computer.LEVELS)
    lost = RULES.setup(json.loads(opening_without("fighter", "patrol")) | {"phase": "running"})
    assert all(computer.accepts_draw(RULES, lost, "blue", level) for level in computer.LEVELS)
    assert not any(computer.accepts_draw(RULES, lost, "red", level) for level in computer.LEVELS)


def test_the_computer_declines_at_the_opening(svc: GameService) -> None:
    against_the_computer(svc)
    assert keys(svc.handle(ANN, "game offer-draw", {})) == ["event.hexarena.draw_offered"]
    assert post_keys(computers_play(svc))[:1] == ["event.hexarena.draw_declined"]  # its answer, after the offer's
    assert game(svc).status == "running"


def test_the_computer_accepts_once_it_stands_worse(svc: GameService) -> None:
    against_the_computer(svc, opening_without("fighter", "patrol"))
    assert keys(svc.handle(ANN, "game offer-draw", {})) == ["event.hexarena.draw_offered"]
    assert post_keys(computers_play(svc))[:1] == ["event.hexarena.game_over"]
    assert game(svc).status == "finished"
    result = RULES.result(RULES.from_json(game(svc).state))
    assert (result.winner, result.reason) == (None, "agreed")


def test_the_timer_runner_is_woken_once_the_offer_to_the_computer_is_committed(svc: GameService) -> None:
    """The offer commits in a transaction held for its direct messages (`bot.service.draw_offers`): the
    runner must be woken after that transaction ends (`Store.after_commit`), not at the inner commit —
    a runner reading the timers then, on its own connection as it does, would find no computer's turn
    and leave it to the next poll. Every wake here reads them as the runner does."""
    from bot.store import Store
    from bot.store.timers import game_timers

    against_the_computer(svc)
    runner = Store(svc.store.engine.url.render_as_string(hide_password=False), migrate=False)
    seen: list[list[str]] = []
    svc.timer_listeners.append(lambda: seen.append([t.kind for t in game_timers(runner, game(svc).id)]))
    try:
        assert svc.handle(ANN, "game offer-draw", {}).ok
    finally:
        runner.close()
    assert seen and all("computer" in kinds for kinds in seen), seen
