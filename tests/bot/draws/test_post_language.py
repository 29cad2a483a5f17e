"""A draw's post speaks one language, its pictures included: the board of a turn post is drawn in
the language its text is read in — the server's when it is sent, the console's under `--lang`, the
answer's for `/gm draw` — never in the language of the moment the draw was applied."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from bot.i18n import alt_text, format_day, format_moment, translate
from bot.lottery.apply import DrawApplier
from bot.outbox import decode_reply
from bot.service import Context, GameService
from bot.store import Store
from bot.store.draws import save_draws
from bot.store.outbox import unsent
from tests.bot.draws.games import GUILD, RecordingHooks, draw, make_running_game


@dataclass
class ReadingHooks(RecordingHooks):
    """Hooks that show posts in one language, as the console does under `--lang`."""

    language: str = "en"


def words_of(texts: list[str]) -> str:
    return " | ".join(texts)


def test_an_outboxed_board_is_drawn_in_the_language_the_post_is_sent_in(store: Store, service: GameService,
                                                                        drawn: list[str]) -> None:
    make_running_game(store)  # the server speaks French (the default)
    save_draws(store, [draw("2024-03-06", (3, 12, 19, 33, 45))])
    undelivered = type("Undelivered", (), {"outbox_ready": lambda self: None})()
    DrawApplier(service, hooks=undelivered).apply_all()
    [row] = unsent(store)
    assert row.payload["drawing"]["language"] == "fr"
    for language, legend, next_draw, other in (("en", "Map key", "Next draw: ", "Légende"),
                                              ("fr", "Légende", "Prochain tirage : ", "Map key")):
        drawn.clear()
        [board] = decode_reply(row.payload, language).files
        assert board.data.startswith(b"\x89PNG")
        said = words_of(drawn)
        assert legend in said and next_draw in said and other not in said, said
        # its alt text, drawn with it, says the next draw in the same language
        assert next_draw in alt_text(board.description, language), alt_text(board.description, language)


def test_the_console_shows_a_post_and_its_board_in_its_own_language(store: Store, service: GameService,
                                                                    drawn: list[str]) -> None:
    make_running_game(store)
    save_draws(store, [draw("2024-03-06", (3, 12, 19, 33, 45))])
    hooks = ReadingHooks(language="en")
    DrawApplier(service, hooks=hooks).apply_all()
    [(_, delivered)] = hooks.posts
    assert delivered.files
    said = words_of(drawn)
    assert "Map key" in said and "Turn 1 (draws applied: 1)" in said
    assert "Légende" not in said and "Tour " not in said and "Prochain" not in said


def test_gm_draw_answers_with_a_board_in_the_answers_language(store: Store, service: GameService,
                                                              drawn: list[str]) -> None:
    game = make_running_game(store, options={"draws": "manual"})
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=game.channel_id, manage_server=True,
                 locale="en-US")
    ask = service.handle(gm, "gm draw", {"numbers": "3 12 19 33 45", "date": "2024-03-06"})
    assert ask.ok and ask.buttons
    assert translate(ask.messages[0].key, "fr", ask.messages[0].params).count("mercredi 6 mars 2024") == 1
    drawn.clear()
    done = service.handle(gm, ask.buttons[0].command, dict(ask.buttons[0].options))
    assert done.ok and done.files
    said = words_of(drawn)
    assert "Map key" in said and "Légende" not in said, said


@pytest.mark.parametrize(("language", "day", "moment"), [
    ("fr", "samedi 1er mars 2025", "mercredi 2 décembre 2026 à 20 h 35"),
    ("en", "Saturday 1 March 2025", "Wednesday 2 December 2026, 8:35 pm"),
])
def test_draw_days_and_times_as_readers_write_them_in_paris_time(language: str, day: str, moment: str) -> None:
    """FDJ draws at 20:35 Paris time: 19:35 UTC in winter, 18:35 UTC in summer."""
    assert format_day(dt.date(2025, 3, 1), language) == day
    assert format_moment(dt.datetime(2026, 12, 2, 19, 35, tzinfo=dt.UTC), language) == moment
    assert "20 h 35" in format_moment(dt.datetime(2026, 6, 3, 18, 35), "fr")  # naive: UTC
