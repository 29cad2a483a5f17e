"""Config loading: defaults, the example file, environment overrides, and one test per kind of error."""

from __future__ import annotations

import tomllib
from datetime import time
from pathlib import Path

import pytest

from bot.config import (
    ConfigError,
    Settings,
    load_settings,
    resolve_config_path,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path, env: dict[str, str] | None = None) -> ConfigError:
    """The error loading `path` raises; its message always names the file, the key and the reason."""
    with pytest.raises(ConfigError) as caught:
        load_settings(path, env=env or {})
    error = caught.value
    assert error.reason and str(error).startswith(error.file) and str(error).endswith(error.reason)
    assert f": {error.key}: " in str(error) or not error.key
    return error


def test_no_file_gives_working_defaults() -> None:
    settings = load_settings(None, env={})
    assert settings.database.url == "sqlite:///spacechess.sqlite"
    assert settings.bot.language == "fr"
    assert settings.draws.source == "fdj" and settings.draws.urls
    assert settings.draws.draw_time == time(20, 35)
    assert settings.draws.weekdays == (0, 2, 5)
    assert settings.games.hp_soldier == 20 and settings.games.hp_general == 30


def test_example_file_is_valid_and_equals_the_defaults(tmp_path: Path) -> None:
    copy = write(tmp_path, EXAMPLE.read_text(encoding="utf-8"))
    from_file = load_settings(copy, env={})
    defaults = load_settings(None, env={})
    expected_url = f"sqlite:///{(tmp_path / 'spacechess.sqlite').resolve()}"
    assert from_file.database.url == expected_url
    assert from_file.model_dump(exclude={"database"}) == defaults.model_dump(exclude={"database"})


def test_example_file_documents_every_key() -> None:
    """Every setting has a line in config.example.toml, so the example is the reference."""
    example = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    for section, field in Settings.model_fields.items():
        assert set(example[section]) == set(field.annotation.model_fields), section


def test_a_comment_line_precedes_every_key_of_the_example() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if "=" in line and not line.startswith(("#", " ")):
            assert lines[number - 1].startswith("#"), f"config.example.toml line {number + 1} has no comment"


def test_environment_overrides_token_and_database(tmp_path: Path) -> None:
    path = write(tmp_path, '[bot]\ntoken = "from-file"\n[database]\nurl = "sqlite:///file.sqlite"\n')
    env = {"SPACECHESS_TOKEN": "from-env", "SPACECHESS_DATABASE_URL": "postgresql://u@localhost/db"}
    settings = load_settings(path, env=env)
    assert settings.bot.token == "from-env"
    assert settings.database.url == "postgresql://u@localhost/db"


def test_token_is_kept_out_of_repr(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, '[bot]\ntoken = "s3cret-token"\n'), env={})
    assert settings.bot.token == "s3cret-token"
    assert "s3cret-token" not in repr(settings)


def test_relative_sqlite_path_resolves_next_to_the_config_file(tmp_path: Path) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    path = write(
        folder, '[database]\nurl = "sqlite:///data/bot.sqlite"\n[draws]\nsource = "file"\nfile = "d.csv"\n'
    )
    settings = load_settings(path, env={})
    assert settings.database.url == f"sqlite:///{(folder / 'data' / 'bot.sqlite').resolve()}"
    assert settings.draws.file == folder / "d.csv"


def test_absolute_sqlite_path_and_postgres_urls_are_kept(tmp_path: Path) -> None:
    absolute = f"sqlite:///{tmp_path / 'abs.sqlite'}"
    assert (
        load_settings(write(tmp_path, f'[database]\nurl = "{absolute}"\n'), env={}).database.url == absolute
    )
    pg = "postgresql://user:pw@db.example/bot"
    assert load_settings(write(tmp_path, f'[database]\nurl = "{pg}"\n'), env={}).database.url == pg


def test_relative_url_from_the_environment_is_not_moved(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    settings = load_settings(path, env={"SPACECHESS_DATABASE_URL": "sqlite:///here.sqlite"})
    assert settings.database.url == "sqlite:///here.sqlite"


def test_resolve_config_path_prefers_cli_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_config_path(None, env={}) is None
    write(tmp_path, "")
    assert resolve_config_path(None, env={}) == Path("config.toml")
    assert resolve_config_path(None, env={"SPACECHESS_CONFIG": "/etc/bot.toml"}) == Path("/etc/bot.toml")
    assert resolve_config_path(Path("cli.toml"), env={"SPACECHESS_CONFIG": "x"}) == Path("cli.toml")


# --- one test per kind of error: each names the file, the dotted key and the reason ---------------


def test_error_toml_syntax_names_line_column_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, '[bot]\nlanguage = "fr"\n\n[draws]\npoll_retry_minutes = = 3\n')
    error = load_error(path)
    assert error.file == str(path)
    assert error.key == "draws.poll_retry_minutes"
    assert "TOML syntax error at line 5, column" in error.reason
    assert str(path) in str(error) and "draws.poll_retry_minutes" in str(error)


def test_error_unknown_key_suggests_the_close_one(tmp_path: Path) -> None:
    path = write(tmp_path, "[draws]\npoll_retry_minute = 3\n")
    error = load_error(path)
    assert (error.file, error.key) == (str(path), "draws.poll_retry_minute")
    assert error.reason == "unknown key (did you mean 'poll_retry_minutes'?)"


def test_error_unknown_section(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "[dicsord]\ntoken = 'x'\n"))
    assert error.key == "dicsord" and error.reason.startswith("unknown key")


def test_error_wrong_type_is_not_coerced(tmp_path: Path) -> None:
    path = write(tmp_path, '[draws]\npoll_retry_minutes = "10"\n')
    error = load_error(path)
    assert (error.file, error.key) == (str(path), "draws.poll_retry_minutes")
    assert error.reason == "wrong type: input should be a valid integer, got string '10'"


def test_error_wrong_type_in_a_list_names_the_index(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, '[bot]\nguild_ids = [123, "456"]\n'))
    assert error.key == "bot.guild_ids[1]" and error.reason.startswith("wrong type")


def test_error_missing_required_value(tmp_path: Path) -> None:
    path = write(tmp_path, '[draws]\nsource = "file"\n')
    error = load_error(path)
    assert (error.file, error.key) == (str(path), "draws.file")
    assert error.reason.startswith("missing required value")


def test_error_missing_database_url(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, '[database]\nurl = ""\n'))
    assert (error.key, error.reason) == ("database.url", "missing required value")


def test_error_bad_language(tmp_path: Path) -> None:
    path = write(tmp_path, '[bot]\nlanguage = "de"\n')
    error = load_error(path)
    assert (error.file, error.key) == (str(path), "bot.language")
    assert error.reason == "bad value: input should be 'fr' or 'en' (got 'de')"


def test_error_bad_database_scheme(tmp_path: Path) -> None:
    path = write(tmp_path, '[database]\nurl = "mysql://root:hunter2@localhost/bot"\n')
    error = load_error(path)
    assert (error.file, error.key) == (str(path), "database.url")
    assert "scheme must be sqlite or postgresql, not 'mysql'" in error.reason
    assert "hunter2" not in str(error)


def test_error_bad_number_range(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "[draws]\npoll_retry_minutes = 0\n"))
    assert error.key == "draws.poll_retry_minutes"
    assert error.reason == "bad value: input should be greater than or equal to 1 (got 0)"


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ('[draws]\ndraw_time = "8h35"\n', "draws.draw_time", 'time of day "HH:MM"'),
        ('[draws]\ntimezone = "Europe/Pariss"\n', "draws.timezone", "unknown time zone"),
        ('[draws]\nurls = ["ftp://x/y"]\n', "draws.urls", "http:// or https://"),
        ('[draws]\ndraw_days = ["mon"]\n', "draws.draw_days", "weekday names"),
        ("[bot]\nguild_ids = [-1]\n", "bot.guild_ids", "positive"),
        ('[bot]\ngateway_url = "http://x"\n', "bot.gateway_url", "ws:// or wss://"),
        ('[logging]\nlevel = "LOUD"\n', "logging.level", "'DEBUG'"),
    ],
)
def test_error_bad_values(tmp_path: Path, text: str, key: str, fragment: str) -> None:
    error = load_error(write(tmp_path, text))
    assert error.key == key and error.reason.startswith("bad value") and fragment in error.reason


def test_error_in_environment_override_names_the_variable(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, ""), env={"SPACECHESS_DATABASE_URL": "oracle://x/y"})
    assert error.file == "environment variable SPACECHESS_DATABASE_URL"
    assert error.key == "database.url"


def test_error_unreadable_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    error = load_error(missing)
    assert error.file == str(missing) and "cannot read" in error.reason


def test_wrong_token_type_does_not_echo_the_value(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "[bot]\ntoken = 12345678\n"))
    assert error.key == "bot.token" and "12345678" not in str(error)


def test_shards_default_to_one_process_holding_them_all() -> None:
    bot = load_settings(None, env={}).bot
    assert bot.shard_count == 0 and bot.shard_ids == []


def test_a_shard_of_several_processes_on_postgresql(tmp_path: Path) -> None:
    text = '[bot]\nshard_count = 3\nshard_ids = [2]\n[database]\nurl = "postgresql://bot@db/spacechess"\n'
    bot = load_settings(write(tmp_path, text), env={}).bot
    assert bot.shard_count == 3 and bot.shard_ids == [2]


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ("[bot]\nshard_ids = [0]\n", "bot.shard_count", "missing required value: needed when bot.shard_ids"),
        ("[bot]\nshard_count = 2\nshard_ids = [0, 2]\n", "bot.shard_ids", "shard 2 does not exist"),
        ("[bot]\nshard_count = 2\nshard_ids = [1, 1]\n", "bot.shard_ids", "each shard id once"),
        ("[bot]\nshard_count = 2\nshard_ids = [-1]\n", "bot.shard_ids", "count from 0"),
        ("[bot]\nshard_count = -1\n", "bot.shard_count", "greater than or equal to 0"),
        ("[bot]\nshard_count = 3\nshard_ids = [0]\n", "bot.shard_ids", "one PostgreSQL database"),
        ('[bot]\nshard_ids = "0"\n', "bot.shard_ids", "wrong type"),
    ],
)
def test_error_bad_shards(tmp_path: Path, text: str, key: str, fragment: str) -> None:
    error = load_error(write(tmp_path, text))
    assert error.key == key and fragment in error.reason


def test_every_shard_in_one_process_may_stay_on_sqlite(tmp_path: Path) -> None:
    bot = load_settings(write(tmp_path, "[bot]\nshard_count = 2\nshard_ids = [0, 1]\n"), env={}).bot
    assert bot.shard_ids == [0, 1]
