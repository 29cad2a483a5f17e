"""Writes docs/images/spaceblast-board.png: a hand-written 6-ship game at turn 5, every glyph in use.

Run: python scripts/spaceblast_sample_image.py [output path]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.spaceblast.words import picture_labels  # noqa: E402 - the checkout's root comes first
from renders.spaceblast import render_board  # noqa: E402

OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "spaceblast-board.png"


def _ship(at: str | None, facing: str, hits: int, score: int, **tokens: Any) -> dict[str, Any]:
    ship = {
        "at": at,
        "facing": facing,
        "hits": hits,
        "alive": at is not None,
        "turns": 7,
        "brakes": 1,
        "missiles": 5,
        "mines": 2,
        "score": score,
        "disqualified": False,
    }
    ship.update(tokens)
    return ship


#: Radius 6, turn 5: farid was destroyed last turn (his mine became active, SB-12), bruno brakes on
#: the mine he just laid, two missiles are in flight and elodie's is about to meet chloe.
SAMPLE_VIEW: dict[str, Any] = {
    "turn": 5,
    "winner": None,
    "ships": {
        "alice": _ship("C4", "SE", 1, 2),
        "bruno": _ship("B7", "SW", 2, 1, brakes=0, mines=1),
        "chloe": _ship("F10", "W", 0, 3, missiles=4),
        "dmitri": _ship("K6", "NW", 3, 0, turns=4),
        "elodie": _ship("J2", "NE", 1, 1, mines=3),
        "farid": _ship(None, "E", 4, 2, missiles=2, mines=1),
    },
    "missiles": [
        {"owner": "alice", "at": "F5", "facing": "SE"},
        {"owner": "chloe", "at": "F7", "facing": "W"},
        {"owner": "dmitri", "at": "H5", "facing": "NW"},
        {"owner": "elodie", "at": "J2", "facing": "NE"},
    ],
    "mines": [
        {"owner": "alice", "at": "B3", "active": True},
        {"owner": "bruno", "at": "B7", "active": False},
        {"owner": "elodie", "at": "H2", "active": True},
        {"owner": "farid", "at": "G12", "active": True},
    ],
    "asteroids": ["E8", "I8"],
}


def main(path: Path = OUTPUT) -> None:
    png = render_board(SAMPLE_VIEW, 6, title="SpaceBlast - sample game", highlight=["F10"],
                       labels=picture_labels("en"))
    path.write_bytes(png)
    print(f"{path}: {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT)
