"""The tally test games in the bot: presenters, their places in the game list, their strings.

``/tl`` (no driver), ``/ts`` (sealed bids, deadline driver) and ``/td`` (duel, move clock). Their
``new``, ``join`` and ``order`` commands come from the shared declaration like any game's; the
sealed game adds ``/ts ready``. Nothing of the shared bot code names them: this is the proof that
a game needs only its engine, presenter and command declarations.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.games import GameEntry, Presenter, register_presenter
from bot.i18n import add_strings
from bot.service.commands import command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Attachment, Message, Reply, ServiceError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules


class TallyPresenter(Presenter):
    kind = "tally"


class SealedPresenter(Presenter):
    kind = "sealed"

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        """A "board" drawn from the public view only, as a real game's renders must be."""
        return [Attachment("board.json", json.dumps(rules.view(state), sort_keys=True).encode())]

    def board(self, rules: GameRules, state: Any) -> list[Attachment]:
        return self.images(rules, state, ())

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        bid = rules.view_for(state, viewer).get("my_bid")
        return Reply((Message("status.actor", {"id": f"{actor} {'?' if bid is None else bid}"}),))

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        view = rules.view(state)
        return [Message("status.actor", {"id": f"{actor} {total}{' ✓' if actor in view['ready'] else ''}"})
                for actor, total in view["tallies"].items()]


class DuelPresenter(Presenter):
    kind = "duel"


TALLY_PRESENTER = register_presenter(TallyPresenter())
register_presenter(SealedPresenter())
register_presenter(DuelPresenter())
_HERE = "tests.support.tally_bot"
TALLY_ENTRY = GameEntry("tally", "tl", "tests.support.tally", _HERE, _HERE, "none",
                        demo="tests.support:tally_demo.txt")
SEALED_ENTRY = GameEntry("sealed", "ts", "tests.support.variants", _HERE, _HERE, "deadline")
DUEL_ENTRY = GameEntry("duel", "td", "tests.support.variants", _HERE, _HERE, "clock", "tests.support.duel_computer")
#: the test-only games as the bot serves any game outside its package: ``SPACECHESS_GAMES`` names
#: this tuple (`bot.games.EXTRA_GAMES_ENV`)
TEST_GAMES = (TALLY_ENTRY, SEALED_ENTRY, DUEL_ENTRY)
#: how to name them to the bot (the value of ``SPACECHESS_GAMES``)
TEST_GAMES_SPEC = f"{__name__}:TEST_GAMES"


@command("ts ready")
def ts_ready(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The sealed game's "my orders are final": public, so the others see who they wait for."""
    game = svc.channel_game(ctx)
    if game.kind != "sealed":
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    actor = svc.actor_of(ctx, game)
    return svc.describe(svc.apply_input(ctx, game, "ready", actor, {}), ctx)


def _strings(group: str, game: str, words: dict[str, str]) -> dict[str, str]:
    """The catalog entries of a test game's commands and events, one language at a time."""
    return {f"name.group.{group}": group, f"cmd.{group}": words["group"],
            f"cmd.{group}.new": words["new"], f"cmd.{group}.join": words["join"],
            f"opt.{group}.join.name": words["name"], f"cmd.{group}.order": words["order"],
            f"opt.{group}.order.text": words["text"], f"rules.{game}": words["rules"]}


for _language, _words in {
    "en": {"group": "The tally test game", "new": "Start a tally", "join": "Join the tally", "name": "A name",
           "order": "Add to your tally", "text": "add N", "rules": "First to the goal wins."},
    "fr": {"group": "Le jeu de test du décompte", "new": "Lancer un décompte", "join": "Rejoindre le décompte", "name": "Un nom", "order": "Ajouter à son décompte",
           "text": "ajoute N", "rules": "Le premier au but gagne."},
}.items():
    add_strings(_language, {
        **_strings("tl", "tally", _words), **_strings("ts", "sealed", _words), **_strings("td", "duel", _words),
        "cmd.ts.ready": _words["order"], "cmd.td.challenge": _words["order"],
        "event.sealed.submitted": "{actor} ✉", "event.sealed.bid": "{actor}: {n}",
        "event.sealed.ready": "{actor} ✓", "event.sealed.resolved": "#{turn}: {bids}",
        "event.duel.added": "{actor} +{n} = {total}", "event.duel.timed_out": "{actor} ⌛",
        "event.tally.joined": "{actor} +", "event.tally.added": "{actor} +{n} = {total}",
    })
