"""Options and choices as the reader's Discord shows them (issue 24, point 2).

One matcher takes every choice of every game by its value, its label in either language or an
alias of the guides, without case or accents; every refusal of an option names the option and its
choices in the reader's words — the same catalog keys the Discord localisations come from.
"""

from __future__ import annotations

import pytest

from bot.discord_adapter.tree import choice_label
from bot.i18n import LANGUAGES, catalog, choice_key, choice_name, option_name, translate
from bot.service import GameService
from bot.service.commands import choice_names, coerce_options, folded, table
from bot.service.replies import ServiceError
from tests.bot.service.test_spacechess_commands import ANN, GM, ok


def every_choice():
    """(command, option, value) for every choice of every command of the table."""
    for cmd in table().values():
        for opt in cmd.options:
            for value in opt.choices:
                yield cmd, opt, value


def test_every_choice_of_every_game_has_a_label_in_both_languages():
    missing = [(cmd.path, opt.name, value) for cmd, opt, value in every_choice()
               if choice_key(opt.name, value, cmd.path.split()[0]) is None]
    assert missing == []
    for language in LANGUAGES:  # the same keys in both catalogs (test_i18n), none of them empty
        for cmd, opt, value in every_choice():
            assert catalog(language)[choice_key(opt.name, value, cmd.path.split()[0])].strip()


def test_no_two_choices_of_an_option_are_typed_alike():
    for cmd in table().values():
        for opt in cmd.options:
            group = cmd.path.split()[0]
            typed = [(folded(name), value) for value in opt.choices for name in choice_names(value, opt.name, group)]
            owners: dict[str, set[str]] = {}
            for name, value in typed:
                owners.setdefault(name, set()).add(value)
            assert {name: values for name, values in owners.items() if len(values) > 1} == {}, (cmd.path, opt.name)


def taken(cmd, option: str, typed: str) -> str:
    """What the command's option check makes of `typed` (its required options given as they must be)."""
    samples = {"cell": "C3", "name": "Ann"}
    raw = {opt.name: opt.choices[0] if opt.choices else samples.get(opt.holds, "1") for opt in cmd.options
           if opt.required}
    return coerce_options(cmd, {**raw, option: typed})[option]


def _typed_forms(name: str) -> set[str]:
    """A name as people type it: as it is, in capitals, without its accents."""
    return {name, name.upper(), folded(name)}


def test_every_choice_is_taken_by_each_of_its_names_in_either_language_without_case_or_accents():
    for cmd, opt, value in every_choice():
        for name in choice_names(value, opt.name, cmd.path.split()[0]):
            for typed in _typed_forms(name):
                assert taken(cmd, opt.name, typed) == value, (cmd.path, opt.name, typed)


@pytest.mark.parametrize(("path", "option", "typed", "value"), [
    ("hx join", "side", "Rouge", "red"),  # camp:Rouge
    ("ak challenge", "level", "difficile", "hard"),  # niveau:difficile
    ("sc new", "draws", "manuel", "manual"),  # tirages:manuel
    ("sc equip", "armour", "legere", "light"),  # armure:legere, without its accent
    ("sc equip", "armour", "LÉGÈRE", "light"),
    ("sb orders", "turn", "gauche", "left"),  # /sb jetons virage:gauche
    ("sc power", "power", "frappe", "airstrike"),  # the order language's alias, as the guide writes it
    ("sc power", "power", "frappe aérienne", "airstrike"),
    ("sc power", "power", "attaque aerienne", "airstrike"),
    ("sc equip", "item1", "lunette de visée", "scope"),  # the seed's name
    ("sc pickup", "kind", "objet", "item"),
    ("sc power", "direction", "NO", "nw"),  # direction:NO
    ("sc power", "direction", "nord-ouest", "nw"),
    ("ak challenge", "level", "FACILE", "easy"),
    ("gm settings", "pings", "tout le monde", "all"),
])
def test_french_values_the_issue_found_refused_are_taken(path, option, typed, value):
    assert taken(table()[path], option, typed) == value


def test_the_discord_labels_are_the_words_the_matcher_and_refusals_use():
    for cmd, opt, value in every_choice():
        group = cmd.path.split()[0]
        label = choice_label(opt.name, value, group)
        assert label.extras.get("key") == choice_key(opt.name, value, group)
        assert label.message == choice_name(opt.name, value, "en", group)[:100]


@pytest.fixture
def svc(sqlite_store):
    return GameService(sqlite_store, seed_source=lambda: 99)


def refusal_texts(reply) -> dict[str, str]:
    assert not reply.ok
    [message] = reply.messages
    return {language: translate(message.key, language, message.params) for language in LANGUAGES}


def test_a_bad_choice_is_refused_naming_the_option_and_its_choices_in_the_readers_words(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    seats = svc.store.seats(1)
    texts = refusal_texts(svc.handle(ANN, "sc join", {"name": "Ann", "team": "3", "role": "general"}))
    assert texts["fr"].startswith("L’option `équipe` ne peut pas valoir `3`") and "équipe 1, équipe 2" in texts["fr"]
    assert texts["en"].startswith("Option `team` cannot be `3`") and "team 1, team 2" in texts["en"]
    assert svc.store.seats(1) == seats  # nothing joined
    missing = refusal_texts(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1"}))
    assert missing == {"fr": "Option manquante : rôle.", "en": "Missing option: role."}
    armour = refusal_texts(svc.handle(ANN, "sc equip", {"armour": "plastic"}))
    assert "`armure`" in armour["fr"] and "légère, moyenne, lourde" in armour["fr"], armour["fr"]
    assert "light, medium, heavy" in armour["en"]
    assert svc.store.seats(1) == seats


def test_the_other_option_refusals_name_the_option_in_the_readers_words(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    texts = refusal_texts(svc.handle(GM, "sc new", {"name": "Lyra", "hp_soldier": "many"}))
    assert f"`{option_name('hp_soldier', 'fr')}`" in texts["fr"] and "`hp_soldier`" in texts["en"]
    unknown = refusal_texts(svc.handle(ANN, "sc join", {"colour": "red"}))
    assert "`colour`" in unknown["fr"] and "équipe" in unknown["fr"] and "rôle" in unknown["fr"], unknown["fr"]


def test_a_games_own_option_refusal_names_the_option_as_the_reader_types_it():
    """A game's handler raises with the option's declared name; the reader sees theirs."""
    from bot.service.refusals import service_refusal

    reply = service_refusal(ServiceError("error.option_bad_choice", option="armour", value="x",
                                         choices=["light", "heavy"]), "sc equip")
    [message] = reply.messages
    assert translate(message.key, "fr", message.params) == (
        "L’option `armure` ne peut pas valoir `x` ; choix possibles : légère, lourde.")


def test_the_settings_reply_names_its_choices_in_the_readers_words(svc):
    reply = ok(svc.handle(GM, "gm settings", {"language": "fr", "pings": "players"}))
    [message] = reply.messages
    assert "langue : français" in translate(message.key, "fr", message.params)
    assert "mentions : joueurs" in translate(message.key, "fr", message.params)
    assert "language: French" in translate(message.key, "en", message.params)
