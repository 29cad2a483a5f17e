"""The FDJ Loto CSV generations, and how a file's header tells which one it is.

FDJ renamed its archives and members several times (`loto.csv`, `nouveau_loto.csv`,
`loto2017.csv`, ...) and a downloaded archive may be saved under any name, so the generation is
recognised from the header alone: the known header sharing the most columns with the file's wins.
Recognising the closest generation first, then checking the columns we read, lets an edited or
damaged header be reported as "column X is missing" rather than a vague "unknown header".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from draws.errors import DrawFileError

#: Below this share of common columns a header is not an FDJ Loto header at all.
MIN_HEADER_SIMILARITY = 0.5

_YMD = re.compile(r"(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})")
_DMY = re.compile(r"(?P<d>\d{2})/(?P<m>\d{2})/(?P<y>\d{4})")

_BALLS_5 = tuple(f"boule_{n}" for n in range(1, 6))


def _prize_columns(ranks: int) -> str:
    return ";".join(f"nombre_de_gagnant_au_rang{n};rapport_du_rang{n}" for n in range(1, ranks + 1))


_HEAD_2008 = (
    "annee_numero_de_tirage;jour_de_tirage;date_de_tirage;date_de_forclusion;"
    "boule_1;boule_2;boule_3;boule_4;boule_5;numero_chance;combinaison_gagnante_en_ordre_croissant"
)
_SECOND_DRAW = (
    "boule_1_second_tirage;boule_2_second_tirage;boule_3_second_tirage;boule_4_second_tirage;"
    "boule_5_second_tirage;promotion_second_tirage;combinaison_gagnant_second_tirage_en_ordre_croissant;"
    + ";".join(
        f"nombre_de_gagnant_au_rang_{n}_second_tirage;rapport_du_rang{n}_second_tirage" for n in range(1, 5)
    )
)
_CODES = "nombre_de_codes_gagnants;rapport_codes_gagnants;codes_gagnants"


def _columns(*parts: str) -> tuple[str, ...]:
    return tuple(";".join(parts).split(";"))


@dataclass(frozen=True)
class Generation:
    """What differs between generations: known headers, date format and which columns hold what."""

    name: str
    headers: tuple[tuple[str, ...], ...]
    date_pattern: re.Pattern[str]
    balls: tuple[str, ...]
    complementary: str | None = None
    chance: str | None = None
    #: "1er_ou_2eme_tirage": the old Loto drew twice per evening from 1990-09-12.
    index: str | None = None
    second_balls: tuple[str, ...] = ()
    second_combination: str | None = None
    weekday: str = "jour_de_tirage"
    date: str = "date_de_tirage"
    combination: str = "combinaison_gagnante_en_ordre_croissant"

    @property
    def required(self) -> tuple[str, ...]:
        optional = (self.complementary, self.chance, self.index, self.second_combination)
        return (
            (self.weekday, self.date, *self.balls)
            + tuple(c for c in optional if c is not None)
            + self.second_balls
            + (self.combination,)
        )


LOTO_1976 = Generation(
    name="loto_1976",
    headers=(
        _columns(
            "annee_numero_de_tirage;1er_ou_2eme_tirage;jour_de_tirage;date_de_tirage;date_de_forclusion;"
            "boule_1;boule_2;boule_3;boule_4;boule_5;boule_6;boule_complementaire;"
            "combinaison_gagnante_en_ordre_croissant;numero_joker",
            _prize_columns(7),
            "numero_jokerplus;devise",
        ),
    ),
    date_pattern=_YMD,
    balls=(*_BALLS_5, "boule_6"),
    complementary="boule_complementaire",
    index="1er_ou_2eme_tirage",
)
LOTO_2008 = Generation(
    name="loto_2008",
    headers=(_columns(_HEAD_2008, _prize_columns(6), "numero_jokerplus;devise"),),
    date_pattern=_DMY,
    balls=_BALLS_5,
    chance="numero_chance",
)
LOTO_2017 = Generation(
    name="loto_2017",
    headers=(_columns(_HEAD_2008, _prize_columns(9), _CODES, "numero_jokerplus;devise"),),
    date_pattern=_DMY,
    balls=_BALLS_5,
    chance="numero_chance",
)
LOTO_2019 = Generation(
    name="loto_2019",
    headers=tuple(
        _columns(_HEAD_2008, _prize_columns(9), _CODES, _SECOND_DRAW, f"{last};devise")
        for last in ("numero_jokerplus", "numero_7")
    ),
    date_pattern=_DMY,
    balls=_BALLS_5,
    chance="numero_chance",
    second_balls=tuple(f"boule_{n}_second_tirage" for n in range(1, 6)),
    second_combination="combinaison_gagnant_second_tirage_en_ordre_croissant",
)

GENERATIONS = (LOTO_1976, LOTO_2008, LOTO_2017, LOTO_2019)


def _similarity(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b)


def detect(header: list[str], file: str) -> Generation:
    """The generation whose known header is closest to `header`, checked for the columns we read."""
    columns = set(header)
    score, generation = max(
        ((_similarity(columns, set(known)), gen) for gen in GENERATIONS for known in gen.headers),
        key=lambda pair: pair[0],
    )
    if score < MIN_HEADER_SIMILARITY:
        raise DrawFileError("unknown_header", file, 1, columns=len(header), similarity=round(score, 2))
    for name in generation.required:
        if name not in columns:
            raise DrawFileError("missing_column", file, 1, name, generation=generation.name)
    duplicated = sorted({c for c in header if header.count(c) > 1})
    if duplicated:
        raise DrawFileError("duplicate_column", file, 1, duplicated[0])
    return generation
