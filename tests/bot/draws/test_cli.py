"""`spacechess draws import|list|fetch` on the configured database (SPACECHESS_DATABASE_URL here)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.i18n import format_day
from bot.store import Store
from bot.store.draws import stored_draws
from draws import parse_path
from tests.bot.draws.games import make_running_game

DATA = Path(__file__).resolve().parents[2] / "draws" / "data"
OLD_LOTO = DATA / "loto_1976_slice.csv"  # two draws an evening, complementary numbers
NEW_LOTO = DATA / "loto_2019_numero7_slice.csv"


@pytest.fixture
def database(sqlite_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", sqlite_url)
    monkeypatch.delenv("SPACECHESS_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)  # no stray ./config.toml
    return sqlite_url


def stored(url: str) -> list:
    store = Store(url)
    try:
        return stored_draws(store)
    finally:
        store.close()


def test_import_is_idempotent_and_reports_progress(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    total = len(parse_path(OLD_LOTO)) + len(parse_path(NEW_LOTO))
    assert main(["draws", "import", str(OLD_LOTO), str(NEW_LOTO)]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == f"{total} draw(s) read, {total} new, 0 already stored"
    new_rows = len(parse_path(NEW_LOTO))
    assert err.rstrip().endswith(f"{NEW_LOTO.name}: {new_rows}/{new_rows} draws read")
    assert main(["draws", "import", str(NEW_LOTO)]) == 0
    assert capsys.readouterr().out.strip().endswith(", 0 new, " + f"{len(parse_path(NEW_LOTO))} already stored")
    assert len(stored(database)) == total


def test_a_bad_file_anywhere_imports_nothing(database: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csv"
    lines = NEW_LOTO.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join([lines[0], lines[1].replace(";14;", ";99;", 1)]) + "\n", encoding="utf-8")
    assert main(["draws", "import", str(NEW_LOTO), str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.csv, line 2, column `boule_1`: 99 is not from 1 to 49. Nothing was imported." in err
    assert main(["draws", "import", str(tmp_path / "missing.zip")]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert stored(database) == []


def test_list_json_one_object_per_line_in_draw_order(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["draws", "import", str(OLD_LOTO)])
    capsys.readouterr()
    assert main(["draws", "list", "--json", "--last", "3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = sorted(parse_path(OLD_LOTO), key=lambda d: d.key)[-3:]
    assert lines == [
        {"date": d.date.isoformat(), "index": d.index, "numbers": list(d.numbers),
         "complementary": d.complementary, "chance": d.chance}
        for d in expected
    ]
    assert main(["draws", "list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(parse_path(OLD_LOTO))


def test_fetch_polls_the_configured_file_source_once(database: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(f'[draws]\nsource = "file"\nfile = "{NEW_LOTO}"\n', encoding="utf-8")
    assert main(["draws", "fetch", "--config", str(config)]) == 0
    count = len(parse_path(NEW_LOTO))
    assert capsys.readouterr().out.strip() == f"{count} draw(s) fetched from {NEW_LOTO}, {count} new"
    assert main(["draws", "fetch", "--config", str(config)]) == 0
    assert capsys.readouterr().out.strip().endswith(", 0 new")
    manual = tmp_path / "manual.toml"
    manual.write_text('[draws]\nsource = "manual"\n', encoding="utf-8")
    assert main(["draws", "fetch", "--config", str(manual)]) == 1
    assert "nothing to fetch" in capsys.readouterr().err


def test_fetch_apply_prints_the_turn_posts(database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    newest = max(parse_path(NEW_LOTO), key=lambda d: d.key)
    store = Store(database)
    try:
        game = make_running_game(store, started=dt.datetime.combine(newest.date, dt.time(0), dt.UTC))
    finally:
        store.close()
    config = tmp_path / "bot.toml"
    config.write_text(f'[bot]\nlanguage = "en"\n[draws]\nsource = "file"\nfile = "{NEW_LOTO}"\n', encoding="utf-8")
    assert main(["draws", "fetch", "--apply", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"[{game.name}]" in out
    assert f"Loto draw of {format_day(newest.date, 'en')}: {' '.join(map(str, newest.numbers))}" in out
    assert out.strip().endswith("1 turn post(s)")


FDJ = Path(__file__).resolve().parents[4] / "shared" / "data" / "fdj"
REAL_FILES = {  # every generation, with the row counts FDJ's files hold (shared/data/fdj/README.txt)
    "loto_197605/loto_197605.zip": 4858,
    "loto_200810/nouveau_loto.csv": 1317,
    "loto_201703/loto2017.csv": 310,
    "loto_201902/loto_201902.csv": 107,
    "loto_201911_v2026-08-19/loto_201911.zip": 1063,
    "loto_201911_v2022-09-28/loto_201911.csv": 455,
}


@pytest.mark.parametrize("name", sorted(REAL_FILES))
def test_every_real_fdj_file_imports_with_its_count(name: str, database: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = FDJ / name
    if not path.exists():
        pytest.skip(f"the real FDJ files are not next to the repository ({FDJ})")
    count = REAL_FILES[name]
    assert main(["draws", "import", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{count} draw(s) read, {count} new, 0 already stored"
    assert len(stored(database)) == count


def test_progress_is_plain_lines_unless_stderr_is_a_terminal(database: str, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9 point 15: redrawing a bar with `\\r` into a log or a pipe piled every redraw on one line."""
    rows = len(parse_path(OLD_LOTO))
    assert main(["draws", "import", str(OLD_LOTO)]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "[" not in err
    lines = err.splitlines()
    assert 1 < len(lines) <= 4 and all(line.startswith(f"{OLD_LOTO.name}: ") for line in lines)
    assert lines[-1] == f"{OLD_LOTO.name}: {rows}/{rows} draws read"
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)  # a terminal: the bar, redrawn in place
    assert main(["draws", "import", str(OLD_LOTO)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("\r" + f"{OLD_LOTO.name}: [") and err.endswith(f"] {rows}/{rows}\n")


@pytest.mark.parametrize("last", ["-1", "0", "three"])
def test_list_refuses_a_count_below_one(database: str, last: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9 point 12: `--last -1` was taken (and listed every draw but the first)."""
    main(["draws", "import", str(OLD_LOTO)])
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["draws", "list", "--last", last])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "argument --last:" in err and last in err
    assert err.splitlines()[-1].endswith(f"1 or more, got {last}") or "whole number" in err


@pytest.mark.parametrize(("language", "sentence"), [
    ("C", "one.csv, line 1: the first line is not the header of an FDJ Loto results file (1 column"),
    ("fr_FR.UTF-8", "one.csv, ligne 1 : la première ligne n’est pas l’en-tête d’un fichier de résultats du Loto"),
])
def test_a_refused_file_is_said_in_a_sentence_of_the_terminal_language(
        database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        language: str, sentence: str) -> None:
    """Issue 23.7: no ``unknown_header (columns=1, similarity=0.0)``."""
    monkeypatch.setenv("LC_ALL", language)
    one = tmp_path / "one.csv"
    one.write_text("date,numbers\n2024-03-06,1 2 3 4 5\n", encoding="utf-8")
    assert main(["draws", "import", str(one)]) == 1
    err = capsys.readouterr().err
    assert sentence in err and "unknown_header" not in err and "similarity" not in err, err
    assert stored(database) == []


def test_every_draw_file_refusal_has_its_sentence() -> None:
    import re

    from bot.i18n import catalog

    root = Path(__file__).resolve().parents[3] / "draws"
    codes = set()
    for source in ("parser.py", "generations.py", "model.py"):
        text = (root / source).read_text(encoding="utf-8")
        codes |= set(re.findall(r'(?:DrawFileError|fail|InvalidDrawValue)\(\s*"([a-z_]+)"', text))
    assert {"unknown_header", "bad_row_length", "number_out_of_range"} <= codes
    for language in ("en", "fr"):
        assert sorted(c for c in codes if f"drawfile.{c}" not in catalog(language)) == [], language
