"""The companion in a real browser (headless Chromium, driven by Playwright): a SpaceBlast page loads
with its board and history in French and in English, follows a move made through the service without
a reload, keeps its script within the Content-Security-Policy, and fits a 360-px phone screen.

One browser for the module. Skipped without Playwright's package or Debian's /usr/bin/chromium
(`.ci/run` installs both)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.store import Store
from bot.store.web_links import issue_link
from bot.web.app import SECURITY_HEADERS
from bot.web.server import WebServer
from tests.bot.web.conftest import ANN, BOB, SEALED_WORDS, spaceblast_game

CHROMIUM = Path("/usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no {CHROMIUM} (Debian's chromium package)")
#: milliseconds a step may take before the test fails (a safeguard against a hang, not a measure)
PATIENCE_MS = 10_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[tuple[GameService, str]]:
    """A SpaceBlast game mid-turn, served by a real companion on a free port: the service and the page URL."""
    path = tmp_path_factory.mktemp("browser") / "web.sqlite"
    shutil.copyfile(migrated_sqlite, path)
    store = Store(f"sqlite:///{path}")
    svc = GameService(store, seed_source=lambda: 2024)
    game = spaceblast_game(svc)
    server = WebServer(svc, "127.0.0.1", 0).start()
    try:
        yield svc, f"http://127.0.0.1:{server.port}/g/{issue_link(store, game.id, 1)}"
    finally:
        server.stop()
        store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield launched
        launched.close()


def opened(browser: Any, url: str, **context: Any) -> tuple[Any, list[str]]:
    """A new page at `url`, and the console errors it logs (a CSP violation is one)."""
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(PATIENCE_MS)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return page, errors


def board_drawn(page: Any, *, wait: bool = False) -> bool:
    """Whether the board image is loaded and drawn; with `wait`, once it is (within PATIENCE_MS).
    (Not `wait_for_function`: Playwright evaluates its text with eval, which the page's CSP forbids.)"""
    for _ in range(PATIENCE_MS // 50 if wait else 1):
        if page.eval_on_selector("#board", "image => image.complete && image.naturalWidth > 0"):
            return True
        page.wait_for_timeout(50)
    return False


def test_french_then_english_with_board_and_history(browser: Any, served: tuple[GameService, str]) -> None:
    _svc, url = served
    page, errors = opened(browser, url, locale="fr-FR")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert board_drawn(page, wait=True) and "Nebula" in page.locator("#board").get_attribute("alt")
    history = page.locator(".history").inner_text()
    assert "Ann a rejoint la partie." in history and "scellé jusqu’à la révélation" in history
    assert not any(words in page.content() for words in SEALED_WORDS)
    page.click("#language-switch")  # to English, by the page's own link
    page.wait_for_selector("html[lang=en]")
    assert "Ann joined the game." in page.locator(".history").inner_text()
    assert board_drawn(page, wait=True) and page.locator("h2#board-title").inner_text() == "Board"
    assert errors == []
    page.context.close()


def test_the_page_follows_the_turn_without_reloading(browser: Any, served: tuple[GameService, str]) -> None:
    svc, url = served
    page, errors = opened(browser, url, locale="en-US")
    assert page.locator("html").get_attribute("lang") == "en"  # from the browser's Accept-Language
    page.wait_for_selector("#live:not([hidden])")  # its event stream is open
    version = int(page.locator("main").get_attribute("data-version"))
    page.evaluate("window.notReloaded = true")  # gone if the page were loaded again
    assert svc.handle(BOB, "sb orders", {"turn": "right"}).ok  # Bob's order, through the service
    page.wait_for_selector(f"main[data-version='{version + 1}']")
    assert "Bob: sealed until the reveal" in page.locator(".history").inner_text()
    assert page.evaluate("window.notReloaded") is True
    assert board_drawn(page, wait=True)
    assert f"v={version + 1}" in page.locator("#board").get_attribute("src")
    assert not any(words in page.content() for words in SEALED_WORDS)  # Ann's order: still sealed
    assert svc.handle(ANN, "sb ready", {}).ok and svc.handle(BOB, "sb ready", {}).ok  # the turn resolves
    page.locator(".history li", has_text="left missile").first.wait_for()
    assert page.evaluate("window.notReloaded") is True  # revealed on the open page, turn by turn
    assert errors == []
    page.context.close()


def test_a_phone_screen_has_no_horizontal_scroll(browser: Any, served: tuple[GameService, str],
                                                  tmp_path: Path) -> None:
    _svc, url = served
    page, errors = opened(browser, url, viewport={"width": 360, "height": 740}, device_scale_factor=1)
    assert board_drawn(page, wait=True)
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    assert page.eval_on_selector("#board", "image => image.getBoundingClientRect().width") <= 360
    page.keyboard.press("Tab")  # the first link takes the keyboard's focus
    assert page.evaluate("document.activeElement.id") == "language-switch"
    assert errors == []
    page.context.close()


def test_the_running_server_is_safe_to_expose(served: tuple[GameService, str]) -> None:
    """Point 4 against the real server: headers on every answer, plain refusals, nothing but reading."""
    import urllib.error
    import urllib.request

    _svc, url = served
    origin = url.split("/g/")[0]
    with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310 - our own test server
        assert answer.status == 200
        assert answer.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    for path, method, status in ((f"{origin}/g/{'A' * 22}", "GET", 404), (f"{origin}/etc/passwd", "GET", 404),
                                 (f"{url}?page=zero", "GET", 400), (url, "POST", 405), (url, "DELETE", 405)):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(path, method=method), timeout=10)  # noqa: S310
        assert refused.value.code == status
        body = refused.value.read().decode()
        assert body.startswith(str(status)) and "Traceback" not in body and "<" not in body
        assert refused.value.headers["X-Content-Type-Options"] == "nosniff"
