"""The static game list is checked whole at start: a game missing a part stops the bot with its
name, instead of playing later with an empty presenter."""

from __future__ import annotations

import pytest

import bot.games as served
from bot.app import open_service
from bot.cli_failures import CliFailure
from bot.compose import check_games, serve_game
from bot.config import Settings
from bot.games import GameEntry, GameSetupError, games, presenter_for, remove_game
from bot.service.commands import table


def test_every_served_game_is_whole() -> None:
    check_games()
    kinds = {entry.kind for entry in games()}
    assert {"spacechess", "tally", "sealed", "duel"} <= kinds
    for entry in games():
        assert presenter_for(entry.kind).kind == entry.kind
        assert {f"{entry.group} new", f"{entry.group} join", f"{entry.group} order"} <= set(table())


def test_a_game_whose_commands_have_no_words_stops_the_bot_at_start() -> None:
    """The start check reads the catalog keys of every command of the game's group, in both languages."""
    from bot.i18n import catalog

    words = catalog("fr").pop("cmd.td.challenge")
    try:
        with pytest.raises(GameSetupError, match="no words for cmd.td.challenge"):
            check_games()
    finally:
        catalog("fr")["cmd.td.challenge"] = words


@pytest.mark.parametrize(("entry", "fault"), [
    (GameEntry("nowhere", "nw", "tests.support.no_such_module", "tests.support.tally_bot",
               "tests.support.tally_bot", "none"), "cannot import its rules module"),
    (GameEntry("ghost", "gh", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot", "none"),
     "registers no rules of that name"),
    (GameEntry("tl", "t2", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot", "none"),
     "alias"),
    (GameEntry("tally", "tl", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot",
               "sundial"), "unknown turn driver 'sundial'"),
    (GameEntry("tally", "sc", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot", "none"),
     "is 'spacechess''s"),
    # a move clock ends a turn with the game's timeout input; a deadline gives its reveal: the tally
    # game has neither, so the contract check names what it lacks (issue 22)
    (GameEntry("tally", "tl", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot", "clock"),
     "lacks what its commands and its clock driver need: timeout_input"),
    (GameEntry("tally", "tl", "tests.support.tally", "tests.support.tally_bot", "tests.support.tally_bot",
               "deadline"), "deadline driver need: reveal_kinds"),
    # a computer asked to draw answers at once: a game taking draw offers has its computer judge them
    (GameEntry("hexarena", "hx", "engine.hexarena", "bot.games.hexarena", "bot.games.hexarena.commands", "clock",
               "tests.support.duel_computer"), "has no accepts_draw"),
])
def test_a_game_missing_a_part_fails_loudly(entry: GameEntry, fault: str) -> None:
    original = next((e for e in games() if e.kind == entry.kind), None)
    with pytest.raises(GameSetupError, match=fault):
        serve_game(entry)
    if original is not None:  # put the served game back as it was
        serve_game(original)
    else:
        remove_game(entry.kind)


def test_a_game_without_its_presenter_stops_the_bot_at_start(tmp_path, monkeypatch) -> None:
    """A deployment mistake, simulated: the duel's presenter module names one that registers none."""
    monkeypatch.setitem(served._entries, "duel", GameEntry("duel", "td", "tests.support.variants",
                                                           "bot.service.replies", "tests.support.tally_bot", "clock"))
    monkeypatch.setattr(served, "_presenters", {k: v for k, v in served._presenters.items() if k != "duel"})
    settings = Settings.model_validate({"database": {"url": f"sqlite:///{tmp_path / 'bot.db'}"}})
    with pytest.raises(CliFailure, match="'duel': its presenter module does not register a presenter"):
        open_service(settings)
