"""Small charts drawn with Pillow: a line chart, a table of numbers shaded by value, paired bars.

A recap needs three kinds of chart and nothing more; a plotting library would bring a large
dependency (and its own fonts and colours) for that. These draw on a `Canvas` in a given box,
with already translated words, in the renders' colours and font, never under 12 px text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from renders import common as c

TEXT = 12
LABEL_GAP = 15  # vertical room of one line-end label

#: series colours by team, as on the board (team 1 blues and greens, team 2 oranges and reds), in
#: the order a team's characters take them
TEAM_SERIES: dict[int, tuple[c.RGB, ...]] = {
    1: (c.BLUE, c.SKY, c.GREEN, (0, 70, 110), (40, 110, 150), (0, 100, 75), c.INK),
    2: (c.ORANGE, c.VERMILLION, c.PURPLE, (150, 100, 0), (140, 60, 0), (130, 70, 110), c.MUTED),
}


def team_colours(teams: Sequence[int]) -> list[c.RGB]:
    """A colour per entry of `teams` (each entry a team), from its team's family, in turn."""
    used: dict[int, int] = {}
    colours = []
    for team in teams:
        family = TEAM_SERIES.get(team, TEAM_SERIES[1])
        colours.append(family[used.get(team, 0) % len(family)])
        used[team] = used.get(team, 0) + 1
    return colours


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[int, ...]
    colour: c.RGB
    square: bool = False  # the marker: square (team 2's shape on the board) or round


Box = tuple[int, int, int, int]


#: how far apart lines sharing a point are drawn, in pixels (their width)
SHARED_SHIFT = 3


def line_chart(canvas: c.Canvas, box: Box, series: Sequence[Series], x_labels: Sequence[str], top: int,
               label_width: int = 110) -> None:
    """Lines over `x_labels`, from 0 to `top`, each labelled at its right end (no legend to look up).
    Where lines share a point (two fighters both at full HP), each later one is drawn a line's width
    above or below, so none hides another."""
    left, upper, right, lower = box
    plot_right = right - label_width
    plot_left = left + 34
    plot_lower = lower - 20
    top = max(1, top)
    steps = max(1, len(x_labels) - 1)

    def point(index: int, value: int) -> tuple[int, int]:
        return (round(plot_left + (plot_right - plot_left) * index / steps),
                round(plot_lower - (plot_lower - upper) * value / top))

    for tick in _ticks(top):
        y = point(0, tick)[1]
        canvas.draw.line((plot_left, y, plot_right, y), fill=c.GRID)
        canvas.text((plot_left - 6, y), str(tick), TEXT, c.MUTED, anchor="rm")
    every = max(1, -(-len(x_labels) // 20))  # at most about 20 labels under the axis
    for index, text in enumerate(x_labels):
        if index % every == 0 or index == len(x_labels) - 1:
            canvas.text((point(index, 0)[0], plot_lower + 10), text, TEXT, c.MUTED, anchor="mm")
    ends = []
    shared: dict[tuple[int, int], int] = {}
    for line in series:
        points = []
        for i, v in enumerate(line.values):
            k = shared.get((i, v), 0)
            shared[(i, v)] = k + 1
            x, y = point(i, v)
            points.append((x, y + (k + 1) // 2 * SHARED_SHIFT * (1 if k % 2 else -1)))
        if len(points) > 1:
            canvas.draw.line(points, fill=line.colour, width=3, joint="curve")
        for x, y in points:
            if line.square:
                canvas.draw.rectangle((x - 3, y - 3, x + 3, y + 3), fill=line.colour)
            else:
                canvas.draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=line.colour)
        if points:
            ends.append([points[-1][1], line])
    ends.sort(key=lambda end: end[0])
    for index in range(1, len(ends)):  # push labels apart so that none covers another
        ends[index][0] = max(ends[index][0], ends[index - 1][0] + LABEL_GAP)
    for y, line in ends:
        canvas.text((plot_right + 8, y), c.fit(line.label, TEXT, label_width - 10), TEXT, line.colour, anchor="lm")


def _ticks(top: int) -> list[int]:
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10**9) if top / s <= 6)
    return list(range(0, top + 1, step))


def number_table(canvas: c.Canvas, origin: tuple[int, int], rows: Sequence[tuple[str, c.RGB]],
                 columns: Sequence[str], values: Sequence[Sequence[int]], width: int, row_h: int = 24) -> int:
    """A row per name, a column per step, each cell's number on a shade of its value (darker is
    more); returns the y under the table. Past `width`, columns shrink, and lose their numbers
    once they are too narrow to hold one."""
    x, y = origin
    name_w = 110
    cell_w = max(4, min(34, (width - name_w) // max(1, len(columns))))
    top = max([1, *(v for row in values for v in row)])
    show_numbers = cell_w >= 22
    every = max(1, -(-len(columns) // max(1, (width - name_w) // 30)))
    for index, text in enumerate(columns):
        if index % every == 0:
            canvas.text((x + name_w + index * cell_w + cell_w // 2, y + row_h // 2), text, TEXT, c.MUTED, anchor="mm")
    y += row_h
    for (name, colour), row in zip(rows, values, strict=True):
        canvas.text((x, y + row_h // 2), c.fit(name, TEXT, name_w - 8), TEXT, colour, anchor="lm")
        for index, value in enumerate(row):
            left = x + name_w + index * cell_w
            shade = _shade(value, top)
            canvas.draw.rectangle((left, y + 1, left + cell_w - 2, y + row_h - 2), fill=shade)
            if show_numbers and value:
                ink = c.WHITE if value * 2 > top else c.INK
                canvas.text((left + cell_w // 2 - 1, y + row_h // 2), str(value), TEXT, ink, anchor="mm")
        y += row_h
    return y


def _shade(value: int, top: int) -> c.RGB:
    if value <= 0:
        return c.FLOOR
    t = value / top
    return (round(214 + (0 - 214) * t), round(230 + (114 - 230) * t), round(242 + (178 - 242) * t))


def paired_bars(canvas: c.Canvas, origin: tuple[int, int], rows: Sequence[tuple[str, c.RGB, int, int]],
                width: int, row_h: int = 26) -> int:
    """Per name two bars, the first solid in its colour, the second outlined, each with its number;
    returns the y under the bars."""
    x, y = origin
    name_w = 110
    top = max([1, *(max(a, b) for _, _, a, b in rows)])
    span = width - name_w - 50
    for name, colour, first, second in rows:
        canvas.text((x, y + row_h // 2), c.fit(name, TEXT, name_w - 8), TEXT, colour, anchor="lm")
        for offset, value, solid in ((2, first, True), (row_h // 2, second, False)):
            length = round(span * value / top)
            box = (x + name_w, y + offset, x + name_w + max(1, length), y + offset + row_h // 2 - 4)
            if solid:
                canvas.draw.rectangle(box, fill=colour)
            else:
                canvas.draw.rectangle(box, outline=colour, width=2)
            canvas.text((box[2] + 6, (box[1] + box[3]) // 2), str(value), TEXT, c.INK, anchor="lm")
        y += row_h
    return y
