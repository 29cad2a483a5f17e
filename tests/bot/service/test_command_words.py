"""Commands named in replies read as the reader types them (issue 24, point 4): a French reader is
told `/mj reprendre`, never `/gm resume`. Catalog templates write a command as a placeholder
(``{/gm resume}``, ``{/gm clock extend:}``) that `translate` renders with the reader's names."""

from __future__ import annotations

import glob
import json
import re
import unicodedata
from pathlib import Path

import pytest

from bot.discord_adapter.payload import command_payload
from bot.i18n import LANGUAGES, CommandText, catalog, command_name, commands_in, option_name, translate
from bot.service import GameService
from bot.service.commands import table, unknown_command
from tests.bot.service.test_spacechess_commands import ANN, GM

ROOT = Path(__file__).resolve().parents[3]
CATALOGS = [ROOT / "bot/i18n/en.json", ROOT / "bot/i18n/fr.json",
            *map(Path, sorted(glob.glob(str(ROOT / "bot/games/*/strings.*.json"))))]


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def _group_names() -> set[str]:
    """Every group as some reader types it (``gm``, ``mj``, ``partie``...)."""
    groups = {path.split()[0] for path in table()}
    return {_fold(command_name(group, language)) for group in groups for language in LANGUAGES} | groups


def test_no_catalog_template_writes_a_literal_command():
    literal = re.compile(r"(?<![\w/{])/([\w\u00C0-\u017F-]+)")
    groups = _group_names()
    found = []
    for path in CATALOGS:
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            found += [(path.name, key, m.group(0)) for m in literal.finditer(text) if _fold(m.group(1)) in groups]
    assert found == []


def test_every_command_a_template_names_exists_with_its_options_and_both_languages_name_the_same():
    fr, en = catalog("fr"), catalog("en")
    for key, template in en.items():
        named = commands_in(template)
        assert sorted(commands_in(fr[key])) == sorted(named), key
        for written in named:
            words = written.removeprefix("/").split()
            command = table().get(" ".join(words[:2]))
            assert command is not None, (key, written)
            assert all(command.option(word) is not None for word in words[2:]), (key, written)


def test_a_template_names_commands_and_options_in_the_readers_words():
    assert "`/mj reprendre`" in translate("gm.paused", "fr", {"name": "Orion"})
    assert "`/gm resume`" in translate("gm.paused", "en", {"name": "Orion"})
    ran_out = translate("gm.clock_ran_out", "fr", {"actor": "Ann"})
    assert f"`/{command_name('gm clock', 'fr')} {option_name('extend', 'fr')}:`" in ran_out
    assert f"{option_name('award', 'fr')}:true" in ran_out
    assert "{" not in ran_out


def test_a_value_naming_a_command_reads_in_the_readers_words():
    assert translate("error.not_a_player", "fr", {"command": CommandText("sc join")}).count("/sc rejoindre") == 1
    assert "/sc join" in translate("error.not_a_player", "en", {"command": CommandText("sc join")})


@pytest.fixture
def svc(sqlite_store):
    return GameService(sqlite_store, seed_source=lambda: 99)


def test_refusals_of_the_service_name_the_readers_commands(svc):
    reply = svc.handle(ANN, "game info", {})
    [message] = reply.messages
    french = translate(message.key, "fr", message.params)
    assert "`/sc nouvelle`" in french and "`/sc new`" not in french, french
    assert "`/sc new`" in translate(message.key, "en", message.params)
    ok = svc.handle(GM, "sc new", {"name": "Orion"})
    assert ok.ok
    [message] = svc.handle(ANN, "sc move", {"to": "C3"}).messages
    assert "/sc rejoindre" in translate(message.key, "fr", message.params)


def test_an_unknown_command_suggests_the_readers_command():
    refusal = unknown_command("gm resme")
    french = translate(refusal.key, "fr", refusal.params)
    assert "/mj reprendre" in french, french
    assert "/gm resume" in translate(refusal.key, "en", refusal.params)


def test_an_unknown_french_command_is_named_and_matched_in_french():
    """Issue 24: `/partie plateaux` was echoed `/game plateaux` with the group's English commands."""
    refusal = unknown_command("game plateaux")  # the console and Discord give the group by its path
    french = translate(refusal.key, "fr", refusal.params)
    assert french == "Commande inconnue `/partie plateaux`. Vouliez-vous dire `/partie plateau` ?", french
    assert translate(refusal.key, "en", refusal.params).endswith("Did you mean `/game board`?")
    listed = unknown_command("game xyzzy")
    assert translate(listed.key, "fr", listed.params).startswith("Commande inconnue `/partie xyzzy`. Les commandes")


def test_discord_descriptions_name_commands_in_each_language():
    payload = json.dumps(command_payload(), ensure_ascii=False)
    assert "{/" not in payload
    assert "/mj exporter" in payload and "/gm export" in payload
