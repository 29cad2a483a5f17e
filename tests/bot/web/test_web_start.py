"""The `[web]` settings, checked at load with the key and the reason; `spacechess console` serves the
companion when it is on (its `/gm web` link opens the page), stops it at the end, and says plainly
when the address is taken."""

from __future__ import annotations

import socket
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.config import ConfigError, load_settings
from bot.service import Context, GameService, Reply
from bot.service.commands import table


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_companion_is_off_on_the_loopback_by_default(tmp_path: Path) -> None:
    web = load_settings(config(tmp_path, "")).web
    assert (web.enabled, web.host, web.port, web.link_base) == (False, "127.0.0.1", 8080, "http://127.0.0.1:8080")
    web = load_settings(config(tmp_path, '[web]\nenabled = true\nbase_url = "https://x.org/games/"\n')).web
    assert web.enabled and web.link_base == "https://x.org/games"
    assert load_settings(config(tmp_path, '[web]\nhost = "::1"\n')).web.link_base == "http://[::1]:8080"


@pytest.mark.parametrize(("text", "key", "reason"), [
    ("port = 0", "web.port", "greater than or equal to 1"),
    ("port = 70000", "web.port", "less than or equal to 65535"),
    ('port = "8080"', "web.port", "wrong type"),
    ('enabled = "yes"', "web.enabled", "wrong type"),
    ('base_url = "games.example.org"', "web.base_url", "http:// or https://"),
    ('base_url = "https://x.org/?a=1"', "web.base_url", "without ?query"),
    ('host = "http://0.0.0.0"', "web.host", "not a URL"),
    ('host = ""', "web.host", "at least 1 character"),
    ("enable = true", "web.enable", "did you mean 'enabled'"),
])
def test_a_bad_web_setting_names_its_key_and_why(tmp_path: Path, text: str, key: str, reason: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(config(tmp_path, f"[web]\n{text}\n"))
    assert caught.value.key == key and reason in caught.value.reason


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_console_serves_the_page_its_gm_web_link_names(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    path = config(tmp_path, f'[database]\nurl = "sqlite:///games.sqlite"\n[web]\nenabled = true\nport = {port}\n')
    script = tmp_path / "script.txt"
    script.write_text("as gm /sb new name:Nebula\nas gm /gm web\n", encoding="utf-8")
    opened: list[str] = []
    command = table()["gm web"]

    def reading(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        """`/gm web`, then a read of the page its link names, while the console still serves it."""
        reply = command.handler(svc, ctx, opts)
        opened.append(urllib.request.urlopen(reply.messages[0].params["url"], timeout=10).read().decode())  # noqa: S310
        return reply

    monkeypatch.setitem(table(), "gm web", replace(command, handler=reading))
    assert main(["console", "--config", str(path), "--script", str(script), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"http://127.0.0.1:{port}/g/" in out
    assert opened and "<h1>Nebula" in opened[0]
    with pytest.raises(OSError):  # stopped with the session: nothing listens there any more
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)  # noqa: S310


def test_an_address_in_use_fails_the_start_naming_the_keys(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = config(tmp_path, f'[database]\nurl = "sqlite:///games.sqlite"\n[web]\nenabled = true\nport = {port}\n')
        script = tmp_path / "script.txt"
        script.write_text("as gm /game help\n", encoding="utf-8")
        assert main(["console", "--config", str(path), "--script", str(script), "--out", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port}" in err and "web.port" in err and "Traceback" not in err


def test_spacechess_run_serves_the_companion_while_the_bot_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """`spacechess run` with `[web] enabled = true`: the pages answer while the Discord client runs
    (here a stand-in that asks the server), and stop with it."""
    import urllib.error

    from bot.discord_adapter import client

    port = free_port()
    path = config(tmp_path, f'[bot]\ntoken = "x"\n[database]\nurl = "sqlite:///games.sqlite"\n'
                            f'[web]\nenabled = true\nport = {port}\n')
    asked: list[int] = []

    def bot_running(settings: Any) -> int:
        with pytest.raises(urllib.error.HTTPError) as answer:  # a token that opens nothing: the server is up
            urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{'A' * 22}", timeout=10)  # noqa: S310
        asked.append(answer.value.code)
        return 0

    monkeypatch.setattr(client, "run_bot", bot_running)
    assert main(["run", "--config", str(path)]) == 0
    assert asked == [404]
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)  # noqa: S310
