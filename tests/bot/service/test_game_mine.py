"""`/game mine` (issue 26, point 2): every game the member plays, on every server, those waiting on
them first, each with its deadline or clock as a Discord timestamp and a link to its channel, a
page at a time, privately — and in the console, with times and channels as the console reads them."""

from __future__ import annotations

import datetime as dt
import io
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.console import Console
from bot.i18n import translate
from bot.service import Context, GameService, Reply, Visibility
from bot.service.mine import MINE_PAGE

NOW = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
ONE, TWO = 10, 20  # two servers
ANN, BOB, CID = 2, 3, 4


def member(user: int, guild: int, channel: int, *, gm: bool = False) -> Context:
    return Context(user_id=user, user_name=f"u{user}", guild_id=guild, channel_id=channel, manage_server=gm)


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def text(reply: Reply, language: str = "en") -> list[str]:
    return [translate(m.key, language, m.params) for m in reply.messages]


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 3, clock=lambda: NOW)


def duel(svc: GameService, guild: int, channel: int, name: str, first: int, second: int) -> None:
    """A duel on a move clock (10 h), `first` to move."""
    assert svc.handle(member(1, guild, channel, gm=True), "td new", {"name": name, "clock_hours": 10}).ok
    assert svc.handle(member(first, guild, channel), "td join", {"name": f"P{first}"}).ok
    assert svc.handle(member(second, guild, channel), "td join", {"name": f"P{second}"}).ok


def test_the_games_waiting_on_the_member_come_first_on_every_server(svc: GameService) -> None:
    duel(svc, ONE, 100, "Waits on Bob", BOB, ANN)  # Ann plays here, Bob is to move
    duel(svc, TWO, 200, "Waits on Ann", ANN, CID)  # another server: Ann is to move
    assert svc.handle(member(1, ONE, 101, gm=True), "ts new", {"name": "Bids", "turn_hours": 24}).ok
    assert svc.handle(member(ANN, ONE, 101), "ts join", {"name": "Ann"}).ok  # a deadline game, Ann not ready
    assert svc.handle(member(1, TWO, 201, gm=True), "td new", {"name": "Lobby"}).ok
    assert svc.handle(member(ANN, TWO, 201), "td join", {"name": "Ann"}).ok  # still waiting for a second player
    assert svc.handle(member(1, ONE, 102, gm=True), "td new", {"name": "Not hers"}).ok
    assert svc.handle(member(CID, ONE, 102), "td join", {"name": "Cid"}).ok

    mine = svc.handle(member(ANN, ONE, 999), "game mine", {})  # from any channel: no game needed there
    assert mine.visibility is Visibility.PRIVATE
    assert keys(mine) == ["game.mine.header", "game.mine.your_turn", "game.mine.your_turn", "game.mine.game",
                          "game.mine.game"]
    names = [m.params["name"] for m in mine.messages[1:]]
    assert names == ["Waits on Ann", "Bids", "Waits on Bob", "Lobby"]  # waiting first, each group oldest first
    header, *lines = text(mine)
    assert header == "**Your games**: 4 games, 2 wait on you — page 1/1"
    clock_end = int((NOW + dt.timedelta(hours=10)).timestamp())
    deadline = int((NOW + dt.timedelta(hours=24)).timestamp())
    assert lines[0].startswith("• 🔔 **Waits on Ann** (duel, as P2) — your turn · ")
    assert f"<t:{clock_end}:R>" in lines[0] and lines[0].endswith("· <#200>")
    assert f"<t:{deadline}:R>" in lines[1] and lines[1].endswith("· <#101>")
    assert f"<t:{clock_end}:R>" in lines[2] and "your turn" not in lines[2]  # Bob's clock, shown to Ann
    assert lines[3] == "• **Lobby** (duel, as Ann) — in preparation · no deadline · <#201>"
    french = text(mine, "fr")
    assert french[0] == "**Vos parties** : 4 parties, 2 vous attendent — page 1/1"
    assert "à vous de jouer" in french[1] and "pas d’échéance" in french[4]


def test_the_list_follows_each_move(svc: GameService) -> None:
    duel(svc, ONE, 100, "Duel", ANN, BOB)
    ann, bob = member(ANN, ONE, 100), member(BOB, ONE, 100)
    assert keys(svc.handle(ann, "game mine", {}))[1:] == ["game.mine.your_turn"]
    assert keys(svc.handle(bob, "game mine", {}))[1:] == ["game.mine.game"]
    assert svc.handle(ann, "td order", {"text": "add 1"}).ok
    assert keys(svc.handle(ann, "game mine", {}))[1:] == ["game.mine.game"]
    assert keys(svc.handle(bob, "game mine", {}))[1:] == ["game.mine.your_turn"]
    assert svc.handle(member(1, ONE, 100, gm=True), "gm pause", {}).ok
    paused = svc.handle(bob, "game mine", {})
    assert keys(paused)[1:] == ["game.mine.game"] and "paused" in text(paused)[1]


def test_no_game_says_so_and_ended_games_are_left_out(svc: GameService) -> None:
    assert keys(svc.handle(member(ANN, ONE, 100), "game mine", {})) == ["game.mine.none"]
    duel(svc, ONE, 100, "Duel", ANN, BOB)
    movers = [member(ANN, ONE, 100), member(BOB, ONE, 100)]
    while svc.store.game_in_channel(ONE, 100).status == "running":
        assert svc.handle(movers[0], "td order", {"text": "add 5"}).ok
        movers.reverse()
    reply = svc.handle(member(ANN, ONE, 100), "game mine", {})
    assert keys(reply) == ["game.mine.none"] and reply.visibility is Visibility.PRIVATE


def test_a_long_list_is_paged_with_the_next_pages_command(svc: GameService) -> None:
    count = MINE_PAGE + 3
    for n in range(count):
        duel(svc, ONE, 300 + n, f"G{n:02}", ANN if n % 4 == 3 else BOB, ANN if n % 4 != 3 else BOB)
    ann = replace(member(ANN, ONE, 100), locale="en-US")
    first = svc.handle(ann, "game mine", {})
    assert len(first.messages) == 1 + MINE_PAGE + 1 and keys(first)[-1] == "game.mine.more"
    assert text(first)[-1] == "Next page: `/game mine page:2`"
    french = svc.handle(replace(ann, locale="fr"), "game mine", {})  # as a French reader's Discord names it
    assert text(french, "fr")[-1] == "Page suivante : `/partie mes-parties page:2`"
    waiting = [f"G{n:02}" for n in range(count) if n % 4 == 3]
    assert [m.params["name"] for m in first.messages[1:1 + len(waiting)]] == waiting
    assert text(first)[0] == f"**Your games**: {count} games, {len(waiting)} wait on you — page 1/2"
    second = svc.handle(ann, "game mine", {"page": 2})
    assert len(second.messages) == 1 + count - MINE_PAGE and "game.mine.more" not in keys(second)
    assert keys(svc.handle(ann, "game mine", {"page": 9}))[0] == "game.mine.header"  # the last page
    shown = [m.params["name"] for r in (first, second) for m in r.messages if m.key.startswith("game.mine.")
             and "name" in m.params]
    assert sorted(shown) == [f"G{n:02}" for n in range(count)]


def test_in_the_console_times_and_channels_read_as_the_console_names_them(store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(GameService(store, seed_source=lambda: 3), out_dir=tmp_path, language="en", stream=out)
    lines = ["in #arena as gm /hx new name:Arena clock_hours:24", "as ann /hx join name:Ann",
             "as bob /hx join name:Bob", "as gm /gm start", "in #elsewhere as ann /game mine"]
    assert console.run_lines(lines) == 0, out.getvalue()
    shown = out.getvalue().splitlines()
    [line] = [row for row in shown if "**Arena**" in row and row.startswith("(only you)")]
    assert line.startswith("(only you) • 🔔 **Arena** (hexarena, as Ann) — your turn · ")
    assert line.endswith("· #arena") and "<t:" not in line
    assert re.search(r"before \w+day \d+ \w+ \d{4}, \d+(:\d\d)? [ap]m \(in \d+ hours\)", line), line  # the reader's date
