"""The [games] section of the config (issue 9 point 12): a map name the bot does not ship is refused
at load, with the file, the key and the reason, like every other bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def test_an_unknown_default_map_is_refused_at_load(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[games]\ndefault_map = "nope"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path, env={})
    error = caught.value
    assert (error.file, error.key) == (str(path), "games.default_map")
    assert "unknown map name" in error.reason and "standard" in error.reason and "'nope'" in error.reason
    assert str(error) == f"{path}: games.default_map: {error.reason}"


def test_the_shipped_map_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[games]\ndefault_map = "standard"\n', encoding="utf-8")
    assert load_settings(path, env={}).games.default_map == "standard"
