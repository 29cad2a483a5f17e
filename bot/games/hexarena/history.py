"""HexArena's log in sentences (`/game history`, the `/gm undo` listing): "**Ann** moved Red fighter 1
F1 → F12 (teleport)", never the order text ``move F1 F12``.

An order is told from the public events it caused when the log is replayed — they name the ship,
its target and what was destroyed, which the order text (cells only) does not know. An undone order
has no events any more: it is told from its text, parsed, by the cells it named. The computer gives
its orders as its side (``blue``): it is named as the side reads ("Blue").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.i18n import Listing, catalog
from bot.service.replies import Message
from engine.core.errors import OrderError
from engine.core.protocol import Event
from engine.hexarena.geometry import SIDES, cell_name
from engine.hexarena.orders import parse_turn

if TYPE_CHECKING:
    from bot.store.repo import LogRecord

Describe = Callable[[Sequence[Event]], list[Message]]


def author_words(entry: LogRecord, author: Message) -> Message:
    """A side acting by itself (the computer's seat) as its name reads, "**Blue**", not ``blue``."""
    if entry.actor in SIDES and author.key == "history.author.player":
        return Message("history.author.player", {"actor": Message(f"word.side.{entry.actor}")})
    return author


def order_line(entry: LogRecord, events: Sequence[Event], author: Message, describe: Describe) -> Message | None:
    """One turn in sentences naming its `author`; None for an entry that is not an order, or for an
    order text that no longer parses (the shared wording then says what it was)."""
    if entry.kind != "order":
        return None
    if events:
        sentences = _from_events(events, author, describe)
    else:
        try:
            turn = parse_turn(str(entry.payload.get("text", "")))
        except OrderError:
            return None
        sentences = [Message(f"history.hexarena.plan.{action.verb}", {
            "author": author, "at": cell_name(action.at), "to": cell_name(action.to) if action.to else "",
            "direction": direction(action.direction.name) if action.direction else ""}) for action in turn.actions]
    return Message("history.hexarena.turn", {"sentences": Listing(tuple(sentences), separator=" ")})


def _from_events(events: Sequence[Event], author: Message, describe: Describe) -> list[Message]:
    """Each action in the past with its author (``history.hexarena.<kind>``), what it destroyed
    after it; Omega's points spent; the rest (an ending, a lapsed draw offer) as the channel read it."""
    english = catalog("en")
    sentences = []
    for event, said in zip(events, describe(events), strict=True):
        if event.kind == "turn_ended":
            if event.params.get("ap") is not None:
                sentences.append(Message("history.hexarena.spent", {"ap": event.params["ap"]}))
            continue
        past = f"history.hexarena.{event.kind}"
        if past not in english:
            sentences.append(said)
            continue
        sentences.append(Message(past, {**said.params, "author": author}))  # directions worded already
    return sentences


def direction(name: str) -> Message:
    """A hex direction as the reader writes it: west is ``W`` in English, ``O`` (ouest) in French
    (the labels Discord shows for a direction choice, ``word.choice.direction.*``)."""
    return Message(f"word.choice.direction.{name.lower()}")
