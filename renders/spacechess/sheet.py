"""The character sheet card: one character's public view as a small picture.

Field names and identifier values go through `labels`, so the bot can pass its localised words
(``{"weapon": "Arme", "heavy_bolter": "bolter lourd"}``); anything missing falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from engine.core.errors import OrderError
from renders import common as c

WIDTH = 520
HEADER_H = 64
ROW_H = 32
PAD = 16
KEY_W = 110
AP_CAP = 9  # SC-11

#: English field names and display names of the identifiers used in views (spacechess.md).
DEFAULT_LABELS: dict[str, str] = {
    "team": "Team",
    "cell": "Cell",
    "hp": "HP",
    "ap": "AP",
    "weapon": "Weapon",
    "armour": "Armour",
    "items": "Items",
    "ability": "Ability",
    "cards": "Cards",
    "dead": "DEAD",
    "soldier": "soldier",
    "general": "general",
    "heavy_bolter": "heavy bolter",
    "grizzly_bolter": "Grizzly bolter",
    "jetpack": "jet pack",
    "perforating": "perforating ammo",
    "logistics": "logistics tool",
    "psycho_brain": "psycho-boosted brain",
    "reserve_magazines": "reserve magazines",
    "rage": "destructive rage",
}


def card_range(card: int) -> tuple[int, int]:
    """The lottery numbers a draw card covers: card k = 7k-6 .. 7k (SC-12)."""
    return 7 * card - 6, 7 * card


def _word(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key.replace("_", " "))


def _values(labels: Mapping[str, str], values: Any) -> str:
    """A set or list of identifiers as sorted display words; sets come as lists in JSON views."""
    if not values:
        return "-"
    if isinstance(values, str):
        return _word(labels, values)
    return ", ".join(sorted(_word(labels, str(v)) for v in values))


def _cards(cards: Any) -> str:
    parts = []
    for card in sorted(int(k) for k in cards or ()):
        low, high = card_range(card)
        parts.append(f"{card} ({low}-{high})")
    return "   ".join(parts) or "-"


def render_sheet(
    view: Mapping[str, Any], character_id: str, *, labels: Mapping[str, str] | None = None,
    turn: Sequence[tuple[str, str]] = (),
) -> bytes:
    """The sheet card of `character_id` as PNG bytes; OrderError('unknown_character') if absent.
    `turn` adds rows already worded by the bot (its grade, the shots and grenade left this turn, an
    ability active until the next draw): what a player needs to plan the turn."""
    character = view.get("characters", {}).get(character_id)
    if character is None:
        raise OrderError("unknown_character", name=character_id)
    words = {**DEFAULT_LABELS, **(labels or {})}
    team = int(character["team"])
    alive = bool(character.get("alive", True))
    rows = (
        ("cell", str(character.get("at") or "-")),
        ("weapon", _values(words, character.get("weapon"))),
        ("armour", _values(words, character.get("armour"))),
        ("items", _values(words, character.get("items"))),
        ("ability", _values(words, character.get("ability"))),
        *turn,
        ("cards", _cards(character.get("cards"))),
    )
    height = HEADER_H + 2 * ROW_H + len(rows) * ROW_H + PAD
    canvas = c.Canvas(Image.new("RGB", (WIDTH, height), c.PAPER))
    draw = canvas.draw

    band = c.TEAM_COLOURS[team] if alive else c.MUTED
    ink = c.TEAM_TEXT[team] if alive else c.WHITE
    draw.rectangle((0, 0, WIDTH - 1, HEADER_H - 1), fill=band)
    status = f"{_word(words, 'team')} {team} - {_word(words, str(character.get('role', '')))}"
    if not alive:
        status = f"{_word(words, 'dead')} - {status}"
    status = c.fit(status, 14, WIDTH // 2 - PAD)
    canvas.text((WIDTH - PAD, HEADER_H // 2), status, 14, ink, anchor="rm")
    name_width = WIDTH - 3 * PAD - round(c.font(14).getlength(status))
    canvas.text((PAD, HEADER_H // 2), c.fit(character_id, 24, name_width), 24, ink, anchor="lm")

    y = HEADER_H + ROW_H // 2
    hp, max_hp = int(character.get("hp", 0)), int(character.get("max_hp", 0))
    canvas.text((PAD, y), c.fit(_word(words, "hp"), 14, KEY_W - 8), 14, c.MUTED, anchor="lm")
    canvas.bar((PAD + KEY_W, y - 7, PAD + KEY_W + 260, y + 7), hp, max_hp)
    canvas.text((PAD + KEY_W + 272, y), f"{hp} / {max_hp}", 16, c.INK, anchor="lm")

    y += ROW_H
    ap = int(character.get("ap", 0))
    canvas.text((PAD, y), c.fit(_word(words, "ap"), 14, KEY_W - 8), 14, c.MUTED, anchor="lm")
    for pip in range(AP_CAP):
        left = PAD + KEY_W + pip * 20
        draw.rectangle(
            (left, y - 7, left + 14, y + 7), fill=c.INK if pip < ap else None, outline=c.INK, width=2
        )
    canvas.text((PAD + KEY_W + AP_CAP * 20 + 8, y), str(ap), 16, c.INK, anchor="lm")

    for key, value in rows:
        y += ROW_H
        draw.line((PAD, y - ROW_H // 2, WIDTH - PAD, y - ROW_H // 2), fill=c.GRID)
        canvas.text((PAD, y), c.fit(_word(words, key), 14, KEY_W - 8), 14, c.MUTED, anchor="lm")
        value_text = c.fit(value, 16, WIDTH - 2 * PAD - KEY_W)
        canvas.text((PAD + KEY_W, y), value_text, 16, c.INK, anchor="lm")
    return c.encode_png(canvas.image)
