"""Space Chess in sentences: events, the history of a game and the end, in the reader's words.

The engine speaks in identifiers (``heavy_bolter``, ``{"ap": 9}``, team ``1``); a player reads the
catalog's labels ("bolter lourd"), a character's gear as a list ("chainsword and medium armour"),
counted nouns agreed ("1 cell", "2 cells") and sentences that never need the character's gender
("Anaïs a son équipement", not "Anaïs est équipée"). Text only: the pictures live elsewhere.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.spacechess.orderwords import orders_listing
from bot.i18n import Count, Day, Listing, catalog
from bot.service.replies import Message
from engine.core.protocol import Event

#: event parameters that hold one rules identifier or a list of them, shown as catalog labels
IDENTIFIER_PARAMS = ("role", "weapon", "armour", "ability", "power", "items", "dropped")
#: what a game master may correct on a character (``gm_set``), in the order a sentence names them
CORRECTED = ("hp", "ap", "at")


def label(identifier: str | None) -> Message | None:
    """A rules identifier (``heavy_bolter``) in the reader's words (``bolter lourd``)."""
    return Message(f"label.{identifier}") if identifier else None


def labelled(params: Mapping[str, Any]) -> dict[str, Any]:
    """Event parameters with identifiers as catalog labels, lists of them as a list of labels."""
    out = dict(params)
    for key in IDENTIFIER_PARAMS:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = label(value)
        elif isinstance(value, list | tuple):
            out[key] = Listing(tuple(label(str(item)) for item in value))
    return out


def team(number: Any) -> Message:
    """A team as a sentence names it: "Team 1" / "l'équipe 1"."""
    return Message("sc.team", {"team": number})


def gear(params: Mapping[str, Any]) -> Listing:
    """What a character carries, as one list: its weapon, its armour ("medium armour"), its items
    and ability; a general's chainsword and armour read as naturally as a soldier's full kit."""
    parts: list[Any] = []
    if params.get("weapon"):
        parts.append(label(params["weapon"]))
    if params.get("armour"):
        parts.append(Message("sc.gear.armour", {"armour": label(params["armour"])}))
    # the grade item reads with its rank ("grade: colonel"), once
    parts += [label(str(item)) for item in params.get("items") or () if not (item == "grade" and params.get("grade"))]
    if params.get("grade"):
        parts.append(Message("sc.gear.grade", {"grade": label(params["grade"])}))
    if params.get("ability"):
        parts.append(Message("sc.gear.ability", {"ability": label(params["ability"])}))
    return Listing(tuple(parts), conjunction=True)


def cards(numbers: Sequence[Any]) -> Listing:
    return Listing(tuple(numbers or ()), conjunction=True)


def changes(values: Mapping[str, Any]) -> Listing:
    """A game master's correction, each value in words: "AP to 9 and HP to 5"."""
    return Listing(tuple(Message(f"sc.change.{key}", {"value": values[key]}) for key in CORRECTED
                         if values.get(key) is not None), conjunction=True)


def pickup(data: Mapping[str, Any]) -> Message:
    """What a bonus holds: "+2 AP", "+3 HP", or the item or weapon it is."""
    kind = data.get("kind")
    if kind in ("item", "weapon"):
        return Message("sc.pickup.card", {"card": label(str(data.get(kind)))})
    return Message(f"sc.pickup.{kind}" if kind in ("ap", "hp") else "sc.pickup.other",
                   {"amount": data.get("amount"), "kind": kind})


def ending(winner: Any, reasons: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The game-over event's parameters in words: who wins ("Team 1", or a draw) and why."""
    why = []
    for reason in reasons:
        side = reason.get("team")
        if side not in (1, 2):  # equal HP at the time limit: nobody's reason
            why.append(Message("sc.end.even"))
            continue
        why.append(Message(f"sc.end.{reason.get('reason')}", {"team": team(side), "loser": team(3 - side)}))
    result = Message("game.result.win", {"side": team(winner)}) if winner in (1, 2) else Message("game.result.draw")
    return {"winner": team(winner) if winner in (1, 2) else winner, "result": result,
            "reasons": Listing(tuple(why), conjunction=True)}


#: the powers whose event names a target, and the sentence that tells what it did to it
_TOLD_POWERS = {"heal": "heal", "intimidate": "moved", "teleport": "moved"}


def event_params(event: Event) -> tuple[str, dict[str, Any]]:
    """The catalog key suffix and the worded parameters of one event."""
    params = labelled(event.params)
    kind = event.kind
    if kind == "pickup_left":  # why it stays there, in words
        params["reason"] = Message(f"pickup_left.{event.params.get('reason')}")
    elif kind == "moved":
        params["cells"] = Count(int(event.params.get("cells", 0)), "sc.cells")
    elif kind == "equipped":
        params.update(gear=gear(event.params), cards=cards(event.params.get("cards", ())))
    elif kind == "joined":
        params["team"] = team(event.params.get("team"))
    elif kind == "gm_set":
        params["changes"] = changes(event.params.get("changes") or {})
    elif kind in ("pickup_placed", "pickup_taken"):
        params["bonus"] = pickup(event.params.get("pickup") or {})
        params.setdefault("at", (event.params.get("pickup") or {}).get("at"))
        if event.params.get("dropped"):  # a swap (SC-33) says what stays on the cell
            kind = "pickup_taken.dropped"
    elif kind == "power" and event.params.get("power") in _TOLD_POWERS:  # its target and what it did
        kind = f"power.{_TOLD_POWERS[event.params['power']]}"
    elif kind == "game_over":
        params.update(ending(event.params.get("winner"), event.params.get("reasons") or ()))
    elif kind == "batch_cut":  # the orders left undone, as the reader writes them
        params["skipped"] = orders_listing(event.params.get("skipped") or ())
    if isinstance(event.params.get("direction"), str):
        params["direction"] = Message(f"sc.direction.{event.params['direction'].lower()}")
    return kind, params


def history_events(events: Sequence[Event], describe: Any) -> Listing:
    """An input's public events as the history tells them: in the past (``history.spacechess.<kind>``)
    where the catalog has it, else as the channel read them; one sentence after another."""
    messages = []
    for message in describe(events):
        past = message.key.replace("event.", "history.", 1)
        messages.append(Message(past, message.params) if past in catalog("en") else message)
    return Listing(tuple(messages), separator=" ")


def gains(breakdown: Sequence[Mapping[str, Any]]) -> Listing:
    """A draw's AP per character, in short: "Ann +4 (4 AP), Cid +2 (7 AP)"; only those who gained."""
    return Listing(tuple(Message("history.spacechess.gain", {"id": row["id"], "award": row["award"],
                                                             "after": row["ap_after"]})
                         for row in breakdown if row.get("award")))


def _day(text: Any) -> Any:
    """A draw's ISO date from the log as a reader writes it (« samedi 1er mars 2025 »); none, or a
    value that is no date (a hand-made log), as it is."""
    if not text:
        return Message("word.none")
    try:
        return Day(dt.date.fromisoformat(str(text)))
    except ValueError:
        return text


def history_line(rules: Any, entry: Any, events: Sequence[Event], author: Message,
                 describe: Any) -> Message | None:
    """Space Chess's own entries in words (None: the shared wording of every game fits)."""
    payload = entry.payload
    if entry.kind == "order" and events:
        return Message("history.spacechess.order_events", {"author": author, "events": history_events(events, describe)})
    if entry.kind == "draw":
        award = next((e for e in events if e.kind == "draw_award"), None)
        draw = payload.get("draw") or {}
        return Message("history.spacechess.draw", {
            "author": author, "date": _day(draw.get("date")),
            "numbers": " ".join(str(n) for n in payload.get("numbers") or ()),
            "bonus": Message("history.spacechess.bonus", {"bonus": payload["bonus"]}) if payload.get("bonus") else "",
            "gains": gains(award.params.get("breakdown", ()) if award is not None else ())})
    if entry.kind == "equip":
        params = next((e.params for e in events if e.kind == "equipped"), payload)
        return Message("history.spacechess.equip", {"author": author, "gear": gear(params),
                                                    "cards": cards(params.get("cards") or ())})
    if entry.kind == "gm_set":
        return Message("history.spacechess.gm_set", {"author": author, "id": payload.get("id"),
                                                     "changes": changes(payload),
                                                     "reason": payload.get("reason") or Message("word.none")})
    if entry.kind == "pickup":
        return Message("history.spacechess.pickup", {"author": author, "at": payload.get("at"),
                                                     "bonus": pickup(payload)})
    if entry.kind == "join":
        return Message("history.spacechess.join", {"author": author, "team": team(payload.get("team")),
                                                   "role": label(payload.get("role"))})
    return None


#: sample option values for `/game help`'s examples of the Space Chess commands; choices and order
#: text as catalog messages, so each reader sees (and can type) them in their own words
SC_EXAMPLES: dict[str, dict[str, Any]] = {
    "sc new": {"name": "Orion"},
    "sc join": {"name": "Ann", "team": "1", "role": label("soldier")},
    "sc equip": {"card1": "2", "card2": "5", "weapon": label("heavy_bolter"), "armour": label("light"),
                 "item1": label("scope"), "item2": label("vigour"), "ability": label("rage")},
    "sc deploy": {"cell": "K1"},
    "sc move": {"to": "E5"},
    "sc shoot": {"target": "Bob"},
    "sc grenade": {"cell": "E5"},
    "sc ability": {"ability": label("friendship"), "target": "Bob"},
    "sc power": {"power": label("airstrike"), "cell": "E5", "direction": Message("sc.direction.ne")},
    "sc order": {"text": Message("sc.example.order")},
    "sc set": {"character": "Bob", "ap": "9", "reason": Message("sc.example.reason")},
    "sc pickup": {"cell": "E5", "kind": label("ap"), "amount": "2"},
    "sc map": {"file": "outpost.map"},
    "sc reach": {"character": "Ann"},
    "sc line": {"shooter": "Ann", "target": "Bob"},
}
