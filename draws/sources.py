"""Where draws come from: FDJ's archive over HTTP, a local file, or a game master's manual entry.

Every source answers `fetch(previous)` with a `FetchResult`; `previous` is the memo of the last
good fetch, which the bot stores, so a poll that finds the same archive again costs one
conditional request and no parsing. Failures are `DrawSourceError`s with a stable code the bot can
localise and decide on (retry later, alert the game masters).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import requests

from draws.errors import DrawFileError, DrawSourceError, InvalidDrawValue, ManualDrawError
from draws.model import Draw, loto_format, numbers_tuple
from draws.parser import is_zip, parse_bytes

FDJ_ARCHIVE_URL = (
    "https://www.sto.api.fdj.fr/anonymous/service-draw-info/v3/documentations/"
    "1a2b3c4d-9876-4562-b3fc-2c963f66afp6"
)
FDJ_MIRROR_URL = "https://media.fdj.fr/static-draws/csv/loto/loto_201911.zip"
DEFAULT_URLS = (FDJ_ARCHIVE_URL, FDJ_MIRROR_URL)
#: The real archive is ~0.2 MB; anything near this limit is not the Loto archive.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: Seconds a whole fetch may take (every URL, retry and back-off): a server dripping its answer a byte
#: at a time never trips the read timeout, which bounds each read, not the download.
DEFAULT_DEADLINE = 120.0
USER_AGENT = "spacechess-bot-draws/0.1"

_CHUNK = 64 * 1024


@dataclass(frozen=True)
class FetchMemo:
    """What identifies the last good body: HTTP validators for that URL and the body's hash."""

    sha256: str
    etag: str | None = None
    last_modified: str | None = None
    url: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FetchMemo:
        return cls(
            sha256=data["sha256"],
            etag=data.get("etag"),
            last_modified=data.get("last_modified"),
            url=data.get("url"),
        )


@dataclass(frozen=True)
class FetchResult:
    """`draws` is None exactly when `unchanged`: the caller already holds those draws."""

    draws: list[Draw] | None
    memo: FetchMemo
    unchanged: bool
    url: str | None = None


class DrawSource(Protocol):
    def fetch(self, previous: FetchMemo | None = None) -> FetchResult: ...


def _result_from_body(body: bytes, where: str, memo: FetchMemo, previous: FetchMemo | None) -> FetchResult:
    """Same bytes as last time -> unchanged without parsing; else parse all or nothing."""
    if previous is not None and previous.sha256 == memo.sha256:
        return FetchResult(None, memo, True, where)
    try:
        draws = parse_bytes(body, where)
    except DrawFileError as error:
        code = "bad_zip" if error.code == "bad_zip" else "bad_file"
        raise DrawSourceError(code, url=where, detail=str(error), file_code=error.code) from error
    return FetchResult(draws, memo, False, where)


def _retryable(error: DrawSourceError) -> bool:
    """Network trouble and server errors may pass; a 404 or a bad archive will not by waiting."""
    if error.code == "http_status":
        return error.params["status"] >= 500
    return error.code in ("timeout", "connection")


@dataclass(frozen=True)
class _Body:
    """What one HTTP attempt received, checked and parsed by the caller."""

    bytes: bytes
    memo: FetchMemo
    content_type: str


class _Attempt:
    """One HTTP attempt, run on a thread of its own so that the fetch stops waiting for it at its
    deadline whatever the server does (drips its headers or its body, or goes silent)."""

    def __init__(self) -> None:
        self.result: Future[FetchResult | _Body] = Future()
        self.aborted = threading.Event()
        self._lock = threading.Lock()
        self._response: requests.Response | None = None

    def run(self, receive: Callable[[_Attempt], FetchResult | _Body]) -> None:
        try:
            self.result.set_result(receive(self))
        except BaseException as error:  # noqa: BLE001 - handed to the waiting caller, which raises it
            self.result.set_exception(error)

    @contextlib.contextmanager
    def reading(self, response: requests.Response) -> Iterator[None]:
        """While the response is open, `abort` may end its reads (its socket is still this one)."""
        with self._lock:
            self._response = response
        try:
            yield
        finally:
            with self._lock:
                self._response = None

    def abort(self) -> None:
        """Nobody waits for this attempt any more: end its blocked read at once. A shutdown wakes the
        reading thread (closing the socket under it would not); it is made on a duplicate of the
        socket's descriptor, which the attempt keeps open until `reading` ends."""
        self.aborted.set()
        with self._lock:
            if self._response is None:
                return
            with contextlib.suppress(OSError, ValueError):  # no socket (a test double), already closed
                fd = self._response.raw.fileno()
                with socket.fromfd(fd, socket.AF_INET, socket.SOCK_STREAM) as duplicate:
                    duplicate.shutdown(socket.SHUT_RDWR)


class FdjSource:
    """FDJ's current Loto archive (a ZIP), downloaded with requests from the first URL that works.

    `timeout` bounds each connection and each read; `deadline` bounds the whole fetch (every URL,
    retry and back-off), measured on `clock`."""

    def __init__(
        self,
        urls: Sequence[str] = DEFAULT_URLS,
        timeout: float = 30.0,
        retries: int = 2,
        backoff: float = 2.0,
        max_bytes: int = DEFAULT_MAX_BYTES,
        session: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
        user_agent: str = USER_AGENT,
        deadline: float = DEFAULT_DEADLINE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not urls:
            raise ValueError("FdjSource needs at least one URL")
        if retries < 0 or max_bytes <= 0 or timeout <= 0 or backoff < 0 or deadline <= 0:
            raise ValueError("retries and backoff must be >= 0, timeout, deadline and max_bytes > 0")
        self.urls = tuple(urls)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_bytes = max_bytes
        self.session = session if session is not None else requests.Session()
        self.sleep = sleep
        self.user_agent = user_agent
        self.deadline = deadline
        self.clock = clock

    def fetch(self, previous: FetchMemo | None = None) -> FetchResult:
        """Try each URL in turn while the deadline allows; raise the last URL's error (earlier ones in
        `.attempts`), `deadline` when the time ran out during a download."""
        ends = self.clock() + self.deadline
        failures: list[DrawSourceError] = []
        for url in self.urls:
            if failures and self.clock() >= ends:
                break
            try:
                return self._fetch_url(url, previous, ends)
            except DrawSourceError as error:
                failures.append(error)
                if error.code == "deadline":
                    break
        last = failures[-1]
        last.attempts = tuple(failures[:-1])
        raise last

    def _fetch_url(self, url: str, previous: FetchMemo | None, ends: float) -> FetchResult:
        attempt = 0
        while True:
            try:
                return self._download(url, previous, ends)
            except DrawSourceError as error:
                delay = self.backoff * 2**attempt
                if attempt >= self.retries or not _retryable(error) or self.clock() + delay >= ends:
                    raise
            self.sleep(delay)
            attempt += 1

    def _download(self, url: str, previous: FetchMemo | None, ends: float) -> FetchResult:
        left = ends - self.clock()
        if left <= 0:  # the back-off overslept the end by a hair
            raise self._late(url)
        attempt = _Attempt()
        timeout = min(self.timeout, left)
        threading.Thread(target=attempt.run, args=(lambda run: self._receive(url, previous, timeout, run),),
                         name="fdj-download", daemon=True).start()
        try:
            answer = attempt.result.result(timeout=left)
        except TimeoutError:
            attempt.abort()
            raise self._late(url) from None
        if isinstance(answer, FetchResult):
            return answer
        if not answer.bytes:
            raise DrawSourceError("empty", url=url, detail="the server sent an empty body")
        if not is_zip(answer.bytes):
            raise DrawSourceError(
                "not_zip", url=url,
                detail=f"Content-Type {answer.content_type!r}, starts with {answer.bytes[:16]!r}",
            )
        return _result_from_body(answer.bytes, url, answer.memo, previous)

    def _late(self, url: str) -> DrawSourceError:
        return DrawSourceError("deadline", url=url, detail=f"the download did not finish within {self.deadline:g} s",
                               seconds=self.deadline)

    def _receive(self, url: str, previous: FetchMemo | None, timeout: float, attempt: _Attempt) -> FetchResult | _Body:
        """The HTTP exchange of one attempt (on the attempt's thread): an unchanged result, or the body."""
        headers = {"User-Agent": self.user_agent}
        if previous is not None and previous.url == url:
            if previous.etag:
                headers["If-None-Match"] = previous.etag
            if previous.last_modified:
                headers["If-Modified-Since"] = previous.last_modified
        conditional = previous is not None and len(headers) > 1
        try:
            with self.session.get(url, headers=headers, timeout=timeout, stream=True) as response, \
                    attempt.reading(response):
                if response.status_code == 304 and conditional and previous is not None:
                    return FetchResult(None, previous, True, url)
                if response.status_code != 200:
                    raise DrawSourceError(
                        "http_status",
                        url=url,
                        detail=f"HTTP {response.status_code}",
                        status=response.status_code,
                    )
                body = self._read_limited(url, response, attempt)
                memo = FetchMemo(
                    sha256=hashlib.sha256(body).hexdigest(),
                    etag=response.headers.get("ETag"),
                    last_modified=response.headers.get("Last-Modified"),
                    url=url,
                )
                return _Body(body, memo, response.headers.get("Content-Type", ""))
        except requests.Timeout as error:
            raise DrawSourceError("timeout", url=url, detail=str(error)) from error
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as error:
            raise DrawSourceError("connection", url=url, detail=str(error)) from error
        except requests.RequestException as error:
            raise DrawSourceError("request", url=url, detail=str(error)) from error

    def _read_limited(self, url: str, response: requests.Response, attempt: _Attempt) -> bytes:
        """Stream and count, so a wrong URL serving gigabytes cannot exhaust memory; stop as soon as
        the attempt was given up."""
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise DrawSourceError(
                "too_large", url=url, detail=f"Content-Length {declared}", limit=self.max_bytes
            )
        body = bytearray()
        for chunk in response.iter_content(_CHUNK):
            if attempt.aborted.is_set():
                raise self._late(url)
            body += chunk
            if len(body) > self.max_bytes:
                raise DrawSourceError(
                    "too_large", url=url, detail=f"more than {self.max_bytes} bytes", limit=self.max_bytes
                )
        return bytes(body)


class FileSource:
    """A local CSV or ZIP (an archive a game master downloaded by hand, or a test fixture)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def fetch(self, previous: FetchMemo | None = None) -> FetchResult:
        try:
            body = self.path.read_bytes()
        except OSError as error:
            raise DrawSourceError("unreadable", url=str(self.path), detail=str(error)) from error
        memo = FetchMemo(sha256=hashlib.sha256(body).hexdigest(), url=str(self.path))
        return _result_from_body(body, str(self.path), memo, previous)


def manual_source(scope: str) -> str:
    """The source of the draws a game master typed for `scope` (the bot: a game's id)."""
    return f"manual:{scope}"


def manual_draw(
    date: dt.date, numbers: Sequence[int], bonus: int | None = None, index: int = 1, *, scope: str | None = None
) -> Draw:
    """A draw typed by a game master (FDJ down, a private game): same checks as a file row.

    The bonus is SC-13's complementary number (1..49, not among the numbers), never a chance number.
    The entry is the Loto of its date (`loto_format`): 6 numbers and the complementary number until
    2008-10-04, 5 numbers and none after (the chance number does not count: SC-13 **D**).
    `scope` names what the entry was typed for (a game): its source is then ``manual:<scope>``, so one
    game master's numbers for an evening never stand in another game's way (see `Draw.manual`).
    """
    try:
        draw = Draw(
            date=date,
            index=index,
            numbers=numbers_tuple("numbers", numbers),
            complementary=bonus,
            source="manual" if scope is None else manual_source(scope),
        )
    except InvalidDrawValue as error:
        raise ManualDrawError(
            error.code, field=error.field, position=error.position, **error.params
        ) from None
    expected = loto_format(date)
    if len(draw.numbers) != expected.numbers:
        raise ManualDrawError("bad_count", field="numbers", count=len(draw.numbers), expected=(expected.numbers,))
    if expected.complementary and bonus is None:
        raise ManualDrawError("missing_complementary", field="complementary")
    if not expected.complementary and bonus is not None:
        raise ManualDrawError("no_complementary", field="complementary", value=bonus)
    return draw
