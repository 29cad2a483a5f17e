"""Issue 15 leftovers in the console: a button's member by the name typed in the session (not the
id it became), and long work (a replay) printing how far it is, throttled."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import bot.demo
from bot.console import Console, stable_id
from bot.demo import script_lines
from bot.service import GameService
from bot.service.progress import Throttle
from bot.store.repo import Store

DEMO_DIR = Path(bot.demo.__file__).parent


def output(console: Console) -> str:
    return console.stream.getvalue()


@pytest.fixture
def console(sqlite_store: Store, tmp_path: Path) -> Console:
    return Console(GameService(sqlite_store), out_dir=tmp_path / "out", stream=io.StringIO(), language="en",
                   base_dir=DEMO_DIR)


def test_a_buttons_member_option_shows_the_members_name_and_still_works(console: Console) -> None:
    """`/gm kick user:alice` printed ``→ /gm kick user:61569480276483313 confirm:2``."""
    assert console.run_lines(["in #table as gm /tl new name:Demo", "as Alice /tl join name:Alice",
                              "as gm /gm kick user:alice"]) == 0
    button = output(console).splitlines()[-1]
    assert button.startswith("  [Remove Alice] → /gm kick user:@alice confirm:"), button
    assert str(stable_id("user", "alice")) not in output(console)
    assert console.run_line("click 1")
    assert output(console).splitlines()[-1] == "@alice no longer plays Alice."  # the latest name typed


def test_a_member_named_only_in_an_option_is_named_too(console: Console) -> None:
    """Bob never typed a line: the console knows him from `user:@bob` alone."""
    assert console.run_lines(["in #table as gm /tl new name:Demo", "as alice /tl join name:Alice",
                              "as gm /gm replace character:Alice user:@bob", "/gm kick user:bob"]) == 0
    assert output(console).splitlines()[-1].startswith("  [Remove Alice] → /gm kick user:@bob confirm:")


def played(console: Console, language: str) -> Console:
    console.language = language
    assert console.run_lines(script_lines()) == 0, output(console)
    console.stream = io.StringIO()
    return console


@pytest.mark.parametrize(("language", "line"), [
    ("en", "… ⏳ **Outpost** — drawing the replay: frame {} of {}…"),
    ("fr", "… ⏳ **Outpost** — dessin de la rediffusion : image {} sur {}…"),
])
def test_a_replay_prints_its_progress_before_the_gif(console: Console, language: str, line: str) -> None:
    played(console, language)
    console.progress_seconds = 0  # every frame: the test does not wait for a slow replay
    assert console.run_line("as ann /game replay")
    *progress, said, image = output(console).splitlines()
    total = len(progress)
    assert total >= 8 and progress == [line.format(done, total) for done in range(1, total + 1)]
    assert f"{total} " in said and image.endswith("replay.gif")


def test_work_shorter_than_the_interval_prints_no_progress(console: Console) -> None:
    played(console, "en")
    console.progress_seconds = 3600  # the first line waits until the work has lasted as long
    assert console.run_line("as ann /game replay")
    assert not [line for line in output(console).splitlines() if line.startswith("…")]


def test_the_throttle_lets_one_report_through_per_interval() -> None:
    now = [0.0]
    fresh = Throttle(2.0, clock=lambda: now[0])
    started = Throttle(2.0, clock=lambda: now[0], last=0.0)
    heard = []
    for tick in range(12):  # every half second, for six seconds
        now[0] = tick / 2
        heard.append((fresh.due(), started.due()))
    assert [t / 2 for t, (due, _) in enumerate(heard) if due] == [0.0, 2.0, 4.0]
    assert [t / 2 for t, (_, due) in enumerate(heard) if due] == [2.0, 4.0]
