"""Looking at a game: board, sheets, history, help and rules — for every game kind."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.games import entry_for, games, presenter_for
from bot.service.commands import Option, command, completer, table
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.lifecycle import brief
from bot.service.replies import Message, Reply, ServiceError, Visibility
from bot.service.secrecy import Reader, reader_of, sealed_seqs
from engine import registry
from engine.core.errors import SetupError
from engine.core.names import name_key
from engine.core.protocol import GM, PUBLIC, Audience, GameRules

HISTORY_PAGE = 10


@command("game board")
def game_board(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The current board, as everyone sees it (each game's group has its own closer looks)."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    files = presenter_for(game.kind).board(rules, state)
    return Reply((Message("game.board", {"name": game.name, "turn": rules.view(state).get("turn", 0)}),),
                 files=tuple(files))


@command("game sheet", Option("character", max_length=32))
def game_sheet(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A character's or side's sheet (one's own by default), as its game words and draws it: what
    `view_for` shows its reader (secrets only to their owner, privately)."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    wanted = opts.get("character") or svc.actor_of(ctx, game)
    actor = next((name for name in rules.actors(state) if name_key(name) == name_key(wanted)), None)
    if actor is None:
        raise ServiceError("error.unknown_character", name=wanted)
    viewer = sheet_viewer(rules, reader_of(svc, ctx, game), actor)
    sheet = presenter_for(game.kind).sheet(rules, state, actor, svc.language(ctx), viewer)
    # one's own sheet in a game with secrets shows them: for its reader only
    return replace(sheet, visibility=Visibility.PRIVATE) if viewer != PUBLIC else sheet


def sheet_viewer(rules: GameRules, reader: Reader, actor: str) -> Audience:
    """Whose eyes a sheet is drawn for: its owner's (or a GM's where the game lets GMs read
    secrets) in a game that has secrets, else everyone's."""
    if not rules.secret_kinds:
        return PUBLIC
    if reader.actor == actor:
        return Audience.actor(actor)
    return GM if reader.gm and rules.gm_sees_secrets else PUBLIC


@command("game history", Option("page", "integer", min_value=1, max_value=10_000))
def game_history(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The log, newest first, a page at a time: who did what, when — the audit trail of a campaign.
    A sealed secret (an order not yet revealed) shows who gave it and when, never what it says,
    except to its owner."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    entries = svc.store.log(game.id)
    sealed = sealed_seqs(rules, entries)
    reader = reader_of(svc, ctx, game)
    pages = max(1, -(-len(entries) // HISTORY_PAGE))
    page = min(opts.get("page", 1), pages)
    newest_first = entries[::-1][(page - 1) * HISTORY_PAGE: page * HISTORY_PAGE]
    lines = [Message("game.history.header", {"name": game.name, "page": page, "pages": pages})]
    for entry in newest_first:
        params = {"seq": entry.seq, "kind": entry.kind, "actor": entry.actor or "—",
                  "time": f"<t:{int(entry.created_at.timestamp())}:R>"}
        if reader.reads(rules, entry, sealed):
            lines.append(Message("game.history.entry", {**params, "text": brief(entry.payload, 200)}))
        else:
            lines.append(Message("game.history.sealed", params))
    return Reply(tuple(lines), visibility=Visibility.PRIVATE)


@command("game help")
def game_help(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    lines = [Message("game.help.header")]
    lines += [Message("game.help.entry", {"command": "/" + path, "description": Message(cmd.description_key)})
              for path, cmd in sorted(table().items())]
    return Reply(tuple(lines), visibility=Visibility.PRIVATE)


@command("game rules", Option("game", autocomplete=True, max_length=32))
def game_rules(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A game's rules in short: the channel's game, or the one named (any game of the bot)."""
    if "game" in opts:
        try:
            kind = registry.get(opts["game"]).name
        except SetupError as err:
            raise ServiceError("error.unknown_game", **err.params) from None
    else:
        kind = svc.channel_game(ctx).kind
    entry_for(kind)  # a game the engine knows but the bot does not serve has no rules to show
    return Reply((Message(f"rules.{kind}"),), visibility=Visibility.PRIVATE)


@completer("game rules", "game")
def complete_kind(svc: GameService, ctx: Context, current: str) -> list[str]:
    return sorted(entry.kind for entry in games())


@command("game leave")
def game_leave(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Leaving is possible during the setup; once the game runs, a GM hands the character over."""
    game = svc.channel_game(ctx)
    actor = svc.actor_of(ctx, game)
    if game.status != "setup":
        raise ServiceError("error.leave_running")
    svc.apply_input(ctx, game, "leave", actor, {"id": actor}, seats_removed=(actor,))
    return Reply.say("game.left", user=ctx.user_id, name=actor)
