"""A three-player two-ships game (SB-15) in the console, to its end: two members and a computer,
two ships each; orders named by ship in the text or the `ship` option, one Ready per player, the
computer ordering both its ships — and no order shown to the channel before its turn's reveal."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import Console
from bot.service import GameService
from engine import registry

OPENING = [
    "in #pairs",
    "as gm /sb new name:Pairs radius:4 two_ships:true",
    "as ann /sb join name:Ann",
    "as bob /sb join name:Bob",
    "as gm /sb challenge level:easy",
    "as gm /gm start",
    'as ann /sb order text:"1: left missile; 2: brake"',
    "as ann click",  # the Ready button under the order reply: both of Ann's ships
    'as bob /sb orders ship:"Bob 2" turn:right mine:true',
    "as bob /sb ready",
]
SECRETS = ("left missile", "right mine")


def test_a_two_ships_game_plays_to_its_end_in_the_console(sqlite_store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(GameService(sqlite_store, seed_source=lambda: 8), out_dir=tmp_path, stream=out, language="en")
    refused = [line for line in OPENING if not console.run_line(line)]
    assert refused == [], out.getvalue()
    before_reveal = out.getvalue().split("📜 Turn 1")[0]
    public = [line for line in before_reveal.splitlines() if not line.startswith("(only you)")]
    assert not [line for line in public if any(secret in line for secret in SECRETS)]
    private = [line for line in before_reveal.splitlines() if line.startswith("(only you) Your orders for")]
    assert len(private) == 3  # Ann 1, Ann 2, Bob 2
    rules = registry.get("spaceblast")
    game = sqlite_store.game_in_channel(*_where(console))
    for _ in range(40):
        game = sqlite_store.get_game(game.id)
        if game.status == "finished":
            break
        for member, player in (("ann", "Ann"), ("bob", "Bob")):
            if player in rules.waiting_on(rules.from_json(sqlite_store.get_game(game.id).state)):
                assert console.run_line(f"as {member} /sb ready"), out.getvalue()[-2000:]
    assert sqlite_store.get_game(game.id).status == "finished"
    assert "Game over" in out.getvalue()
    by_computer = {e.payload["text"].split(":")[0] for e in sqlite_store.log(game.id)
                   if e.kind == "order" and e.actor == "Computer"}
    assert by_computer == {"Computer 1", "Computer 2"}
    assert sorted(tmp_path.glob("*resolution.gif"))


def _where(console: Console) -> tuple[int | None, int]:
    ctx = console.context()
    return ctx.guild_id, ctx.channel_id
