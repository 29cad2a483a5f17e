"""The `/gm export` document and its strict reading for `/gm import`.

An export holds everything a game needs to live again elsewhere: its setup, seed, options (draw
source, time limit), status, seats and its whole log with times (undone entries and bookkeeping
included, so the history reads the same). `/gm import` reads it as untrusted input: every field is
checked before anything is built, and each fault is reported with where it is (``log[3].payload``),
so a hand-edited or truncated file is refused with a reason and nothing is created.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.drivers import LogFault
from bot.games import driver_of, presenter_for
from bot.service.computers import COMPUTERS, computer_module
from bot.service.history import author_record
from bot.service.refusals import order_refusal, setup_refusal
from bot.service.replies import Message, Reply, ServiceError
from bot.store.models import GAME_STATUSES
from bot.store.repo import GameRecord, LogRecord, SeatRecord
from engine import registry
from engine.core.documents import INT_MAX, INT_MIN, MAX_DEPTH, check_storable
from engine.core.errors import OrderError, SetupError
from engine.core.names import check_name
from engine.core.protocol import GameRules

EXPORT_FORMAT = 2
#: formats this version reads; format 1 (no options, seats or times of its own) reads as format 2
READABLE_FORMATS = (1, 2)
#: The largest seed the bot draws (`GameService.seed_source`: 62 random bits); an import takes no other.
MAX_SEED = 2**62 - 1
#: the document's game section, named through a constant so its paths never read as catalog keys
_GAME = "game"
#: where an export keeps a sealed seed (`bot.service.sealing`)
SEALED_SEED_PATH = f"{_GAME}.sealed_seed"


@dataclass(frozen=True)
class GameExport:
    kind: str
    name: str
    #: the seed, or None when the file carries it sealed (`sealed_seed`: a game whose seed deals
    #: secrets, exported while it ran; `bot.service.sealing`)
    seed: int | None
    status: str
    setup: dict[str, Any]
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    log: tuple[LogRecord, ...]
    sealed_seed: str | None = None


def export_document(game: GameRecord, log: list[LogRecord], seats: list[SeatRecord], view: Any,
                    sealed_seed: str | None = None) -> dict[str, Any]:
    """The export of `game`; with `sealed_seed`, that instead of the seed (`GameExport.seed`)."""
    rules = registry.get(game.kind)
    seed = {"sealed_seed": sealed_seed} if sealed_seed is not None else {"seed": game.seed}
    return {
        "format": EXPORT_FORMAT,
        "game": {"kind": game.kind, "name": game.name, **seed, "status": game.status,
                 "version": game.version, "options": game.options},
        "seats": [{"user": s.user_id, "actor": s.actor, "mute_pings": s.mute_pings} for s in seats],
        "setup": game.setup,
        # `author` says who did it in the history's terms (a player's input, a GM's act, the bot's);
        # an import reads `actor` and `user`, from which it is derived again
        "log": [{"seq": e.seq, "kind": e.kind, "actor": e.actor, "user": e.user_id, "payload": e.payload,
                 "time": e.created_at.isoformat(), "author": author_record(rules, e)} for e in log],
        "view": view,
    }


class _CollectorPause:
    """How many threads hold the cyclic garbage collector off, and whether it ran before the first."""

    lock = threading.Lock()
    holders = 0
    resume = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while a whole log is built and dropped (an export, an
    import): tens of thousands of records that form no cycle, freed by reference counting at the
    end, which the collector would otherwise walk again at each of its passes while they pile up
    (a third of a 10,000-entry export's time). The pause is process-wide: it ends with the last
    thread holding it, and the collector runs again only if it ran before."""
    with _CollectorPause.lock:
        if _CollectorPause.holders == 0:
            _CollectorPause.resume = gc.isenabled()
            gc.disable()
        _CollectorPause.holders += 1
    try:
        yield
    finally:
        with _CollectorPause.lock:
            _CollectorPause.holders -= 1
            if _CollectorPause.holders == 0 and _CollectorPause.resume:
                gc.enable()


class _Fault(Exception):
    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def read_export(data: bytes, filename: str) -> GameExport:
    """The export in `data`, or `ServiceError("error.bad_export", file, where, reason)`."""
    try:
        return _read(data)
    except _Fault as fault:
        raise ServiceError("error.bad_export", file=filename, where=fault.where,
                           reason=Message(f"export.{fault.reason}")) from None


#: stands for the log in the indented document, replaced by one compact line per entry
_LOG_MARK = "\u2063log-entries\u2063"
#: one log entry's line; built once, as `json.dumps` would build an encoder for every entry
_ENTRY_LINE = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


def encode_export(document: dict[str, Any]) -> bytes:
    """The document as the file a GM downloads: indented, with one line per log entry. Each entry
    goes through the C JSON encoder on its own (an indented dump is pure Python: seconds for a long
    campaign); the result parses to the same document."""
    text = json.dumps({**document, "log": _LOG_MARK}, ensure_ascii=False, indent=1, sort_keys=True)
    entries = ",\n  ".join(map(_ENTRY_LINE, document["log"]))
    listing = f"[\n  {entries}\n ]" if entries else "[]"
    return text.replace(json.dumps(_LOG_MARK, ensure_ascii=False), listing, 1).encode()


class _Unstorable(Exception):
    """A number JSON storage would not keep (out of 64 bits, not finite), met while parsing."""


def _int(text: str) -> int:
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise _Unstorable(text)
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Unstorable(text)
    return value


def _constant(text: str) -> float:
    raise _Unstorable(text)


_CONTAINERS = (dict, list)


def _nesting(doc: Any) -> int:
    """How deep containers nest: a walk over the containers only, level by level."""
    if not isinstance(doc, _CONTAINERS):
        return 0
    deepest, current = 0, [doc]
    while current:
        deepest += 1
        current = [child for value in current
                   for child in (value.values() if isinstance(value, dict) else value)
                   if isinstance(child, _CONTAINERS)]
    return deepest


def _parse(data: bytes) -> Any:
    """The JSON document, refused as `check_storable` refuses it (with its path) when a number or the
    nesting is not storable; a storable document (every export the bot writes) is checked while it
    is parsed, without walking it again in Python."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _Fault("file", "not_utf8") from None
    try:
        doc = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
        suspicious = _nesting(doc) > MAX_DEPTH
    except _Unstorable:
        doc, suspicious = json.loads(text), True
    except (json.JSONDecodeError, RecursionError):
        raise _Fault("file", "not_json") from None
    if suspicious:
        try:
            check_storable(doc)
        except SetupError as err:
            raise _Fault(err.where or "file", "not_storable") from None
    return doc


def _read(data: bytes) -> GameExport:
    doc = _parse(data)
    root = _table(doc, "file")
    version = root.get("format")
    if type(version) is not int or version not in READABLE_FORMATS:
        raise _Fault("format", "format")
    game = _table(root.get("game"), "game")
    kind = _text(game.get("kind"), f"{_GAME}.kind")
    try:
        rules = registry.get(kind)
    except SetupError:
        raise _Fault(f"{_GAME}.kind", "unknown_game") from None
    seed, sealed = game.get("seed"), game.get("sealed_seed")
    if sealed is not None:
        if seed is not None:
            raise _Fault(f"{_GAME}.seed", "seed_twice")
        _text(sealed, SEALED_SEED_PATH)
    elif type(seed) is not int:
        raise _Fault(f"{_GAME}.seed", "integer")
    elif not 0 <= seed <= MAX_SEED:
        raise _Fault(f"{_GAME}.seed", "seed")
    status = game.get("status")
    if status not in GAME_STATUSES:
        raise _Fault(f"{_GAME}.status", "status")
    log = tuple(_entry(e, i) for i, e in enumerate(_list(root.get("log"), "log")))
    actors = {e.actor for e in log if e.actor is not None}
    seats = tuple(_seat(s, f"seats[{i}]", actors) for i, s in enumerate(_list(root.get("seats", []), "seats")))
    _check_claims(rules.name, log)
    if len({s.user_id for s in seats}) != len(seats) or len({s.actor for s in seats}) != len(seats):
        raise _Fault("seats", "seat_twice")
    return GameExport(
        kind=rules.name,
        name=_name(game.get("name"), f"{_GAME}.name"),
        seed=seed,
        status=str(status),
        setup=_table(root.get("setup"), "setup"),
        options=_options(game.get("options", {}), rules.name),
        seats=seats,
        log=log,
        sealed_seed=sealed,
    )


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Fault(where, "table")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Fault(where, "list")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise _Fault(where, "text")
    return value


def _name(value: Any, where: str) -> str:
    checked = _valid_name(value) if isinstance(value, str) else None
    if checked is not None:
        return checked
    try:
        return check_name(value, where)
    except SetupError:
        raise _Fault(where, "name") from None


@lru_cache(maxsize=4096)
def _valid_name(value: str) -> str | None:
    """A log names the same few actors thousands of times: each name is checked once."""
    try:
        return check_name(value, "")
    except SetupError:
        return None


def _entry(value: Any, index: int) -> LogRecord:
    """The log's entry `index`, its faults located at ``log[index].<field>``: the checks run inline
    and a location is written only for a fault (a long campaign's log has 10,000 entries)."""
    where = f"log[{index}]"
    entry = _table(value, where)
    seq = entry.get("seq")
    if type(seq) is not int or seq != index + 1:
        raise _Fault(f"{where}.seq", "seq")
    actor = entry.get("actor")
    if actor is not None:
        actor = _valid_name(actor) if type(actor) is str else None
        if actor is None:
            raise _Fault(f"{where}.actor", "name")
    user = entry.get("user")
    if user is not None and type(user) is not int:
        raise _Fault(f"{where}.user", "integer")
    stamp = entry.get("time")
    if type(stamp) is not str or not stamp:
        raise _Fault(f"{where}.time", "text")
    try:
        time = dt.datetime.fromisoformat(stamp)
    except ValueError:
        raise _Fault(f"{where}.time", "time") from None
    if time.tzinfo is None:
        raise _Fault(f"{where}.time", "time")
    payload = entry.get("payload", {})
    if not isinstance(payload, dict):
        raise _Fault(f"{where}.payload", "table")
    kind = entry.get("kind")
    if type(kind) is not str or not kind:
        raise _Fault(f"{where}.kind", "text")
    return LogRecord(0, seq, kind, actor, user, payload, time)


def _seat(value: Any, where: str, actors: set[str]) -> SeatRecord:
    seat = _table(value, where)
    user, mute = seat.get("user"), seat.get("mute_pings", False)
    if type(user) is not int:
        raise _Fault(f"{where}.user", "integer")
    if type(mute) is not bool:
        raise _Fault(f"{where}.mute_pings", "boolean")
    actor = _name(seat.get("actor"), f"{where}.actor")
    if actor not in actors:
        raise _Fault(f"{where}.actor", "unknown_actor")
    return SeatRecord(0, user, actor, mute)


def _options(value: Any, kind: str) -> dict[str, Any]:
    """The options the game's ``new`` command sets, checked by its turn driver with the same bounds
    (an export is a way in like any other)."""
    options = _table(value, f"{_GAME}.options")
    fault = driver_of(kind).option_fault({k: v for k, v in options.items() if k != COMPUTERS})
    if fault is not None:
        raise _Fault(f"{_GAME}.options.{fault[0]}", fault[1])
    if COMPUTERS in options:
        _computers(options[COMPUTERS], kind)
    return dict(options)


def _computers(value: Any, kind: str) -> None:
    """The computer seats (``{actor: level}``, `bot.service.computers`): levels of the game's own
    computer, for actors named as any."""
    where = f"{_GAME}.options.{COMPUTERS}"
    seats = _table(value, where)
    module = computer_module(kind)
    for actor, level in seats.items():
        _name(actor, f"{where}.{actor}")
        if module is None or level not in module.LEVELS:
            raise _Fault(f"{where}.{actor}", "bad_option")


def _check_claims(kind: str, log: tuple[LogRecord, ...]) -> None:
    """The import takes again the claims of what the game's turn driver once did for it (a lottery
    game's draws): an entry the driver cannot read is a fault of the file, said now."""
    try:
        driver_of(kind).claims_of_log(0, log)
    except LogFault as err:  # the driver names the entry it could not read, and why
        raise _Fault(err.where, err.reason) from None


def replay_export(rules: GameRules, export: Any, inputs: list[LogRecord], filename: str) -> Any:
    """The state an export's `inputs` (its log entries that are game inputs) lead to from its setup.
    An entry the rules refuse is named where it is in the file (``log[15]``, its number) with the
    rules' reason in words, as a player would have read it; nothing is created."""
    where, number = "setup", 0
    try:
        state = rules.setup(export.setup, export.seed)
        for entry in inputs:
            where, number = f"log[{entry.seq - 1}]", entry.seq
            state = rules.apply_input(state, entry.kind, entry.actor, entry.payload).state
    except (OrderError, SetupError) as err:
        refusal: Reply = (order_refusal(err, presenter_for(export.kind).refusal_params)
                          if isinstance(err, OrderError) else setup_refusal(err))
        key = "error.export_replay" if number else "error.export_setup"
        raise ServiceError(key, file=filename, where=where, entry=number, reason=refusal.messages[0]) from None
    return state
