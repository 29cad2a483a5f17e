"""What a Space Chess board says comes next: the next draw, or none for a game whose draws its game
masters type (they come whenever they do), and the time limit's progress (SC-31), as the turn post's
board and the status header say them."""

from __future__ import annotations

import datetime as dt

from bot.i18n import translate
from bot.lottery.apply import DrawApplier
from bot.lottery.driver import LOTTERY
from bot.service import GameService
from bot.service.status import status_messages
from bot.store import Store
from bot.store.draws import save_draws
from renders.common import recording_text
from tests.bot.draws.games import RecordingHooks, draw, make_running_game


def posted_board_words(store: Store, service: GameService, **options: object) -> str:
    """Every word drawn on the board of the first draw's turn post in a game of these options."""
    make_running_game(store, options=dict(options))
    save_draws(store, [draw("2024-03-06", (3, 12, 19, 33, 45))])
    hooks = RecordingHooks()
    with recording_text() as texts:
        DrawApplier(service, hooks=hooks).apply_all()
    assert hooks.posts and hooks.posts[0][1].files
    return " ".join(texts)  # a caption line wrapped in two reads on


def test_a_timed_games_board_counts_the_draws_towards_its_limit(store: Store, service: GameService) -> None:
    """The post made before its draw is committed says the draw it brings: 1 of 3, not 0 of 3."""
    words = posted_board_words(store, service, limit_draws=3)
    assert "limite de temps : 1 tirage joué sur 3" in words  # the server's language: French
    assert "Prochain tirage :" in words


def test_a_game_with_an_end_date_says_which_draw_ends_it(store: Store, service: GameService) -> None:
    words = posted_board_words(store, service, end_date="2024-03-20")
    assert "limite de temps : le premier tirage à partir du mercredi 20 mars 2024 termine la partie" in words


def test_a_manual_games_board_gives_no_next_draw_time(store: Store, service: GameService) -> None:
    """Its draws are typed by the game masters: the board says so, with no time (and no "Next draw")."""
    game = make_running_game(store, options={"draws": "manual", "limit_draws": 5})
    now = dt.datetime(2024, 3, 7, 12, tzinfo=dt.UTC)
    moment = LOTTERY.next_moment(service, game, now)
    assert moment is not None and moment.key == "sc.next.limited"
    assert moment.params["next"].key == "sc.next.manual"
    [header, *_] = status_messages(service, game, now)
    text = translate(header.key, "fr", header.params)
    assert "prochain tirage" not in text and "tirages saisis par les maîtres du jeu" in text
    assert "limite de temps : 0 tirage joué sur 5" in text


def test_a_game_with_both_limits_says_them_in_one_line(store: Store, service: GameService) -> None:
    game = make_running_game(store, options={"limit_draws": 4, "end_date": "2024-03-20"})
    [header, *_] = status_messages(service, game, dt.datetime(2024, 3, 7, 12, tzinfo=dt.UTC))
    assert translate(header.key, "en", header.params).endswith(
        " · time limit: 0 of 4 draws played, or the first draw from Wednesday 20 March 2024")
