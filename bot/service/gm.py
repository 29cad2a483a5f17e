"""Game-master commands: start, pause, resume, end, seats, corrections, pickups, export/import, settings.

Destructive actions (end, kick) answer first with a confirmation button that carries the game
version; status changes are logged as bookkeeping entries so the history shows who did what.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from bot.games import driver_of, presenter_for
from bot.i18n import ChoiceText, choice_name
from bot.service.commands import Option, choice_named, command, completer
from bot.service.computers import computer_module, computers_of, with_computer
from bot.service.confirm import confirmation, confirmed
from bot.service.context import Context
from bot.service.core import Applied, GameService, derive_status, require_not_finished
from bot.service.export_doc import (
    SEALED_SEED_PATH,
    GameExport,
    collector_paused,
    encode_export,
    export_document,
    read_export,
    replay_export,
)
from bot.service.lifecycle import ended_game_replaced, holds, validate_name
from bot.service.refusals import typed_actors
from bot.service.replaying import effective_inputs
from bot.service.replies import Attachment, Message, Reply, ServiceError, Visibility
from bot.service.scene import scene_of
from bot.service.sealing import KEY_NAME, SEALED, seal_payload, seal_seed, unseal_payload, unseal_seed
from bot.service.secrecy import reader_of, sealed_seqs
from bot.store.repo import GameRecord, NewEntry, SeatRecord
from engine import registry
from engine.core.names import NAME_MAX, name_key


def _mark(svc: GameService, ctx: Context, game: GameRecord, kind: str, status: str) -> Applied:
    """A status change as a bookkeeping entry through the pipeline (its driver stops or restarts
    the game's clocks with it), refused if the game moved meanwhile."""
    return svc.apply_input(ctx, game, kind, None, {}, status=status, stale="error.conflict")


@command("gm start", Option("first", max_length=16, autocomplete=True), gm_only=True)
def gm_start(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Start the game; `first` names who moves first where the rules let the GM choose it (a side,
    or ``random``: drawn by the rules from the game's stored seed, so a replay draws the same)."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    if rules.start_input is None:
        raise ServiceError("error.starts_by_itself", name=game.name)
    payload = {}
    first = opts.get("first")
    if first is not None:
        choices = rules.first_choices
        if not choices:
            raise ServiceError("error.first_not_chosen", name=game.name)
        chosen = choice_named(tuple(choices), str(first), "first")  # Rouge, au hasard: as any choice
        if chosen is None:
            raise ServiceError("error.option_bad_choice", option="first", value=first,
                               choices=[ChoiceText("first", choice) for choice in choices])
        payload["first"] = chosen
    applied = svc.apply_input(ctx, game, rules.start_input, None, payload)
    reply = svc.describe(applied, ctx)
    # how the game advances from now on is its driver's (draws, deadlines, a move clock)
    started = Message(f"gm.started.{driver_of(game.kind).name or 'none'}", {"name": game.name})
    return Reply((started, *reply.messages), files=reply.files)


@completer("gm start", "first")
def complete_first(svc: GameService, ctx: Context, current: str) -> list[str]:
    """The sides the GM may name to move first, and ``random`` (the rules class's `first_choices`),
    as the reader's words (Rouge, tiré au sort), which `gm_start` takes as any choice."""
    language = svc.language(ctx)
    return [choice_name("first", choice, language) for choice in registry.get(svc.channel_game(ctx).kind).first_choices]


@command("gm pause", gm_only=True)
def gm_pause(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    if game.status != "running":
        raise ServiceError("error.not_running", status=Message(f"status.value.{game.status}"))
    _mark(svc, ctx, game, "pause", "paused")
    return Reply.say("gm.paused", name=game.name)


@command("gm resume", gm_only=True)
def gm_resume(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    if game.status != "paused":
        raise ServiceError("error.not_paused")
    rules = registry.get(game.kind)
    # what the game's turn driver caught up meanwhile (the draws of the pause...), each as its post
    posts = _mark(svc, ctx, game, "resume", derive_status(rules, rules.from_json(game.state), "running")).posts
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
    ended = _mark(svc, ctx, game, "end", "finished").game  # its recap, as a game ended by its rules posts it
    recap = presenter_for(ended.kind).recap(registry.get(ended.kind), scene_of(svc, ended, svc.channel_language(ctx)))
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
    waits = game.status != "setup" and driver_of(game.kind).waits_on_seats
    if waits and computer_module(game.kind) is None:
        # nobody could play the seat the game waits on: it would stall each turn until its deadline
        raise ServiceError("error.kick_needs_replacement", name=seat.actor)
    if not confirmed(game, opts):
        return confirmation(game, "kick", "gm kick", {"user": opts["user"]}, user=opts["user"], name=seat.actor)
    if game.status == "setup":
        svc.apply_input(ctx, game, "leave", seat.actor, {"id": seat.actor}, seats_removed=(seat.actor,))
        return Reply.say("gm.kicked", user=opts["user"], name=seat.actor)
    stand_in = _stand_in(game, seat.actor) if waits else None
    applied = svc.apply_input(ctx, game, "kick", seat.actor, {"user": opts["user"]}, seats_removed=[seat.actor],
                              options=stand_in, stale="error.conflict")
    reply = Reply.say("gm.kicked", user=opts["user"], name=seat.actor)
    if stand_in is not None:  # the computer plays the seat until `/gm replace` hands it to someone
        reply = Reply((*reply.messages, Message("gm.kicked_computer", {"name": seat.actor}),
                       *(m for post in applied.posts for m in post.messages)))
    return reply


def _stand_in(game: GameRecord, actor: str) -> Callable[[GameRecord], dict[str, Any]]:
    """A running game that waits on its seats (a deadline, a move clock) would wait for a kicked
    player until its deadline, every turn: its computer takes the seat, at the easiest level, until
    `/gm replace` gives it to a member. (Space Chess waits on nobody: its seat just stays free.)"""
    level = tuple(computer_module(game.kind).LEVELS)[0]
    return lambda fresh: with_computer(fresh.options, actor, level)


@command("gm replace", Option("character", required=True, max_length=32), Option("user", "user", required=True),
         Option("confirm", "integer"), gm_only=True)
def gm_replace(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Hand a character to a member (a computer playing it stops). A GM handing it to themself will
    read what only that seat reads (its sealed orders, its powers): asked to confirm first; the
    history names them as the GM who handed it and the member who got it."""
    game = svc.channel_game(ctx)
    require_not_finished(game)
    rules = registry.get(game.kind)
    presenter = presenter_for(game.kind)
    # by any case, any accents, a side by its words in either language too (Bleu)
    actors = {name_key(typed): a for typed, a in typed_actors(game.kind, rules, rules.from_json(game.state)).items()}
    actor = actors.get(name_key(opts["character"]))
    if actor is None:
        raise ServiceError("error.unknown_character", name=opts["character"])
    state = rules.from_json(game.state)
    other = svc.store.seat_of_user(game.id, opts["user"])
    if other is not None and not holds(rules, state, other.actor, actor):
        raise ServiceError("error.user_already_plays", user=opts["user"], name=other.actor)
    themself = opts["user"] == ctx.user_id
    if themself and not confirmed(game, opts):
        return confirmation(game, "replace_self", "gm replace", {"character": actor, "user": ctx.user_id}, name=actor)

    # whoever plays the character now leaves it: a member or a computer seated under the name they
    # joined with (a side's player: `holds`), the new member's seat being the character's own
    held = holders(svc.store.seats(game.id), computers_of(game.options), rules, state, actor)
    svc.apply_input(ctx, game, "replace", actor, {"user": opts["user"]},
                    seats_set=lambda fresh: [SeatRecord(fresh.id, opts["user"], actor, False)],
                    seats_removed=[name for name in held.seats if name != actor],
                    options=(lambda fresh: without_computers(fresh.options, held.computers)) if held.computers else None,
                    stale="error.stale_confirmation" if themself else "error.conflict")
    return Reply.say("gm.replaced", user=opts["user"], name=presenter.actor_name(rules, actor))


@dataclass(frozen=True)
class Holders:
    """The seats' and computers' names playing one character (`holders`)."""

    seats: tuple[str, ...]
    computers: tuple[str, ...]


def holders(seats: Iterable[SeatRecord], computers: Mapping[str, str], rules: Any, state: Any, actor: str) -> Holders:
    """Who plays `actor` now, by the names they hold it under: the character itself, or the name they
    joined a side with (Arkeon's and HexArena's players join by name and play a side)."""
    return Holders(tuple(seat.actor for seat in seats if holds(rules, state, seat.actor, actor)),
                   tuple(name for name in computers if holds(rules, state, name, actor)))


def without_computers(options: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """The game's options with no computer playing under any of `names` (a side handed to a member)."""
    for name in names:
        options = with_computer(options, name, None)
    return options


@command("gm export", gm_only=True)
def gm_export(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Everything the game needs (setup, options, status, seats, log with times) and its public view,
    as one JSON file: a backup, an audit, and what `/gm import` reads. What the GM may not read
    leaves sealed (`bot.service.sealing`): the payloads of sealed inputs (orders not revealed yet)
    and, while the game runs, a seed that deals secrets — so the file tells nobody a secret, and
    imports back into this bot as the same game."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    with collector_paused():
        entries = svc.store.log(game.id)
        sealed, reader = sealed_seqs(rules, entries), reader_of(svc, ctx, game)
        hidden = {entry.seq for entry in entries if not reader.reads(rules, entry, sealed)}
        # a seed that deals secrets (SpaceBlast's powers) leaves only sealed while the game runs
        secret_seed = rules.seed_is_secret and game.status != "finished"
        key = svc.store.bot_key(KEY_NAME) if hidden or secret_seed else b""
        shown = [replace(entry, payload=seal_payload(key, entry.payload)) if entry.seq in hidden else entry
                 for entry in entries]
        document = export_document(game, shown, svc.store.seats(game.id), rules.view(rules.from_json(game.state)),
                                   sealed_seed=seal_seed(key, game.seed) if secret_seed else None)
        data = encode_export(document)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    messages = [Message("gm.exported", {"name": game.name})]
    if hidden:  # the turn's secret orders stay their owners' until the reveal
        messages.append(Message("gm.exported_sealed", {"n": len(hidden)}))
    return Reply(tuple(messages), files=(Attachment(f"{game.kind}-{game.id}-{stamp}.json", data),),
                 visibility=Visibility.PRIVATE)


@command("gm import", Option("file", "attachment", required=True), Option("name", max_length=NAME_MAX),
         Option("replace", "boolean"), gm_only=True, server_wide=True, binds_channel=True)
def gm_import(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Recreate an exported game in this channel: its log is replayed from its setup, and it keeps its
    options, status, seats (`/gm replace` hands a character to a member of this server) and history.
    The draws it already got are claimed with it, so it never gets them again."""
    with collector_paused():
        return _import(svc, ctx, opts)


def _import(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    replaced = ended_game_replaced(svc.store.game_in_channel(ctx.guild_id, ctx.channel_id), opts)
    file: Attachment = opts["file"]
    export = read_export(file.data, file.filename)
    name = validate_name(opts["name"]) if "name" in opts else export.name
    rules = registry.get(export.kind)
    export = unsealed(svc, export, file.filename)
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
        timers=lambda record: driver_of(export.kind).created_timers(svc, record),
    )
    svc.timers_changed()
    imported = Message("gm.imported", {"name": game.name, "inputs": len(inputs)})
    if replaced is None:
        return Reply((imported,))
    return Reply((imported, Message("game.created.replaced", {"name": replaced.name})))


def unsealed(svc: GameService, export: GameExport, filename: str) -> GameExport:
    """The export with what this bot sealed in it opened (its seed, sealed payloads); what does not
    open (sealed by another bot, or edited) is refused where it is."""
    if export.sealed_seed is None and not any(set(e.payload) == {SEALED} for e in export.log):
        return export
    key = svc.store.bot_key(KEY_NAME)

    def refused(where: str) -> ServiceError:
        return ServiceError("error.bad_export", file=filename, where=where, reason=Message("export.sealed"))

    seed = export.seed if export.sealed_seed is None else unseal_seed(key, export.sealed_seed)
    if seed is None:
        raise refused(SEALED_SEED_PATH)
    log = []
    for index, entry in enumerate(export.log):
        payload = unseal_payload(key, entry.payload)
        if payload is None:
            raise refused(f"log[{index}].payload")
        log.append(replace(entry, payload=payload) if payload is not entry.payload else entry)
    return replace(export, seed=seed, sealed_seed=None, log=tuple(log))


@command(
    "gm settings",
    Option("language", choices=("fr", "en")),
    Option("gm_role", "role"),
    Option("pings", choices=("players", "none", "all")),
    Option("log_channel", "channel"),
    Option("no_log_channel", "boolean"),
    server_wide=True,  # the GM role decides who GMs every game: not a game creator's to choose
    private=True,
)
def gm_settings(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Server settings: reply language, the GM role, who gets pinged on turn posts, and the GMs' log
    channel — where they are told what the bot cannot say in a game's own channel (it is gone, locked
    or closed to the bot: `bot.service.channels`)."""
    if ctx.guild_id is None:
        raise ServiceError("error.server_only")
    if "log_channel" in opts and opts.get("no_log_channel"):
        raise ServiceError("error.log_channel_both")
    changes = {}
    if "language" in opts:
        changes["language"] = opts["language"]
    if "gm_role" in opts:
        changes["gm_role_id"] = opts["gm_role"]
    if "pings" in opts:
        changes["ping_policy"] = opts["pings"]
    if "log_channel" in opts:
        changes["log_channel_id"] = opts["log_channel"]
    elif opts.get("no_log_channel"):
        changes["log_channel_id"] = None
    if changes and "language" not in changes:  # a first save keeps the language the bot spoke so far
        changes["language"] = svc.server_language(ctx.guild_id)
    settings = svc.store.set_guild_settings(ctx.guild_id, **changes) if changes else svc.store.guild_settings(
        ctx.guild_id)
    role = Message("word.none") if settings.gm_role_id is None else Message("gm.settings.role",
                                                                             {"role": settings.gm_role_id})
    log_channel = Message("word.none") if settings.log_channel_id is None else Message(
        "gm.settings.channel", {"channel": settings.log_channel_id})
    return Reply((Message("gm.settings", {"language": ChoiceText("language", settings.language), "role": role,
                                          "pings": ChoiceText("pings", settings.ping_policy),
                                          "log_channel": log_channel}),),
                 visibility=Visibility.PRIVATE)
