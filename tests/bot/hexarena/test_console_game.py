"""Console parity: a whole HexArena game (reconstructed rules), Ann against the computer, played
from a console script (`console_game.txt`) — every line accepted, each computer answer posted, a
board per turn, the game won by Ann's admiral on Blue's base."""

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
    rules = registry.get("hexarena")
    state = rules.from_json(game.state)
    result = rules.result(state)
    assert (result.winner, result.reason) == ("red", "base_reached")
    assert "🏁 Game over — **Red** wins (its admiral reached the enemy base)." in text
    log = store.log(game.id)
    ann = [e for e in log if e.kind == "order" and e.actor == "Ann"]
    computer = [e for e in log if e.kind == "order" and e.actor == "blue"]
    turns = sum(1 for line in lines if line.startswith("as ann /hx ") and "join" not in line and "challenge" not in line)
    assert len(ann) == turns and len(computer) == turns - 1  # the computer answered each turn but the last
    assert all(e.user_id is None for e in computer)  # the bot played them
    assert len(sorted(tmp_path.glob("*hexarena.png"))) >= turns + 2  # the start, each turn, on demand
