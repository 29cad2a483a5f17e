"""The setup documents the GM guides show (HexArena, Arkeon) are documents the games take as they
are: a lobby on the position, two players join, the start plays from it (issue 26 point 6)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine import registry

DOCS = Path(__file__).resolve().parents[2] / "docs"
_BLOCK = re.compile(r"```toml\n(.*?)```", re.S)


def shown_documents() -> list[tuple[str, str, dict]]:
    found = []
    for guide in ("gm-guide.en.md", "gm-guide.fr.md"):
        for block in _BLOCK.findall((DOCS / guide).read_text(encoding="utf-8")):
            document = tomllib.loads(block)
            kind = "hexarena" if "ships" in document else "arkeon" if "pieces" in document else None
            if kind is not None:
                found.append((guide, kind, document))
    return found


def test_both_guides_show_a_document_of_each_game() -> None:
    assert sorted((guide, kind) for guide, kind, _ in shown_documents()) == [
        ("gm-guide.en.md", "arkeon"), ("gm-guide.en.md", "hexarena"),
        ("gm-guide.fr.md", "arkeon"), ("gm-guide.fr.md", "hexarena")]


@pytest.mark.parametrize(("guide", "kind", "document"), shown_documents())
def test_a_shown_document_opens_a_lobby_that_plays_from_its_position(guide: str, kind: str, document: dict) -> None:
    rules = registry.get(kind)
    state = rules.setup(document, 7)
    assert rules.result(state).status == "setup", guide
    for name in ("Ann", "Bob"):
        state = rules.apply_input(state, "join", name, {"id": name}).state
    started = rules.apply_input(state, "start", None, {}).state
    assert rules.result(started).status == "running" and rules.waiting_on(started) == (document["to_move"],)


@pytest.mark.parametrize("guide", ["docs/player-guide.fr.md", "docs/gm-guide.fr.md", "bot/games/arkeon/rules.fr.md",
                                   "bot/games/hexarena/rules.fr.md", "bot/games/spaceblast/rules.fr.md",
                                   "bot/games/spacechess/rules.fr.md"])
def test_the_french_guides_name_commands_as_a_french_discord_shows_them(guide: str) -> None:
    """Issue 24: both guides show the French names; only a line that speaks of the English ones
    (« avec Discord en anglais… ») names English commands."""
    from bot.compose import game_service
    from bot.i18n import command_name
    from bot.service.commands import table
    from bot.store.repo import Store

    store = Store("sqlite://")
    try:
        game_service(store)  # every game's commands in the table
        french = {"/" + command_name(path, "fr") for path in table()}
    finally:
        store.close()
    groups = {name.split()[0] for name in french}
    wrong = []
    for line in (DOCS.parent / guide).read_text(encoding="utf-8").splitlines():
        if "anglais" in line:
            continue
        for span in re.findall(r"`(/[^`]+)`", line):
            words = span.split()
            named = " ".join(words[:2])
            if not (named in french or (len(words) == 1 and words[0] in groups)):
                wrong.append(span)
    assert wrong == []
