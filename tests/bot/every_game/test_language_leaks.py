"""Issue 24, point 6: every demo and a scripted session of usual mistakes, played in French, hold no
English word — in the replies nor in the text drawn in their images — and the same played in
English holds no French word (`leaks.py` says how words are told apart, with Debian's word lists).

Other fixes of the issue are landing: the check that nothing leaks is an expected failure until the
table of ``python scripts/language_leaks.py`` is empty; the checks of the check itself hold now.
"""

from __future__ import annotations

import pytest

from tests.bot.every_game import leaks


@pytest.fixture(scope="module", autouse=True)
def word_lists() -> None:
    """Missing lists fail the run in CI (which installs them: .ci/run) and skip it loudly elsewhere."""
    verdict = leaks.without_lists()
    if verdict is not None:
        action, reason = verdict
        (pytest.fail if action == "fail" else pytest.skip)(reason)


@pytest.fixture(scope="module", params=["fr", "en"])
def played(request: pytest.FixtureRequest) -> list[leaks.Played]:
    return leaks.play_all(request.param)


def test_no_word_of_the_other_language(played: list[leaks.Played]) -> None:
    found = {f"{one.source} {kind}": dict(words) for one in played for kind, words in one.leaks().items() if words}
    assert not found, leaks.table(played)


def test_every_demo_and_the_session_are_played_and_their_images_read(played: list[leaks.Played]) -> None:
    assert [one.source for one in played][:-1] == [f"demo {game}" for game in leaks.shipped_demos()]
    for one in played:
        assert one.output.count("🖼") >= 3, one.source  # images were made…
        assert len(one.drawn) > 50, one.source  # …and their words recorded
    session = played[-1]
    assert session.output.count("\n! ") >= 30  # the usual mistakes are made, and refused


@pytest.mark.parametrize(("text", "language", "leaked"), [
    ("Rouge doit jouer avant demain.", "fr", {}),
    ("Red to move — tour 3", "fr", {"red": 1, "to": 1, "move": 1}),
    ("Export d’Arkeon : rangées de déploiement, équip…", "fr", {}),
    ("The arena opens: id Ann, at A1, facing NW, turns 9.", "en", {}),
    ("Les joueurs reçoivent : turns 9", "en", {"joueurs": 1, "reçoivent": 1}),
    ("  🖼 out/1-orion/20250301/0001-board.png", "fr", {}),  # a file path is nobody's sentence
    ("@gm rejoint #general", "fr", {}),  # members and channels as the console names them
    ("/sc tirer cible:Bob", "fr", {}),  # the group is the same word in both languages
    ("/gm resume", "fr", {"gm": 1, "resume": 1}),  # a command not in the reader's language
])
def test_words_of_the_other_language_are_counted(text: str, language: str, leaked: dict[str, int]) -> None:
    if leaks.missing_lists():
        pytest.skip("no word lists")
    assert dict(leaks.leaked_words(text, language)) == leaked


def test_the_names_players_typed_are_theirs() -> None:
    names = leaks.typed_names(['as ann /sc rejoindre nom:Ann', '/sb new name:"Red Nebula"', "/hx join name:'Bo'"])
    assert names == {"Ann", "Red", "Nebula", "Bo"}
    assert dict(leaks.leaked_words("Red Nebula — Re… — tour 3", "fr", names)) == {}  # a tag cut from a name too


def test_missing_lists_fail_in_ci_and_skip_elsewhere(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(leaks.LISTS, "fr", tmp_path / "french")
    assert leaks.without_lists({"CI": "true"}) == ("fail", leaks.without_lists({})[1])
    action, reason = leaks.without_lists({})
    assert action == "skip" and "french" in reason and "apt-get install wamerican wfrench" in reason
