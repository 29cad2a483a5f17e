"""FdjSource against a loopback HTTP server started by the tests (never a real host), FileSource,
and the manual entry."""

from __future__ import annotations

import datetime as dt
import hashlib
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from draws import (
    DrawFileError,
    DrawSourceError,
    FdjSource,
    FetchMemo,
    FileSource,
    ManualDrawError,
    loto_format,
    manual_draw,
    parse_bytes,
)
from draws.sources import FDJ_ARCHIVE_URL, FDJ_MIRROR_URL

Route = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class Loopback:
    base: str
    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        return self.base + path

    def hits(self, path: str) -> int:
        return sum(1 for p, _ in self.requests if p == path)


@pytest.fixture
def loopback() -> Iterator[Loopback]:
    state = Loopback(base="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            state.requests.append((self.path, dict(self.headers)))
            route = state.routes.get(self.path)
            if route is None:
                self.send_error(404)
                return
            route(self)

        def log_message(self, *args: object) -> None:
            """Keep the test output clean."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.block_on_close = False
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield state
    state.release.set()
    server.shutdown()
    server.server_close()
    thread.join()


def send(body: bytes, status: int = 200, headers: dict[str, str] | None = None, length: bool = True) -> Route:
    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        if length:
            handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return route


def with_etag(body: bytes, etag: str) -> Route:
    def route(handler: BaseHTTPRequestHandler) -> None:
        if handler.headers.get("If-None-Match") == etag:
            send(b"", 304, {"ETag": etag}, length=False)(handler)
        else:
            send(body, 200, {"ETag": etag, "Content-Type": "application/zip"})(handler)

    return route


def sequence(*routes: Route) -> Route:
    """Each request gets the next route; the last one repeats."""
    calls = iter(routes)
    last = routes[-1]

    def route(handler: BaseHTTPRequestHandler) -> None:
        next(calls, last)(handler)

    return route


@pytest.fixture
def archive(slices, make_zip) -> bytes:
    return make_zip({"loto_201911.csv": slices["loto_2019_numero7"].read_bytes()})


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def source_for(sleeps) -> Callable[..., FdjSource]:
    session = requests.Session()
    session.trust_env = False  # no proxy from the environment between us and 127.0.0.1

    def build(*urls: str, **options: object) -> FdjSource:
        options.setdefault("timeout", 5.0)
        return FdjSource(urls, session=session, sleep=sleeps.append, **options)

    yield build
    session.close()


def _fails(source: FdjSource, previous: FetchMemo | None = None) -> DrawSourceError:
    with pytest.raises(DrawSourceError) as caught:
        source.fetch(previous)
    return caught.value


def test_default_urls_are_fdj_then_the_media_mirror():
    assert FdjSource(session=requests.Session()).urls == (FDJ_ARCHIVE_URL, FDJ_MIRROR_URL)


def test_downloads_and_parses_the_archive(loopback, source_for, archive):
    loopback.routes["/loto"] = send(
        archive, headers={"ETag": '"v1"', "Last-Modified": "Wed, 19 Aug 2026 20:40:00 GMT"}
    )
    result = source_for(loopback.url("/loto")).fetch()
    assert result.draws == parse_bytes(archive, "x.zip")
    assert not result.unchanged
    assert result.memo == FetchMemo(
        sha256=hashlib.sha256(archive).hexdigest(),
        etag='"v1"',
        last_modified="Wed, 19 Aug 2026 20:40:00 GMT",
        url=loopback.url("/loto"),
    )
    assert result.url == loopback.url("/loto")


def test_falls_back_to_the_next_url_after_a_client_error_without_retrying_it(
    loopback, source_for, archive, sleeps
):
    loopback.routes["/mirror"] = send(archive)
    result = source_for(loopback.url("/gone"), loopback.url("/mirror")).fetch()
    assert result.url == loopback.url("/mirror") and result.draws
    assert loopback.hits("/gone") == 1 and sleeps == []


def test_http_500_is_retried_with_exponential_backoff_then_reported(loopback, source_for, sleeps):
    loopback.routes["/a"] = send(b"oops", 500)
    loopback.routes["/b"] = send(b"oops", 503)
    error = _fails(source_for(loopback.url("/a"), loopback.url("/b"), retries=3, backoff=0.5))
    assert (error.code, error.url, error.params["status"]) == ("http_status", loopback.url("/b"), 503)
    assert [(e.code, e.url) for e in error.attempts] == [("http_status", loopback.url("/a"))]
    assert loopback.hits("/a") == loopback.hits("/b") == 4
    assert sleeps == [0.5, 1.0, 2.0] * 2


def test_server_error_then_success(loopback, source_for, archive, sleeps):
    loopback.routes["/loto"] = sequence(send(b"busy", 502), send(archive))
    assert source_for(loopback.url("/loto"), backoff=3.0).fetch().draws
    assert sleeps == [3.0]


def test_timeout_is_retried_then_reported(loopback, source_for, archive, sleeps):
    def slow(handler: BaseHTTPRequestHandler) -> None:
        loopback.release.wait(10)

    loopback.routes["/slow"] = slow
    error = _fails(source_for(loopback.url("/slow"), timeout=0.2, retries=1))
    assert error.code == "timeout"
    assert loopback.hits("/slow") == 2 and len(sleeps) == 1


def test_connection_refused(source_for, sleeps):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error = _fails(source_for(f"http://127.0.0.1:{port}/loto", retries=2))
    assert error.code == "connection"
    assert len(sleeps) == 2


def test_truncated_zip(loopback, source_for, archive):
    loopback.routes["/loto"] = send(archive[: len(archive) // 2])
    error = _fails(source_for(loopback.url("/loto")))
    assert error.code == "bad_zip" and loopback.hits("/loto") == 1


def test_html_instead_of_a_zip(loopback, source_for):
    page = b"<!DOCTYPE html><html><body>Service indisponible</body></html>"
    loopback.routes["/loto"] = send(page, headers={"Content-Type": "text/html"})
    error = _fails(source_for(loopback.url("/loto")))
    assert error.code == "not_zip" and "text/html" in error.detail


def test_empty_body(loopback, source_for):
    loopback.routes["/loto"] = send(b"")
    assert _fails(source_for(loopback.url("/loto"))).code == "empty"


def test_csv_missing_a_column_wraps_the_file_error(loopback, source_for, slices, make_zip):
    text = slices["loto_2008"].read_text().replace("numero_chance;", "", 1)
    loopback.routes["/loto"] = send(make_zip({"nouveau_loto.csv": text.encode()}))
    error = _fails(source_for(loopback.url("/loto")))
    assert error.code == "bad_file" and error.params["file_code"] == "missing_column"
    assert isinstance(error.__cause__, DrawFileError) and error.__cause__.column == "numero_chance"


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "streamed"])
def test_too_large(loopback, source_for, archive, declared):
    loopback.routes["/loto"] = send(archive, length=declared)
    error = _fails(source_for(loopback.url("/loto"), max_bytes=len(archive) - 1))
    assert error.code == "too_large"


def test_exactly_max_bytes_is_accepted(loopback, source_for, archive):
    loopback.routes["/loto"] = send(archive, length=False)
    assert source_for(loopback.url("/loto"), max_bytes=len(archive)).fetch().draws


def test_unchanged_by_etag_sends_if_none_match_and_skips_parsing(loopback, source_for, archive):
    loopback.routes["/loto"] = with_etag(archive, '"abc"')
    source = source_for(loopback.url("/loto"))
    first = source.fetch()
    again = source.fetch(first.memo)
    assert again.unchanged and again.draws is None and again.memo == first.memo
    assert loopback.requests[-1][1].get("If-None-Match") == '"abc"'


def test_if_modified_since_is_sent_from_the_memo(loopback, source_for, archive):
    stamp = "Sat, 15 Aug 2026 20:40:00 GMT"
    loopback.routes["/loto"] = send(archive, headers={"Last-Modified": stamp})
    source = source_for(loopback.url("/loto"))
    source.fetch(source.fetch().memo)
    assert loopback.requests[-1][1].get("If-Modified-Since") == stamp


def test_unchanged_by_same_bytes_when_the_server_has_no_validators(loopback, source_for, archive):
    loopback.routes["/loto"] = send(archive)
    source = source_for(loopback.url("/loto"))
    first = source.fetch()
    again = source.fetch(first.memo)
    assert again.unchanged and again.draws is None and again.memo.sha256 == first.memo.sha256


def test_same_bytes_from_the_mirror_are_unchanged_too(loopback, source_for, archive):
    """The memo's ETag belongs to its URL; the hash is compared whatever URL served the bytes."""
    loopback.routes["/mirror"] = send(archive, headers={"ETag": '"mirror"'})
    previous = FetchMemo(sha256=hashlib.sha256(archive).hexdigest(), etag='"main"', url=loopback.url("/main"))
    result = source_for(loopback.url("/main"), loopback.url("/mirror")).fetch(previous)
    assert result.unchanged and result.url == loopback.url("/mirror")
    assert "If-None-Match" not in loopback.requests[-1][1]


def test_changed_bytes_are_parsed_again(loopback, source_for, archive, slices, make_zip):
    newer = make_zip({"loto_201911.csv": slices["loto_2019_jokerplus"].read_bytes()})
    loopback.routes["/loto"] = sequence(send(archive), send(newer))
    source = source_for(loopback.url("/loto"))
    first = source.fetch()
    second = source.fetch(first.memo)
    assert not second.unchanged and second.draws == parse_bytes(newer, "n.zip")


def test_memo_json_round_trip():
    memo = FetchMemo(sha256="ab" * 32, etag='"x"', last_modified=None, url="http://127.0.0.1/x")
    assert FetchMemo.from_json(memo.to_json()) == memo


def test_file_source_csv_zip_and_unchanged(tmp_path, slices, make_zip):
    csv_source = FileSource(slices["loto_2017"])
    result = csv_source.fetch()
    path = tmp_path / "archive.zip"
    path.write_bytes(make_zip({"whatever": slices["loto_2017"].read_bytes()}))
    assert FileSource(path).fetch().draws == result.draws
    again = csv_source.fetch(result.memo)
    assert again.unchanged and again.draws is None


def test_file_source_errors(tmp_path, slices):
    with pytest.raises(DrawSourceError) as missing:
        FileSource(tmp_path / "nope.csv").fetch()
    assert missing.value.code == "unreadable"
    bad = tmp_path / "bad.csv"
    bad.write_text(slices["loto_2008"].read_text().replace(";eur;", ";eur;;", 1))
    with pytest.raises(DrawSourceError) as broken:
        FileSource(bad).fetch()
    assert broken.value.code == "bad_file" and broken.value.params["file_code"] == "bad_row_length"


def test_manual_draw_is_an_index_1_draw_with_the_bonus_as_complementary():
    draw = manual_draw(dt.date(2008, 10, 4), [3, 12, 19, 33, 45, 6], bonus=7)
    assert (draw.numbers, draw.complementary, draw.chance, draw.index, draw.source) == (
        (3, 12, 19, 33, 45, 6),
        7,
        None,
        1,
        "manual",
    )
    assert manual_draw(dt.date(2008, 10, 6), [3, 12, 19, 33, 45]).complementary is None


@pytest.mark.parametrize(
    ("date", "numbers", "bonus", "code"),
    [
        # SC-13 D: after 2008-10-04 the Loto draws 5 numbers and a chance number that never counts
        (dt.date(2008, 10, 6), [20, 15, 13, 24, 45], 7, "no_complementary"),
        (dt.date(2026, 8, 22), [20, 15, 13, 24, 45, 6], None, "bad_count"),
        (dt.date(2026, 8, 22), [20, 15, 13, 24, 45, 6], 7, "bad_count"),
        # until then, 6 numbers and the complementary number
        (dt.date(2008, 10, 4), [20, 15, 13, 24, 45], 7, "bad_count"),
        (dt.date(1990, 9, 12), [20, 15, 13, 24, 45, 6], None, "missing_complementary"),
    ],
)
def test_manual_draw_is_the_loto_of_its_date(date, numbers, bonus, code):
    with pytest.raises(ManualDrawError) as caught:
        manual_draw(date, numbers, bonus)
    assert caught.value.code == code
    assert loto_format(date).numbers == (6 if date <= dt.date(2008, 10, 4) else 5)


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"numbers": [1, 2, 3, 4]}, "bad_count", "numbers"),
        ({"numbers": [1, 2, 3, 4, 5, 6, 7]}, "bad_count", "numbers"),
        ({"numbers": [1, 2, 3, 4, 50]}, "number_out_of_range", "numbers"),
        ({"numbers": [0, 2, 3, 4, 5]}, "number_out_of_range", "numbers"),
        ({"numbers": [1, 2, 3, 4, "5"]}, "number_out_of_range", "numbers"),
        ({"numbers": [1, 2, 3, 3, 5]}, "duplicate_number", "numbers"),
        ({"numbers": "12345"}, "bad_numbers", "numbers"),
        ({"bonus": 3}, "duplicate_number", "complementary"),
        ({"bonus": 50}, "number_out_of_range", "complementary"),
        ({"index": 3}, "bad_index", "index"),
        ({"date": dt.datetime(2026, 8, 22, 20, 35)}, "bad_date", "date"),
        ({"date": "2026-08-22"}, "bad_date", "date"),
    ],
)
def test_manual_draw_refuses_what_the_parser_refuses(kwargs, code, field):
    args = {"date": dt.date(2026, 8, 22), "numbers": [1, 2, 3, 4, 5], **kwargs}
    with pytest.raises(ManualDrawError) as caught:
        manual_draw(**args)
    assert (caught.value.code, caught.value.params["field"]) == (code, field)


def test_the_configured_user_agent_is_sent(loopback, source_for, archive):
    loopback.routes["/loto"] = send(archive)
    source_for(loopback.url("/loto"), user_agent="my-table-bot/1.0").fetch()
    assert loopback.requests[-1][1]["User-Agent"] == "my-table-bot/1.0"


# -- issue 23.9: a whole fetch has a deadline of its own ------------------------------------------

@dataclass
class Drip:
    """A server that declares a body and sends one byte of it every `every` seconds, up to `budget`
    bytes, then holds the connection silently until the test ends: no download can ever finish."""

    loopback: Loopback
    every: float = 0.01
    budget: int = 500
    sent: int = 0

    def __call__(self, handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(self.budget * 10))
        handler.end_headers()
        while self.sent < self.budget and not self.loopback.release.wait(self.every):
            try:
                handler.wfile.write(b"P")
                handler.wfile.flush()
            except OSError:  # the client hung up: it gave up on the download
                return
            self.sent += 1
        self.loopback.release.wait(10)


def test_a_dripping_server_is_cut_off_at_the_deadline_of_the_whole_fetch(loopback, source_for, sleeps):
    """Each byte comes well within the read timeout, so only a deadline on the whole download ends it:
    the fetch is over while the server is still dripping (before the fix it took the whole drip and
    then a read timeout, per URL and retry)."""
    first, mirror = Drip(loopback), Drip(loopback)
    loopback.routes["/drip"], loopback.routes["/mirror"] = first, mirror
    error = _fails(source_for(loopback.url("/drip"), loopback.url("/mirror"), timeout=5.0, deadline=0.3))
    assert first.sent < first.budget and mirror.sent == 0
    assert (error.code, error.url, error.params) == ("deadline", loopback.url("/drip"), {"seconds": 0.3})
    assert "did not finish within 0.3 s" in str(error)
    assert loopback.hits("/drip") == 1 and loopback.hits("/mirror") == 0 and sleeps == []


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_no_retry_is_waited_for_past_the_deadline(loopback):
    """The back-off counts in the deadline: a retry that would start after it is not slept for, and
    the error that made it needed is the one reported (the mirror still gets the time left)."""
    clock = FakeClock()
    loopback.routes["/a"] = send(b"busy", 503)
    loopback.routes["/b"] = send(b"busy", 503)
    session = requests.Session()
    session.trust_env = False
    source = FdjSource((loopback.url("/a"), loopback.url("/b")), retries=3, backoff=2.0, deadline=5.0,
                       session=session, sleep=clock.sleep, clock=clock)
    error = _fails(source)
    session.close()
    assert (error.code, error.url) == ("http_status", loopback.url("/b"))
    assert loopback.hits("/a") == 2 and loopback.hits("/b") == 2 and clock.now == 1004.0


def test_the_mirror_is_not_tried_once_the_deadline_has_passed(loopback):
    """A first URL that failed slowly used up the time: its error is the answer, not a mirror's."""
    clock = FakeClock()

    def slow_failure(handler: BaseHTTPRequestHandler) -> None:
        clock.sleep(6.0)  # the answer came late (by the fetch's clock)
        send(b"busy", 503)(handler)

    loopback.routes["/a"] = slow_failure
    loopback.routes["/b"] = send(b"busy", 503)
    session = requests.Session()
    session.trust_env = False
    source = FdjSource((loopback.url("/a"), loopback.url("/b")), retries=2, deadline=5.0,
                       session=session, sleep=clock.sleep, clock=clock)
    error = _fails(source)
    session.close()
    assert (error.code, error.url, error.attempts) == ("http_status", loopback.url("/a"), ())
    assert loopback.hits("/a") == 1 and loopback.hits("/b") == 0
