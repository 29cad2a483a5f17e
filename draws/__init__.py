"""Lottery draws for the games: the `Draw` value, FDJ Loto files of every generation, sources
(HTTP archive, local file, manual entry) and the draw calendar.

Pure of the rest of the project: nothing here imports bot/, engine/ or renders/.
"""

from draws.calendar import FDJ_LOTO, FIRST_LOTO_DRAW, DrawSchedule, expected_draws_between, next_expected_draw
from draws.errors import (
    DrawError,
    DrawFileError,
    DrawSourceError,
    FutureDrawError,
    InvalidDrawValue,
    ManualDrawError,
)
from draws.game import counts_for_game, game_numbers
from draws.generations import GENERATIONS, Generation
from draws.model import Draw, LotoFormat, loto_format
from draws.parser import iter_path, parse_bytes, parse_csv_text, parse_path
from draws.sources import FdjSource, FetchMemo, FetchResult, FileSource, manual_draw, manual_source

__all__ = [
    "FDJ_LOTO",
    "FIRST_LOTO_DRAW",
    "GENERATIONS",
    "Draw",
    "DrawError",
    "DrawFileError",
    "DrawSchedule",
    "DrawSourceError",
    "FdjSource",
    "FetchMemo",
    "FetchResult",
    "FileSource",
    "FutureDrawError",
    "Generation",
    "InvalidDrawValue",
    "LotoFormat",
    "ManualDrawError",
    "counts_for_game",
    "expected_draws_between",
    "game_numbers",
    "iter_path",
    "loto_format",
    "manual_draw",
    "manual_source",
    "next_expected_draw",
    "parse_bytes",
    "parse_csv_text",
    "parse_path",
]
