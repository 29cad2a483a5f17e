"""Which part of a stored draw a game uses (SC-13).

Stored draws keep everything FDJ published (second draw of the evening, chance number, 2019+
second draw) so nothing has to be re-downloaded if the rules change; this module is the single
place that decides what counts for Space Chess.
"""

from __future__ import annotations

from draws.model import Draw


def counts_for_game(draw: Draw) -> bool:
    """SC-13: only the first draw of an evening counts (the old Loto drew twice from 1990-09-12)."""
    return draw.index == 1


def game_numbers(draw: Draw) -> tuple[tuple[int, ...], int | None]:
    """SC-13: (main numbers, bonus); the bonus is the old Loto's complementary number, else None.

    `Draw` guarantees a complementary number is in 1..49. The new Loto's chance number (1..10) is
    never a bonus: it would only ever reward holders of cards 1 and 2.
    """
    if not counts_for_game(draw):
        raise ValueError(f"draw {draw.date} #{draw.index} is not the evening's first draw (SC-13)")
    return draw.numbers, draw.complementary
