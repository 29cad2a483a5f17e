"""Issue 26's "done when": two weeks of correspondence play, simulated on a clock that jumps.

Two members play a HexArena and an Arkeon game on a move clock, a SpaceBlast game on a deadline and
a Space Chess game moved by the lottery's draws, on two servers. Ann chose reminders by direct
message, Bob in the channel. They check in now and then (Ann every 44 hours, Bob every 40 hours) and
play wherever a game waits on them (in Space Chess: wherever their character has action points);
between two check-ins the clock jumps to each timer due (the drivers' real handlers, through the real
`TimerRunner`) and to each Loto evening, whose results are published then in a local FDJ file and
read by the bot's real poll (fetch, store, apply, turn post), so nothing waits for real time. After
every step:

- each member is pinged exactly when a game waits on them: the turn handed to them, a clock's
  half-time reminder, a deadline's reminder while they are not ready, a draw's post giving their
  character action points — once, by direct message for Ann and in the channel for Bob — and never
  otherwise (a look, the other's move in a game already waiting on nobody new, a member away, a
  Space Chess order, a draw that gave them nothing);
- `/game mine` lists each member's games with the ones waiting on them first and each game's clock,
  deadline or next draw as its timer or the draw calendar has it;
- away days declared move the clock and the deadline by as many days; Space Chess, which waits on
  the lottery and on nobody's seat, has none to take.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import update

from bot.drivers import plays_as, timer_handlers
from bot.i18n import translate
from bot.lottery.apply import DrawApplier
from bot.lottery.poll import DrawPoller
from bot.outbox import flush
from bot.service import Context, GameService, Reply
from bot.store.models import LogEntry
from bot.store.repo import GameRecord, Store
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from draws import FDJ_LOTO, FileSource
from engine import registry
from tests.support.clock import NOW, Clock

ONE, TWO = 10, 20  # the two servers
GM_ID, ANN, BOB = 1, 2, 3
DAY, HOUR = dt.timedelta(days=1), dt.timedelta(hours=1)
END = NOW + 14 * DAY
#: each game's channel, server, command group, `new` options, and how it waits on its players: one at
#: a time ("turns"), all at once ("ready"), or not at all: the lottery's draws give action points ("draws")
GAMES = {
    "Arena": (110, ONE, "hx", {"clock_hours": 72, "away_days": 4}, "turns"),
    "Temple": (210, TWO, "ak", {"clock_hours": 48, "away_days": 4}, "turns"),
    "Nebula": (120, ONE, "sb", {"turn_hours": 48, "reminders": "12", "away_days": 3}, "ready"),
    "Outpost": (220, TWO, "sc", {}, "draws"),
}
#: the reminders that ping whoever a game waits on when they fire (the others ping nobody)
REMINDERS = ("clock_half", "reminder1")
#: Space Chess: each member's general, deployed far from the other's, and their two draw cards
GENERALS = {ANN: ("1", (1, 4), "B1"), BOB: ("2", (2, 6), "W44")}
#: the Loto evenings of the two weeks, when their results are out (the FDJ calendar), and their numbers:
#: some for both generals' cards (1-7 and 22-28 for Ann's, 8-14 and 36-42 for Bob's), some for one, one for none
EVENINGS = tuple(zip(FDJ_LOTO.between(NOW, END), ((3, 12, 19, 33, 45), (15, 17, 30, 44, 49), (5, 23, 31, 46, 48),
                                                  (9, 38, 16, 20, 47), (1, 11, 25, 40, 29), (2, 19, 36, 43, 21)),
                     strict=True))
#: a real FDJ file's header (the current Loto): the local source the season publishes its results in
FDJ_HEADER = (Path(__file__).resolve().parents[2] / "draws" / "data" / "loto_2019_numero7_slice.csv"
              ).read_text().splitlines()[0]
WEEKDAYS = ("LUNDI", "MARDI", "MERCREDI", "JEUDI", "VENDREDI", "SAMEDI", "DIMANCHE")


def at(user: int, name: str) -> Context:
    channel, guild, *_ = GAMES[name]
    return Context(user_id=user, user_name=f"u{user}", guild_id=guild, channel_id=channel,
                   manage_server=user == GM_ID, locale="en-US")


@dataclass
class Delivered:
    """What reached the members since the last look: (member, game name, "dm" or "channel")."""

    store: Store
    pings: list[tuple[int, str, str]] = field(default_factory=list)

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.pings += [(user, game.name, "channel") for user in reply.mentions]

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self.pings += [(user, game.name, "channel") for user in reply.mentions]

    def on_dm(self, user: int, game: GameRecord, reply: Reply) -> None:
        self.pings.append((user, game.name, "dm"))


class LocalFdj:
    """FDJ's results as a file the bot's poll reads (`FileSource`, as ``[draws] source = "file"``):
    each evening's row is written when its results are out."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows = [FDJ_HEADER]
        self.source = FileSource(path)

    def publish(self, moment: dt.datetime, numbers: tuple[int, ...], chance: int = 7) -> None:
        day = FDJ_LOTO.local_date(moment)
        cells = dict.fromkeys(FDJ_HEADER.split(";"), "")
        cells.update({"annee_numero_de_tirage": f"{day.year % 100}{len(self.rows):03d}",
                      "jour_de_tirage": WEEKDAYS[day.weekday()], "date_de_tirage": day.strftime("%d/%m/%Y"),
                      "date_de_forclusion": (day + 60 * DAY).strftime("%d/%m/%Y"), "numero_chance": str(chance),
                      "combinaison_gagnante_en_ordre_croissant":
                          "-".join(map(str, sorted(numbers))) + f"+{chance}"})
        cells.update({f"boule_{k}": str(n) for k, n in enumerate(numbers, 1)})
        self.rows.insert(1, ";".join(cells.values()))  # FDJ lists the newest evening first
        self.path.write_text("\n".join(self.rows) + "\n")


class Season:
    """The two weeks: the service on a jumping clock, the games, and what each step delivered."""

    def __init__(self, store: Store, folder: Path | None = None) -> None:
        self.clock = Clock()
        self.svc = GameService(store, seed_source=lambda: 7, clock=self.clock)
        self.hooks = Delivered(store)
        self.runner = TimerRunner(store, timer_handlers(self.svc, self.hooks), clock=self.clock)
        self.fdj = LocalFdj(folder / "loto.csv") if folder is not None else None
        self.poller = DrawPoller(DrawApplier(self.svc, hooks=self.hooks), self.fdj and self.fdj.source,
                                 give_up=6 * HOUR)
        self.ids: dict[str, int] = {}
        self.known: set[tuple[int, str]] | None = None

    def game(self, name: str) -> GameRecord:
        if name not in self.ids:
            channel, guild, *_ = GAMES[name]
            self.ids[name] = self.svc.store.game_in_channel(guild, channel).id
        return self.svc.store.get_game(self.ids[name])

    def waited(self) -> set[tuple[int, str]]:
        """(member, game) for every running game waiting on the member, read from the rules (again
        after each change: `delivered` follows every one)."""
        if self.known is not None:
            return self.known
        found = set()
        for name in GAMES:
            if self.svc.store.game_in_channel(GAMES[name][1], GAMES[name][0]) is None:
                continue  # a test of one game
            game = self.game(name)
            if game.status != "running":
                continue
            rules = registry.get(game.kind)
            state = rules.from_json(game.state)
            for seat in self.svc.store.seats(game.id):
                if any(plays_as(rules, state, seat.actor, actor) for actor in rules.waiting_on(state)):
                    found.add((seat.user_id, name))
        self.known = found
        return found

    def away(self, user: int, name: str) -> bool:
        game = self.game(name)
        seat = self.svc.store.seat_of_user(game.id, user)
        until = game.options.get("away", {}).get(seat.actor, {}).get("until")
        return until is not None and dt.datetime.fromisoformat(until) > self.clock.now

    def action_points(self, user: int) -> int:
        """What the member's Space Chess general holds."""
        game = self.game("Outpost")
        rules = registry.get(game.kind)
        return rules.view(rules.from_json(game.state))["characters"][self.svc.store.seat_of_user(game.id, user).actor]["ap"]

    def moves(self, user: int) -> list[str]:
        """The moves the member's Space Chess general may make now (none without the action points)."""
        game = self.game("Outpost")
        rules = registry.get(game.kind)
        actor = self.svc.store.seat_of_user(game.id, user).actor
        return sorted(text for order in rules.legal_orders(rules.from_json(game.state), actor)
                      if (text := rules.format_order(order)).startswith("move"))

    def timer(self, name: str) -> dt.datetime | None:
        """When the game's next moment is: its clock's or deadline's timer, or the next Loto evening."""
        if GAMES[name][4] == "draws":
            return next(moment for moment in FDJ_LOTO.between(self.clock.now, END + 7 * DAY))
        due = [t.due_at for t in game_timers(self.svc.store, self.ids[name]) if t.kind in ("clock", "deadline")]
        return due[0] if due else None

    def delivered(self, reply: Reply | None = None) -> Counter[tuple[int, str, str]]:
        flush(self.svc.store, self.hooks)  # the timers' handlers may have handed theirs over already
        pings, self.hooks.pings = Counter(self.hooks.pings), []
        self.known = None
        if reply is not None:
            assert reply.ok, reply
            assert reply.mentions == (), reply  # a command's own reply pings nobody: its post does
        return pings

    def via(self, user: int) -> str:
        return "dm" if user == ANN else "channel"


def start(season: Season) -> None:
    svc = season.svc
    assert svc.handle(at(ANN, "Arena"), "game settings", {"reminders": "dm"}).ok
    assert svc.handle(at(BOB, "Arena"), "game settings", {"reminders": "channel"}).ok
    for name, (_, _, group, options, waits) in GAMES.items():
        assert svc.handle(at(GM_ID, name), "gm settings", {"language": "en", "pings": "players"}).ok
        assert svc.handle(at(GM_ID, name), f"{group} new", {"name": name, **options}).ok
        for user, joined in ((ANN, "Ann"), (BOB, "Bob")):
            if waits != "draws":
                assert svc.handle(at(user, name), f"{group} join", {"name": joined}).ok
                continue
            team, (first, second), cell = GENERALS[user]
            assert svc.handle(at(user, name), "sc join", {"name": joined, "team": team, "role": "general"}).ok
            assert svc.handle(at(user, name), "sc equip", {"card1": first, "card2": second}).ok
            assert svc.handle(at(user, name), "sc deploy", {"cell": cell}).ok
        if season.game(name).status == "setup":
            assert svc.handle(at(GM_ID, name), "gm start", {}).ok
    # the store dates its log in real time, the season's clock is weeks away from it: the Space Chess
    # game began now on the season's clock (its draws are those after its start)
    with svc.store.engine.begin() as connection:
        connection.execute(update(LogEntry).where(LogEntry.game_id == season.ids["Outpost"],
                                                  LogEntry.kind == "start").values(created_at=season.clock.now))


def play(season: Season, user: int, name: str) -> Reply:
    """The member's move where `name` waits on them: the first legal one (SpaceBlast: ready; Space
    Chess: a move of their general)."""
    game = season.game(name)
    group, waits = GAMES[name][2], GAMES[name][4]
    if waits == "ready":
        return season.svc.handle(at(user, name), f"{group} ready", {})
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    if waits == "draws":
        return season.svc.handle(at(user, name), f"{group} order", {"text": season.moves(user)[0]})
    [actor] = rules.waiting_on(state)
    order = min(rules.format_order(o) for o in rules.legal_orders(state, actor))
    return season.svc.handle(at(user, name), f"{group} order", {"text": order})


def check_mine(season: Season) -> None:
    """`/game mine` of each member: the games waiting on them first, each with its timer's time."""
    waited = season.waited()
    for user in (ANN, BOB):
        reply = season.svc.handle(Context(user_id=user, user_name="x", guild_id=TWO, channel_id=999), "game mine", {})
        assert season.delivered(reply) == Counter()  # a look pings nobody
        running = [n for n in GAMES if season.game(n).status in ("running", "paused")]
        if not running:
            assert [m.key for m in reply.messages] == ["game.mine.none"]
            continue
        lines = reply.messages[1:]
        mine = [m.params["name"] for m in lines if m.key == "game.mine.your_turn"]
        others = [m.params["name"] for m in lines if m.key == "game.mine.game"]
        assert set(mine) == {n for u, n in waited if u == user}, (season.clock.now, user, mine)
        assert sorted(mine + others) == sorted(running) and [m.key for m in lines[:len(mine)]] == \
            ["game.mine.your_turn"] * len(mine)
        for line in lines:
            due = season.timer(line.params["name"])
            if due is not None:
                assert f"<t:{int(due.timestamp())}:" in translate(line.key, "en", line.params), line


def gains(numbers: tuple[int, ...], user: int) -> bool:
    """SC-12/13: whether an evening's numbers give the member's general action points (a number in
    the range of one of their cards: card k covers 7k-6..7k)."""
    return any(7 * card - 6 <= number <= 7 * card for card in GENERALS[user][1] for number in numbers)


def test_two_weeks_of_correspondence_play_on_two_servers(sqlite_store: Store, tmp_path: Path) -> None:
    store = sqlite_store  # one backend: the store's queries are tested on both elsewhere
    season = Season(store, tmp_path)
    svc = season.svc
    start(season)
    first = season.delivered()
    assert first == Counter((u, n, season.via(u)) for u, n in season.waited() if GAMES[n][4] == "turns"), first
    check_mine(season)
    check_ins = sorted([(NOW + 44 * HOUR * k - 4 * HOUR, ANN) for k in range(1, 9)]
                       + [(NOW + 40 * HOUR * k, BOB) for k in range(1, 9)])
    evenings = list(EVENINGS)
    away_declared = {BOB: False, ANN: False}
    pinged: Counter[str] = Counter()
    while check_ins and check_ins[0][0] < END:
        moment, user = check_ins[0]
        due = sorted(t.due_at for name in GAMES for t in game_timers(store, season.ids[name]))
        if evenings and evenings[0][0] <= moment and (not due or evenings[0][0] < due[0]):
            # a Loto evening before the next check-in: its results are out, the bot's poll reads them
            season.clock.now, numbers = evenings.pop(0)
            season.fdj.publish(season.clock.now, numbers)
            before = {user: season.action_points(user) for user in (ANN, BOB)}
            report = season.poller.poll()
            assert (report.new_draws, report.error, len(report.posts)) == (1, None, 1), report
            pings = season.delivered()
            assert pings == Counter((u, "Outpost", season.via(u)) for u in (ANN, BOB) if gains(numbers, u)), \
                (season.clock.now, numbers, pings)
            assert all(season.action_points(u) > before[u] or not gains(numbers, u) or before[u] == 9
                       for u in (ANN, BOB))
            pinged["draw"] += sum(pings.values())
            pinged["draw_for_nobody"] += not pings
            check_mine(season)
            continue
        if due and due[0] <= moment:  # a timer falls before the next check-in: the clock jumps to it
            season.clock.now = due[0]
            before = season.waited()
            fired = season.runner.run_due(due[0])
            pings = season.delivered()
            expected = Counter()
            for timer in fired:
                name = next(n for n in GAMES if season.ids[n] == timer.game_id)
                if timer.kind in REMINDERS:
                    expected.update((u, name, season.via(u)) for u, n in before
                                    if n == name and not season.away(u, name))
                    pinged[timer.kind] += 1
            assert pings == expected, (season.clock.now, [t.kind for t in fired], pings, expected)
            check_mine(season)
            continue
        check_ins.pop(0)
        season.clock.now = moment
        if user == BOB and not away_declared[BOB] and moment > NOW + 5 * DAY and (BOB, "Arena") in season.waited():
            # Bob goes on holiday for two days where the duel waits on him: his clock waits as long
            clock = season.timer("Arena")
            assert season.delivered(svc.handle(at(BOB, "Arena"), "game away", {"days": 2})) == Counter()
            assert season.timer("Arena") == clock + 2 * DAY
            away_declared[BOB] = True
            check_ins = sorted([(m + 2 * DAY if u == BOB else m, u) for m, u in check_ins])
            check_mine(season)
            continue
        if user == ANN and not away_declared[ANN] and moment > NOW + 8 * DAY and (ANN, "Nebula") in season.waited():
            deadline = season.timer("Nebula")
            assert season.delivered(svc.handle(at(ANN, "Nebula"), "game away", {"days": 1})) == Counter()
            assert season.timer("Nebula") == deadline + DAY  # the turn waits on her: its deadline too
            # the lottery waits on nobody: Space Chess has no away days to take
            refused = svc.handle(at(ANN, "Outpost"), "game away", {"days": 1})
            assert [m.key for m in refused.messages] == ["error.away_not_here"] and not refused.ok
            away_declared[ANN] = True
            check_mine(season)
        for name in GAMES:
            if GAMES[name][4] == "draws":
                if season.moves(user):  # their general has the action points to move: it pings nobody
                    assert season.delivered(play(season, user, name)) == Counter()
                    pinged["sc_order"] += 1
                    check_mine(season)
                continue
            if (user, name) not in season.waited() or season.away(user, name):
                continue
            while (user, name) in season.waited():  # a whole turn: an Arkeon placement takes three inputs
                before = season.waited()
                reply = play(season, user, name)
                pings = season.delivered(reply)
                handed = season.waited() - before if GAMES[name][4] == "turns" else set()
                assert pings == Counter((u, n, season.via(u)) for u, n in handed), (moment, name, pings, handed)
                pinged["turn"] += len(handed)
                check_mine(season)
    assert all(away_declared.values()) and not evenings
    assert season.game("Outpost").status == "running"
    assert pinged["turn"] >= 10 and pinged["clock_half"] >= 1 and pinged["reminder1"] >= 1, pinged
    assert pinged["draw"] == 8 and pinged["draw_for_nobody"] == 1 and pinged["sc_order"] >= 4, pinged


def test_a_players_own_input_after_their_clock_ran_out_does_not_tell_them_it_is_their_turn(
        sqlite_store: Store) -> None:
    """Found by the two weeks above: Bob's clock ran out mid-placement (the GMs alerted, no clock
    running); his next placement of the same turn pinged him "your turn"."""
    season = Season(sqlite_store)
    svc = season.svc
    assert svc.handle(at(GM_ID, "Temple"), "ak new", {"name": "Temple", "clock_hours": 10}).ok
    assert svc.handle(at(ANN, "Temple"), "ak join", {"name": "Ann"}).ok
    assert svc.handle(at(BOB, "Temple"), "ak join", {"name": "Bob"}).ok
    assert svc.handle(at(GM_ID, "Temple"), "gm start", {}).ok
    season.delivered()
    [(user, _)] = season.waited()
    assert season.delivered(play(season, user, "Temple")) == Counter()  # one placement of three
    season.clock.now = season.timer("Temple") + HOUR
    assert "clock" in [t.kind for t in season.runner.run_due(season.clock.now)]  # the GMs are alerted
    season.delivered()
    assert season.timer("Temple") is None
    assert season.delivered(play(season, user, "Temple")) == Counter()  # still their turn: no ping
    assert season.timer("Temple") is not None  # their clock runs again
    handed = season.delivered(play(season, user, "Temple"))
    other = ANN if user == BOB else BOB
    assert handed == Counter({(other, "Temple", "channel"): 1})  # nobody chose DMs here
