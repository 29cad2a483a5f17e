"""Every word of every image is drawn by `Canvas.text`, which records it while `recording_text()` is
open: the language checks (tests/bot/every_game/test_language_leaks.py) read the images' words there.
"""

from __future__ import annotations

import ast
import threading
from contextvars import copy_context
from pathlib import Path

from PIL import Image

from renders import common
from renders.spacechess.board import render_board

RENDERS = Path(common.__file__).resolve().parent

#: modules that draw text themselves, each `path: why` (none: the lead may only shorten this list)
DRAW_TEXT_DIRECTLY: dict[str, str] = {}

#: the one direct call allowed: Canvas's glyph mask, drawn once per (text, size, anchor)
_MASK = ("common.py", "ImageDraw.Draw(mask)")


def _direct_text_calls() -> dict[str, list[str]]:
    """`module: [call, ...]` for each call drawing text that is not `canvas.text(...)`."""
    found: dict[str, list[str]] = {}
    for path in sorted(RENDERS.rglob("*.py")):
        module = str(path.relative_to(RENDERS))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("text", "multiline_text"):
                continue
            receiver = ast.unparse(node.func.value)
            # a Canvas subclass (the close-up's ZoomCanvas) passing its scaled text on is Canvas.text
            if receiver in ("canvas", "self", "super()") or (module, receiver) == _MASK:
                continue
            found.setdefault(module, []).append(f"{receiver}.{node.func.attr} (line {node.lineno})")
    return found


def test_renders_draw_text_only_through_canvas_text() -> None:
    found = _direct_text_calls()
    assert sorted(found) == sorted(DRAW_TEXT_DIRECTLY), found


def test_the_check_finds_a_direct_call(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "rogue.py").write_text("def f(draw):\n    draw.text((0, 0), 'Red to move')\n", encoding="utf-8")
    monkeypatch.setattr("tests.renders.test_text_recording.RENDERS", tmp_path)
    assert _direct_text_calls() == {"rogue.py": ["draw.text (line 2)"]}


def test_recording_collects_what_is_drawn_and_nothing_outside() -> None:
    canvas = common.Canvas(Image.new("RGB", (60, 20), common.PAPER))
    canvas.text((0, 0), "before", 12, common.INK)
    with common.recording_text() as drawn:
        canvas.text((0, 0), "Tour 3", 12, common.INK)
        canvas.text((0, 0), "Tour 3", 12, common.INK)  # a cached mask is recorded all the same
    canvas.text((0, 0), "after", 12, common.INK)
    assert drawn == ["Tour 3", "Tour 3"]


def test_recording_sees_cached_backgrounds_again(small_map, small_view) -> None:
    """A board's background (rulers, camps, key) is cached: a recording opened later still reads it."""
    render_board(small_view, small_map)
    with common.recording_text() as first:
        render_board(small_view, small_map)
    with common.recording_text() as second:
        render_board(small_view, small_map)
    assert first == second and "A" in first


def test_recording_reaches_a_thread_started_with_the_context() -> None:
    with common.recording_text() as drawn:
        canvas = common.Canvas(Image.new("RGB", (60, 20), common.PAPER))
        thread = threading.Thread(target=copy_context().run, args=(canvas.text, (0, 0), "fil", 12, common.INK))
        thread.start()
        thread.join()
    assert drawn == ["fil"]
