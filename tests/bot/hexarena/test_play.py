"""HexArena through the service (reconstructed rules): two players or one against the computer,
turns by `/hx move`… or the order text (each suggested from the legal turns), refusals in words
that leave the game as it was, the board after each turn, the move clock following the side to
move and losing the game on time, resignation after a confirmation."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from bot.drivers import timer_handlers
from bot.games import presenter_for
from bot.i18n import LANGUAGES, translate
from bot.service import Context, GameService, Reply
from bot.service.refusals import order_refusal
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from engine import registry
from engine.core.errors import OrderError
from engine.hexarena.variants import Alpha
from tests.support.clock import NOW, Clock
from tests.support.computers import computers_play

GUILD, CHANNEL = 10, 120
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)
RULES = registry.get("hexarena")


class Hooks:
    def __init__(self) -> None:
        self.posts: list[Reply] = []
        self.alerts: list[Reply] = []

    def on_turn_post(self, game, reply: Reply) -> None:
        self.posts.append(reply)

    def on_gm_alert(self, game, reply: Reply) -> None:
        self.alerts.append(reply)


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def texts(reply: Reply) -> list[str]:
    """Every line of a reply in both languages: no placeholder or catalog key left."""
    shown = [translate(m.key, lang, m.params) for m in reply.messages for lang in LANGUAGES]
    for line in shown:
        assert "{" not in line and "hx." not in line and "event." not in line, line
    return shown


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 5, clock=Clock())


def game(svc: GameService):
    return svc.store.game_in_channel(GUILD, CHANNEL)


def started(svc: GameService, **new) -> GameService:
    assert svc.handle(GM, "hx new", {"name": "Arena", "clock_hours": 24, **new}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "hx join", {"name": "Bob", "side": "blue"}).ok
    reply = svc.handle(GM, "gm start", {})
    assert "event.hexarena.started" in keys(reply) and reply.files
    return svc


def test_a_turn_by_command_with_its_cells_suggested_and_the_clock_following(svc: GameService) -> None:
    started(svc)
    clock = {t.kind: t for t in game_timers(svc.store, game(svc).id)}["clock"]
    assert clock.payload["actor"] == "red"  # Ann took the first free side, red, which moves first (HA-12)
    cells = svc.complete(ANN, "hx move", "cell", "")
    assert cells and set(cells) <= {"F1", "H1", "G2", "G3", "E1", "F2", "H2", "I1"}  # red's ships that can move
    assert "G1" not in cells  # the admiral is boxed in at the start
    assert svc.complete(BOB, "hx move", "cell", "") == []  # not Bob's turn: nothing to suggest
    assert "G10" in svc.complete(ANN, "hx move", "to", "G1")
    assert svc.complete(ANN, "hx fire", "cell", "") == ["G1"]  # only the admiral, at its own fighter (HA-9)
    played = svc.handle(ANN, "hx move", {"cell": "g3", "to": "g10"})
    assert played.ok and keys(played)[:2] == ["event.hexarena.moved", "event.hexarena.turn_ended"]
    assert played.files and played.files[0].filename == "hexarena.png"
    assert any("Red fighter 2 moves G3 → G10" in line for line in texts(played))
    moved = {t.kind: t for t in game_timers(svc.store, game(svc).id)}["clock"]
    assert moved.payload["actor"] == "blue"
    assert set(svc.complete(BOB, "hx rotate", "cell", "G1")) == {"G11", "G12", "G13"}  # no patrol: no facing
    rotated = svc.handle(BOB, "hx rotate", {"cell": "E11", "direction": "ne"})
    assert rotated.ok and "event.hexarena.rotated" in keys(rotated)


def test_refusals_are_worded_and_leave_the_game_as_it_was(svc: GameService) -> None:
    started(svc)
    before = game(svc)
    cases = [
        (BOB, "hx order", {"text": "move G12 G10"}, "error.not_your_turn"),
        (ANN, "hx order", {"text": "move G3"}, "error.bad_syntax.end"),
        (ANN, "hx move", {"cell": "G1", "to": "G2"}, "error.occupied"),
        (ANN, "hx move", {"cell": "G12", "to": "G10"}, "error.not_your_ship"),
        (ANN, "hx fire", {"cell": "G2"}, "error.immune.domination"),
        (ANN, "hx move", {"cell": "G7", "to": "G8"}, "error.no_ship"),
        (ANN, "hx rotate", {"cell": "G3", "direction": "e"}, "error.not_allowed.same_facing"),
        (ANN, "hx order", {"text": "move G3 G5; move G2 G4"}, "error.too_many_actions"),
        (ANN, "hx leave", {"cell": "G1", "to": "G2"}, "error.not_allowed.not_aboard"),
        (ANN, "hx leave", {"cell": "F2", "to": "F3"}, "error.not_allowed.no_passenger"),
    ]
    worded = {}
    for ctx, path, opts, key in cases:
        reply = svc.handle(ctx, path, opts)
        assert not reply.ok and keys(reply) == [key], (path, opts, reply.messages)
        worded[key] = texts(reply)
        after = game(svc)
        assert (after.version, after.state) == (before.version, before.state), (path, opts)
    shown = texts(svc.handle(ANN, "hx fire", {"cell": "G2"}))
    assert any("Red fighter 1 cannot destroy Red fighter 2" in line for line in shown)
    # whose turn it is, said (issue 26 point 7: "It is not your turn" left the player guessing)
    assert set(worded["error.not_your_turn"]) == {"It is not your turn: Red is to move.",
                                                  "Ce n’est pas votre tour : c’est à Rouge de jouer."}
    # an admiral standing alone is aboard nothing ("Red admiral carries no admiral" made no sense)
    assert any(line.startswith("Red admiral is aboard no cargo: `/hx leave` ") for line in worded["error.not_allowed.not_aboard"])


def test_an_alpha_turn_is_written_out_and_suggested_from_the_legal_turns(svc: GameService) -> None:
    started(svc, variant="alpha")
    # an English reader's suggestions: the order words follow the reader (French: deplace G3 G10)
    suggestions = svc.complete(replace(ANN, locale="en-US"), "hx order", "text", "move G3 G10; ")
    assert suggestions and all(text.startswith("move G3 G10; ") for text in suggestions)
    legal = {RULES.format_order(t) for t in RULES.legal_orders(RULES.from_json(game(svc).state), "red")}
    assert set(suggestions) <= legal
    played = svc.handle(ANN, "hx order", {"text": suggestions[0]})
    assert played.ok and keys(played).count("event.hexarena.moved") + keys(played).count(
        "event.hexarena.rotated") == 2


def test_status_and_sheet_say_who_is_where(svc: GameService) -> None:
    started(svc)
    status = svc.handle(ANN, "game status", {})
    shown = " ".join(texts(status))
    assert "**Ann**" in shown and "**Bob**" in shown and "to move" in shown and "base game" in shown
    sheet = svc.handle(ANN, "game sheet", {"character": "red"})
    shown = " ".join(texts(sheet))
    assert "Admiral: on G1" in shown
    assert "steps to the enemy base: 10" in shown and "Red cargo 4: I1, facing E" in shown and sheet.files
    assert "event.hexarena" not in shown
    own = svc.handle(BOB, "game sheet", {})  # a player's own sheet is their side's
    assert own.messages[0].params["side"].key == "word.side.blue"


def test_the_computer_answers_every_turn_to_the_end(svc: GameService) -> None:
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert keys(svc.handle(ANN, "hx challenge", {"level": "easy"}))[0] == "game.computer_joined"
    svc.handle(GM, "gm start", {})
    for _ in range(60):
        if game(svc).status != "running":
            break
        text = svc.complete(ANN, "hx order", "text", "")[0]
        reply = svc.handle(ANN, "hx order", {"text": text})
        assert reply.ok, (text, reply.messages)
        computers_play(svc)
    assert game(svc).status == "finished"
    computer = [e for e in svc.store.log(game(svc).id) if e.user_id is None and e.kind == "order"]
    assert computer and all(e.actor == "blue" for e in computer)  # the computer played, as the bot, for blue
    assert registry.get("hexarena").result(RULES.from_json(game(svc).state)).winner == "blue"


def test_resigning_asks_first_then_the_other_side_wins(svc: GameService) -> None:
    started(svc)
    ask = svc.handle(BOB, "hx resign", {})
    assert ask.buttons and game(svc).status == "running"
    done = svc.handle(BOB, "hx resign", dict(ask.buttons[0].options))
    assert "event.hexarena.game_over" in keys(done) and done.files
    assert any("**Red** wins (the other side resigned)" in line for line in texts(done))
    assert game(svc).status == "finished"


def test_a_clock_run_out_loses_the_game_on_time_with_forfeit(svc: GameService) -> None:
    started(svc, timeout="forfeit")
    hooks = Hooks()
    clock = {t.kind: t for t in game_timers(svc.store, game(svc).id)}["clock"]
    svc.clock.now = clock.due_at  # type: ignore[attr-defined]
    TimerRunner(svc.store, timer_handlers(svc, hooks), clock=svc.clock).run_due(clock.due_at)
    assert game(svc).status == "finished"
    # the start told Red it was its turn, and the half-time reminder fell due on the way
    *reminders, post = hooks.posts
    assert [m.key for r in reminders for m in r.messages] == ["turn.your_turn", "turn.clock_half"]
    assert any("**Blue** wins (the other side ran out of time)" in line for line in texts(post))


def test_the_move_clock_defaults_to_72_hours_as_the_rules_say(svc: GameService) -> None:
    """hexarena.md, bot flow: a GM-set move clock, 72 h by default, its reminder at half time."""
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "hx join", {"name": "Bob"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    assert game(svc).options["clock_hours"] == 72
    timers = {t.kind: t for t in game_timers(svc.store, game(svc).id)}
    assert timers["clock"].due_at == NOW + dt.timedelta(hours=72)
    assert timers["clock_half"].due_at == NOW + dt.timedelta(hours=36)
    info = svc.handle(GM, "game info", {})
    assert any(m.key == "game.info.clock" and m.params["hours"] == 72 for m in info.messages)


def seated(svc: GameService) -> GameService:
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "hx join", {"name": "Bob"}).ok
    return svc


@pytest.mark.parametrize(("seed", "first"), [(5, "blue"), (6, "red")])
def test_the_gm_may_draw_who_moves_first_from_the_games_seed(store, seed: int, first: str) -> None:
    """HA-12 D: `/gm start first:random` draws the side from the game's stored seed (the service's
    seed source), so the draw is logged as asked and a replay of the log draws the same side."""
    svc = seated(GameService(store, seed_source=lambda: seed, clock=Clock()))
    assert svc.complete(replace(GM, locale="en-US"), "gm start", "first", "") == ["Red", "Blue", "drawn at random"]
    assert svc.complete(replace(GM, locale="fr"), "gm start", "first", "") == ["Rouge", "Bleu", "tiré au sort"]
    reply = svc.handle(GM, "gm start", {"first": "tiré au sort"})  # the French suggestion, as Discord sends it
    assert reply.ok, reply.messages
    started_event = next(m for m in reply.messages if m.key == "event.hexarena.started")
    assert started_event.params["drawn"].key == "hx.started.drawn"
    assert game(svc).seed == seed and RULES.view(RULES.from_json(game(svc).state))["to_move"] == first
    clock = {t.kind: t for t in game_timers(svc.store, game(svc).id)}["clock"]
    assert clock.payload["actor"] == first
    entries = [e for e in svc.store.log(game(svc).id) if e.kind in RULES.input_kinds]
    assert entries[-1].kind == "start" and entries[-1].payload == {"first": "random"}
    replayed = RULES.setup(game(svc).setup, game(svc).seed)
    for entry in entries:
        replayed = RULES.apply_input(replayed, entry.kind, entry.actor, entry.payload).state
    assert replayed == RULES.from_json(game(svc).state)
    texts(reply)


def test_the_gm_may_name_who_moves_first_and_a_wrong_name_is_refused(svc: GameService) -> None:
    seated(svc)
    before = game(svc)
    wrong = svc.handle(GM, "gm start", {"first": "green"})
    assert not wrong.ok and keys(wrong) == ["error.option_bad_choice"]
    said = translate(wrong.messages[0].key, "fr", wrong.messages[0].params)
    assert said.endswith("choix possibles : Rouge, Bleu, tiré au sort."), said
    assert (game(svc).version, game(svc).status) == (before.version, "setup")
    assert svc.handle(GM, "gm start", {"first": "bleu"}).ok
    assert RULES.view(RULES.from_json(game(svc).state))["to_move"] == "blue"


def test_a_game_whose_rules_decide_who_moves_first_refuses_first(store) -> None:
    """Arkeon draws its starter itself (AK-10): naming one is refused in words, nothing changed."""
    from tests.bot.arkeon.test_play import ANN as AK_ANN
    from tests.bot.arkeon.test_play import BOB as AK_BOB
    from tests.bot.arkeon.test_play import GM as AK_GM

    svc = GameService(store, seed_source=lambda: 1)
    assert svc.handle(AK_GM, "ak new", {"name": "Duel"}).ok
    assert svc.handle(AK_ANN, "ak join", {"name": "Ann"}).ok
    assert svc.handle(AK_BOB, "ak join", {"name": "Bob"}).ok
    assert svc.complete(AK_GM, "gm start", "first", "") == []
    refused = svc.handle(AK_GM, "gm start", {"first": "random"})
    assert not refused.ok and keys(refused) == ["error.first_not_chosen"]
    assert "Duel" in translate("error.first_not_chosen", "fr", refused.messages[0].params)
    assert svc.handle(AK_GM, "gm start", {}).ok


def test_a_third_repetition_ends_the_game_drawn_in_words_and_stops_the_clock(svc: GameService) -> None:
    """HA-18 through the bot: the status warns once the position has stood twice; the third time,
    the post says the game is drawn and why, in both languages, and no clock runs any more."""
    started(svc)
    assert "hx.status.repetition" not in keys(svc.handle(ANN, "game status", {}))
    shuffle = ((ANN, "rotate G3 NE"), (BOB, "rotate G12 NW"), (ANN, "rotate G3 E"), (BOB, "rotate G12 W"))
    for ctx, text in shuffle:
        assert svc.handle(ctx, "hx order", {"text": text}).ok
    assert "hx.status.repetition" in keys(svc.handle(ANN, "game status", {}))
    for ctx, text in shuffle[:-1]:
        assert svc.handle(ctx, "hx order", {"text": text}).ok
    ctx, text = shuffle[-1]
    last = svc.handle(ctx, "hx order", {"text": text})
    assert "event.hexarena.game_over" in keys(last) and "game.over.draw" in keys(last) and last.files
    shown = texts(last)
    assert any("a draw (the same position stood for the third time with the same side to move)" in line
               for line in shown), shown
    assert any("partie nulle (la même position s’est présentée pour la troisième fois" in line for line in shown)
    assert game(svc).status == "finished"
    assert RULES.result(RULES.from_json(game(svc).state)).reason == "repetition"
    assert [t for t in game_timers(svc.store, game(svc).id) if t.kind in ("clock", "clock_half")] == []


def test_a_second_action_of_one_ship_names_the_ship() -> None:
    """Issue 26 point 7: "Already used this turn" did not say which ship (Alpha, Omega: HA-16, HA-17)."""
    with pytest.raises(OrderError) as caught:
        Alpha().admit(Alpha().pay(Alpha().new_budget(), "red_fighter2", 0), "red_fighter2")
    reply = order_refusal(caught.value, presenter_for("hexarena").refusal_params)
    said = {lang: translate(reply.messages[0].key, lang, reply.messages[0].params) for lang in LANGUAGES}
    assert said["en"] == "Red fighter 2 has already acted this turn: each ship acts once a turn."
    assert said["fr"].startswith("Chasseur rouge 2 a déjà agi pendant ce tour")


def test_a_cell_is_read_whatever_its_spacing(svc: GameService) -> None:
    """HA-1: `G7`, `g7` and `G 7` are the same cell; an option typed `G 3` was refused."""
    started(svc)
    played = svc.handle(ANN, "hx move", {"cell": "g 3", "to": "G 10"})
    assert played.ok, played.messages
    assert any("Red fighter 2 moves G3 → G10" in line for line in texts(played))
    before = game(svc)
    refused = svc.handle(BOB, "hx move", {"cell": "G;2", "to": "G10"})  # a cell option holds a cell only
    assert not refused.ok and keys(refused) == ["error.option_not_cell"]
    assert game(svc).version == before.version


def test_a_targets_suggestions_are_those_of_the_ship_cell_names(svc: GameService) -> None:
    """Issue 26 point 6: `/hx move to:` offered the whole fleet's 17 cells whatever ship `cell:` named."""
    started(svc)
    fleet = svc.complete(ANN, "hx move", "to", "")
    assert svc.complete(ANN, "hx move", "to", "", {"cell": "G3"}) == ["G4", "G5", "G6", "G7", "G8", "G9", "G10"]
    assert svc.complete(ANN, "hx move", "to", "", {"cell": "g 3"}) == ["G4", "G5", "G6", "G7", "G8", "G9", "G10"]
    assert set(svc.complete(ANN, "hx move", "to", "", {"cell": "F1"})) < set(fleet)
    assert svc.complete(ANN, "hx move", "to", "", {"cell": "G1"}) == []  # the boxed-in admiral
    assert "E" not in svc.complete(ANN, "hx rotate", "direction", "", {"cell": "G3"})  # it faces E already
