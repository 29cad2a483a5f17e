"""Your turn in the console (issue 26, point 1): two members play HexArena; each move pings the
other once, in the reply that hands them the turn, and nothing else does — a draw offer pings the
member it is offered to, never as their turn; the console shows a mention as the member's name."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import Console
from bot.service import GameService
from bot.store.repo import Store
from engine import registry

YOUR_TURN = "🔔 {user}: your turn."


def test_two_members_are_told_in_turn_in_the_console(store: Store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(GameService(store, seed_source=lambda: 3), out_dir=tmp_path, language="en", stream=out)

    def run(line: str) -> str:
        start = len(out.getvalue())
        assert console.run_line(line), out.getvalue()[start:]
        return out.getvalue()[start:]

    for line in ("in #arena as gm /hx new name:Arena clock_hours:24", "as ann /hx join name:Ann",
                 "as bob /hx join name:Bob"):
        run(line)
    started = run("as gm /gm start")
    assert started.count(YOUR_TURN.format(user="@ann")) == 1 and "@bob" not in started
    moved = run('as ann /hx order text:"rotate G2 NE"')
    assert moved.count(YOUR_TURN.format(user="@bob")) == 1 and moved.count("your turn") == 1
    offered = run("as ann /game offer-draw")  # Bob is asked, but it is not a new turn
    assert "@bob" in offered and "your turn" not in offered
    declined = run("as bob /game decline-draw")
    assert "your turn" not in declined
    [game] = store.list_games(statuses=("running",))
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    assert rules.waiting_on(state) == ("blue",)
    answer = rules.format_order(next(iter(rules.legal_orders(state, "blue"))))
    answered = run(f'as bob /hx order text:"{answer}"')
    assert answered.count(YOUR_TURN.format(user="@ann")) == 1 and answered.count("your turn") == 1
