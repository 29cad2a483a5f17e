"""Both catalogs complete: same keys, same placeholders; every key the code uses exists."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import LANGUAGES, catalog, language_of, placeholders, translate
from bot.service.commands import table
from engine.core.errors import COMMON_CODES

ROOT = Path(__file__).resolve().parents[2]


def test_catalogs_have_the_same_keys():
    fr, en = catalog("fr"), catalog("en")
    assert sorted(set(fr) ^ set(en)) == []


def test_catalogs_have_the_same_placeholders():
    fr, en = catalog("fr"), catalog("en")
    mismatched = {key: (placeholders(fr[key]), placeholders(en[key])) for key in fr
                  if placeholders(fr[key]) != placeholders(en[key])}
    assert mismatched == {}


def test_no_empty_text():
    for language in LANGUAGES:
        assert [k for k, v in catalog(language).items() if not v.strip()] == []


def test_every_common_engine_code_has_a_message():
    assert sorted(c for c in COMMON_CODES if f"error.{c}" not in catalog("en")) == []


def test_every_command_and_option_is_described():
    keys = set(catalog("en"))
    missing = []
    for cmd in table().values():
        if cmd.description_key not in keys:
            missing.append(cmd.description_key)
        for opt in cmd.options:
            key = cmd.option_key(opt)
            if key not in keys:
                missing.append(key)
    assert missing == []


def test_every_literal_key_in_the_code_exists():
    """Keys written as string literals in bot/ ("error.x", "game.y"...) are all in the catalog."""
    pattern = re.compile(r"""["']((?:error|game|gm|console|button|turn|draws|sc|word)\.[a-z0-9_.]+)["']""")
    sources = [p for p in (ROOT / "bot").rglob("*.py") if p.name != "config.py"]  # config keys look alike
    used = {m for path in sources for m in pattern.findall(path.read_text(encoding="utf-8"))}
    assert sorted(k for k in used if k not in catalog("en")) == []


def test_language_of_discord_locales():
    assert language_of("en-US") == "en"
    assert language_of("fr") == "fr"
    assert language_of("de", fallback="en") == "en"
    assert language_of(None) == "fr"


def test_translate_formats_lists_and_keeps_unknown_placeholders():
    text = translate("error.option_bad_choice", "en", {"option": "team", "value": "3", "choices": ["1", "2"]})
    assert text == "Option `team` cannot be `3`; choose one of: 1, 2."
    assert "{max}" in translate("error.option_too_long", "fr", {"option": "name"})


def test_empty_lists_dicts_and_nested_messages_read_naturally():
    from bot.service import Message

    assert translate("game.info.winner", "en", {"winner": []}) == "Winner: none."
    assert translate("game.info.winner", "fr", {"winner": {"ap": 9, "hp": 3}}) == "Vainqueur : ap 9, hp 3."
    nested = [Message("turn.extra.grade", {"n": 1}), Message("turn.extra.capped", {"n": 2})]
    assert translate("game.info.winner", "en", {"winner": nested}) == "Winner:  · grade +1 · 2 lost to the cap of 9."


def test_every_space_chess_identifier_has_a_label():
    """Identifiers reach players through label.<identifier> (sheets, events, menus)."""
    from engine.spacechess.ruleset import ABILITIES, ARMOURS, GRADES, ITEMS, POWERS, ROLES, WEAPONS

    identifiers = {*WEAPONS, *ARMOURS, *ITEMS, *ABILITIES, *POWERS, *ROLES, *GRADES}
    assert sorted(i for i in identifiers if f"label.{i}" not in catalog("en")) == []
