"""Shared fixtures of the draws tests: the committed slices, the real files when present, ZIPs."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
REAL_FDJ = Path("/work/shared/data/fdj")

SLICES = {
    "loto_1976": DATA / "loto_1976_slice.csv",
    "loto_2008": DATA / "loto_2008_slice.csv",
    "loto_2017": DATA / "loto_2017_slice.csv",
    "loto_201902": DATA / "loto_201902_slice.csv",
    "loto_2019_numero7": DATA / "loto_2019_numero7_slice.csv",
    "loto_2019_jokerplus": DATA / "loto_2019_jokerplus_slice.csv",
}


def _make_zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _data_rows(path: Path) -> int:
    return len(path.read_text(encoding="ascii").splitlines()) - 1


# Test modules cannot import each other under --import-mode=importlib: helpers travel as fixtures.
@pytest.fixture
def make_zip():
    return _make_zip


@pytest.fixture
def data_rows():
    return _data_rows


@pytest.fixture
def slices() -> dict[str, Path]:
    return SLICES


@pytest.fixture
def real_fdj() -> Path:
    if not REAL_FDJ.is_dir():
        pytest.skip(f"the real FDJ files are not here ({REAL_FDJ} is absent): only the slices are tested")
    return REAL_FDJ
