"""The log in words: who did what, for `/game history`, the `/gm undo` listing and exports.

Every log entry has an author a person can name: the character (or side) that gave a game input,
the game master behind a correction or a bookkeeping entry (the log keeps their member id), or the
bot itself (a draw fetched from FDJ, a deadline, a clock). What the entry did is worded by the
game's presenter (`Presenter.history_line`) from the entry and, where the game asks for it, the
public events its input caused when the log is replayed — so a move reads "Ann moved L1 → L2
(3 AP)", not the order text or its JSON.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import Day, Moment
from bot.service.replies import Message
from engine.core.protocol import Event, GameRules

if TYPE_CHECKING:  # the presenters word entries with these helpers: no import of the games here
    from bot.games import Presenter
    from bot.store.repo import LogRecord

#: who gave an entry: its actor (a game input by a character or side), a game master, the bot
PLAYER, GM_AUTHOR, BOT = "player", "gm", "bot"


def author_role(rules: GameRules, entry: LogRecord) -> str:
    """A game input names its actor; anything else a member did (a correction, a pause, a kick, a
    draw typed by hand) was a game master's — only game masters give inputs without an actor or
    keep the books; with no member at all, the bot did it."""
    if entry.actor is not None and entry.kind in rules.input_kinds:
        return PLAYER
    return GM_AUTHOR if entry.user_id is not None else BOT


def author_of(rules: GameRules, entry: LogRecord) -> Message:
    """The entry's author in words: **Ann**, the GM @gm, the bot."""
    role = author_role(rules, entry)
    if role == PLAYER:
        return Message("history.author.player", {"actor": entry.actor})
    if role == GM_AUTHOR:
        return Message("history.author.gm", {"user": entry.user_id})
    return Message("history.author.bot")


def author_record(rules: GameRules, entry: LogRecord) -> dict[str, Any]:
    """The author as an export keeps it beside the raw actor and user: a reader of the file (or a
    later import) tells a player's input from a game master's correction without guessing."""
    role = author_role(rules, entry)
    record: dict[str, Any] = {"role": role}
    if role == PLAYER:
        record["actor"] = entry.actor
    if entry.user_id is not None:
        record["user"] = entry.user_id
    return record


def entry_words(presenter: Presenter, rules: GameRules, entry: LogRecord, events: Sequence[Event] = ()) -> Message:
    """What one readable entry did, its author included, as its game words it."""
    return presenter.history_line(rules, entry, events, author_of(rules, entry))


def payload_words(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A payload's values as placeholders a sentence can use: scalars as they are, lists as lists,
    tables flattened one level (``draw.date`` → ``draw_date``), dates as the reader writes them
    (`Day`: "samedi 1er mars 2025", never the log's ISO date); nothing reads as JSON."""
    words: dict[str, Any] = {}
    for key, value in payload.items():
        if isinstance(value, Mapping):
            words.update({f"{key}_{inner}": _day(f"{key}_{inner}", item) for inner, item in value.items()
                          if not isinstance(item, Mapping)})
        else:
            words[key] = _day(key, value)
    return words


def _day(key: str, value: Any) -> Any:
    """An ISO date under a ``date`` key (``date``, ``draw_date``, ``end_date``) as a `Day`, an ISO
    moment under ``until`` (a GM's new deadline or clock end) as a `Moment`."""
    try:
        if (key == "date" or key.endswith("_date")) and isinstance(value, str):
            return Day(dt.date.fromisoformat(value))
        if key == "until" and isinstance(value, str):
            return Moment(dt.datetime.fromisoformat(value))
    except ValueError:
        return value
    return value


def details(payload: Mapping[str, Any]) -> list[Message]:
    """An entry no sentence of its game words yet, as ``key value`` pairs (never JSON)."""
    pairs = [(key, value) for key, value in payload_words(payload).items() if value not in (None, "", [], {})]
    return [Message("history.detail", {"sep": "; " if index else "", "key": key, "value": value})
            for index, (key, value) in enumerate(pairs)]
