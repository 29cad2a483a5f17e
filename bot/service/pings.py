"""Who the bot pings for a moment of a game, and the words that ping them.

A moment concerns actors — the player to move, the ships not ready yet, the side a draw is offered
to — and the bot pings the members seated as them (or as the side they play): never a computer
(it holds no seat, and an actor a computer plays is skipped), never a member who muted pings —
their seat's own mute, or their own settings' pings off (`/game settings pings:off`), which holds in
every game on every server (`may_ping`) — and nobody where the server's ``pings`` setting
(`/gm settings pings:`) is ``none``. Every ping of a game's moment comes from here: the turn handed
over (`turn_ping`, posted by the pipeline with the change that handed it, `GameService._posts`), the
reminders of the clock and the deadline, a draw offer; the game-over winners
(`bot.service.game_over`) and the Space Chess turn posts (`bot.lottery.turn_post`) ask `may_ping`.
A member who takes their reminders by direct message (`/game settings reminders:dm`) is told of
the turn handed to them and of the clock's and the deadline's reminders there instead of in the
channel (`bot.service.dms.route`); the other pings stay in the channel.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from bot.drivers import plays_as
from bot.service.computers import computers_of
from bot.service.dms import route
from bot.service.replies import Message
from bot.store.outbox import NewPost
from bot.store.repo import GameRecord, SeatRecord, Store


def ping_policy(store: Store, game: GameRecord) -> str:
    """The server's ``pings`` setting for `game` (a game outside a server: the default, players)."""
    return store.guild_settings(game.guild_id).ping_policy if game.guild_id is not None else "players"


def muted_members(store: Store, seats: Iterable[SeatRecord]) -> frozenset[int]:
    """The members of `seats` who turned pings off in their own settings: one read, none without seats."""
    return store.muted_members({seat.user_id for seat in seats})


def may_ping(seat: SeatRecord, muted: Collection[int]) -> bool:
    """Whether the member holding `seat` may be pinged: neither the seat nor the member (`muted`, as
    `muted_members` read it) turned pings off. The server's policy is the caller's to apply."""
    return not seat.mute_pings and seat.user_id not in muted


def members_for(store: Store, game: GameRecord, rules: Any, state: Any, actors: Iterable[str], *,
                seats: Sequence[SeatRecord] | None = None, away: Collection[str] = ()) -> tuple[int, ...]:
    """The members to ping for `actors`, each once, in seat order (see the module's docstring):
    among the game's stored seats, or `seats` (as a change about to be committed leaves them);
    a reminder leaves out the seats `away` (on declared away days, `bot.service.away`)."""
    actors = tuple(actors)
    if not actors or ping_policy(store, game) == "none":
        return ()
    computers = computers_of(game.options)
    concerned = [seat for seat in (store.seats(game.id) if seats is None else seats)
                 if not seat.mute_pings and seat.actor not in computers and seat.actor not in away
                 and any(plays_as(rules, state, seat.actor, actor) for actor in actors)]
    muted = muted_members(store, concerned)
    return tuple(dict.fromkeys(seat.user_id for seat in concerned if may_ping(seat, muted)))


def mentions(users: Sequence[int]) -> str:
    """The members as Discord mentions, for a catalog's ``{users}``."""
    return " ".join(f"<@{user}>" for user in users)


def turn_ping(store: Store, game: GameRecord, rules: Any, state: Any, actors: Sequence[str], *,
              seats: Sequence[SeatRecord] | None = None,
              ) -> tuple[tuple[Message, ...], tuple[int, ...], tuple[NewPost, ...]]:
    """The line telling the members who play `actors` that the game now waits on them, who it pings
    in the channel, and the direct messages of those who take them instead: nothing when nobody is to
    be pinged. It names members only (no order, no secret)."""
    users = members_for(store, game, rules, state, actors, seats=seats)
    routed = route(store, game, users, Message("dm.your_turn"), your_turn)
    if not routed.channel:
        return (), (), routed.dms
    return (your_turn(routed.channel),), routed.channel, routed.dms


def your_turn(users: Sequence[int]) -> Message:
    """The channel's line telling `users` it is their turn."""
    return Message("turn.your_turn", {"users": mentions(users)})
