"""The Space Chess lobby the e2e flows start from: four players joined, equipped and deployed."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import update

from bot.store.models import LogEntry
from bot.store.repo import Store
from draws import FDJ_LOTO
from tests.e2e.botproc import BotProcess
from tests.e2e.table import Table
from tests.fake_discord.payloads import Member
from tests.fake_discord.server import FakeDiscord

LOADOUTS = {
    "Ann": {"card1": 1, "card2": 2},
    "Bob": {"card1": 3, "card2": 4},
    "Cid": {"card1": 5, "card2": 6, "weapon": "sniper", "armour": "light", "item1": "grenades", "item2": "scope",
            "ability": "rage"},
    "Dee": {"card1": 7, "card2": 1, "weapon": "bolter", "armour": "medium", "item1": "jetpack", "item2": "vigour",
            "ability": "vehicle"},
}
SEATS = {"Ann": ("1", "general", "A1"), "Bob": ("2", "general", "X44"), "Cid": ("1", "soldier", "L2"),
         "Dee": ("2", "soldier", "L43")}


def lobby(fake: FakeDiscord, table: Table, gm: Member) -> dict[str, Member]:
    """A Space Chess game in the table's channel with four players joined, equipped and deployed."""
    created = table.ok(gm, "sc new", name="Orion", hp_soldier=12)
    assert "**Orion**" in created.content and "spacechess" in created.content
    players = {name: fake.add_member(name.lower()) for name in SEATS}
    for name, (team, role, _) in SEATS.items():
        joined = table.ok(players[name], "sc join", name=name, team=team, role=role)
        assert table.text("game.joined", user=players[name].user.id, name=name) in joined.content
    for name, loadout in LOADOUTS.items():
        table.ok(players[name], "sc equip", **loadout)
    for name, (_, _, cell) in SEATS.items():
        deployed = table.ok(players[name], "sc deploy", cell=cell)
        assert f" {cell}" in deployed.content
    return players


def started(fake: FakeDiscord, table: Table, gm: Member) -> dict[str, Member]:
    """The lobby, then `/gm start`: a running game whose draws count from now on."""
    players = lobby(fake, table, gm)
    assert table.text("gm.started.lottery", name="Orion") in table.ok(gm, "gm start").content
    return players


def started_before(bot: BotProcess, evening: dt.date, *, database_url: str | None = None) -> None:
    """Move the game's `/gm start` to an hour before `evening`'s draw, as if the game had been running
    since: the bot only accepts draws whose results are out, so a test plays past evenings.
    `database_url`: the bot's database when it is not its SQLite file (a PostgreSQL server)."""
    store = Store(database_url or f"sqlite:///{bot.config.parent / 'bot.sqlite'}", migrate=False)
    try:
        with store.engine.begin() as connection:
            connection.execute(update(LogEntry).where(LogEntry.kind == "start")
                               .values(created_at=FDJ_LOTO.at(evening) - dt.timedelta(hours=1)))
    finally:
        store.close()
