"""One ship's card: tokens left, hull, score and state, plus its powers when the caller may show them.

The card only reads the public view, where powers are absent (they are secret until played,
SB-17): the caller passes `powers` itself, and only to someone allowed to see them, so this
function can never be the leak. Every word drawn comes from `labels` (style.LABELS), as on the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from engine.core.errors import OrderError
from renders import common as c
from renders.spaceblast import style as s

WIDTH = 560
HEADER_H = 72
ROW_H = 36
PAD = 16
KEY_W = 130
PIP = 16
PIP_GAP = 6


def _pip_row(canvas: c.Canvas, y: int, left: int, filled: int, total: int, fill: c.RGB) -> None:
    for k in range(total):
        x = left + k * (PIP + PIP_GAP)
        canvas.draw.rectangle(
            (x, y - PIP // 2, x + PIP - 1, y + PIP // 2 - 1),
            fill=fill if k < filled else c.WHITE,
            outline=c.INK,
            width=2,
        )


def render_sheet(
    view: Mapping[str, Any],
    ship: str,
    *,
    labels: Mapping[str, str],
    powers: Sequence[str] = (),
) -> bytes:
    """The card of `ship` as PNG bytes; OrderError('unknown_character', name=ship) if the view lacks it.

    Token rows show SB-4's starting material as pips, filled for what is left (more pips when a power
    gave back more than that); the hull row fills a pip per hit taken.
    """
    data = view.get("ships", {}).get(ship)
    if data is None:
        raise OrderError("unknown_character", name=ship)
    words = s.words(labels)
    style = s.ship_styles(view)[ship]
    state = s.status(ship, data, view, words)
    flying = s.on_board(data)
    rows: list[tuple[str, int, int, c.RGB]] = [
        ("hull", s.token_count(data, "hits"), s.HULL, c.VERMILLION),
        *(
            (key, s.token_count(data, key), s.TOKENS[key], c.INK)
            for key in ("turns", "brakes", "missiles", "mines")
        ),
    ]
    power_text = s.powers_text(powers, words)
    height = HEADER_H + (len(rows) + 1 + (1 if power_text else 0)) * ROW_H + PAD
    canvas = c.Canvas(Image.new("RGB", (WIDTH, height), c.PAPER))
    draw = canvas.draw

    band = style.colour if flying or view.get("winner") == ship else c.MUTED
    ink = style.ink if band == style.colour else c.WHITE
    draw.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=band)
    facing = s.ANGLES.get(str(data.get("facing", "E")).upper(), 0.0)
    draw.ellipse((PAD, HEADER_H // 2 - 24, PAD + 48, HEADER_H // 2 + 24), fill=c.PAPER)
    s.draw_numbered_ship(canvas, (PAD + 24, HEADER_H // 2), 20, facing, style, None if flying else s.GONE)
    where = state or s.where(words, data)
    where = c.fit(where, 16, WIDTH // 2 - PAD)
    canvas.text((WIDTH - PAD, HEADER_H // 2), where, 16, ink, anchor="rm")
    name_room = WIDTH - 4 * PAD - 48 - round(c.font(16).getlength(where))
    canvas.text((2 * PAD + 48, HEADER_H // 2), c.fit(ship, 24, name_room), 24, ink, anchor="lm")

    y = HEADER_H + ROW_H // 2
    canvas.text((PAD, y), c.fit(s.word(words, "score_key"), 15, KEY_W - 8), 15, c.MUTED, anchor="lm")
    canvas.text((PAD + KEY_W, y), str(s.token_count(data, "score")), 18, c.INK, anchor="lm")
    for key, count, cap, fill in rows:
        y += ROW_H
        draw.line((PAD, y - ROW_H // 2, WIDTH - PAD, y - ROW_H // 2), fill=c.GRID)
        canvas.text((PAD, y), c.fit(s.word(words, key), 15, KEY_W - 8), 15, c.MUTED, anchor="lm")
        total = max(cap, count)
        _pip_row(canvas, y, PAD + KEY_W, count, total, fill)
        number = f"{count} / {cap}" if key == "hull" else str(count)
        canvas.text((PAD + KEY_W + total * (PIP + PIP_GAP) + 6, y), number, 16, c.INK, anchor="lm")
    if power_text:
        y += ROW_H
        draw.line((PAD, y - ROW_H // 2, WIDTH - PAD, y - ROW_H // 2), fill=c.GRID)
        canvas.text((PAD, y), c.fit(s.word(words, "powers"), 15, KEY_W - 8), 15, c.MUTED, anchor="lm")
        canvas.text((PAD + KEY_W, y), c.fit(power_text, 16, WIDTH - 2 * PAD - KEY_W), 16, c.INK, anchor="lm")
    return c.encode_png(canvas.image)
