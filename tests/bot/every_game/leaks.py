"""Words of the other language in what a reader reads (issue 24, point 6): every demo and a scripted
session of usual mistakes, played in one language, their replies and the words drawn in their
images (`renders.common.recording_text`) counted against Debian's word lists.

A word is English when `/usr/share/dict/american-english` (package ``wamerican``) has it and
`/usr/share/dict/french` (``wfrench``) has not, and French the other way round; a word both
languages write ("date", "minute", "page") leaks in neither. What the players typed — the names of
the games, characters and ships, members as the console prints them (``@ann``) — is theirs, not the
bot's, and is not counted; nor are file paths (``0001-board.png``). What is left to forgive is the
short `ALLOWED` list below, each word with its reason.

Used by tests/bot/every_game/test_language_leaks.py and by ``python scripts/language_leaks.py``,
which prints the table per source.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import os
import re
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from unittest.mock import patch

LISTS = {"en": Path("/usr/share/dict/american-english"), "fr": Path("/usr/share/dict/french")}
PACKAGES = {"en": "wamerican", "fr": "wfrench"}
OTHER = {"fr": "en", "en": "fr"}
SESSIONS = Path(__file__).resolve().parent / "sessions"

#: words of the other language that a reader of each language may read, and why
ALLOWED: dict[str, dict[str, str]] = {
    "fr": {
        # the command groups are named alike in both languages (`name.group.*`: /sc, /sb, /hx, /ak)
        "sc": "command group", "sb": "command group", "hx": "command group", "ak": "command group",
        "spacechess": "the program's name (`spacechess console`)",
        "space": "the game's name, Space Chess", "chess": "the game's name, Space Chess",
        "sniper": "a Space Chess weapon, named so by the seed's French rules (« le Sniper »)",
        "so": "SO, sud-ouest on the French compass (HexArena, Arkeon, SpaceBlast)",
        "anti": "anti-horaire, Arkeon's anticlockwise rotator (wfrench lists only the whole word)",
        "blitz": "a HexArena variant's name, Blitz in the French rules too",
        "omega": "a HexArena variant's name (Omega), as is Alpha",
        "info": "`/partie info`: French uses the short word (wfrench lacks it)",
        # the suite serves its test-only games beside the shipped ones (tests/support/tally_bot.py):
        # the help lists their groups and names there, never in the shipped bot
        "tl": "a test-only game's group", "ts": "a test-only game's group", "td": "a test-only game's group",
        "tally": "a test-only game's name", "sealed": "a test-only game's name", "duel": "a test-only game's name",
    },
    "en": {
        "loto": "the name of FDJ's lottery, whose draws Space Chess plays on",
        "turbo": "a SpaceBlast power; English writes the word too (wamerican lacks it)",
        "quo": "status quo: Latin, written alike in both languages (wamerican lacks it)",
    },
}

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
#: file paths and file names the console prints (``🖼 out/1-orion/0001-board.png``)
_PATH = re.compile(r"\S*/\S*/\S*|\S+\.(?:png|gif|json|toml|txt|map|sqlite)\b")
_MEMBER = re.compile(r"[@#][\w.-]+")


class WordListsMissing(RuntimeError):
    """Debian's word lists are not installed: the message says which package to install."""


@cache
def word_list(language: str) -> frozenset[str]:
    path = LISTS[language]
    if not path.is_file():
        raise WordListsMissing(f"{path} is missing: install Debian's {PACKAGES[language]} "
                               f"(apt-get install {' '.join(PACKAGES.values())})")
    return frozenset(_fold(line.strip()) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def missing_lists() -> list[str]:
    """The word lists not installed, by path."""
    return [str(path) for path in LISTS.values() if not path.is_file()]


def without_lists(environ: dict[str, str] | None = None) -> tuple[str, str] | None:
    """What a check does without the word lists: None when they are there, else ``("fail", why)``
    under CI (``CI=true``: .ci/run installs them, so a missing list is a broken run) and
    ``("skip", why)`` elsewhere, the reason naming the packages."""
    missing = missing_lists()
    if not missing:
        return None
    why = (f"Debian's word lists are missing ({', '.join(missing)}): install them with "
           f"`apt-get install {' '.join(PACKAGES.values())}` to check the languages")
    return ("fail" if in_ci(environ) else "skip"), why


def _fold(word: str) -> str:
    return unicodedata.normalize("NFC", word).replace("’", "'").lower()


def leaked_words(text: str, language: str, forgiven: Iterable[str] = ()) -> Counter[str]:
    """The words of `text` that are of the other language and not of `language`'s (see the module
    docstring), by how often they occur; `forgiven` are words the players typed."""
    ours, theirs = word_list(language), word_list(OTHER[language])
    names = {_fold(word) for word in forgiven}
    found: Counter[str] = Counter()
    for token in _WORD.findall(_MEMBER.sub(" ", _PATH.sub(" ", text))):
        whole = _fold(token)
        parts = [whole] if whole in theirs or "'" not in whole else whole.split("'")
        for word in parts:
            if len(word) > 1 and word in theirs and word not in ours and word not in ALLOWED[language] and not any(
                    name.startswith(word) for name in names):  # a name, or its tag on a token ("Bo")
                found[word] += 1
    return found


@cache
def _named() -> re.Pattern[str]:
    """``name:VALUE`` as any language writes the option (``nom:Ann``), the value quoted or not."""
    from bot.i18n import LANGUAGES, option_name

    names = sorted({"name", *(option_name("name", language) for language in LANGUAGES)})
    return re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, names))}):(?:\"([^\"]*)\"|'([^']*)'|(\S+))")


def typed_names(lines: Iterable[str]) -> set[str]:
    """The words of the names the players gave (``name:Outpost``, ``nom:"Grande partie"``)."""
    names: set[str] = set()
    for line in lines:
        for match in _named().finditer(line):
            names.update(_WORD.findall(next(group for group in match.groups() if group is not None)))
    return names


@dataclass
class Played:
    """One demo or session played in one language: the console's output and the words drawn (all
    of them, and by the name of the image file they were drawn in: `pictures`)."""

    source: str
    language: str
    lines: Sequence[str]
    output: str
    drawn: list[str] = field(default_factory=list)
    pictures: dict[str, list[str]] = field(default_factory=dict)

    def leaks(self) -> dict[str, Counter[str]]:
        forgiven = typed_names(self.lines)
        return {"replies": leaked_words(self.output, self.language, forgiven),
                "images": leaked_words("\n".join(self.drawn), self.language, forgiven)}


#: the functions whose bytes are a finished picture: a PNG, a GIF, SpaceBlast's turn animation
_ENCODERS = (("renders.common", "encode_png"), ("renders.gif", "_encode"),
             ("renders.spaceblast.animation", "render_turn_gif"))


@contextmanager
def words_by_picture(drawn: list[str]) -> Iterator[dict[bytes, list[str]]]:
    """While open, the words `drawn` (a `recording_text()` list) since the last picture was encoded,
    by the digest of the next picture's bytes (`_ENCODERS`): each picture's own words. A drawing
    the renders cached (a background, a key) is recorded with the first picture that drew it only,
    and a GIF encoded again smaller to fit its limit (`renders.gif.bounded_gif`) with its first try."""
    found: dict[bytes, list[str]] = {}
    start = [0]

    def ending(encode: Callable[..., bytes]) -> Callable[..., bytes]:
        def encoded(*args: Any, **kwargs: Any) -> bytes:
            data = encode(*args, **kwargs)
            found.setdefault(hashlib.sha256(data).digest(), drawn[start[0]:])
            start[0] = len(drawn)
            return data
        return encoded

    with ExitStack() as patches:
        for module, name in _ENCODERS:
            owner = importlib.import_module(module)
            patches.enter_context(patch.object(owner, name, ending(getattr(owner, name))))
        yield found


def play_demo(game: str, language: str) -> Played:
    from bot.demo import run_demo, script_lines
    from renders.common import recording_text

    out = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="leaks-") as folder, recording_text() as drawn, \
            words_by_picture(drawn) as by_digest:
        run_demo(Path(folder), language, out, game)
        pictures = {path.name: by_digest.get(hashlib.sha256(path.read_bytes()).digest(), [])
                    for path in sorted(Path(folder).iterdir()) if path.suffix in (".png", ".gif")}
    return Played(f"demo {game}", language, script_lines(game), out.getvalue(), list(drawn), pictures)


def session_lines(language: str) -> list[str]:
    return (SESSIONS / f"session.{language}.txt").read_text(encoding="utf-8").splitlines()


def play_session(language: str) -> Played:
    """The scripted session of usual mistakes, in `language`, on a throwaway database; files it
    attaches are read from the demo's folder and the sessions' folder."""
    from bot.compose import game_service
    from bot.console import Console
    from bot.store.repo import Store
    from renders.common import recording_text

    lines = session_lines(language)
    out = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="leaks-") as folder, recording_text() as drawn:
        store = Store(f"sqlite:///{Path(folder) / 'session.sqlite'}")
        try:
            console = Console(game_service(store), out_dir=Path(folder) / "out", language=language,
                              base_dir=SESSIONS, stream=out)
            console.run_lines(lines)
        finally:
            store.close()
    return Played(f"session ({language})", language, lines, out.getvalue(), list(drawn))


def play_all(language: str) -> list[Played]:
    return [*(play_demo(game, language) for game in shipped_demos()), play_session(language)]


def shipped_demos() -> list[str]:
    """The shipped games' demos (not a test-only game's, which the suite serves beside them)."""
    from bot.games import GAMES

    return [entry.kind for entry in GAMES if entry.demo]


def table(played: Sequence[Played], width: int = 100) -> str:
    """One row per source and kind (replies, images): the count and the words, most frequent first."""
    rows = [f"{'source':<22} {'text':<8} {'leaks':>5}  words"]
    total = 0
    for one in played:
        for kind, found in one.leaks().items():
            total += sum(found.values())
            words = ", ".join(f"{w}×{n}" if n > 1 else w for w, n in found.most_common())
            if len(words) > width:
                words = words[: width - 1] + "…"
            rows.append(f"{one.source:<22} {kind:<8} {sum(found.values()):>5}  {words}")
    rows.append(f"{'total':<31} {total:>5}")
    return "\n".join(rows)


def in_ci(environ: dict[str, str] | None = None) -> bool:
    return (os.environ if environ is None else environ).get("CI", "").lower() in ("1", "true", "yes")
