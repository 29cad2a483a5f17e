"""`/gm draw`: a game master enters a draw by hand, confirmed by a button, applied through the same
exactly-once path (SC-13 numbers and complementary); every refusal leaves the store unchanged."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.i18n import Day, translate
from bot.service import Context, GameService, Reply, Visibility
from bot.store import NewEntry, Store
from bot.store.draws import applied_evenings, save_draws, stored_draws
from tests.bot.draws.games import GUILD, draw, make_running_game

GM = Context(user_id=42, user_name="gm", guild_id=GUILD, channel_id=1, manage_server=True)
PLAYER = Context(user_id=1001, user_name="alice", guild_id=GUILD, channel_id=1)


def snapshot(store: Store, game_id: int) -> tuple[Any, ...]:
    return (store.get_game(game_id), store.log(game_id), stored_draws(store), applied_evenings(store, game_id))


def confirmed(service: GameService, ctx: Context, **options: Any) -> Reply:
    """Run the command, then click its confirmation button."""
    ask = service.handle(ctx, "gm draw", options)
    assert ask.ok and ask.buttons, ask.messages
    [button] = ask.buttons
    return service.handle(ctx, button.command, dict(button.options))


def test_entry_is_confirmed_then_applied_like_a_polled_draw(store: Store, service: GameService) -> None:
    """SC-13: the typed numbers and complementary (an old Loto evening's) are the game's numbers and bonus."""
    game = make_running_game(store, options={"draws": "manual"})
    before = snapshot(store, game.id)
    ask = service.handle(GM, "gm draw", {"numbers": "3, 12 19;33 45 7", "bonus": 8, "date": "2008-10-04"})
    assert ask.visibility is Visibility.PRIVATE and ask.messages[0].key == "gm.draw.confirm"
    assert ask.messages[0].params == {"name": game.name, "date": Day(dt.date(2008, 10, 4)),
                                      "numbers": "3 12 19 33 45 7",
                                      "bonus": 8}
    [button] = ask.buttons
    assert dict(button.options) == {"numbers": "3 12 19 33 45 7", "bonus": 8, "date": "2008-10-04",
                                    "confirm": game.version}
    assert snapshot(store, game.id) == before  # asking changes nothing
    done = service.handle(GM, button.command, dict(button.options))
    assert done.ok, done.messages
    assert [m.key for m in done.messages[:4]] == ["gm.draw.done", "turn.title", "turn.draw_bonus", "turn.manual"]
    assert done.files[0].filename == "board.png"
    [entry] = [e for e in store.log(game.id) if e.kind == "draw"]
    assert (entry.user_id, entry.payload["numbers"], entry.payload["bonus"]) == (42, [3, 12, 19, 33, 45, 7], 8)
    assert [(d.source, d.complementary) for d in stored_draws(store)] == [(f"manual:{game.id}", 8)]


def test_an_entry_is_out_when_the_bots_clock_says_so(store: Store) -> None:
    """The evening's results are out by the bot's clock (the service's, as every other check of the
    command reads it), not by the machine's: an entry for tonight on a clock ahead of it is stored."""
    evening = dt.datetime(2099, 3, 2, 21, 0, tzinfo=dt.UTC)  # a Monday, its results out at 19:35 UTC
    service = GameService(store, clock=lambda: evening)
    game = make_running_game(store, options={"draws": "manual"})
    assert confirmed(service, GM, numbers="3 12 19 33 45", date="2099-03-02").ok
    assert applied_evenings(store, game.id) == [(dt.date(2099, 3, 2), 1)]


def test_an_entry_equal_to_the_stored_fdj_draw_applies_that_draw(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    assert confirmed(service, GM, numbers="3 12 19 33 45", date="2024-03-06").ok
    assert [d.source for d in stored_draws(store)] == ["fdj"]
    assert applied_evenings(store, game.id)[-1][0].isoformat() == "2024-03-06"


def test_earlier_pending_draws_are_applied_first(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    reply = confirmed(service, GM, numbers="1 2 3 4 5", date="2024-03-09")
    assert [m.params["date"] for m in reply.messages if m.key == "turn.draw"] == [
        Day(dt.date(2024, 3, 6)), Day(dt.date(2024, 3, 9))]
    assert [e.payload["draw"]["date"] for e in store.log(game.id) if e.kind == "draw"] == ["2024-03-06",
                                                                                            "2024-03-09"]


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"numbers": "3 x 19 33 45"}, "error.draw_bad_numbers"),
        ({"numbers": "3 12 19 33 45", "date": "06/03/2024"}, "error.draw_bad_date"),
        ({"numbers": "3 12 19 33 45", "date": "2999-01-01"}, "error.draw_in_future"),
        ({"numbers": "3 3 19 33 45", "date": "2024-03-06"}, "error.draw_invalid"),
        ({"numbers": "3 12 19", "date": "2024-03-06"}, "error.draw_invalid"),
        ({"numbers": "3 12 19 33 50", "date": "2024-03-06"}, "error.draw_invalid"),
        ({"numbers": "3 12 19 33 45 6", "bonus": 12, "date": "2008-10-04"}, "error.draw_invalid"),
        ({"numbers": "3 12 19 33 45", "bonus": 50, "date": "2024-03-06"}, "error.option_out_of_bounds"),
    ],
)
def test_bad_entries_are_refused_precisely_and_change_nothing(store: Store, service: GameService,
                                                              options: dict[str, Any], key: str) -> None:
    game = make_running_game(store)
    before = snapshot(store, game.id)
    for with_confirm in (options, {**options, "confirm": game.version}):
        reply = service.handle(GM, "gm draw", with_confirm)
        assert (reply.ok, reply.messages[0].key) == (False, key)
    assert snapshot(store, game.id) == before


def test_an_evening_already_applied_later_or_known_otherwise_is_refused(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-09"), draw("2024-03-11", (1, 2, 3, 4, 5), source=f"manual:{game.id}")])
    assert confirmed(service, GM, numbers="7 8 9 10 11", date="2024-03-09").ok is False  # differs from FDJ's
    refusals = {
        "2024-03-09": ("7 8 9 10 11", "error.draw_differs"),
        "2024-03-11": ("6 7 8 9 10", "error.draw_differs"),  # this game's earlier entry for that evening
    }
    for day, (numbers, key) in refusals.items():
        before = snapshot(store, game.id)
        reply = service.handle(GM, "gm draw", {"numbers": numbers, "date": day, "confirm": game.version})
        assert (reply.ok, reply.messages[0].key) == (False, key)
        assert snapshot(store, game.id) == before
    assert confirmed(service, GM, numbers="1 2 3 4 5", date="2024-03-11").ok  # the same entry: applied
    game = store.get_game(game.id)
    assert game is not None
    before = snapshot(store, game.id)
    for day, key in (("2024-03-11", "error.draw_already_applied"), ("2024-03-06", "error.draw_out_of_order")):
        reply = service.handle(GM, "gm draw", {"numbers": "1 2 3 4 5", "date": day})
        assert (reply.ok, reply.messages[0].key) == (False, key)
    assert snapshot(store, game.id) == before


def test_only_gms_on_a_running_game_with_a_fresh_confirmation(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    options = {"numbers": "3 12 19 33 45", "date": "2024-03-06"}
    assert service.handle(PLAYER, "gm draw", options).messages[0].key == "error.gm_only"
    ask = service.handle(GM, "gm draw", options)
    store.commit(game.id, game.version, state=game.state, entries=[NewEntry("note", None, 1, {})])
    before = snapshot(store, game.id)
    stale = service.handle(GM, "gm draw", dict(ask.buttons[0].options))
    assert (stale.ok, stale.messages[0].key) == (False, "error.stale_confirmation")
    assert snapshot(store, game.id) == before
    game = store.get_game(game.id)
    assert game is not None
    game = store.commit(game.id, game.version, state=game.state, status="paused",
                        entries=[NewEntry("pause", None, 42, {})])
    before = snapshot(store, game.id)
    paused = service.handle(GM, "gm draw", {**options, "confirm": game.version})
    assert (paused.ok, paused.messages[0].key) == (False, "error.game_paused")
    assert snapshot(store, game.id) == before


# -- issue 23.3: the Loto of the entry's date (SC-13 D) ----------------------------------------------

def refusal_text(reply: Reply) -> dict[str, str]:
    assert not reply.ok and reply.messages[0].key == "error.draw_invalid", reply.messages
    return {lang: translate(reply.messages[0].key, lang, reply.messages[0].params) for lang in ("en", "fr")}


@pytest.mark.parametrize(("options", "reason"), [
    # today's Loto has no complementary number: its chance number (1-10) must not count as one
    ({"numbers": "20 15 13 24 45", "bonus": 7, "date": "2024-03-06"}, ("chance number", "numéro chance")),
    ({"numbers": "20 15 13 24 45 6", "date": "2024-03-06"}, ("6 numbers", "6 numéros")),
    ({"numbers": "20 15 13 24 45 6", "bonus": 7, "date": "2024-03-06"}, ("6 numbers", "6 numéros")),
])
def test_a_new_loto_date_takes_five_numbers_and_no_complementary(store: Store, service: GameService,
                                                                 options: dict[str, Any],
                                                                 reason: tuple[str, str]) -> None:
    game = make_running_game(store)
    before = snapshot(store, game.id)
    for with_confirm in (options, {**options, "confirm": game.version}):
        text = refusal_text(service.handle(GM, "gm draw", with_confirm))
        assert reason[0] in text["en"] and reason[1] in text["fr"], text
        assert "On Wednesday 6 March 2024 the Loto drew 5 numbers" in text["en"], text
        assert "Le mercredi 6 mars 2024, le Loto tirait 5 numéros" in text["fr"], text
    assert snapshot(store, game.id) == before


def test_an_old_loto_date_takes_six_numbers_and_the_complementary(store: Store, service: GameService) -> None:
    game = make_running_game(store, options={"draws": "manual"})
    before = snapshot(store, game.id)
    for options in ({"numbers": "3 12 19 33 45", "bonus": 7, "date": "2008-10-04"},
                    {"numbers": "3 12 19 33 45 6", "date": "2008-10-04"}):
        text = refusal_text(service.handle(GM, "gm draw", options))
        assert "On Saturday 4 October 2008 the Loto drew 6 numbers from 1 to 49 and a complementary number" in \
            text["en"], text
        assert "Le samedi 4 octobre 2008, le Loto tirait 6 numéros de 1 à 49 et un numéro complémentaire" in \
            text["fr"], text
    assert snapshot(store, game.id) == before
    done = confirmed(service, GM, numbers="3 12 19 33 45 6", bonus=8, date="2008-10-04")
    assert done.ok, done.messages
    assert [(d.numbers, d.complementary) for d in stored_draws(store)] == [((3, 12, 19, 33, 45, 6), 8)]
    assert confirmed(service, GM, numbers="3 12 19 33 45", date="2008-10-06").ok  # the first new Loto
