"""Words of the other language in what readers read (issue 24): plays every demo and the scripted
session of usual mistakes in French and in English, and prints per source the English words in the
French replies and images, then the French words in the English ones.

Run from the repository root: python scripts/language_leaks.py [fr|en ...]
(needs Debian's word lists: apt-get install wfrench wamerican). Exit status 1 when a word leaks.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.every_game import leaks  # noqa: E402 - the checkout's root comes first


def main(languages: list[str]) -> int:
    missing = leaks.missing_lists()
    if missing:
        print(f"language_leaks: missing {', '.join(missing)} (apt-get install "
              f"{' '.join(leaks.PACKAGES.values())})", file=sys.stderr)
        return 2
    total = 0
    for language in languages or ["fr", "en"]:
        if language not in leaks.OTHER:
            print(f"language_leaks: unknown language {language!r} (fr, en)", file=sys.stderr)
            return 2
        played = leaks.play_all(language)
        print(f"\n== {leaks.OTHER[language]} words in the {language} output")
        print(leaks.table(played))
        total += sum(sum(found.values()) for one in played for found in one.leaks().values())
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
