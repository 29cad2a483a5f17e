"""Helpers for the draw pipeline tests: running Space Chess games built from setup documents
(scenarios.md, "Setup documents"), draws, and hooks that record what the adapters would post."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update

from bot.service import Reply
from bot.store import GameRecord, NewEntry, SeatRecord, Store
from bot.store.models import GameRow
from draws import Draw
from engine import registry

GUILD = 1_111
#: Games in these tests start running here (a Monday, before the first draw of the week).
STARTED = dt.datetime(2024, 3, 4, 12, 0, tzinfo=dt.UTC)
WEAPONS = ("bolter", "heavy_bolter", "sniper")
ARMOURS = ("light", "medium", "heavy")
ITEM_PAIRS = (("scope", "grenades"), ("jetpack", "perforating"), ("logistics", "vigour"))
ABILITIES = ("vehicle", "rage", "friendship")
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWX"


def character(team: int, number: int, cards: tuple[int, int]) -> dict[str, Any]:
    row = 1 if team == 1 else 44
    cell = f"{COLUMNS[number * 2]}{row}"
    if number == 0:
        return {"id": f"g{team}", "team": team, "role": "general", "at": cell, "cards": list(cards)}
    return {
        "id": f"s{team}{number}",
        "team": team,
        "role": "soldier",
        "at": cell,
        "weapon": WEAPONS[number % 3],
        "armour": ARMOURS[number % 3],
        "items": list(ITEM_PAIRS[number % 3]),
        "ability": ABILITIES[number % 3],
        "cards": list(cards),
    }


def setup_document(per_team: int = 7) -> dict[str, Any]:
    """A running game (no phase = "setup") on the standard map: a general and per_team-1 soldiers a team;
    character k holds cards (k mod 7) + 1 and ((k + 3) mod 7) + 1."""
    characters = []
    for team in (1, 2):
        for number in range(per_team):
            k = (team - 1) * per_team + number
            characters.append(character(team, number, (k % 7 + 1, (k + 3) % 7 + 1)))
    return {"map": "standard", "characters": characters}


@dataclass
class RecordingHooks:
    """What the adapters would post: (game id, reply) in call order."""

    posts: list[tuple[int, Reply]] = field(default_factory=list)
    alerts: list[tuple[int, Reply]] = field(default_factory=list)

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.posts.append((game.id, reply))

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self.alerts.append((game.id, reply))


def make_running_game(store: Store, channel: int = 1, *, per_team: int = 7, seats: bool = True,
                      started: dt.datetime = STARTED, **overrides: Any) -> GameRecord:
    """A running game with one seated player per character (user ids 1000, 1001...)."""
    rules = registry.get("spacechess")
    document = setup_document(per_team)
    state = rules.setup(document, 0)
    game = store.create_game(
        kind="spacechess",
        name=overrides.pop("name", f"Game {channel}"),
        guild_id=overrides.pop("guild_id", GUILD),
        channel_id=channel,
        setup=document,
        state=rules.to_json(state),
        seed=0,
        created_by=42,
        status="running",
        entries=[NewEntry("create", None, 42, {"name": f"Game {channel}", "kind": "spacechess"})],
        options=overrides.pop("options", None),
    )
    with store.engine.begin() as connection:  # the clock of a game created long ago
        connection.execute(update(GameRow).where(GameRow.id == game.id).values(created_at=started))
    game = store.get_game(game.id)
    assert game is not None
    if seats:
        actors = [c["id"] for c in document["characters"]]
        game = store.commit(
            game.id,
            game.version,
            state=game.state,
            entries=[],
            seats_set=[SeatRecord(game.id, 1000 + i, actor) for i, actor in enumerate(actors)],
        )
    return game


def draw(day: str, numbers: tuple[int, ...] = (3, 12, 19, 33, 45), complementary: int | None = None,
         index: int = 1, source: str = "fdj", chance: int | None = 7) -> Draw:
    return Draw(dt.date.fromisoformat(day), index, numbers, complementary, chance if len(numbers) == 5 else None,
                source=source)
