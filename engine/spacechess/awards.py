"""Action points from a lottery draw: SC-11..SC-16.

The award is computed per character in the order SC-14 fixes (cards, grade, encouragement,
hacking, floor at 0, cap) and returned as a breakdown, because players ask "why do I have 3 AP?"
and the answer must be the engine's own arithmetic, not a re-derivation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError
from engine.spacechess.ruleset import CARD_SIZE
from engine.spacechess.state import Character, GameState

LOTTERY_MAX = 49
#: FDJ Loto draws 6 main numbers (until 2008) or 5 (since).
MAIN_COUNTS = (5, 6)


def card_range(card: int) -> range:
    """SC-12: card k covers 7k-6 .. 7k."""
    return range(CARD_SIZE * card - CARD_SIZE + 1, CARD_SIZE * card + 1)


def check_numbers(numbers: Sequence[Any], bonus: Any) -> None:
    def valid(n: Any) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= LOTTERY_MAX

    if not isinstance(numbers, Sequence) or len(numbers) not in MAIN_COUNTS:
        raise OrderError("bad_draw", reason="count", expected=list(MAIN_COUNTS))
    if not all(valid(n) for n in numbers):
        raise OrderError("bad_draw", reason="number", numbers=list(numbers))
    if len(set(numbers)) != len(numbers):
        raise OrderError("bad_draw", reason="repeated", numbers=list(numbers))
    if bonus is not None and (not valid(bonus) or bonus in numbers):
        raise OrderError("bad_draw", reason="bonus", bonus=bonus)


def _award(
    state: GameState, character: Character, numbers: Sequence[int], bonus: int | None
) -> tuple[Character, dict[str, Any]]:
    rules = state.rules
    line: dict[str, Any] = {"id": character.id, "ap_before": character.ap}
    if not character.alive:
        return character, {
            **line,
            "dead": True,
            "skipped": False,
            "zeroed": False,
            "award": 0,
            "ap_after": character.ap,
            "lost_to_cap": 0,
        }
    if character.skip_next_draw:
        zeroed = character.ability_used in ("vehicle", "rage")
        ap = 0 if zeroed else character.ap
        return replace(character, ap=ap), {
            **line,
            "dead": False,
            "skipped": True,
            "zeroed": zeroed,
            "award": 0,
            "ap_after": ap,
            "lost_to_cap": 0,
        }
    cards = []
    base = 0
    for card in character.cards:
        span = card_range(card)
        hits = sorted(n for n in numbers if n in span)
        bonus_hit = bonus is not None and bonus in span
        ap = len(hits) + (2 if bonus_hit else 0)
        base += ap
        cards.append({"card": card, "numbers": hits, "bonus": bonus_hit, "ap": ap})
    grade = rules.grade_bonus(character.grade) if character.has("grade") else 0
    soldier = not character.is_general
    encouragement = (
        rules.power("encourage", "bonus") if soldier and character.team in state.encouraging else 0
    )
    hacked = soldier and (3 - character.team) in state.hacking
    hack_immune = hacked and character.has("psycho_brain")
    hacking = rules.power("hack", "malus") if hacked and not hack_immune else 0
    award = max(0, base + grade + encouragement - hacking)
    ap_after = min(rules.ap_cap, character.ap + award)
    line.update(
        dead=False,
        skipped=False,
        zeroed=False,
        cards=cards,
        base=base,
        grade=grade,
        encouragement=encouragement,
        hacking=hacking,
        hack_immune=hack_immune,
        award=award,
        ap_after=ap_after,
        lost_to_cap=character.ap + award - ap_after,
    )
    return replace(character, ap=ap_after), line


def _new_turn(character: Character) -> Character:
    """SC-16: per-turn counters and active abilities end once the award is given."""
    return replace(character, shots_this_turn=0, grenades_this_turn=0, ability_used=None)


def apply_draw(
    state: GameState, numbers: Sequence[int], bonus: int | None = None
) -> tuple[GameState, list[dict[str, Any]]]:
    """Award AP for one draw and start the next turn; returns the new state and the breakdown."""
    check_numbers(numbers, bonus)
    characters = []
    breakdown = []
    for character in state.characters:
        awarded, line = _award(state, character, numbers, bonus)
        characters.append(_new_turn(awarded))
        breakdown.append(line)
    new_state = replace(
        state,
        characters=tuple(characters),
        turn=state.turn + 1,
        encouraging=frozenset(),
        hacking=frozenset(),
    )
    return new_state, breakdown
