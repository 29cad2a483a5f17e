"""Creating, joining, inspecting and rewinding games: the commands every game kind shares."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from typing import Any

from bot.drivers import driver_named, plays_as
from bot.games import GameEntry, entry_for, presenter_for
from bot.i18n import ChoiceText, CommandText, Count
from bot.service.checkpoints import replayed_events
from bot.service.commands import SETUP_MAX_BYTES, Option, command, table
from bot.service.computers import computer_module, computers_of, with_computer
from bot.service.context import Context
from bot.service.core import GameService, require_not_finished
from bot.service.history import author_of, entry_words
from bot.service.logpage import undo_targets
from bot.service.orders import register_order_command, resign_handler
from bot.service.replies import Attachment, Button, Message, Reply, ServiceError, Visibility
from bot.service.secrecy import reader_of
from bot.store.repo import GameRecord, LogRecord, NewEntry, SeatRecord
from engine import registry
from engine.core.documents import check_storable
from engine.core.errors import OrderError, SetupError
from engine.core.names import NAME_MAX, check_name, name_key


def validate_name(name: str) -> str:
    """Names shown in chat (games and characters): the engine's rule (`check_name`: 1-32 letters,
    digits, spaces, ``-`` ``'`` ``.``, NFKC-normalised), refused with the reason a person can act on."""
    try:
        return check_name(name)
    except SetupError as err:
        if err.params.get("reason") == "char":
            raise ServiceError("error.bad_name_char", char=err.params["char"]) from None
        raise ServiceError("error.bad_name_length", max=NAME_MAX) from None


def _setup_from_attachment(file: Attachment) -> dict[str, Any]:
    """A setup document typed by a GM: JSON for a ``.json`` file, else TOML; optionally under a
    ``setup`` table. Values no store keeps intact are refused here, with their key path, before the
    rules read the document, so a refusal never reaches the database."""
    text = file.data.decode("utf-8", errors="replace")
    try:
        doc = json.loads(text) if file.filename.lower().endswith(".json") else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as err:
        raise ServiceError("error.bad_setup_file", file=file.filename, reason=str(err)) from None
    except RecursionError:  # the parsers recurse once per nested table or list
        raise ServiceError("error.setup_too_deep", file=file.filename) from None
    if isinstance(doc, dict):
        doc = doc.get("setup", doc)
    if not isinstance(doc, dict):
        raise ServiceError("error.setup_not_table", file=file.filename)
    check_storable(doc)
    return doc


def declare_game_commands(entry: GameEntry) -> None:
    """A game's ``new``, ``join`` and ``order`` commands in its own group (``/sc new``...): their
    options are the game's own (its presenter's) and its turn driver's, so no game's words appear
    in another's commands. Called for every game of the list when the command table is built."""
    if f"{entry.group} new" in table(load=False):
        return
    presenter = presenter_for(entry.kind)
    driver = driver_named(entry.driver)

    def new(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        return create_game(svc, ctx, entry.kind, opts)

    def join(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        return join_game(svc, ctx, entry.kind, opts)

    command(f"{entry.group} new", Option("name", required=True, max_length=NAME_MAX, describe="opt.new.name"),
            *presenter.create_options, *driver.create_options,
            Option("setup", "attachment", max_bytes=SETUP_MAX_BYTES, describe="opt.new.setup"),
            Option("replace", "boolean", describe="opt.new.replace"),
            server_wide=True, binds_channel=True)(new)  # the creator of the channel's ended game is not a GM of the server
    command(f"{entry.group} join", Option("name", required=True, max_length=NAME_MAX),
            *presenter.join_options)(join)
    register_order_command(entry.group, entry.kind)
    if registry.get(entry.kind).resign_input is not None:  # a side may give the game up
        command(f"{entry.group} resign", Option("confirm", "integer"), describe="cmd.resign")(
            resign_handler(entry.kind, f"{entry.group} resign"))
    module = computer_module(entry.kind)
    if module is not None:
        def challenge(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
            return seat_computer(svc, ctx, entry.kind, opts["level"])

        command(f"{entry.group} challenge", Option("level", required=True, choices=tuple(module.LEVELS),
                                                    describe="opt.challenge.level"))(challenge)


def seat_computer(svc: GameService, ctx: Context, kind: str, level: str) -> Reply:
    """A computer player takes the next seat, at `level`: anyone in the channel may challenge the bot
    (the GM seats several, for a fuller game). It plays as soon as the game waits for it."""
    game = svc.channel_game(ctx)
    if game.kind != kind:
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    taken = {name_key(seat.actor) for seat in svc.store.seats(game.id)} | {
        name_key(actor) for actor in computers_of(game.options)}
    rules = registry.get(kind)
    state = rules.from_json(game.state)

    def clashes(name: str) -> bool:
        """Whether the game refuses the name as taken: a seat's, or one the game gave out itself
        (a player's ships, ``Computer 2`` being the second ship of ``Computer``)."""
        try:
            rules.apply_input(state, "join", *presenter_for(kind).join_input({"name": name}))
        except OrderError as err:
            return err.code == "duplicate_name"
        return False

    name = next(name for name in ("Computer", *(f"Computer {n}" for n in range(2, 100)))
                if name_key(name) not in taken and not clashes(name))
    actor, payload = presenter_for(kind).join_input({"name": name})

    def seated(fresh: GameRecord) -> dict[str, Any]:
        return with_computer(fresh.options, actor, level)

    applied = svc.apply_input(ctx, game, "join", actor, payload, options=seated)
    reply = svc.describe(applied, ctx)
    return replace(reply, messages=(Message("game.computer_joined", {"name": actor, "level": ChoiceText("level", level)}),
                                    *reply.messages))


def create_game(svc: GameService, ctx: Context, kind: str, opts: dict[str, Any]) -> Reply:
    """A new game of `kind` in this channel: from its setup file, or from the ``new`` options."""
    rules = registry.get(kind)
    current = svc.store.game_in_channel(ctx.guild_id, ctx.channel_id)
    replaced = _ended_game_replaced(current, kind, opts)
    name = validate_name(opts["name"])
    options = driver_named(entry_for(kind).driver).game_options(svc, opts)
    if "setup" in opts:
        document = _setup_from_attachment(opts["setup"])
    else:
        document = presenter_for(kind).create_document(opts)
    seed = svc.new_seed()
    state = rules.setup(document, seed)
    game = svc.store.create_game(
        kind=rules.name,
        name=name,
        guild_id=ctx.guild_id,
        channel_id=ctx.channel_id,
        setup=document,
        state=rules.to_json(state),
        seed=seed,
        created_by=ctx.user_id,
        status=rules.result(state).status,
        entries=[NewEntry("create", None, ctx.user_id, {"name": name, "kind": rules.name, "options": options})],
        options=options,
        timers=lambda record: driver_named(entry_for(kind).driver).created_timers(svc, record),
    )
    svc.timers_changed()
    created = Message("game.created", {"name": game.name, "kind": rules.name, "id": game.id})
    if replaced is None:
        return Reply((created,))
    return Reply((created, Message("game.created.replaced", {"name": replaced.name})))


def _ended_game_replaced(current: GameRecord | None, kind: str | None, opts: dict[str, Any]) -> GameRecord | None:
    """The channel's ended game a new one takes the place of, which the GM must ask for (`replace`):
    the channel's commands then reach the new game only, the old one staying in `/game list
    ended:true`. A game still played is never replaced. `kind` is the new game's (None: an import)."""
    if current is None:
        return None
    if current.status != "finished":
        raise ServiceError("error.channel_has_game")
    if not opts.get("replace"):
        if kind is None:
            raise ServiceError("error.channel_has_ended_game_import", name=current.name,
                               replace=Message("name.option.replace"))
        raise ServiceError("error.channel_has_ended_game", name=current.name,
                           new=CommandText(f"{entry_for(kind).group} new"), replace=Message("name.option.replace"))
    return current


def ended_game_replaced(current: GameRecord | None, opts: dict[str, Any]) -> GameRecord | None:
    """`_ended_game_replaced` for `/gm import`."""
    return _ended_game_replaced(current, None, opts)


def join_game(svc: GameService, ctx: Context, kind: str, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    if game.kind != kind:
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    opts = {**opts, "name": validate_name(opts["name"])}
    actor, payload = presenter_for(game.kind).join_input(opts)

    def check(fresh: Any) -> None:
        if svc.store.seat_of_user(fresh.id, ctx.user_id) is not None:
            raise ServiceError("error.already_joined")
        if any(name_key(seat.actor) == name_key(actor) for seat in svc.store.seats(fresh.id)):
            raise ServiceError("error.name_taken", name=actor)

    applied = svc.apply_input(
        ctx,
        game,
        "join",
        actor,
        payload,
        check=check,
        seats_set=lambda fresh: [SeatRecord(fresh.id, ctx.user_id, actor, False)],
    )
    reply = svc.describe(applied, ctx)
    return replace(reply, messages=(Message("game.joined", {"user": ctx.user_id, "name": actor}), *reply.messages))


@command("game info")
def game_info(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    lines = [
        Message(
            "game.info",
            {"name": game.name, "kind": game.kind, "status": Message(f"status.value.{game.status}"), "id": game.id,
             "turn": rules.turn_number(state)},
        )
    ]
    lines += _player_lines(svc, game, rules)
    if len(lines) == 1:
        lines.append(Message("game.info.no_players"))
    lines += driver_named(entry_for(game.kind).driver).info(game)
    result = rules.result(state)
    if result.finished:
        winner = Message("game.over.nobody") if result.winner is None else presenter_for(game.kind).side_name(
            rules, result.winner)
        lines.append(Message("game.info.winner", {"winner": winner}))
    return Reply(tuple(lines))


def _player_lines(svc: GameService, game: GameRecord, rules: Any) -> list[Message]:
    """Each seat with its member, then the characters nobody holds (a kicked member's, which stays
    on the board): marked as without a player, or as the computer's with its level. A side played
    under the name its player or computer joined with (Arkeon, HexArena: `plays_as`) is held; a
    side reads in the reader's words (Red, Rouge)."""
    state = rules.from_json(game.state)
    presenter = presenter_for(game.kind)
    seats = svc.store.seats(game.id)
    computers = computers_of(game.options)
    lines = [Message("game.info.seat", {"user": s.user_id, "actor": presenter.actor_name(rules, s.actor)})
             for s in seats]
    for actor in rules.actors(state):
        if any(holds(rules, state, seat.actor, actor) for seat in seats):
            continue
        computer = next((name for name in computers if holds(rules, state, name, actor)), None)
        lines.append(Message("game.info.unseated", {"actor": presenter.actor_name(rules, actor)}) if computer is None
                     else Message("game.info.computer", {"actor": presenter.actor_name(rules, computer),
                                                         "level": ChoiceText("level", computers[computer])}))
    return lines


def holds(rules: Any, state: Any, name: str, actor: str) -> bool:
    """Whether the seat or computer `name` plays `actor`: the same name, however it is cased or
    accented, or the side that name joined."""
    return name_key(name) == name_key(actor) or plays_as(rules, state, name, actor)


@command("game list", Option("ended", "boolean"))
def game_list(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The server's games being played; with `ended`, the ended ones too, with their channel."""
    statuses = ("setup", "running", "paused", *(("finished",) if opts.get("ended") else ()))
    games = svc.store.list_games(guild_id=ctx.guild_id, statuses=statuses)
    if not games:
        return Reply.say("game.list.empty")
    return Reply(
        tuple(
            Message("game.list.item", {"name": g.name, "kind": g.kind, "status": Message(f"status.value.{g.status}"), "channel": g.channel_id})
            for g in games
        )
    )


@command("gm undo", Option("n", "integer", min_value=1, max_value=50), Option("confirm", "integer"), gm_only=True)
def gm_undo(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Undo the last n game inputs by rebuilding the state from the log without them.

    The first call only shows what would be undone and a confirmation button; the button carries
    the game version it was shown for, so a click after anything else happened is refused. A game
    its rules ended (a general killed by a correction, a resignation) may be taken back too — the
    confirmation says it will be running again; one a GM ended with `/gm end` stays ended.
    """
    game = svc.channel_game(ctx)
    reopens = game.status == "finished"
    if reopens and svc.store.log(game.id, kinds={"end"}):
        require_not_finished(game)  # `/gm end` is final
    count = opts.get("n", 1)
    rules = registry.get(game.kind)
    # the preview reads the inputs it lists, from the end of the log (bot.service.logpage)
    targets, sealed = undo_targets(svc.store, rules, game.id, count)
    if not targets:
        raise ServiceError("error.nothing_to_undo")
    reader = reader_of(svc, ctx, game)
    presenter = presenter_for(game.kind)
    events = replayed_events(svc, game, [e.seq for e in targets]) if presenter.history_events else {}
    summary = [Message("gm.undo.entry", {"seq": e.seq, "text": entry_words(presenter, rules, e, events.get(e.seq, ()))
                                         if reader.reads(rules, e, sealed)
                                         else Message("history.sealed", {"author": author_of(rules, e)})})
               for e in targets]
    if "confirm" not in opts:
        button = Button(Message("button.confirm_undo", {"n": len(targets)}), "gm undo",
                        {"n": count, "confirm": game.version}, style="danger")
        asked = Message("gm.undo.confirm_reopen" if reopens else "gm.undo.confirm",
                        {"n": Count(len(targets), "word.actions")})
        return Reply((asked, *summary), buttons=(button,), visibility=Visibility.PRIVATE)
    if opts["confirm"] != game.version:
        raise ServiceError("error.stale_confirmation")
    state = svc.checkpoints.state_without(svc, game, [e.seq for e in targets])
    removed = [e.actor for e in targets if e.kind == "join" and e.actor]
    leaves = [e for e in targets if e.kind == "leave"]
    holders = svc.store.log(game.id, kinds={"join", "replace"}) if leaves else []
    restored = _seats_back(svc, game, holders, leaves, removed)
    # through the pipeline: the game's driver moves its clock or deadline to the state undone to
    applied = svc.apply_input(ctx, game, "undo", None, {"seqs": [e.seq for e in targets]}, state=lambda _g: state,
                              seats_removed=removed, seats_set=lambda _g: restored, stale="error.stale_confirmation",
                              reopen=reopens, status=rules.result(state).status if reopens else None)
    summary += [m for post in applied.posts for m in post.messages]
    return Reply((Message("gm.undo.done", {"n": Count(len(targets), "word.actions")}), *summary))


def _seats_back(svc: GameService, game: GameRecord, entries: list[LogRecord], leaves: list[LogRecord],
                removed: list[str]) -> list[SeatRecord]:
    """Undoing a leave (or a kick before the start) gives the character back to the member who held
    it then: the one who joined as it, or the last one `/gm replace` handed it to (`entries`: the
    log's joins and replacements). Refused when that member holds another seat that this undo does
    not free."""
    seats = []
    for leave in leaves:
        owner = None
        for entry in entries:
            if entry.seq >= leave.seq:
                break
            if entry.actor == leave.actor and entry.kind == "join":
                owner = entry.user_id
            elif entry.actor == leave.actor and entry.kind == "replace":
                owner = entry.payload.get("user")
        if owner is None:
            continue
        other = svc.store.seat_of_user(game.id, owner)
        if other is not None and other.actor != leave.actor and other.actor not in removed:
            raise ServiceError("error.undo_seat_taken", user=owner, name=leave.actor, other=other.actor)
        seats.append(SeatRecord(game.id, owner, leave.actor, False))
    return seats
