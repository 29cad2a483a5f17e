"""Issue 9, draws: a draw from the future is refused everywhere it can come in (nothing stored), a game
master's entry belongs to the game it was typed for, and a second value for a stored draw is reported
while the stored one is kept."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.cli import main
from bot.lottery.apply import DrawApplier
from bot.lottery.commands import check_evening
from bot.service import Context, GameService
from bot.service.replies import ServiceError
from bot.store import Store
from bot.store.draws import applied_evenings, save_draws, stored_draws
from draws import FDJ_LOTO, FutureDrawError
from tests.bot.draws.games import GUILD, draw, make_running_game
from tests.bot.draws.test_cli import database, stored  # noqa: F401 — the CLI tests' database fixture
from tests.bot.draws.test_poll_and_scheduler import ListSource, poller
from tests.e2e.fdj_file import FdjFile

GM = Context(user_id=42, user_name="gm", guild_id=GUILD, channel_id=1, manage_server=True)
#: a day after today wherever the draw calendar is (Paris is up to 2 h ahead of UTC: just after
#: midnight UTC, tomorrow in UTC is already today there)
TOMORROW = dt.date.today() + dt.timedelta(days=2)


def confirm(service: GameService, ctx: Context, **options: object) -> object:
    ask = service.handle(ctx, "gm draw", options)
    assert ask.ok and ask.buttons, ask.messages
    return service.handle(ctx, ask.buttons[0].command, dict(ask.buttons[0].options))


# -- 2. draws from the future ------------------------------------------------------------------------

def test_storing_a_draw_dated_after_now_stores_nothing(store: Store) -> None:
    with pytest.raises(FutureDrawError) as refused:
        save_draws(store, [draw("2024-03-06"), draw(TOMORROW.isoformat())])
    assert refused.value.params["date"] == TOMORROW.isoformat()
    assert stored_draws(store) == []


def test_a_draw_is_refused_until_its_results_are_out_the_same_evening(store: Store) -> None:
    evening = dt.date(2024, 3, 6)
    draw_time = FDJ_LOTO.at(evening)
    with pytest.raises(FutureDrawError):
        save_draws(store, [draw("2024-03-06")], now=draw_time - dt.timedelta(minutes=1))
    assert save_draws(store, [draw("2024-03-06")], now=draw_time).new == 1


def test_a_fetch_answering_a_future_draw_is_refused_whole_and_real_draws_still_apply(store: Store) -> None:
    """One bad row used to be stored, applied at once, and then froze every game before its date."""
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    report = poller(store, ListSource([draw("2024-03-09"), draw(TOMORROW.isoformat())])).poll()
    assert report.error is not None and report.error.code == "future_draw"
    assert [d.date.isoformat() for d in stored_draws(store)] == ["2024-03-06"]
    assert [d.isoformat() for d, _ in applied_evenings(store, game.id)] == ["2024-03-06"]


def test_cli_import_of_a_file_with_a_future_row_imports_nothing(database: str, tmp_path: Path,  # noqa: F811
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    fdj = FdjFile(tmp_path / "loto.csv")
    fdj.create()
    fdj.publish(TOMORROW, template=1)
    assert main(["draws", "import", str(fdj.path)]) == 1
    err = capsys.readouterr().err
    assert f"the draw of {TOMORROW.isoformat()} is in the future" in err and "nothing was stored" in err
    assert stored(database) == []


def test_gm_draw_refuses_the_evening_before_its_draw_time_a_non_draw_day_and_before_the_game(
        store: Store, service: GameService) -> None:
    game = make_running_game(store)
    evening = dt.date(2024, 3, 6)
    with pytest.raises(ServiceError) as early:
        check_evening(service, game, FDJ_LOTO, evening, FDJ_LOTO.at(evening) - dt.timedelta(minutes=5))
    assert early.value.key == "error.draw_not_yet"
    check_evening(service, game, FDJ_LOTO, evening, FDJ_LOTO.at(evening))  # at the draw time: accepted
    before = (store.get_game(game.id), stored_draws(store))
    for day, key in (("1900-01-01", "error.draw_before_loto"), ("2024-03-05", "error.draw_not_a_draw_day"),
                     ("2024-03-02", "error.draw_before_start"), (TOMORROW.isoformat(), "error.draw_in_future")):
        reply = service.handle(GM, "gm draw", {"numbers": "1 2 3 4 5", "date": day})
        assert [m.key for m in reply.messages] == [key], day
    assert (store.get_game(game.id), stored_draws(store)) == before


# -- 3. a game master's entry belongs to their game ------------------------------------------------

def test_two_servers_enter_different_numbers_for_the_same_evening(store: Store, service: GameService) -> None:
    first = make_running_game(store, 1)
    second = make_running_game(store, 2, guild_id=GUILD + 1)
    other_gm = Context(user_id=43, user_name="gm2", guild_id=GUILD + 1, channel_id=2, manage_server=True)
    assert confirm(service, GM, numbers="1 2 3 4 5", date="2024-03-06").ok
    assert confirm(service, other_gm, numbers="10 20 30 40 45", date="2024-03-06").ok
    numbers = {game.id: [e.payload["numbers"] for e in store.log(game.id) if e.kind == "draw"]
               for game in (first, second)}
    assert numbers == {first.id: [[1, 2, 3, 4, 5]], second.id: [[10, 20, 30, 40, 45]]}
    assert sorted(d.source for d in stored_draws(store)) == [f"manual:{first.id}", f"manual:{second.id}"]
    # neither entry stands in for FDJ's draw of a third game
    third = make_running_game(store, 3)
    save_draws(store, [draw("2024-03-06")])
    DrawApplier(service).apply_all()
    assert [e.payload["numbers"] for e in store.log(third.id) if e.kind == "draw"] == [[3, 12, 19, 33, 45]]


# -- 4. conflicting values -------------------------------------------------------------------------

def test_a_second_value_for_a_stored_draw_is_reported_and_the_stored_one_kept(store: Store) -> None:
    kept = draw("2024-03-06", (3, 12, 19, 33, 45))
    save_draws(store, [kept])
    offered = draw("2024-03-06", (4, 12, 19, 33, 45))
    report = save_draws(store, [offered, draw("2024-03-09")])
    assert report.new == 1
    assert [(c.stored, c.offered) for c in report.conflicts] == [(kept, offered)]
    assert stored_draws(store)[0] == kept


def test_cli_import_reports_both_values_of_a_conflict(database: str, tmp_path: Path,  # noqa: F811
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    evening = dt.date(2024, 3, 6)
    fdj = FdjFile(tmp_path / "a.csv")
    first = fdj.extract(tmp_path / "first.csv", evening, template=1)
    second = fdj.extract(tmp_path / "second.csv", evening, template=2)
    assert first.numbers != second.numbers
    assert main(["draws", "import", str(tmp_path / "first.csv")]) == 0
    capsys.readouterr()
    assert main(["draws", "import", str(tmp_path / "second.csv")]) == 1
    err = capsys.readouterr().err
    assert "conflict for the draw of 2024-03-06" in err
    assert " ".join(map(str, first.numbers)) in err and " ".join(map(str, second.numbers)) in err
    assert [d.numbers for d in stored(database)] == [first.numbers]


def test_gm_draw_waits_for_the_start(store: Store, service: GameService) -> None:
    from bot.i18n import translate

    game = make_running_game(store)
    store.commit(game.id, game.version, state=game.state, status="setup", entries=[])
    reply = service.handle(GM, "gm draw", {"numbers": "1 2 3 4 5", "date": "2024-03-06"})
    assert [m.key for m in reply.messages] == ["error.not_running"]
    assert "setup" not in translate(reply.messages[0].key, "en", reply.messages[0].params)
    assert stored_draws(store) == []


def test_a_game_masters_entry_whose_application_was_deferred_is_applied_by_the_next_poll(
        store: Store, service: GameService) -> None:
    """The entry is stored for its game before it is applied: a busy game that made the click answer
    "conflict" still gets it at the next poll, and no other game ever does."""
    game = make_running_game(store, 1)
    other = make_running_game(store, 2)
    save_draws(store, [draw("2024-03-06", (1, 2, 3, 4, 5), source=f"manual:{game.id}", chance=None)])
    posts = DrawApplier(service).apply_all()
    assert [(p.game.id, p.draw.numbers) for p in posts] == [(game.id, (1, 2, 3, 4, 5))]
    assert applied_evenings(store, other.id) == []
