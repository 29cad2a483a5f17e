"""A Space Chess campaign on the fake server, seen the way its players see it: turn posts in the
channel, character sheets, the game's history and its pinned status message.

Expected AP come from the rules themselves (SC-11 cap, SC-12 card ranges, SC-13 one AP per main
number in a card's range; today's chance number never counts), applied to the sheets read before
the draw, so every assertion compares the bot with the rule book rather than with itself.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import format_day
from bot.lottery.turn_post import draw_header
from draws import Draw
from tests.e2e.botproc import BotProcess
from tests.e2e.fdj_file import FdjFile
from tests.e2e.lobby import LOADOUTS
from tests.e2e.table import Table
from tests.fake_discord.payloads import Member
from tests.fake_discord.records import Call
from tests.fake_discord.server import FakeDiscord

AP_CAP = 9  # SC-11
#: The AP on a character sheet, in French (the tables of these tests speak French).
SHEET_AP = re.compile(r" · (\d+) PA · ")
#: A draw in the French history: "n°7 · <t:…:R> · le bot a appliqué le tirage du Loto du 2025-03-01 : …".
HISTORY_DRAW = re.compile(r"^n°\d+ · <t:\d+:R> · .* a appliqué le tirage du Loto du (.+?) : ", re.MULTILINE)
#: How long the bot may take to post or edit something of its own (a debounced status, a turn post).
WAIT_TIMEOUT = 30.0


@dataclass(frozen=True)
class Campaign:
    """A bot of the test's own reading FDJ's results from `fdj`, one game channel and its game master."""

    bot: BotProcess
    fdj: FdjFile
    table: Table
    gm: Member

    @property
    def fake(self) -> FakeDiscord:
        return self.bot.fake


def card_range(card: int) -> range:
    """SC-12: card k covers 7k−6 .. 7k."""
    return range(7 * card - 6, 7 * card + 1)


def award(name: str, numbers: Sequence[int]) -> int:
    """SC-13 for the lobby's characters (no grade, encouragement or hacking among them)."""
    loadout = LOADOUTS[name]
    return sum(1 for card in (loadout["card1"], loadout["card2"]) for n in numbers if n in card_range(card))


def after_draw(before: Mapping[str, int], numbers: Sequence[int]) -> dict[str, int]:
    """Every character's AP once the draw is applied, capped (SC-11)."""
    return {name: min(AP_CAP, ap + award(name, numbers)) for name, ap in before.items()}


def gainers(players: Mapping[str, Member], numbers: Sequence[int]) -> set[int]:
    """Who a turn post pings: the players whose character gained AP (the default ping policy)."""
    return {member.user.id for name, member in players.items() if award(name, numbers) > 0}


def sheets(table: Table, who: Member) -> dict[str, int]:
    """Every lobby character's AP, read from `/game sheet character:<name>`."""
    found = {}
    for name in LOADOUTS:
        sheet = table.ok(who, "game sheet", character=name)
        match = SHEET_AP.search(sheet.content)
        assert match, f"no AP on the sheet of {name}: {sheet.content!r}"
        found[name] = int(match[1])
    return found


def header(table: Table, draw: Draw) -> str:
    """The line naming the draw that a turn post holds, in the table's language."""
    message = draw_header(draw)
    return table.text(message.key, **message.params)


def channel_posts(fake: FakeDiscord, table: Table) -> list[Call]:
    """The bot's own posts in the table's channel (turn posts, status), not its answers to commands:
    one per message the channel holds (a resend with the same nonce answers the earlier message)."""
    calls = [c for c in fake.calls_to("POST", rf"/channels/{table.channel.id}/messages") if c.status == 200]
    first: dict[str, Call] = {}
    for call in calls:
        first.setdefault(call.answer["id"], call)
    return list(first.values())


def turn_posts(fake: FakeDiscord, table: Table, draw: Draw) -> list[Call]:
    return [c for c in channel_posts(fake, table) if header(table, draw) in c.json["content"]]


def turn_sends(fake: FakeDiscord, table: Table, draw: Draw) -> list[Call]:
    """Every request that sent `draw`'s turn post, resends with the same nonce included."""
    return [c for c in fake.calls_to("POST", rf"/channels/{table.channel.id}/messages")
            if c.status == 200 and header(table, draw) in c.json["content"]]


def wait_turn_post(fake: FakeDiscord, table: Table, draw: Draw) -> Call:
    """The turn post of `draw`, once the bot has posted it in the channel."""
    posts = fake.wait_until(lambda: turn_posts(fake, table, draw), timeout=WAIT_TIMEOUT, abort=table.bot.died,
                            what=f"the turn post of the draw of {draw.date}")
    return posts[0]


def mentioned(call: Call) -> set[int]:
    """The users a post is allowed to ping."""
    return {int(user) for user in call.json["allowed_mentions"]["users"]}


def day_text(table: Table, day: dt.date) -> str:
    """A draw's day as the table reads it (« samedi 1er mars 2025 »)."""
    return format_day(day, table.language)


def history_draws(table: Table, who: Member) -> list[str]:
    """The days of the draws the game's history tells of, as it writes them (`day_text`), newest
    first, from page 1 of `/game history`."""
    history = table.run(who, "game history")
    return HISTORY_DRAW.findall(history.content)


def pinned_status(fake: FakeDiscord, table: Table) -> int:
    """The id of the status message the bot pinned in the table's channel, once it has."""
    pins = fake.wait_until(lambda: fake.calls_to("PUT", rf"/channels/{table.channel.id}/messages/pins/\d+"),
                           timeout=WAIT_TIMEOUT, abort=table.bot.died, what="a pinned status message")
    return int(pins[0].path.rsplit("/", 1)[1])


def status_shows(fake: FakeDiscord, message_id: int, ap: Mapping[str, int]) -> bool:
    """Whether the status message, as it stands now, gives every character the AP of `ap`."""
    content = fake.message(message_id)["content"]
    return all(re.search(rf"\*\*{name}\*\* .* · {value} PA · ", content) for name, value in ap.items())
