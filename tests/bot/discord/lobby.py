"""The people of the adapter tests and a Space Chess game set up through slash commands."""

from __future__ import annotations

import datetime as dt

from draws import FDJ_LOTO
from tests.bot.discord.harness import BotHarness, Exchange
from tests.bot.discord.payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, Member, Role, slash

GM_ROLE = Role(700_000_000_000_000_001, "MJ")
GM = Member(100_000_000_000_000_001, "gm", MEMBER_PERMISSIONS | MANAGE_GUILD)
GM_FR = Member(100_000_000_000_000_001, "gm", MEMBER_PERMISSIONS | MANAGE_GUILD, locale="fr")
ANN = Member(100_000_000_000_000_002, "ann")
BOB = Member(100_000_000_000_000_003, "bob", locale="fr")
CID = Member(100_000_000_000_000_004, "cid")
DEE = Member(100_000_000_000_000_005, "dee")
EVE = Member(100_000_000_000_000_006, "eve")  # plays nothing
ROLE_HOLDER = Member(100_000_000_000_000_007, "mj", roles=(GM_ROLE,))

#: two generals and two soldiers: who, their join options, loadout and deployment cell
SEATS = (
    (ANN, {"name": "Ann", "team": "1", "role": "general"}, {"card1": 1, "card2": 2}, "A1"),
    (BOB, {"name": "Bob", "team": "2", "role": "general"}, {"card1": 3, "card2": 4}, "X44"),
    (CID, {"name": "Cid", "team": "1", "role": "soldier"},
     {"card1": 5, "card2": 6, "weapon": "sniper", "armour": "light", "item1": "grenades", "item2": "scope",
      "ability": "rage"}, "L2"),
    (DEE, {"name": "Dee", "team": "2", "role": "soldier"},
     {"card1": 7, "card2": 1, "weapon": "bolter", "armour": "medium", "item1": "jetpack", "item2": "vigour",
      "ability": "vehicle"}, "L43"),
)


def accepted(exchange: Exchange) -> Exchange:
    """The exchange, after checking the bot answered publicly (an accepted command)."""
    assert exchange.messages and not exchange.refused, (exchange.kinds(), exchange.text)
    return exchange


async def run(harness: BotHarness, member: Member, path: str, **options: object) -> Exchange:
    return await harness.interact(slash(path, member, options))


async def lobby(harness: BotHarness, **create: object) -> None:
    """A created game with four characters joined, equipped and deployed, not started."""
    accepted(await run(harness, GM, "sc new", name="Orion", hp_soldier=12, **create))
    for member, join, loadout, cell in SEATS:
        accepted(await run(harness, member, "sc join", **join))
        accepted(await run(harness, member, "sc equip", **loadout))
        accepted(await run(harness, member, "sc deploy", cell=cell))


def last_evening() -> str:
    """The last Loto evening before today: its results are out, whatever the time now."""
    day = dt.date.today() - dt.timedelta(days=1)
    while day.weekday() not in FDJ_LOTO.weekdays:
        day -= dt.timedelta(days=1)
    return day.isoformat()


async def running(harness: BotHarness, **create: object) -> None:
    """The lobby, started."""
    await lobby(harness, **create)
    accepted(await run(harness, GM, "gm start"))
