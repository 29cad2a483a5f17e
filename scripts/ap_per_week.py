"""Average action points per character per week, computed from real FDJ Loto files.

Usage: python scripts/ap_per_week.py /path/to/fdj-folder

Why: SC-13 claims the old Loto (6 numbers + complementary, 2 draws a week) and today's Loto
(5 numbers, 3 draws a week) give "similar weekly totals". This checks it on every real draw: for
each of the 21 possible pairs of draw cards, the SC-13 base award (no grade, encouragement,
hacking, skipped draws or cap) summed over the draws that count (first draw of each evening),
divided by the weeks the file covers. Prints a Markdown table (pasted into docs/draws.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from draws import Draw, counts_for_game, game_numbers, parse_path
from engine.spacechess.awards import card_range

CARDS = range(1, 8)
SATURDAY = 5
PAIRS = list(combinations(CARDS, 2))


def card_award(card: int, numbers: Iterable[int], bonus: int | None) -> int:
    """SC-13 for one card: +1 per main number in its range, +2 if the bonus is in it."""
    span = card_range(card)
    return sum(1 for n in numbers if n in span) + (2 if bonus in span else 0)


@dataclass(frozen=True)
class Row:
    label: str
    first: dt.date
    last: dt.date
    draws: int
    pair_totals: tuple[int, ...]

    @property
    def weeks(self) -> float:
        return ((self.last - self.first).days + 1) / 7

    def cells(self) -> list[str]:
        per_week = [total / self.weeks for total in self.pair_totals]
        mean_total = sum(self.pair_totals) / len(self.pair_totals)
        return [
            self.label,
            f"{self.first} .. {self.last}",
            str(self.draws),
            f"{self.draws / self.weeks:.2f}",
            f"{mean_total / self.draws:.2f}",
            f"{sum(per_week) / len(per_week):.2f}",
            f"{min(per_week):.2f} .. {max(per_week):.2f}",
        ]


def summarise(label: str, draws: list[Draw]) -> Row:
    counted = [d for d in draws if counts_for_game(d)]
    totals = [0] * len(PAIRS)
    for draw in counted:
        numbers, bonus = game_numbers(draw)
        per_card = {card: card_award(card, numbers, bonus) for card in CARDS}
        for i, (a, b) in enumerate(PAIRS):
            totals[i] += per_card[a] + per_card[b]
    return Row(label, counted[0].date, counted[-1].date, len(counted), tuple(totals))


HEADERS = [
    "file / era",
    "period",
    "draws counted",
    "draws/week",
    "AP/draw (mean of 21 card pairs)",
    "AP/week (mean)",
    "AP/week (worst .. best pair)",
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fdj_folder", type=Path, help="folder holding the FDJ CSV files (any depth)")
    folder = parser.parse_args(argv).fdj_folder
    files = sorted(folder.rglob("*.csv"))
    if not files:
        parser.error(f"no CSV file under {folder}")
    rows = []
    eras: dict[str, dict[tuple[dt.date, int], Draw]] = {"old Loto (6+1)": {}, "new Loto (5+chance)": {}}
    for path in files:
        draws = parse_path(path)
        rows.append(summarise(str(path.relative_to(folder)), draws))
        for draw in draws:
            era = "old Loto (6+1)" if draw.complementary is not None else "new Loto (5+chance)"
            eras[era][draw.key] = draw
    merged = {era: sorted(found.values(), key=lambda d: d.key) for era, found in eras.items()}
    rows += [summarise(f"**{era}, all files**", draws) for era, draws in merged.items()]
    # The old Loto drew once a week (Wednesday) until Saturday draws were added in 1984.
    old = merged["old Loto (6+1)"]
    first_saturday = min(d.date for d in old if d.date.weekday() == SATURDAY)
    rows.append(
        summarise("**old Loto, from its first Saturday draw**", [d for d in old if d.date >= first_saturday])
    )
    print("| " + " | ".join(HEADERS) + " |")
    print("|" + "---|" * len(HEADERS))
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")


if __name__ == "__main__":
    main()
