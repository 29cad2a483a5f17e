"""The game's page and its board through aiohttp's test client: what it shows, in which language,
never a sealed order; plain 404 and 400 for bad tokens, paths and parameters; the security headers
on every answer; the per-address rate limit."""

from __future__ import annotations

import re
from html import unescape as html_unescape

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameService
from bot.store import GameRecord
from bot.web.app import PICTURES, SECURITY_HEADERS, SERVICE, make_app
from bot.web.limits import RateLimit
from bot.web.page import accepted_language
from bot.web.text import html_text
from tests.bot.web.conftest import ANN, BOB, GM, SEALED_WORDS


async def test_the_page_shows_board_status_and_history_in_french_by_default(client: TestClient, token: str,
                                                                           game: GameRecord) -> None:
    answer = await client.get(f"/g/{token}")
    assert answer.status == 200 and answer.content_type == "text/html"
    html = await answer.text()
    assert len(html.encode()) < 20_000  # light: a few KB besides the images
    assert '<html lang="fr">' in html and "<h2 id=\"board-title\">Plateau</h2>" in html
    board = re.search(r'<img src="([^"]+)" alt="([^"]+)"', html)
    assert board is not None and "Nebula" in board.group(2) and "Ann" in board.group(2)  # alt text: the game
    assert f"v={game.version}" in board.group(1)
    assert "<strong>Ann</strong> a rejoint la partie." in html  # history as sentences
    assert "<strong>Ann</strong> : scellé jusqu’à la révélation" in html  # the sealed order: who, not what
    assert "tour 0" in html  # status line
    assert f'href="/g/{token}?lang=en"' in html  # the switch to English
    image = await client.get(board.group(1).replace("&amp;", "&"))
    assert image.status == 200 and image.content_type == "image/png"
    assert (await image.read()).startswith(b"\x89PNG")
    drawn = client.app[PICTURES].of(client.app[SERVICE], game, "fr")  # the picture drawn, as Discord gets it
    assert html_unescape(board.group(2)) == drawn.alt  # the page's alt text is the picture's


@pytest.mark.parametrize(("accept", "query", "language"), [
    ("en-GB,en;q=0.9", "", "en"), ("de-DE,en;q=0.5,fr;q=0.4", "", "en"), ("de", "", "fr"),
    ("en", "?lang=fr", "fr"), ("", "?lang=en", "en")])
async def test_the_language_follows_the_browser_unless_chosen(client: TestClient, token: str, accept: str,
                                                               query: str, language: str) -> None:
    html = await (await client.get(f"/g/{token}{query}", headers={"Accept-Language": accept})).text()
    assert f'<html lang="{language}">' in html
    assert ("Board" if language == "en" else "Plateau") in html


def test_accept_language_picks_the_preferred_language_we_speak() -> None:
    assert accepted_language(None) == "fr"
    assert accepted_language("fr-CA;q=0.3, en;q=0.8") == "en"
    assert accepted_language("en;q=0, fr;q=0.1") == "fr"
    assert accepted_language("en;q=abc, es") == "fr"
    assert accepted_language("en, fr") == "en"


async def test_no_page_shows_a_sealed_order_before_its_reveal(client: TestClient, token: str,
                                                              svc: GameService) -> None:
    for language in ("fr", "en"):
        for page in ("", "&page=1"):
            html = await (await client.get(f"/g/{token}?lang={language}{page}")).text()
            assert not any(words in html for words in SEALED_WORDS), language
    # once the turn resolves the orders are revealed: now the page may (and does) show them
    assert svc.handle(BOB, "sb ready", {}).ok and svc.handle(ANN, "sb ready", {}).ok
    html = await (await client.get(f"/g/{token}?lang=en")).text()
    assert "left missile" in html


async def test_history_pages_link_each_other_and_clamp(client: TestClient, token: str, svc: GameService) -> None:
    for _ in range(7):  # a page holds 10 entries: 5 so far, 12 after these
        assert svc.handle(ANN, "sb orders", {"turn": "right"}).ok
    first = await (await client.get(f"/g/{token}?lang=en")).text()
    assert "Page 1 of 2" in first and f'href="/g/{token}?page=2&amp;lang=en"' in first
    last = await (await client.get(f"/g/{token}?page=9&lang=en")).text()
    assert "Page 2 of 2" in last and f'href="/g/{token}?page=1&amp;lang=en"' in last
    assert "created the game" in last


@pytest.mark.parametrize("path", ["/", "/g/", "/g/short", "/g/{token}x", "/g/{token}/nothing", "/static/none.css",
                                  "/g/AAAAAAAAAAAAAAAAAAAAAA", "/g/AAAAAAAAAAAAAAAAAAAAAA/board.png",
                                  "/g/AAAAAAAAAAAAAAAAAAAAAA/events", "/g/../etc/passwd"])
async def test_bad_paths_and_tokens_get_a_plain_404(client: TestClient, token: str, path: str) -> None:
    answer = await client.get(path.format(token=token))
    assert answer.status == 404
    assert answer.content_type == "text/plain" and await answer.text() == "404 Not Found\n"


async def test_a_revoked_link_opens_nothing(client: TestClient, token: str, svc: GameService) -> None:
    assert (await client.get(f"/g/{token}")).status == 200
    svc.handle(GM, "gm web", {"action": "off"})
    for path in ("", "/board.png", "/events"):
        assert (await client.get(f"/g/{token}{path}")).status == 404


@pytest.mark.parametrize("query", ["?page=0", "?page=-1", "?page=abc", "?page=10001", "?page=1&page=2", "?lang=de",
                                   "?lang=", "?foo=1", "?page=1%00"])
async def test_bad_parameters_get_a_plain_400(client: TestClient, token: str, query: str) -> None:
    answer = await client.get(f"/g/{token}{query}")
    assert answer.status == 400 and await answer.text() == "400 Bad Request\n"


async def test_bad_parameters_of_the_board_and_stream_get_400(client: TestClient, token: str) -> None:
    for path in ("/board.png?v=x", "/board.png?lang=xx", "/board.png?page=1", "/events?x=1"):
        assert (await client.get(f"/g/{token}{path}")).status == 400, path


async def test_only_reading_is_allowed(client: TestClient, token: str) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        answer = await client.request(method, f"/g/{token}")
        assert answer.status == 405 and answer.headers["Allow"] == "GET, HEAD"
    assert (await client.head(f"/g/{token}")).status == 200
    assert (await client.head(f"/g/{token}/events")).status == 405  # an event stream is read whole


async def test_every_answer_carries_the_security_headers(client: TestClient, token: str) -> None:
    for path in (f"/g/{token}", f"/g/{token}/board.png", "/static/web.css", "/static/live.js", "/nothing",
                 f"/g/{token}?page=x"):
        answer = await client.get(path)
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value, (path, name)
        assert "aiohttp" not in answer.headers.get("Server", "")
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
    html = await (await client.get(f"/g/{token}")).text()
    assert "<script>" not in html and " style=" not in html and "http" not in html  # nothing inline, nothing outside


async def test_a_game_name_is_text_never_markup(client: TestClient, svc: GameService, game: GameRecord) -> None:
    from bot.store.web_links import issue_link

    evil = svc.store.create_game(kind=game.kind, name="<script>alert(1)</script>", guild_id=10, channel_id=555,
                                 setup=game.setup, state=game.state, seed=game.seed, created_by=1)
    html = await (await client.get(f"/g/{issue_link(svc.store, evil.id, 1)}")).text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_chat_markup_becomes_html_and_mentions_hide_the_member() -> None:
    import datetime as dt

    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    html = html_text("**Ann** ~~moved~~ `E5` <@123> <t:1767229200:R> <b>", "en", now)
    assert "<strong>Ann</strong>" in html and "<del>moved</del>" in html and "<code>E5</code>" in html
    assert "123" not in html and "@member" in html and "&lt;b&gt;" in html
    assert '<time datetime="2026-01-01T01:00:00+00:00">' in html


async def test_past_its_rate_an_address_gets_429(svc: GameService, token: str) -> None:
    app = make_app(svc, limit=RateLimit(rate=0.001, burst=3))
    async with TestClient(TestServer(app)) as limited:
        statuses = [(await limited.get(f"/g/{token}/nothing")).status for _ in range(5)]
    assert statuses == [404, 404, 404, 429, 429]


def test_a_bucket_refills_with_time() -> None:
    now = [0.0]
    limit = RateLimit(rate=2.0, burst=2, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(3)] == [True, True, False]
    assert limit.allow("b")  # each address its own bucket
    now[0] += 0.5  # one token back
    assert limit.allow("a") and not limit.allow("a")


async def test_a_game_that_draws_its_story_links_its_recap_and_replay(client: TestClient, svc: GameService,
                                                                      game: GameRecord, token: str) -> None:
    from bot.service import Context
    from bot.store.web_links import issue_link

    here = {"guild_id": 10, "channel_id": 200}
    gm, ann, bob = (Context(user_id=i, user_name=n, manage_server=i == 1, **here) for i, n in
                    ((1, "gm"), (20, "ann"), (21, "bob")))
    for reply in (svc.handle(gm, "sc new", {"name": "Orion"}),
                  svc.handle(ann, "sc join", {"name": "Ann", "team": "1", "role": "general"}),
                  svc.handle(bob, "sc join", {"name": "Bob", "team": "2", "role": "general"}),
                  svc.handle(ann, "sc equip", {"card1": 1, "card2": 2}), svc.handle(bob, "sc equip", {"card1": 3, "card2": 4}),
                  svc.handle(ann, "sc deploy", {"cell": "A1"}), svc.handle(bob, "sc deploy", {"cell": "X44"}),
                  svc.handle(gm, "gm start", {})):
        assert reply.ok, reply.messages
    orion = svc.store.game_in_channel(10, 200)
    link = issue_link(svc.store, orion.id, 1)
    html = await (await client.get(f"/g/{link}?lang=en")).text()
    recap = re.search(r'<a href="([^"]+)" id="recap-link">Charts of the game', html)
    replay = re.search(r'<a href="([^"]+)" id="replay-link">', html)
    assert recap is not None and replay is not None
    charts = await client.get(recap.group(1).replace("&amp;", "&"))
    assert charts.status == 200 and charts.content_type == "image/png" and (await charts.read()).startswith(b"\x89PNG")
    animation = await client.get(replay.group(1).replace("&amp;", "&"))
    assert animation.status == 200 and animation.content_type == "image/gif"
    assert (await animation.read()).startswith(b"GIF8")
    # SpaceBlast draws no recap: no link, and its address is no page
    assert "recap-link" not in await (await client.get(f"/g/{token}")).text()
    assert (await client.get(f"/g/{token}/recap.png")).status == 404


async def test_a_failure_is_a_bare_500_and_the_log_never_holds_the_token(client: TestClient, token: str,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    from bot.web import app as web_app

    def broken(*_args: object) -> str:
        raise RuntimeError("a bug in the page")

    monkeypatch.setattr(web_app, "page_html", broken)
    answer = await client.get(f"/g/{token}")
    assert answer.status == 500 and await answer.text() == "500 Internal Server Error\n"
    assert "a bug in the page" in caplog.text and token not in caplog.text and "/g/{token}" in caplog.text
