"""Animated GIFs bounded in bytes: a game's replay must fit in one chat attachment.

Frames are drawn in the renders' fixed palette, so the GIF needs one colour table and Pillow stores
each frame after the first as the rectangle that changed. When the result is still too large,
frames are dropped evenly (the first and the last always stay: how it began and how it ended)
and then the frames are scaled down, step by step, until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image

from renders import common as c

FRAME_MS = 900
LAST_FRAME_MS = 4000
MAX_FRAMES = 120
MIN_SCALE = 0.3


def spread(count: int, keep: int) -> list[int]:
    """`keep` indices out of range(count), evenly spaced, the first and the last included."""
    if count <= keep:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


def _uniform(frames: Sequence[Image.Image]) -> list[Image.Image]:
    """Frames all of the largest frame's size (a taller sidebar, a winner's banner), on paper."""
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    out = []
    for frame in frames:
        if frame.size != (width, height):
            canvas = Image.new("RGB", (width, height), c.PAPER)
            canvas.paste(frame.convert("RGB"), (0, 0))
            frame = c.to_palette(canvas)
        out.append(frame if frame.mode == "P" else c.to_palette(frame))
    return out


def _scaled(frame: Image.Image, scale: float) -> Image.Image:
    if scale >= 1:
        return frame
    size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
    return c.to_palette(frame.convert("RGB").resize(size, Image.Resampling.LANCZOS))


def _encode(frames: Sequence[Image.Image], frame_ms: int, last_frame_ms: int) -> bytes:
    out = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    frames[0].save(out, format="GIF", save_all=True, append_images=list(frames[1:]), duration=durations, loop=0,
                   optimize=False, disposal=1)
    return out.getvalue()


def bounded_gif(
    frames: Sequence[Image.Image],
    limit: int,
    *,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
    max_frames: int = MAX_FRAMES,
    progress: Callable[[str, int], None] | None = None,
) -> tuple[bytes, int, float]:
    """A looping GIF of `frames` of at most `limit` bytes: (bytes, frames kept, scale used).

    At most `max_frames` are kept; past the limit, half the frames go, then the size shrinks by a
    quarter, in turn, down to MIN_SCALE. `progress` hears each attempt ("frames", count) and
    ("scale", percent) for a caller that reports long work. ValueError for no frames, or when
    even the smallest attempt does not fit.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    frames = _uniform(frames)
    kept = [frames[i] for i in spread(len(frames), max_frames)]
    scale = 1.0
    drop_next = False  # first smaller frames, then fewer, in turn
    while True:
        if progress is not None:
            progress("frames", len(kept))
        data = _encode([_scaled(f, scale) for f in kept], frame_ms, last_frame_ms)
        if len(data) <= limit:
            return data, len(kept), scale
        if (drop_next and len(kept) > 2) or scale * 0.75 < MIN_SCALE:
            if len(kept) <= 2:
                raise ValueError(f"the animation does not fit in {limit} bytes even at {len(kept)} frames "
                                 f"and {scale:.0%} of its size")
            kept = [kept[i] for i in spread(len(kept), max(2, len(kept) // 2))]
        else:
            scale *= 0.75
            if progress is not None:
                progress("scale", round(scale * 100))
        drop_next = not drop_next
