"""Console parity: a whole Arkeon game, Ann against the computer, played from a console script
(`console_game.txt`) — every line accepted, each computer answer posted, a board per move, the
game won by Ann's base attack."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import Console
from bot.service import GameService
from bot.store.repo import Store
from engine import registry

SCRIPT = Path(__file__).with_name("console_game.txt")


def test_a_whole_game_against_the_computer_in_the_console(store: Store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(GameService(store, seed_source=lambda: 3), out_dir=tmp_path, language="en", stream=out)
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    assert console.run_lines(lines) == 0, out.getvalue()
    text = out.getvalue()
    [game] = store.list_games(guild_id=1, statuses=("finished",))
    rules = registry.get("arkeon")
    state = rules.from_json(game.state)
    result = rules.result(state)
    assert result.winner == rules.side_of(state, "Ann") and result.reason == "base_destroyed"
    assert "Red declines the draw." in text  # the offer at the start: the computer stood level
    log = store.log(game.id)
    ann = [e for e in log if e.kind == "order" and e.actor == "Ann"]
    computer = [e for e in log if e.kind == "order" and e.actor == rules.side_of(state, "Computer")]
    moves = sum(1 for line in lines if line.startswith("as ann /ak "))
    assert len(ann) == moves - 2 and len(computer) >= len(ann) - 1  # less the join and the challenge
    assert all(e.user_id is None for e in computer)  # the bot played them
    boards = sorted(tmp_path.glob("*arkeon.png"))
    assert len(boards) >= len(ann) + 2  # the start, after each move (with the computer's answer), on demand

