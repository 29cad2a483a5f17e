"""The tally test game in the bot: its presenter and its place in the game list (group ``/tl``).

Its ``new``, ``join`` and ``order`` commands come from the shared declaration like any game's.
"""

from __future__ import annotations

from bot.games import GameEntry, Presenter, register_presenter
from bot.i18n import add_strings


class TallyPresenter(Presenter):
    kind = "tally"


TALLY_PRESENTER = register_presenter(TallyPresenter())
TALLY_ENTRY = GameEntry("tally", "tl", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot",
                        "none")


def _strings(group: str, game: str, words: dict[str, str]) -> dict[str, str]:
    """The catalog entries of a test game's commands and events, one language at a time."""
    return {f"name.group.{group}": group, f"cmd.{group}": words["group"],
            f"cmd.{group}.new": words["new"], f"opt.{group}.new.name": words["name"],
            f"opt.{group}.new.setup": words["setup"], f"cmd.{group}.join": words["join"],
            f"opt.{group}.join.name": words["name"], f"cmd.{group}.order": words["order"],
            f"opt.{group}.order.text": words["text"], f"rules.{game}": words["rules"]}


for _language, _words in {
    "en": {"group": "The tally test game", "new": "Start a tally", "join": "Join the tally", "name": "A name",
           "setup": "A setup document", "order": "Add to your tally", "text": "add N", "rules": "First to the goal wins."},
    "fr": {"group": "Le jeu de test du décompte", "new": "Lancer un décompte", "join": "Rejoindre le décompte",
           "name": "Un nom", "setup": "Un document de configuration", "order": "Ajouter à son décompte",
           "text": "ajoute N", "rules": "Le premier au but gagne."},
}.items():
    add_strings(_language, _strings("tl", "tally", _words))
