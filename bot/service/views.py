"""Looking at a game: board, sheets, history, help and rules — for every game kind."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.drivers import DRIVERS, driver_named
from bot.games import entry_for, games, presenter_for
from bot.i18n import Listing, choice_name, command_name, option_name, translate
from bot.service.checkpoints import replayed_events
from bot.service.commands import Option, command, completer, table
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.history import author_of, entry_words
from bot.service.logpage import history_page
from bot.service.refusals import typed_actors
from bot.service.replies import Button, Message, Reply, ServiceError, Visibility
from bot.service.rulebook import rules_pages
from bot.service.scene import scene_of
from bot.service.secrecy import Reader, reader_of
from bot.store.repo import GameRecord
from engine import registry
from engine.core.errors import SetupError
from engine.core.names import name_key
from engine.core.protocol import GM, PUBLIC, Audience, GameRules

HISTORY_PAGE = 10


@command("game board", Option("around", max_length=32, autocomplete=True))
def game_board(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The current board, as everyone sees it, with its context (each game's group has its own
    closer looks); `around:` a character (or "me") is a close-up of that part, for a phone."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    around = opts.get("around")
    if around is not None and around.strip().lower() in ("me", "moi"):
        around = svc.actor_of(ctx, game)
    files = presenter_for(game.kind).board_for(rules, state, scene_of(svc, game, svc.channel_language(ctx)), around)
    return Reply((Message("game.board", {"name": game.name, "turn": rules.turn_number(state)}),),
                 files=tuple(files))


@command("game sheet", Option("character", max_length=32))
def game_sheet(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A character's or side's sheet (one's own by default), as its game words and draws it: what
    `view_for` shows its reader (secrets only to their owner, privately)."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    wanted = opts.get("character") or svc.actor_of(ctx, game)
    actor = next((actor for typed, actor in typed_actors(game.kind, rules, state).items()
                  if name_key(typed) == name_key(wanted)), None)
    if actor is None and rules.side_of(state, wanted) in rules.actors(state):
        actor = rules.side_of(state, wanted)  # a player of a game whose actors are sides: their side
    if actor is None:
        raise ServiceError("error.unknown_character", name=wanted)
    viewer = sheet_viewer(rules, reader_of(svc, ctx, game), actor)
    language = svc.channel_language(ctx) if viewer == PUBLIC else svc.language(ctx)  # a private sheet: theirs
    seats = {seat.actor: seat.user_id for seat in svc.store.seats(game.id)}
    sheet = presenter_for(game.kind).seated_sheet(rules, state, actor, language, viewer, seats)
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
    """The log, newest first, a page at a time: who did what, when — the audit trail of a campaign,
    in sentences of the reader's language (`bot.service.history`). A sealed secret (an order not yet
    revealed) shows who gave it and when, never what it says, except to its owner."""
    game = svc.channel_game(ctx)
    lines, page, pages = history_lines(svc, game, reader_of(svc, ctx, game), opts.get("page", 1))
    header = Message("game.history.header", {"name": game.name, "page": page, "pages": pages})
    return Reply((header, *lines), visibility=Visibility.PRIVATE)


def history_lines(svc: GameService, game: GameRecord, reader: Reader, page: int,
                  size: int = HISTORY_PAGE) -> tuple[list[Message], int, int]:
    """One page of the game's history as `reader` may read it (newest first), with the page shown
    (clamped to the last) and the number of pages: `/game history`'s, and the web page's for a
    spectator (`Reader()`, who reads no sealed entry)."""
    rules = registry.get(game.kind)
    presenter = presenter_for(game.kind)
    # the page costs the page, not the log (bot.service.logpage)
    listing = history_page(svc.store, rules, game.id, page, size)
    sealed, undone = listing.sealed, listing.undone
    newest_first = listing.entries
    events = replayed_events(svc, game, [e.seq for e in newest_first]) if presenter.history_events else {}
    lines = []
    for entry in newest_first:
        params = {"seq": entry.seq, "time": f"<t:{int(entry.created_at.timestamp())}:R>"}
        if not reader.reads(rules, entry, sealed):
            lines.append(Message("game.history.sealed", {**params, "author": author_of(rules, entry)}))
            continue
        text = entry_words(presenter, rules, entry, events.get(entry.seq, ()))
        key = "game.history.undone" if entry.seq in undone else "game.history.entry"
        lines.append(Message(key, {**params, "text": text}))
    return lines, listing.page, listing.pages


#: sample values for the shared commands' examples in `/game help` (each game brings its own:
#: `Presenter.examples`); options without one take a value of their type (`_sample`)
SHARED_EXAMPLES: dict[str, dict[str, str]] = {
    "game board": {}, "game sheet": {"character": "Ann"}, "game history": {"page": "2"}, "game mine": {"page": "2"},
    "game rules": {"game": "spaceblast"}, "gm undo": {"n": "2"}, "gm kick": {"user": "@bob"},
    "gm replace": {"character": "Bob", "user": "@cid"}, "gm settings": {"language": "fr"},
    "gm import": {"file": "export.json"}, "gm draw": {"numbers": "3 12 19 33 45", "date": "2025-03-01"},
    "gm clock": {"extend": "24"}, "gm deadline": {"extend": "12"},
}
#: a value for an option nobody gave an example of, by its name, else by its type
_SAMPLE_NAMES = {"name": "Ann", "character": "Ann", "target": "Bob", "shooter": "Ann", "cell": "E5", "to": "E5",
                 "text": "…", "reason": "lag", "date": "2025-03-01"}
_SAMPLE_TYPES = {"boolean": "true", "user": "@ann", "role": "@gm", "attachment": "file.toml"}


#: commands one page of `/game help` lists (a page stays well within a Discord message's 2,000 characters)
HELP_PAGE = 12


@command("game help", Option("game", autocomplete=True, max_length=32), Option("page", "integer", min_value=1))
def game_help(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The commands of a game — the one named, else the channel's — then the shared ones, each with
    its options (``[optional:]``) and an example one can type as it is, in the names the reader's
    Discord shows (French players type ``/partie plateau``); every game's without a game here.
    Paged, with a button to the next page."""
    language = svc.language(ctx)
    kind = _help_kind(svc, ctx, opts.get("game"))
    examples = dict(SHARED_EXAMPLES)
    for entry in games():
        examples.update(presenter_for(entry.kind).examples)
    paths = help_paths(kind)
    pages = max(1, -(-len(paths) // HELP_PAGE))
    page = min(opts.get("page", 1), pages)
    lines = [Message("game.help.header", {"page": page, "pages": pages})]
    for path in paths[(page - 1) * HELP_PAGE: page * HELP_PAGE]:
        cmd = table()[path]
        typed = [opt for opt in cmd.options if not opt.internal]
        options = [Message("game.help.required" if opt.required else "game.help.optional",
                           {"name": option_name(opt.name, language)}) for opt in typed]
        sample = example(path, typed, examples.get(path, {}), language)
        lines.append(Message("game.help.entry" if typed else "game.help.bare",
                             {"command": "/" + command_name(path, language), "options": options or "",
                              "example": sample, "description": Message(cmd.description_key)}))
    if kind is not None and page == pages:  # the other games are one option away
        lines.append(Message("game.help.others", {"games": Listing(tuple(
            entry.kind for entry in games() if entry.kind != kind), conjunction=True)}))
    buttons = page_buttons("game help", {"game": kind or ""}, page, pages)
    return Reply(tuple(lines), buttons=buttons, visibility=Visibility.PRIVATE)


def page_buttons(path: str, options: Mapping[str, Any], page: int, pages: int) -> tuple[Button, ...]:
    """The buttons of a paged reply: to the previous and the next page, where there is one; each runs
    `path` again with `options` and its page."""
    return tuple(Button(Message(key, {"page": target}), path, {**options, "page": target}, style="secondary")
                 for key, target in (("button.page_previous", page - 1), ("button.page_next", page + 1))
                 if 1 <= target <= pages)


def _help_kind(svc: GameService, ctx: Context, named: str | None) -> str | None:
    """The game whose commands `/game help` shows: the one named, else the channel's, else none (all)."""
    if named:
        return entry_for(kind_named(named)).kind
    game = svc.store.game_in_channel(ctx.guild_id, ctx.channel_id)
    return game.kind if game is not None else None


def kind_named(named: str) -> str:
    """The game a `game:` option names, refused with the known games when it names none."""
    try:
        return registry.get(named).name
    except SetupError as err:
        raise ServiceError("error.unknown_game", **err.params) from None


def help_paths(kind: str | None) -> list[str]:
    """The commands `/game help` lists for `kind`: its group's first, then the shared ones (a turn
    driver's GM commands only for the games it drives); every command for no game."""
    owners = {entry.group: entry.kind for entry in games()}
    drivers = {driver_named(name).commands: name for name in DRIVERS if driver_named(name).commands}

    def shown(path: str) -> bool:
        if kind is None:
            return True
        owner = owners.get(path.split()[0])
        if owner is not None:
            return owner == kind
        driver = drivers.get(table()[path].handler.__module__)
        return driver is None or driver == entry_for(kind).driver

    paths = [path for path in sorted(table()) if shown(path)]
    return sorted(paths, key=lambda path: path.split()[0] not in owners)  # the game's own first, stable


def example(path: str, options: list[Option], given: Mapping[str, Any], language: str = "en") -> str:
    """A line one could type: the command, its required options and those the examples give (a
    value given as a catalog `Message` in the reader's words: ``déplace E5; tir Bob``; a choice as
    the reader's Discord lists it: ``niveau:facile``, a number as it is: ``équipe:1``)."""
    words = ["/" + command_name(path, language)]
    for opt in options:
        if opt.name in given or opt.required:
            value = given.get(opt.name) or _sample(opt)
            if isinstance(value, Message):
                value = translate(value.key, language, value.params)
            elif value in opt.choices and not value.isdigit():
                value = choice_name(opt.name, value, language, path.split()[0])
            name = option_name(opt.name, language)
            words.append(f'{name}:"{value}"' if " " in value or ";" in value else f"{name}:{value}")
    return " ".join(words)


def _sample(opt: Option) -> str:
    if opt.choices:
        return opt.choices[0]
    if opt.type == "integer":
        return str(opt.min_value if opt.min_value is not None else 1)
    return _SAMPLE_TYPES.get(opt.type) or _SAMPLE_NAMES.get(opt.name, "…")


@command("game rules", Option("game", autocomplete=True, max_length=32), Option("page", "integer", min_value=1))
def game_rules(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A game's rules — the channel's game, or the one named (any game of the bot) — in the reader's
    language, privately: first in short, then the rules document itself (`bot.service.rulebook`) a
    page at a time, with buttons to the previous and the next page."""
    kind = kind_named(opts["game"]) if "game" in opts else svc.channel_game(ctx).kind
    entry_for(kind)  # a game the engine knows but the bot does not serve has no rules to show
    document = rules_pages(kind, svc.language(ctx))
    pages = 1 + len(document)
    page = min(opts.get("page", 1), pages)
    body = Message(f"rules.{kind}") if page == 1 else Message("game.rules.text", {"text": document[page - 2]})
    header = Message("game.rules.header", {"game": kind, "page": page, "pages": pages})
    return Reply((header, body), buttons=page_buttons("game rules", {"game": kind}, page, pages),
                 visibility=Visibility.PRIVATE)


@completer("game board", "around")
def complete_around(svc: GameService, ctx: Context, current: str) -> list[str]:
    """"me", then the game's characters."""
    game = svc.channel_game(ctx)
    rules = registry.get(game.kind)
    return ["me", *rules.actors(rules.from_json(game.state))]


@completer("game rules", "game")
@completer("game help", "game")
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
