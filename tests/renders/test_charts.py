"""The recap's charts (renders/charts.py)."""

from __future__ import annotations

from PIL import Image

from renders import charts
from renders import common as c


def test_equal_hp_lines_stay_distinguishable() -> None:
    """Issue 27: two fighters with the same HP line, the second drawn over the first, hid it."""
    canvas = c.Canvas(Image.new("RGB", (400, 200), c.PAPER))
    first, second = (0, 114, 178), (230, 159, 0)
    series = [charts.Series("Ann", (20, 20, 10), first), charts.Series("Bob", (20, 20, 10), second)]
    charts.line_chart(canvas, (0, 0, 400, 200), series, ["0", "1", "2"], 20)
    plot = canvas.image.crop((40, 0, 280, 180))
    colours = {colour for _, colour in plot.getcolors(maxcolors=1 << 16)}
    assert first in colours and second in colours
