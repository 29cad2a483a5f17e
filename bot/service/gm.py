"""Game-master commands: start, pause, resume, end, seats, corrections, pickups, export/import, settings.

Destructive actions (end, kick) answer first with a confirmation button that carries the game
version; status changes are logged as bookkeeping entries so the history shows who did what.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.drivers import driver_of
from bot.games import presenter_for
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService, derive_status, effective_inputs, require_not_finished
from bot.service.export_doc import (
    collector_paused,
    encode_export,
    export_document,
    read_export,
    replay_export,
)
from bot.service.lifecycle import validate_name
from bot.service.replies import Attachment, Button, Message, Reply, ServiceError, Visibility
from bot.service.scene import scene_of
from bot.service.secrecy import reader_of, sealed_seqs
from bot.store.repo import GameRecord, NewEntry, SeatRecord, StaleWrite
from engine import registry
from engine.core.names import NAME_MAX


def _mark(svc: GameService, ctx: Context, game: GameRecord, kind: str, status: str, payload: dict[str, Any]) -> None:
    """A status change with its bookkeeping log entry, refused if the game moved meanwhile."""
    try:
        svc.store.commit(game.id, game.version, state=game.state, status=status,
                         entries=[NewEntry(kind, None, ctx.user_id, payload)])
    except StaleWrite:
        raise ServiceError("error.conflict") from None


def confirmation(game: GameRecord, key: str, command_path: str, options: dict[str, Any], **params: Any) -> Reply:
    button = Button(Message(f"button.{key}", params), command_path, {**options, "confirm": game.version},
                    style="danger")
    return Reply((Message(f"gm.{key}.confirm", params),), buttons=(button,), visibility=Visibility.PRIVATE)


def confirmed(game: GameRecord, opts: dict[str, Any]) -> bool:
    if "confirm" not in opts:
        return False
    if opts["confirm"] != game.version:
        raise ServiceError("error.stale_confirmation")
    return True


@command("gm start", gm_only=True)
def gm_start(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    applied = svc.apply_input(ctx, game, "start", None, {})
    reply = svc.describe(applied, ctx)
    return Reply((Message("gm.started", {"name": game.name}), *reply.messages), files=reply.files)


@command("gm pause", gm_only=True)
def gm_pause(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    if game.status != "running":
        raise ServiceError("error.not_running", status=Message(f"status.value.{game.status}"))
    _mark(svc, ctx, game, "pause", "paused", {})
    return Reply.say("gm.paused", name=game.name)


@command("gm resume", gm_only=True)
def gm_resume(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    if game.status != "paused":
        raise ServiceError("error.not_paused")
    rules = registry.get(game.kind)
    _mark(svc, ctx, game, "resume", derive_status(rules, rules.from_json(game.state), "running"), {})
    # what the game's turn driver caught up meanwhile (the draws of the pause...), each as its post
    posts = driver_of(game.kind).on_resume(svc, game)
    messages = [Message("gm.resumed", {"name": game.name})]
    mentions: dict[int, None] = {}
    for post in posts:
        messages.extend(post.messages)
        mentions.update(dict.fromkeys(post.mentions))
    return Reply(tuple(messages), files=posts[-1].files if posts else (), mentions=tuple(mentions))


@command("gm end", Option("confirm", "integer"), gm_only=True)
def gm_end(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    if game.status == "finished":
        raise ServiceError("error.game_over")
    if not confirmed(game, opts):
        return confirmation(game, "end", "gm end", {}, name=game.name)
    _mark(svc, ctx, game, "end", "finished", {})
    ended = svc.store.get_game(game.id) or game  # the game's recap, as a game ended by its rules posts it
    recap = presenter_for(ended.kind).recap(registry.get(ended.kind), scene_of(svc, ended, svc.language(ctx)))
    return Reply((Message("gm.ended", {"name": game.name}),), files=recap.files)


@command("gm kick", Option("user", "user", required=True), Option("confirm", "integer"), gm_only=True)
def gm_kick(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Remove a member from the game; during the setup their character goes too, later it stays
    on the board without a player until `/gm replace` hands it to someone."""
    game = svc.channel_game(ctx)
    require_not_finished(game)
    seat = svc.store.seat_of_user(game.id, opts["user"])
    if seat is None:
        raise ServiceError("error.user_not_playing", user=opts["user"])
    if not confirmed(game, opts):
        return confirmation(game, "kick", "gm kick", {"user": opts["user"]}, user=opts["user"], name=seat.actor)
    if game.status == "setup":
        svc.apply_input(ctx, game, "leave", seat.actor, {"id": seat.actor}, seats_removed=(seat.actor,))
    else:
        try:
            svc.store.commit(game.id, game.version, state=game.state, seats_removed=[seat.actor],
                             entries=[NewEntry("kick", seat.actor, ctx.user_id, {"user": opts["user"]})])
        except StaleWrite:
            raise ServiceError("error.conflict") from None
    return Reply.say("gm.kicked", user=opts["user"], name=seat.actor)


@command("gm replace", Option("character", required=True, max_length=32), Option("user", "user", required=True),
         gm_only=True)
def gm_replace(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    require_not_finished(game)
    rules = registry.get(game.kind)
    actors = {a.lower(): a for a in rules.actors(rules.from_json(game.state))}
    actor = actors.get(opts["character"].lower())
    if actor is None:
        raise ServiceError("error.unknown_character", name=opts["character"])
    other = svc.store.seat_of_user(game.id, opts["user"])
    if other is not None and other.actor != actor:
        raise ServiceError("error.user_already_plays", user=opts["user"], name=other.actor)
    try:
        svc.store.commit(game.id, game.version, state=game.state,
                         seats_set=[SeatRecord(game.id, opts["user"], actor, False)],
                         entries=[NewEntry("replace", actor, ctx.user_id, {"user": opts["user"]})])
    except StaleWrite:
        raise ServiceError("error.conflict") from None
    return Reply.say("gm.replaced", user=opts["user"], name=actor)


@command("gm export", gm_only=True)
def gm_export(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Everything the game needs (setup, options, status, seats, log with times) and its public view,
    as one JSON file: a backup, an audit, and what `/gm import` reads. Sealed secrets the GM may not
    read are left out (an import then replays the game as if they were not given yet)."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    with collector_paused():
        entries = svc.store.log(game.id)
        sealed, reader = sealed_seqs(rules, entries), reader_of(svc, ctx, game)
        kept = [entry for entry in entries if reader.reads(rules, entry, sealed)]
        document = export_document(game, kept, svc.store.seats(game.id), rules.view(rules.from_json(game.state)))
        data = encode_export(document)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    messages = [Message("gm.exported", {"name": game.name})]
    if len(kept) < len(entries):  # the turn's secret orders stay their owners' until the reveal
        messages.append(Message("gm.exported_sealed", {"n": len(entries) - len(kept)}))
    return Reply(tuple(messages), files=(Attachment(f"{game.kind}-{game.id}-{stamp}.json", data),),
                 visibility=Visibility.PRIVATE)


@command("gm import", Option("file", "attachment", required=True), Option("name", max_length=NAME_MAX), gm_only=True,
         server_wide=True)
def gm_import(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Recreate an exported game in this channel: its log is replayed from its setup, and it keeps its
    options, status, seats (`/gm replace` hands a character to a member of this server) and history.
    The draws it already got are claimed with it, so it never gets them again."""
    with collector_paused():
        return _import(svc, ctx, opts)


def _import(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    current = svc.store.game_in_channel(ctx.guild_id, ctx.channel_id)
    if current is not None and current.status != "finished":
        raise ServiceError("error.channel_has_game")
    file: Attachment = opts["file"]
    export = read_export(file.data, file.filename)
    name = validate_name(opts["name"]) if "name" in opts else export.name
    rules = registry.get(export.kind)
    inputs = effective_inputs(rules, export.log)
    state = replay_export(rules, export, inputs, file.filename)
    status = export.status
    if status in ("setup", "running"):
        status = rules.result(state).status
    game = svc.store.create_game(
        kind=export.kind, name=name, guild_id=ctx.guild_id, channel_id=ctx.channel_id, setup=export.setup,
        state=rules.to_json(state), seed=export.seed, created_by=ctx.user_id, status=status,
        options=export.options,
        entries=[*export.log, NewEntry("import", None, ctx.user_id, {"file": file.filename, "name": name})],
        seats=[(s.user_id, s.actor, s.mute_pings) for s in export.seats],
        claims=lambda game_id: driver_of(export.kind).claims_of_log(game_id, export.log),
    )
    if game.status == "running":
        driver_of(game.kind).on_created(svc, game)
    return Reply.say("gm.imported", name=game.name, inputs=len(inputs))


@command(
    "gm settings",
    Option("language", choices=("fr", "en")),
    Option("gm_role", "role"),
    Option("pings", choices=("players", "none", "all")),
    server_wide=True,  # the GM role decides who GMs every game: not a game creator's to choose
)
def gm_settings(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Server settings: reply language, the GM role, who gets pinged on turn posts."""
    if ctx.guild_id is None:
        raise ServiceError("error.server_only")
    changes = {}
    if "language" in opts:
        changes["language"] = opts["language"]
    if "gm_role" in opts:
        changes["gm_role_id"] = opts["gm_role"]
    if "pings" in opts:
        changes["ping_policy"] = opts["pings"]
    if changes and "language" not in changes:  # a first save keeps the language the bot spoke so far
        changes["language"] = svc.server_language(ctx.guild_id)
    settings = svc.store.set_guild_settings(ctx.guild_id, **changes) if changes else svc.store.guild_settings(
        ctx.guild_id)
    role = Message("word.none") if settings.gm_role_id is None else Message("gm.settings.role",
                                                                             {"role": settings.gm_role_id})
    return Reply((Message("gm.settings", {"language": settings.language, "role": role,
                                          "pings": settings.ping_policy}),), visibility=Visibility.PRIVATE)
