"""Issue 26's "done when": two weeks of correspondence play, simulated on a clock that jumps.

Two members play a HexArena and an Arkeon game on a move clock and a SpaceBlast game on a
deadline, on two servers. Ann chose reminders by direct message, Bob in the channel. They check in
now and then (Ann every 44 hours, Bob every 40 hours) and play wherever a game waits on them; between two
check-ins the clock jumps to each timer due (the drivers' real handlers, through the real
`TimerRunner`), so nothing waits for real time. After every step:

- each member is pinged exactly when a game waits on them: the turn handed to them, a clock's
  half-time reminder, a deadline's reminder while they are not ready — once, by direct message for
  Ann and in the channel for Bob — and never otherwise (a look, the other's move in a game already
  waiting on nobody new, a member away);
- `/game mine` lists each member's games with the ones waiting on them first and each game's clock
  or deadline as its timer has it;
- away days declared move the clock and the deadline by as many days.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from bot.drivers import plays_as, timer_handlers
from bot.i18n import translate
from bot.outbox import flush
from bot.service import Context, GameService, Reply
from bot.store.repo import GameRecord, Store
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from engine import registry
from tests.support.clock import NOW, Clock

ONE, TWO = 10, 20  # the two servers
GM_ID, ANN, BOB = 1, 2, 3
DAY, HOUR = dt.timedelta(days=1), dt.timedelta(hours=1)
END = NOW + 14 * DAY
#: each game's channel, server, command group, `new` options, and whether it alternates
GAMES = {
    "Arena": (110, ONE, "hx", {"clock_hours": 72, "away_days": 4}, True),
    "Temple": (210, TWO, "ak", {"clock_hours": 48, "away_days": 4}, True),
    "Nebula": (120, ONE, "sb", {"turn_hours": 48, "reminders": "12", "away_days": 3}, False),
}
#: the reminders that ping whoever a game waits on when they fire (the others ping nobody)
REMINDERS = ("clock_half", "reminder1")


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


class Season:
    """The two weeks: the service on a jumping clock, the games, and what each step delivered."""

    def __init__(self, store: Store) -> None:
        self.clock = Clock()
        self.svc = GameService(store, seed_source=lambda: 7, clock=self.clock)
        self.hooks = Delivered(store)
        self.runner = TimerRunner(store, timer_handlers(self.svc, self.hooks), clock=self.clock)
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

    def timer(self, name: str) -> dt.datetime | None:
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
    for name, (_, _, group, options, _) in GAMES.items():
        assert svc.handle(at(GM_ID, name), "gm settings", {"language": "en", "pings": "players"}).ok
        assert svc.handle(at(GM_ID, name), f"{group} new", {"name": name, **options}).ok
        assert svc.handle(at(ANN, name), f"{group} join", {"name": "Ann"}).ok
        assert svc.handle(at(BOB, name), f"{group} join", {"name": "Bob"}).ok
        if season.game(name).status == "setup":
            assert svc.handle(at(GM_ID, name), "gm start", {}).ok


def play(season: Season, user: int, name: str) -> Reply:
    """The member's move where `name` waits on them: the first legal one (SpaceBlast: ready)."""
    game = season.game(name)
    group, alternating = GAMES[name][2], GAMES[name][4]
    if not alternating:
        return season.svc.handle(at(user, name), f"{group} ready", {})
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
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


def test_two_weeks_of_correspondence_play_on_two_servers(sqlite_store: Store) -> None:
    store = sqlite_store  # one backend: the store's queries are tested on both elsewhere
    season = Season(store)
    svc = season.svc
    start(season)
    first = season.delivered()
    assert first == Counter((u, n, season.via(u)) for u, n in season.waited() if GAMES[n][4]), first
    check_mine(season)
    check_ins = sorted([(NOW + 44 * HOUR * k - 4 * HOUR, ANN) for k in range(1, 9)]
                       + [(NOW + 40 * HOUR * k, BOB) for k in range(1, 9)])
    away_declared = {BOB: False, ANN: False}
    pinged: Counter[str] = Counter()
    while check_ins and check_ins[0][0] < END:
        moment, user = check_ins[0]
        due = sorted(t.due_at for name in GAMES for t in game_timers(store, season.ids[name]))
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
            away_declared[ANN] = True
            check_mine(season)
        for name in GAMES:
            if (user, name) not in season.waited() or season.away(user, name):
                continue
            while (user, name) in season.waited():  # a whole turn: an Arkeon placement takes three inputs
                before = season.waited()
                reply = play(season, user, name)
                pings = season.delivered(reply)
                handed = season.waited() - before if GAMES[name][4] else set()
                assert pings == Counter((u, n, season.via(u)) for u, n in handed), (moment, name, pings, handed)
                pinged["turn"] += len(handed)
                check_mine(season)
    assert all(away_declared.values())
    assert pinged["turn"] >= 10 and pinged["clock_half"] >= 1 and pinged["reminder1"] >= 1, pinged


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
