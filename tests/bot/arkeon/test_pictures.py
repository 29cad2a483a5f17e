"""Arkeon's pictures tell the last move (issue 27): a repulsor's pushes (a base too) arrowed on the
pieces they moved, the piece it cost ghosted where it stood, the move said under the board in the
channel's language; `/game board` draws the same from the history."""

from __future__ import annotations

import io

from PIL import Image

from bot.games import presenter_for
from bot.i18n import translate
from bot.service.replaying import Step
from bot.service.scene import Scene
from engine.arkeon import ARKEON
from renders import common
from renders.arkeon import layout_for
from renders.hexboard import HIGHLIGHT, SIDE_COLOURS

#: AK-8's scenario: Blue's repulsor on C4 pushes both bases and a piece each way, then falls, cut off
SETUP = {"to_move": "blue", "pieces": [
    {"side": "blue", "kind": "base", "at": "C2"}, {"side": "blue", "kind": "basic", "at": "C3", "facing": "E"},
    {"side": "blue", "kind": "basic", "at": "B2", "facing": "NE"}, {"side": "red", "kind": "base", "at": "C6"},
    {"side": "red", "kind": "basic", "at": "C5", "facing": "W"}, {"side": "red", "kind": "basic", "at": "B5", "facing": "NW"},
    {"side": "red", "kind": "basic", "at": "E4", "facing": "E"}, {"side": "red", "kind": "basic", "at": "D5", "facing": "SW"},
]}  # fmt: skip


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def pushed():
    outcome = ARKEON.apply_input(ARKEON.setup(SETUP, 1), "order", "blue", {"text": "place repulsor C4"})
    return outcome.state, outcome.events


def colours_near(image: Image.Image, cell: str, reach: float = 0.6) -> set[tuple[int, int, int]]:
    layout = layout_for()
    x, y = layout.centre(cell)
    half = int(layout.hex_size * reach)
    return {colour for _, colour in image.crop((x - half, y - half, x + half, y + half)).getcolors(1 << 16)}


def test_the_move_post_draws_the_pushes_and_the_fallen_repulsor_and_says_them_in_french() -> None:
    state, events = pushed()
    with common.recording_text() as drawn:
        files = presenter_for("arkeon").images_for(ARKEON, state, events, Scene("Duel", "fr"))
    image = decode(files[0].data)
    layout = layout_for()
    for cell in ("C1", "C2", "C3", "C5", "C6", "C7"):  # both ends of every push, the bases' included
        assert HIGHLIGHT in colours_near(image, cell), cell
    between = ((3 * layout.centre("C6")[0] + layout.centre("C7")[0]) // 4, layout.centre("C6")[1])
    assert image.getpixel(between) == common.BLACK  # the red base's push, arrowed
    assert SIDE_COLOURS["blue"] in colours_near(image, "C4", 0.3)  # the repulsor's ghost where it stood
    told = " ".join(text for text in drawn if "répulseur" in text or "base" in text or "→" in text)
    for words in ("Dernier coup : Bleu pose un répulseur en C4.", "repousse la base de Rouge : C6 → C7.",
                  "Bleu perd le répulseur en C4"):
        assert words in told, words


def test_game_board_draws_the_last_move_from_the_history() -> None:
    state, events = pushed()
    history = (Step(1, "order", "blue", tuple(events), state),)
    presenter = presenter_for("arkeon")
    with_history = decode(presenter.board_for(ARKEON, state, Scene("Duel", "en", history=lambda: history))[0].data)
    posted = decode(presenter.images_for(ARKEON, state, events, Scene("Duel", "en"))[0].data)
    assert with_history.tobytes() == posted.tobytes()
    board = presenter.board_for(ARKEON, state, Scene("Duel", "en", history=lambda: history))[0]
    assert "pushes the base of Red: C6 → C7" in translate(board.description.key, "en", board.description.params)
    bare = decode(presenter.board_for(ARKEON, state, Scene("Duel", "en"))[0].data)
    assert HIGHLIGHT not in colours_near(bare, "C7")


def test_a_turn_and_an_attack_are_drawn_by_their_marks() -> None:
    from bot.games.arkeon import last_marks
    from engine.core.protocol import Event
    from renders.hexmarks import GHOST, SHOT, TURN, Mark

    events = [Event("swapped", {"side": "blue", "at": "E5", "from": "basic", "to": "ccw", "facing": None}),
              Event("turned", {"side": "red", "kind": "basic", "at": "D6", "from": "NE", "to": "NW", "by": "ccw",
                               "source": "E5"}),
              Event("destroyed", {"side": "red", "kind": "cw", "at": "E4", "cause": "attack", "by": ["E3", "D4"]})]
    assert last_marks(events) == (["E5"], [
        Mark(TURN, ("D6",), side="red", piece="basic", facings=("NE", "NW")),
        Mark(SHOT, ("E3", "E4")), Mark(SHOT, ("D4", "E4")), Mark(GHOST, ("E4",), side="red", piece="cw")])


def test_the_winning_attack_on_a_base_is_drawn_and_told_whose_base_where_and_from_where() -> None:
    """AK-15: the destroyed base stays in the view; the board marks the attack on it (a tracer and
    an impact, both cells outlined) and the caption says whose base, where, attacked from where."""
    setup = {"to_move": "blue", "pieces": [
        {"side": "blue", "kind": "base", "at": "C2"}, {"side": "blue", "kind": "basic", "at": "C3", "facing": "NE"},
        {"side": "blue", "kind": "basic", "at": "C4", "facing": "NE"}, {"side": "red", "kind": "base", "at": "C6"},
        {"side": "red", "kind": "basic", "at": "D6", "facing": "SE"}]}  # fmt: skip
    outcome = ARKEON.apply_input(ARKEON.setup(setup, 1), "order", "blue", {"text": "place basic C5 E"})
    with common.recording_text() as drawn:
        files = presenter_for("arkeon").images_for(ARKEON, outcome.state, outcome.events, Scene("Duel", "fr"))
    image = decode(files[0].data)
    assert HIGHLIGHT in colours_near(image, "C6")  # the base's cell is outlined with the attacker's
    assert common.YELLOW in colours_near(image, "C6", 0.45)  # the impact on the base
    told = " ".join(drawn)
    assert "Dernier coup : Bleu pose un pion basique en C5 (vers E)." in told
    assert "victoire de Bleu (base de Rouge en C6 détruite, attaquée depuis C5)" in told
