"""The Space Chess game state: small frozen records, replaced (never mutated) by every input.

Everything the rules need lives here, including what the public view does not show (pending
general powers, active abilities), so a dumped state reloads to exactly the same game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.names import name_key
from engine.core.squaregrid import Cell, format_cell, parse_cell
from engine.spacechess.maps import GameMap, format_map, parse_map, standard_map
from engine.spacechess.ruleset import Ruleset

SETUP, RUNNING, FINISHED = "setup", "running", "finished"
STATUSES = (SETUP, RUNNING, FINISHED)


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    team: int
    role: str
    at: Cell | None
    hp: int
    max_hp: int
    ap: int = 0
    weapon: str | None = None
    armour: str | None = None
    items: tuple[str, ...] = ()
    ability: str | None = None
    cards: tuple[int, ...] = ()
    grade: str | None = None
    shots_this_turn: int = 0
    grenades_this_turn: int = 0
    #: the ability used this turn (SC-25): its effect lasts until the next draw, which it skips.
    ability_used: str | None = None

    @property
    def alive(self) -> bool:
        return self.hp > 0

    @property
    def skip_next_draw(self) -> bool:
        return self.ability_used is not None

    @property
    def is_general(self) -> bool:
        return self.role == "general"

    @property
    def is_colonel(self) -> bool:
        """SC-27: a colonel holds the grade and no other item, all game long."""
        return self.grade == "colonel" and "grade" in self.items

    def has(self, item: str) -> bool:
        return item in self.items


@dataclass(frozen=True, slots=True)
class Pickup:
    """SC-33: `kind` is "item" (with `name`), "weapon" (with `name`), "ap" or "hp" (with `amount`)."""

    at: Cell
    kind: str
    name: str | None = None
    amount: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"at": format_cell(self.at), "kind": self.kind}
        if self.kind in ("item", "weapon"):
            data[self.kind] = self.name
        else:
            data["amount"] = self.amount
        return data


@dataclass(frozen=True)
class GameState:
    rules: Ruleset
    game_map: GameMap
    characters: tuple[Character, ...]
    status: str = RUNNING
    turn: int = 0
    winner: int | str | None = None
    pickups: tuple[Pickup, ...] = ()
    #: teams whose general ordered encouragement / hacking for the next draw (SC-26)
    encouraging: frozenset[int] = field(default_factory=frozenset)
    hacking: frozenset[int] = field(default_factory=frozenset)

    def find(self, name: str) -> Character | None:
        """Characters are named case-insensitively, full-width or not (`name_key`), as orders type them."""
        key = name_key(name)
        for character in self.characters:
            if name_key(character.id) == key:
                return character
        return None

    def living(self) -> Iterator[Character]:
        return (c for c in self.characters if c.alive)

    def occupant(self, cell: Cell) -> Character | None:
        for character in self.characters:
            if character.at == cell and character.alive:
                return character
        return None

    def occupied_cells(self) -> frozenset[Cell]:
        return frozenset(c.at for c in self.characters if c.at is not None and c.alive)

    def pickup_at(self, cell: Cell) -> Pickup | None:
        for pickup in self.pickups:
            if pickup.at == cell:
                return pickup
        return None

    def general(self, team: int) -> Character | None:
        for character in self.characters:
            if character.team == team and character.is_general:
                return character
        return None

    def with_character(self, character: Character) -> GameState:
        """The state with the character of the same id replaced."""
        return replace(
            self, characters=tuple(character if c.id == character.id else c for c in self.characters)
        )


# -- serialisation ---------------------------------------------------------------------------------
_CHARACTER_FIELDS = (
    "id",
    "team",
    "role",
    "hp",
    "max_hp",
    "ap",
    "weapon",
    "armour",
    "ability",
    "grade",
    "shots_this_turn",
    "grenades_this_turn",
    "ability_used",
)


def _cell_or_none(cell: Cell | None) -> str | None:
    return None if cell is None else format_cell(cell)


def character_to_json(character: Character) -> dict[str, Any]:
    data: dict[str, Any] = {name: getattr(character, name) for name in _CHARACTER_FIELDS}
    data["at"] = _cell_or_none(character.at)
    data["items"] = list(character.items)
    data["cards"] = list(character.cards)
    return data


def dump_state(state: GameState) -> dict[str, Any]:
    game_map = state.game_map
    if game_map == standard_map():
        map_data: dict[str, Any] = {"name": "standard"}
    else:
        map_data = {"name": game_map.name, "text": format_map(game_map)}
    return {
        "rules": state.rules.to_json(),
        "map": map_data,
        "status": state.status,
        "turn": state.turn,
        "winner": state.winner,
        "characters": [character_to_json(c) for c in state.characters],
        "pickups": [p.to_json() for p in state.pickups],
        "encouraging": sorted(state.encouraging),
        "hacking": sorted(state.hacking),
    }


def _load_cell(text: str | None) -> Cell | None:
    return None if text is None else parse_cell(text)


def _load_pickup(data: Mapping[str, Any]) -> Pickup:
    kind = data["kind"]
    if kind in ("item", "weapon"):
        return Pickup(parse_cell(data["at"]), kind, name=data[kind])
    return Pickup(parse_cell(data["at"]), kind, amount=data["amount"])


def load_state(data: Mapping[str, Any]) -> GameState:
    """Inverse of dump_state; a corrupt document raises SetupError('bad_state')."""
    try:
        map_data = data["map"]
        if "text" in map_data:
            game_map = parse_map(map_data["text"], map_data["name"])
        else:
            game_map = standard_map()
        characters = tuple(
            Character(
                **{name: c[name] for name in _CHARACTER_FIELDS},
                at=_load_cell(c["at"]),
                items=tuple(c["items"]),
                cards=tuple(c["cards"]),
            )
            for c in data["characters"]
        )
        return GameState(
            rules=Ruleset.from_overrides(data["rules"]),
            game_map=game_map,
            characters=characters,
            status=data["status"],
            turn=data["turn"],
            winner=data["winner"],
            pickups=tuple(_load_pickup(p) for p in data["pickups"]),
            encouraging=frozenset(data["encouraging"]),
            hacking=frozenset(data["hacking"]),
        )
    except (KeyError, TypeError, OrderError) as error:
        raise SetupError("bad_state", "state", detail=str(error)) from error
