"""The end-of-game recap of a Space Chess game, computed from its history (pure: no store, no clock).

Read from the replayed log (`bot.service.scene.Step`: each input's public events and the state
after it), so the recap is exactly what happened, undone inputs left out, and a recap asked for
mid-game is the game so far. Per character: the AP each draw gave, the AP it could not take for the
cap (SC-11: at a draw, from a friend, from a pickup), HP at the end of each turn, damage dealt and
taken; and the moments that decided the game (deaths, heavy hits, the end).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games.spacechess.pictures import plain, words
from bot.i18n import Listing, translate
from bot.service.replaying import Step
from bot.service.replies import Attachment, Message, Reply, Visibility
from bot.service.scene import Scene
from engine.core.protocol import GameRules
from renders.spacechess.recap import render_recap

HEAVY_HIT = 3  # a hit taking at least a third of the victim's maximum HP is a moment of the game
MAX_MOMENTS = 10
#: moments left out first when there are too many: the end and the deaths stay
_LESSER = ("game.recap.moment.hit", "game.recap.moment.power", "game.recap.moment.power_on")


@dataclass(frozen=True)
class Fighter:
    id: str
    team: int
    max_hp: int
    ap: tuple[int, ...]  # AP each draw gave, draw 1 first (0 for a draw sat out or after death)
    hp: tuple[int, ...]  # HP at the end of each turn, turn 0 (before the first draw) first
    dealt: int
    taken: int
    capped: tuple[int, ...] = ()  # AP lost to the cap per turn, draw 1's turn first (its award, then gifts)


@dataclass(frozen=True)
class GameRecap:
    turns: int  # draws applied
    fighters: tuple[Fighter, ...]  # team 1 then team 2, generals first
    moments: tuple[Message, ...]
    status: str
    winner: int | str | None


def recap_of(history: Sequence[Step], view: Callable[[Any], Mapping[str, Any]]) -> GameRecap:
    """The recap of the game whose replayed log is `history`; `view` is the rules' public view."""
    ap: dict[str, list[int]] = {}
    hp: dict[str, list[int]] = {}
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    capped: dict[str, dict[int, int]] = {}  # per character: turn -> AP lost to the cap in it
    moments: list[Message] = []
    last: Mapping[str, Any] = {}
    turns = 0
    for step in history:
        if any(event.kind == "draw_award" for event in step.events):
            _snapshot(hp, last)  # the end of the turn this draw closes
        now = view(step.state)
        standing = {ident: int(data.get("hp", 0)) for ident, data in last.get("characters", {}).items()}
        for event in step.events:
            params = event.params
            if event.kind == "draw_award":
                turns += 1
                for row in params.get("breakdown", ()):
                    ap.setdefault(row["id"], []).extend([0] * (turns - 1 - len(ap.get(row["id"], []))))
                    ap[row["id"]].append(int(row.get("award", 0)))
                    _lose(capped, row["id"], turns, int(row.get("lost_to_cap", 0)))
            elif event.kind == "ap_overflow":  # a friend's AP or a pickup's beyond the cap
                _lose(capped, params["id"], turns, int(params.get("lost", 0)))
            elif event.kind == "damaged":  # capped at the HP there was: overkill is no damage taken
                there = standing.get(params["id"], int(params.get("hp", 0)) + int(params.get("amount", 0)))
                amount = min(int(params.get("amount", 0)), there)
                standing[params["id"]] = int(params.get("hp", 0))
                taken[params["id"]] = taken.get(params["id"], 0) + amount
                if params.get("by"):
                    dealt[params["by"]] = dealt.get(params["by"], 0) + amount
                max_hp = int(now["characters"].get(params["id"], {}).get("max_hp", 0) or 1)
                if amount and amount * HEAVY_HIT >= max_hp and params.get("hp", 1) > 0:
                    moments.append(Message("game.recap.moment.hit", {"turn": turns, "id": params["id"],
                                                                     "by": params.get("by") or "—",
                                                                     "amount": amount, "hp": params.get("hp")}))
            elif event.kind in ("power", "airstrike"):  # a general's power changed the board or the next draw
                key = "game.recap.moment.power_on" if params.get("target") else "game.recap.moment.power"
                moments.append(Message(key, {"turn": turns, "id": params["id"], "target": params.get("target"),
                                             "power": Message(f"label.{params.get('power')}")}))
            elif event.kind == "died":
                key = "game.recap.moment.died_by" if params.get("by") else "game.recap.moment.died"
                moments.append(Message(key, {"turn": turns, "id": params["id"], "by": params.get("by"),
                                             "at": params.get("at")}))
            elif event.kind == "game_over":
                winner = params.get("winner")
                key = "game.recap.moment.won" if winner in (1, 2) else "game.recap.moment.draw"
                moments.append(Message(key, {"turn": turns, "team": winner}))
                totals = params.get("totals") or {}
                if totals:  # SC-31: the time limit decided it on the HP totals, which the moment shows
                    moments.append(Message("game.recap.moment.totals", {"turn": turns, "one": totals.get("1"),
                                                                        "two": totals.get("2")}))
        last = now
    if last and last.get("status") != "setup":
        _snapshot(hp, last)
    characters = last.get("characters", {}) if last else {}
    order = sorted(characters, key=lambda i: (characters[i]["team"], characters[i].get("role") != "general", i))
    fighters = tuple(
        Fighter(i, int(characters[i]["team"]), int(characters[i].get("max_hp", 0)),
                tuple(ap.get(i, [])) + (0,) * (turns - len(ap.get(i, []))), tuple(hp.get(i, ())),
                dealt.get(i, 0), taken.get(i, 0),
                tuple(capped.get(i, {}).get(turn, 0) for turn in range(1, turns + 1)) if capped.get(i) else ())
        for i in order
    )
    if len(moments) > MAX_MOMENTS:  # the end and the deaths are kept before heavy hits and powers
        decisive = [m for m in moments if m.key not in _LESSER]
        moments = (decisive + [m for m in moments if m.key in _LESSER])[:MAX_MOMENTS]
        moments.sort(key=lambda m: m.params["turn"])
    return GameRecap(turns, fighters, tuple(moments), str(last.get("status", "setup")), last.get("winner"))


def _lose(capped: dict[str, dict[int, int]], ident: str, turn: int, lost: int) -> None:
    """`lost` AP of `ident` beyond the cap, counted in `turn` (one before any draw counts in the first)."""
    if lost > 0:
        turns = capped.setdefault(ident, {})
        turns[max(1, turn)] = turns.get(max(1, turn), 0) + lost


def _snapshot(hp: dict[str, list[int]], view: Mapping[str, Any]) -> None:
    """Every character's HP now, as the next point of its HP line (0 for the dead)."""
    for ident, data in view.get("characters", {}).items():
        hp.setdefault(ident, []).append(int(data.get("hp", 0)) if data.get("alive", True) else 0)


def _gm_end(recap: GameRecap, scene: Scene) -> GameRecap:
    """A recap of a game a game master ended (`/gm end`): finished, with that moment last."""
    if scene.status != "finished" or recap.status == "finished":
        return recap
    ended = Message("game.recap.moment.gm_end", {"turn": recap.turns})
    return replace(recap, status="finished", winner="gm", moments=(*recap.moments[-(MAX_MOMENTS - 1):], ended))


def recap_reply(rules: GameRules, scene: Scene) -> Reply:
    """`/game recap` and the end-of-game post: the recap's picture, its moments also as text (a
    picture is not read by everyone), in the scene's language. The picture's description says what
    its charts are (``alt.shows.*``: the AP-lost table with who lost how much, when drawn); the
    presenter adds the game where it stands."""
    if scene.history is None:
        return Reply((Message("game.recap.none", {"name": scene.name}),), visibility=Visibility.PRIVATE)
    recap = _gm_end(recap_of(scene.history(), rules.view), scene)
    if recap.status == "setup":
        return Reply((Message("game.recap.not_started", {"name": scene.name}),), visibility=Visibility.PRIVATE)
    language = scene.language
    if recap.winner == "gm":
        key = "game.recap.subtitle_gm_end"
    elif recap.status == "finished":
        key = "game.recap.subtitle_won" if recap.winner in (1, 2) else "game.recap.subtitle_draw"
    else:
        key = "game.recap.subtitle_running"
    subtitle = Message(key, {"team": recap.winner, "turns": recap.turns})
    moments = [plain(translate(m.key, language, m.params)) for m in recap.moments]
    data = {
        "title": words("game.recap.title", language, name=scene.name),
        "subtitle": plain(translate(subtitle.key, language, subtitle.params)),
        "fighters": [{"id": f.id, "team": f.team, "max_hp": f.max_hp, "ap": f.ap, "hp": f.hp, "dealt": f.dealt,
                      "taken": f.taken, "capped": f.capped} for f in recap.fighters],
        "moments": moments,
        "words": {part: words(f"game.recap.section.{part}", language)
                  for part in ("hp", "ap", "capped", "damage", "moments", "none")},
    }
    lines = (Message("game.recap.header", {"name": scene.name, "result": subtitle}), *recap.moments)
    lost = [Message("game.recap.capped_one", {"id": f.id, "ap": sum(f.capped)}) for f in recap.fighters if f.capped]
    shows = Message("alt.shows.recap")
    if lost:  # said apart from what the draws gave: AP the cap took away, in the text and the alt text
        who = Listing(tuple(lost), conjunction=True)
        lines = (*lines, Message("game.recap.capped", {"who": who}))
        shows = Message("alt.shows.recap_capped", {"who": who})
    return Reply(lines, files=(Attachment("recap.png", render_recap(data), shows),))
