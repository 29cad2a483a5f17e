"""Looking at a game: board, sheets, history, help and rules — for every game kind."""

from __future__ import annotations

from typing import Any

from bot.games import labelled, presenter_for
from bot.i18n import catalog
from bot.service.commands import Option, command, table
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.lifecycle import brief
from bot.service.replies import Embed, Message, Reply, ServiceError, Visibility
from engine import registry
from engine.core.names import name_key

HISTORY_PAGE = 10
#: the boards' team colours (Okabe-Ito blue and orange), for the frame of a sheet card
TEAM_COLOURS = {1: 0x0072B2, 2: 0xE69F00}


@command("game board", Option("reach", max_length=32), Option("shooter", max_length=32),
         Option("target", max_length=32))
def game_board(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The current board; with `reach`, the cells that character can move to and their AP cost; with
    `shooter` and `target`, the exact line of fire between them and what blocks it."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    presenter = presenter_for(game.kind)
    if ("shooter" in opts) != ("target" in opts):
        raise ServiceError("error.missing_option", option=["shooter", "target"])
    line = (opts["shooter"], opts["target"]) if "shooter" in opts else None
    files = presenter.board(rules, state, reach_of=opts.get("reach"), line=line)
    key = "game.board.reach" if "reach" in opts else "game.board"
    lines = [Message(key, {"name": game.name, "turn": rules.view(state).get("turn", 0), "character": opts.get("reach")})]
    if line is not None:
        report = presenter.line_report(rules, state, *line)
        if report is not None:
            lines.append(report)
    return Reply(tuple(lines), files=tuple(files))


@command("game sheet", Option("character", max_length=32))
def game_sheet(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A character's sheet (one's own by default): the view's values and the sheet card."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    actor = opts.get("character") or svc.actor_of(ctx, game)
    characters = rules.view(state).get("characters", {})
    match = next((name for name in characters if name_key(name) == name_key(actor)), None)
    if match is None:
        raise ServiceError("error.unknown_character", name=actor)
    data = characters[match]
    language = svc.language(ctx)
    labels = {k.removeprefix("label."): v for k, v in catalog(language).items() if k.startswith("label.")}
    files = presenter_for(game.kind).sheet(rules, state, match, labels)
    fields = ("team", "role", "hp", "max_hp", "ap", "at", "weapon", "armour", "items", "ability", "cards")
    line = Message("game.sheet", {"id": match, **labelled({k: data.get(k) for k in fields})})
    card = Embed(Message("game.sheet.title", {"id": match}), colour=TEAM_COLOURS.get(data.get("team")),
                 image=files[0].filename) if files else None
    return Reply((line,), files=tuple(files), embeds=(card,) if card else ())


@command("game history", Option("page", "integer", min_value=1, max_value=10_000))
def game_history(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The log, newest first, a page at a time: who did what, when — the audit trail of a campaign."""
    game = svc.channel_game(ctx)
    entries = svc.store.log(game.id)
    pages = max(1, -(-len(entries) // HISTORY_PAGE))
    page = min(opts.get("page", 1), pages)
    newest_first = entries[::-1][(page - 1) * HISTORY_PAGE: page * HISTORY_PAGE]
    lines = [Message("game.history.header", {"name": game.name, "page": page, "pages": pages})]
    for entry in newest_first:
        lines.append(Message("game.history.entry", {
            "seq": entry.seq, "kind": entry.kind, "actor": entry.actor or "—", "text": brief(entry.payload, 200),
            "time": f"<t:{int(entry.created_at.timestamp())}:R>",
        }))
    return Reply(tuple(lines), visibility=Visibility.PRIVATE)


@command("game help")
def game_help(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    lines = [Message("game.help.header")]
    lines += [Message("game.help.entry", {"command": "/" + path, "description": Message(cmd.description_key)})
              for path, cmd in sorted(table().items())]
    return Reply(tuple(lines), visibility=Visibility.PRIVATE)


@command("game rules", Option("kind", choices=("spacechess",)))
def game_rules(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    kind = opts.get("kind")
    if kind is None:
        game = svc.channel_game(ctx)
        kind = game.kind
    return Reply((Message(f"rules.{kind}"),), visibility=Visibility.PRIVATE)


@command("game leave")
def game_leave(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Leaving is possible during the setup; once the game runs, a GM hands the character over."""
    game = svc.channel_game(ctx)
    actor = svc.actor_of(ctx, game)
    if game.status != "setup":
        raise ServiceError("error.leave_running")
    svc.apply_input(ctx, game, "leave", actor, {"id": actor}, seats_removed=(actor,))
    return Reply.say("game.left", user=ctx.user_id, name=actor)
