"""Where a game lives on Discord, and what happens when that place changes under it: its channel or
thread deleted, the bot removed from its server, its thread locked — and a GM moving it (`/gm move`).

A game whose channel is gone is paused through the one path of changes (as `/gm pause` does), so no
deadline or clock runs out on players who cannot see it; its GMs are told where they can read it —
the server's GM log channel (`/gm settings log_channel:`), the game's own channel being gone — and a
GM moves it to another channel, where it goes on. What the adapter sees happen (a gateway event, a
refused post or status edit) comes here; which it was is the adapter's to say.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.outbox import announce, gm_alert
from bot.service.commands import Option, command, completer
from bot.service.context import Context
from bot.service.core import Applied, GameService
from bot.service.replies import Message, Reply, ServiceError
from bot.store import outbox as rows
from bot.store.repo import GameRecord
from engine.core.names import NAME_MAX, name_key

#: the games that live in a channel: a finished one keeps it only until the next game is created there
UNDER_WAY = ("setup", "running", "paused")


def pause_channel_gone(svc: GameService, game_id: int, channel_id: int) -> bool:
    """The game's channel `channel_id` is gone (Discord refused a post with 10003, or said it deleted
    the channel): the game, if it still lives there and runs, is paused as by `/gm pause`, through the
    same path. Whether it was paused now (False: it was not running, it moved, or another process
    paused it first) — its GMs are told then, once."""
    game = svc.store.get_game(game_id)
    return game is not None and _paused_for_gone(svc, game, channel_id) is not None


def _paused_for_gone(svc: GameService, game: GameRecord, channel_id: int) -> Applied | None:
    """`pause_channel_gone` on the record `game`: the pause committed, or None."""

    def still_there(current: GameRecord) -> None:
        if current.status != "running" or current.channel_id != channel_id:
            raise ServiceError("error.not_running", status=Message(f"status.value.{current.status}"))

    if game.status != "running" or game.channel_id != channel_id:
        return None
    try:
        return svc.apply_input(None, game, "pause", None, {"channel_gone": channel_id}, status="paused",
                               check=still_there)
    except ServiceError:
        return None


def tell_gms_elsewhere(svc: GameService, game: GameRecord, message: Message) -> bool:
    """Write `message` to the game's GMs in the server's log channel (its own channel cannot carry it);
    whether there is one to write to. The adapter's outbox sends it."""
    alert = gm_alert(svc.store, game, Reply((message,)), in_channel=False)
    if alert is None:
        return False
    rows.enqueue(svc.store, [alert])
    return True


def channels_gone(svc: GameService, guild_id: int, channel_ids: Iterable[int], hooks: Any = None) -> list[int]:
    """Channels (or threads) of the server were deleted: each game under way there is paused (a game
    not started yet just waits) and its GMs are told; the ids of the games concerned."""
    concerned = []
    for channel_id in channel_ids:
        game = svc.store.game_in_channel(guild_id, channel_id)
        if game is None or game.status not in UNDER_WAY:
            continue
        game_channel_gone(svc, game, channel_id)
        concerned.append(game.id)
    announce(svc.store, hooks)
    return concerned


def game_channel_gone(svc: GameService, game: GameRecord, channel_id: int, hooks: Any = None) -> None:
    """`game`'s channel is gone (an event said so, or Discord refused its status message): paused if
    it ran, its GMs told where they can read it — in the pause's own transaction (`Store.owe_posts`),
    so no crash between them loses the alert — and not when another process paused it first (they
    are told there)."""
    key = "gm.channel_gone_setup" if game.status == "setup" else "gm.channel_gone"
    alert = gm_alert(svc.store, game, Reply((Message(key, {"name": game.name}),)), in_channel=False)
    with svc.store.locked_game(game.id) as fresh:
        paused = _paused_for_gone(svc, fresh, channel_id) if fresh is not None else None
        if paused is not None and alert is not None:
            svc.store.owe_posts(paused.game, [alert])
    if paused is None and game.status != "running" and alert is not None:
        rows.enqueue(svc.store, [alert])  # a game not running: nothing committed, a post alone
    announce(svc.store, hooks)


def server_left(svc: GameService, guild_id: int) -> list[int]:
    """The bot was removed from the server: its running games are paused (a GM who adds the bot back
    resumes them); nobody there can be told any more. The ids of the games paused."""
    return [game.id for batch in svc.store.iter_games(guild_id=guild_id, statuses=("running",)) for game in batch
            if game.channel_id is not None and pause_channel_gone(svc, game.id, game.channel_id)]


def thread_locked(svc: GameService, guild_id: int, thread_id: int, hooks: Any = None) -> bool:
    """A moderator locked the game's thread and the bot may not post in it any more: its GMs are told
    in the log channel what to do (unlock it, or move the game). Whether a game lives there."""
    game = svc.store.game_in_channel(guild_id, thread_id)
    if game is None or game.status not in UNDER_WAY:
        return False
    tell_gms_elsewhere(svc, game, Message("gm.thread_locked", {"name": game.name, "channel": thread_id}))
    announce(svc.store, hooks)
    return True


def _games_to_move(svc: GameService, ctx: Context) -> list[GameRecord]:
    if ctx.guild_id is None:
        return []
    return [game for batch in svc.store.iter_games(guild_id=ctx.guild_id, statuses=UNDER_WAY) for game in batch
            if game.channel_id != ctx.channel_id]


@command("gm move", Option("name", required=True, max_length=NAME_MAX, autocomplete=True),
         gm_only=True, server_wide=True, binds_channel=True)
def gm_move(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Move a game of this server to the channel where the command is typed (its channel was deleted,
    its thread locked, or the server is tidied up): the game, its owed posts and its status message
    live here from now on, its history says who moved it. Here must hold no game under way."""
    if ctx.guild_id is None:
        raise ServiceError("error.server_only")
    here = svc.store.game_in_channel(ctx.guild_id, ctx.channel_id)
    if here is not None and here.status in UNDER_WAY:
        raise ServiceError("error.move_channel_taken", name=here.name)
    wanted = name_key(opts["name"])
    game = next((g for g in _games_to_move(svc, ctx) if name_key(g.name) == wanted), None)
    if game is None:
        raise ServiceError("error.move_unknown_game", name=opts["name"])
    if here is not None and here.id > game.id:  # a channel's game is its newest: the moved one would hide
        raise ServiceError("error.move_channel_newer", name=here.name)
    svc.apply_input(ctx, game, "move", None, {"from": game.channel_id, "to": ctx.channel_id},
                    channel=ctx.channel_id, stale="error.conflict")
    key = "gm.moved_paused" if game.status == "paused" else "gm.moved"
    return Reply.say(key, name=game.name, channel=game.channel_id)


@completer("gm move", "name")
def _move_choices(svc: GameService, ctx: Context, current: str, filled: dict[str, Any]) -> list[str]:
    return [game.name for game in _games_to_move(svc, ctx)]
