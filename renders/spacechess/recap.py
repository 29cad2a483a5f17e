"""The recap picture of a Space Chess game: HP over the turns, the AP each draw gave and, apart, the
AP the cap took away, damage dealt and taken, and the moments that decided it.

Drawn from plain data with every word already translated (the bot computes the numbers from the
game's log, `bot.games.spacechess.recap`), so the render knows neither the engine's state nor a
catalog. Characters keep their board identity: team 1 round markers, team 2 square ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from renders import charts
from renders import common as c

WIDTH = 980
PAD = 24
HEADER_H = 76
SECTION_H = 30
HP_CHART_H = 300
MOMENT_H = 22

#: English words; the bot passes the reader's
DEFAULT_WORDS = {
    "hp": "HP at the end of each turn",
    "ap": "AP earned at each draw",
    "capped": "AP lost to the AP cap, turn by turn",
    "damage": "Damage dealt (solid) and taken (outlined)",
    "moments": "Decisive moments",
    "none": "No draw yet",
}


def _section(canvas: c.Canvas, y: int, title: str) -> int:
    canvas.draw.line((PAD, y + 4, WIDTH - PAD, y + 4), fill=c.GRID)
    canvas.text((PAD, y + 8), c.fit(title, 16, WIDTH - 2 * PAD), 16, c.INK)
    return y + SECTION_H


def render_recap(data: Mapping[str, Any]) -> bytes:
    """PNG bytes of the recap. `data`: title, subtitle, fighters (id, team, max_hp, ap: per draw,
    capped: AP lost to the cap per turn, empty for none, hp: per turn from turn 0, dealt, taken),
    moments (lines of text) and words (section titles)."""
    words = {**DEFAULT_WORDS, **data.get("words", {})}
    fighters: Sequence[Mapping[str, Any]] = data.get("fighters", ())
    moments: Sequence[str] = data.get("moments", ())
    turns = max([0, *(len(f["ap"]) for f in fighters)])
    rows = len(fighters)
    capped = [f for f in fighters if any(f.get("capped", ()))]
    height = (HEADER_H + 3 * SECTION_H + HP_CHART_H + 24 * (rows + 1) + 26 * rows
              + (SECTION_H + 6 + 24 * (len(capped) + 1) if capped else 0)
              + SECTION_H + MOMENT_H * max(1, len(moments)) + 3 * PAD)
    canvas = c.Canvas(Image.new("RGB", (WIDTH, height), c.PAPER))
    canvas.text((PAD, 16), c.fit(str(data.get("title", "")), 22, WIDTH - 2 * PAD), 22, c.INK)
    canvas.text((PAD, 48), c.fit(str(data.get("subtitle", "")), 14, WIDTH - 2 * PAD), 14, c.MUTED)
    colours = dict(zip((f["id"] for f in fighters), charts.team_colours([int(f["team"]) for f in fighters]),
                       strict=True))

    y = _section(canvas, HEADER_H, words["hp"])
    series = [charts.Series(str(f["id"]), tuple(f["hp"]), colours[f["id"]], square=f["team"] == 2) for f in fighters]
    top = max([1, *(int(f.get("max_hp", 0)) for f in fighters), *(v for f in fighters for v in f["hp"])])
    points = max([1, *(len(f["hp"]) for f in fighters)])
    charts.line_chart(canvas, (PAD, y + 6, WIDTH - PAD, y + HP_CHART_H - 6), series,
                      [str(turn) for turn in range(points)], top)
    y += HP_CHART_H

    y = _section(canvas, y, words["ap"] if turns else words["none"])
    table_rows = [(str(f["id"]), colours[f["id"]]) for f in fighters]
    y = charts.number_table(canvas, (PAD, y), table_rows, [str(d) for d in range(1, turns + 1)],
                            [tuple(f["ap"]) for f in fighters], WIDTH - 2 * PAD)
    if capped:  # apart from what the draws gave: who could not take it all, and at which turn
        y = _section(canvas, y + 6, words["capped"])
        y = charts.number_table(canvas, (PAD, y), [(str(f["id"]), colours[f["id"]]) for f in capped],
                                [str(d) for d in range(1, turns + 1)],
                                [tuple(f["capped"]) + (0,) * (turns - len(f["capped"])) for f in capped],
                                WIDTH - 2 * PAD)

    y = _section(canvas, y + 6, words["damage"])
    bars = [(str(f["id"]), colours[f["id"]], int(f["dealt"]), int(f["taken"])) for f in fighters]
    y = charts.paired_bars(canvas, (PAD, y), bars, WIDTH - 2 * PAD)

    y = _section(canvas, y + 6, words["moments"])
    for line in moments:
        canvas.text((PAD, y + MOMENT_H // 2), c.fit(line, 14, WIDTH - 2 * PAD), 14, c.INK, anchor="lm")
        y += MOMENT_H
    return c.encode_png(canvas.image.crop((0, 0, WIDTH, min(height, y + PAD))))
