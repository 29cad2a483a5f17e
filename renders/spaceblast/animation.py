"""A resolved turn as an animated GIF: one frame per phase step (SB-7..SB-12), each a public view.

Frames are the board's own palette images (board.board_image), so they all share the fixed palette:
the GIF needs one global colour table, no per-frame quantising, and Pillow stores each frame after
the first as the rectangle that changed, which keeps a 12-frame turn a small multiple of one board.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from renders.spaceblast.board import board_image, story_rows

FRAME_MS = 1000  # long enough to find one's ship again before the next step
LAST_FRAME_MS = 3000  # the turn's outcome stays up before the loop starts again


def render_turn_gif(
    frames: Sequence[Mapping[str, Any]],
    radius: int,
    *,
    labels: Mapping[str, str],
    title: str = "",
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
) -> bytes:
    """GIF bytes, one frame per public view in `frames`, looping.

    A frame may carry "caption" (the phase step, drawn under the title), "highlight" (cells to
    tint), "story" (what the phase did, ``{"text", "ship"?}`` lines under the arena, every frame
    as tall as the longest story) and "marks" (the same drawn where it happened, marks.py); the rest is a public view as render_board takes it, and `labels` its words (style.LABELS).
    ValueError for no frames, a missing label, or for a
    cell or facing that does not fit the arena (naming it).
    """
    if not frames:
        raise ValueError("a turn animation needs at least one frame")
    ships = max(len(frame.get("ships", {})) for frame in frames)
    rows = max(story_rows(frame.get("story") or ()) for frame in frames)
    images = [
        board_image(
            frame,
            radius,
            title=title,
            caption=str(frame.get("caption") or ""),
            highlight=frame.get("highlight") or (),
            labels=labels,
            ships=ships,
            story=frame.get("story") or (),
            rows_at_least=rows,
            marks=frame.get("marks") or (),
        )
        for frame in frames
    ]
    durations = [frame_ms] * (len(images) - 1) + [last_frame_ms]
    out = io.BytesIO()
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()
