"""The game-over announcement: who won, by name, and a ping for each winning player, once.

The engine says which side won (team 1, blue, a ship); the channel wants to read "Team 1 wins:
**Ann** (@ann) and **Cid** (@cid)" and the winners want to hear of it. A game ends on exactly one
accepted input (a finished game takes no more), so the post of that input is the one announcement.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import Presenter
from bot.i18n import Listing
from bot.service.pings import may_ping
from bot.service.replies import Message
from bot.store.repo import SeatRecord
from engine.core.protocol import GameRules


@dataclass(frozen=True)
class Announcement:
    messages: tuple[Message, ...] = ()
    mentions: tuple[int, ...] = ()  # the winners who may be pinged


def result_words(winner: Any) -> Message:
    """How a game ended, for its game-over event: "Blue wins" (a side already in words, or a
    name), or "a draw" when there is no winner (None, or the engines' ``"draw"``)."""
    if winner is None or winner == "draw":
        return Message("game.result.draw")
    return Message("game.result.win", {"side": winner})


def on_side(rules: GameRules, state: Any, actor: str, side: Any) -> bool:
    """Whether `actor` (a seat's character or player name) won with `side`."""
    return actor == side or rules.side_of(state, actor) == side


def game_over(presenter: Presenter, rules: GameRules, state: Any, seats: Sequence[SeatRecord],
              computers: Mapping[str, Any] | None = None, *, pings: str = "players",
              muted: Collection[int] = frozenset()) -> Announcement:
    """The announcement when `state` is finished (none otherwise): the winning side's name and its
    players — members as mentions, computers by name — or that nobody won. Pings follow the
    server's policy (``none`` pings nobody) and each player's own choice to mute them: their seat's,
    or their own settings' (`muted`: `bot.service.pings.muted_members`)."""
    result = rules.result(state)
    if not result.finished:
        return Announcement()
    if result.winner is None:
        return Announcement((Message("game.over.draw"),))
    won = [seat for seat in seats if on_side(rules, state, seat.actor, result.winner)]
    players = [Message("game.over.player", {"actor": seat.actor, "user": seat.user_id}) for seat in won]
    players += [Message("game.over.computer", {"actor": actor}) for actor in computers or {}
                if on_side(rules, state, actor, result.winner)]
    side = presenter.side_name(rules, result.winner)
    line = Message("game.over.winners", {"side": side, "players": Listing(tuple(players), conjunction=True)})
    mentions = () if pings == "none" else tuple(dict.fromkeys(s.user_id for s in won if may_ping(s, muted)))
    return Announcement((line,), mentions)
