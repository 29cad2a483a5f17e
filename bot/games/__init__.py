"""The games the bot serves, and how each looks in it.

`GAMES` is the one static list: for each game, the module holding its rules, its presenter, its
command group and the turn driver that advances it. `check_games` imports and checks every part at
start, so a game missing a presenter or a command fails loudly then rather than playing with an
empty presenter. A new game adds one entry here and its own modules; the shared service, store,
status message and scheduler never name a game.

A presenter is presentation only (the rules stay in engine/): what a new game and a seat take, how
events read, which images follow an action, the board, sheet and status lines.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from bot.drivers import TurnDriver, driver_named
from bot.i18n import Count, Listing, add_strings_folder, catalog
from bot.service.history import details, payload_words
from bot.service.replies import Attachment, Button, Message, Reply, ServiceError, Visibility
from engine import registry
from engine.core.errors import OrderError
from engine.core.protocol import PUBLIC, Audience, Event, GameRules

if TYPE_CHECKING:
    from bot.service.commands import Option
    from bot.service.progress import Progress
    from bot.service.scene import Scene
    from bot.store.repo import LogRecord


def seated_player(players: Mapping[str, Any], side: str, seats: Mapping[str, int]) -> Any | None:
    """Who plays `side` as the status names them, where players join by name and play a side: the
    member a GM seated there (`/gm replace` seats them under the side itself, and the name another
    joined with is no longer the side's), else the name its player joined with, else None (nobody)."""
    return f"<@{seats[side]}>" if side in seats else players.get(side) or None


class Presenter:
    """Defaults that suit any game; a game's presenter overrides what differs.

    Every method that draws or words the game gets the *public* view or public events only: what
    it returns is shown to the whole channel.
    """

    kind: ClassVar[str] = ""
    #: options of the game's ``new`` command, beyond the name and the setup file every game takes
    create_options: ClassVar[tuple[Option, ...]] = ()
    #: options of the game's ``join`` command, beyond the name
    join_options: ClassVar[tuple[Option, ...]] = ()

    def create_document(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The setup document of a new game made from its ``new`` options (no setup file given)."""
        return {opt.name: options[opt.name] for opt in self.create_options if opt.name in options}

    def join_input(self, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The actor id a joining member takes and the payload of the game's ``join`` input."""
        name = str(options["name"])
        return name, {"id": name, **{k: v for k, v in options.items() if k != "name"}}

    def refusal_params(self, err: OrderError) -> dict[str, Any]:
        """Refusal parameters only this game uses, in words (the shared ones are worded already)."""
        return {}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        return [Message(f"event.{rules.name}.{e.kind}", dict(e.params)) for e in events]

    def read_orders(self, rules: GameRules, text: str) -> str:
        """Typed order text as the engine and the log take it: as typed by default; a game whose
        players write in their own words reads them into its canonical language here."""
        return text

    def order_suggestions(self, rules: GameRules, orders: Iterable[Any], language: str, typed: str) -> Iterable[str]:
        """What ``/<group> order`` suggests to a reader of `language`: the legal `orders` in the game's
        text, those starting with what was `typed` (case-insensitive)."""
        wanted = typed.strip().lower()
        return (text for text in map(rules.format_order, orders) if text.lower().startswith(wanted))

    def order_buttons(self, rules: GameRules, state: Any, actor: str) -> tuple[Button, ...]:
        """Buttons under an accepted order (SpaceBlast's "ready"): none by default."""
        return ()

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        """Images posted after an accepted input; `events` are the public ones."""
        return []

    def board(self, rules: GameRules, state: Any) -> list[Attachment]:
        """The board on demand (``/game board``), as everyone sees it."""
        return []

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        """One actor's sheet (``/game sheet``) as `viewer` may see it (`rules.view_for`): the public
        view unless the reader is the actor's owner in a game with secrets."""
        return Reply((Message("game.sheet.plain", {"id": actor}),))

    def seated_sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience,
                     seats: Mapping[str, int]) -> Reply:
        """`sheet` knowing who holds each seat (`seats`, as `seated_status_lines` takes them):
        `sheet` by default."""
        return self.sheet(rules, state, actor, language, viewer)

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        """The pinned status message's body under its header: every actor in a line."""
        return [Message("status.actor", {"id": actor}) for actor in rules.actors(state)]

    def seated_status_lines(self, rules: GameRules, state: Any, seats: Mapping[str, int]) -> list[Message]:
        """The status message's body knowing who holds each seat (`seats`: actor → member), for a game
        whose state may not know a member a GM seated (`/gm replace` changes no game state):
        `status_lines` by default; `seated_player` names a side's player."""
        return self.status_lines(rules, state)

    # -- words for the log, the end and the help
    #: whether `history_line` reads each input's public events (the history then replays the log)
    history_events: ClassVar[bool] = False
    #: sample option values for `/game help`'s examples of this game's commands, by command path
    examples: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    def history_line(self, rules: GameRules, entry: LogRecord, events: Sequence[Event], author: Message) -> Message:
        """One log entry as a sentence naming its `author`: the game's ``history.<game>.<kind>``,
        else the shared ``history.<kind>`` (join, order, pause...), filled from its payload; a kind
        nobody worded yet still reads as its name and values, never as JSON. `events` are the public
        events of the input (empty unless `history_events`, or for an undone input)."""
        params = {**payload_words(entry.payload), "actor": entry.actor, "author": author}
        for key in (f"history.{rules.name}.{entry.kind}", f"history.{entry.kind}"):
            if key in catalog("en"):
                return Message(key, params)
        return Message("history.input", {"author": author, "kind": entry.kind, "details": details(entry.payload)})

    def actor_name(self, rules: GameRules, actor: str) -> Any:
        """An actor as a sentence names it: a side in its words (``word.side.<side>``: Bleu), a
        character or a ship by its name."""
        key = f"word.side.{actor}"
        return Message(key) if key in catalog("en") else actor

    def side_name(self, rules: GameRules, side: str | int) -> Any:
        """A side or team as the game-over line names it: ``word.side.<side>`` where the catalog has
        it (Blue, Red), else the side as it is (a ship's name)."""
        key = f"word.side.{side}"
        return Message(key) if key in catalog("en") else str(side)

    # -- pictures that know their game: the name, the reader's language, what comes next, the history
    def images_for(self, rules: GameRules, state: Any, events: Sequence[Event], scene: Scene) -> list[Attachment]:
        """Images posted after an accepted input, with the `scene` to caption them: `images` by default."""
        return self.images(rules, state, events)

    def board_for(self, rules: GameRules, state: Any, scene: Scene, around: str | None = None) -> list[Attachment]:
        """``/game board``: `board` by default; `around` (an actor) asks for a close-up, which a game
        without one refuses rather than posting the whole board as if it were one."""
        if around is not None:
            raise ServiceError("error.board_around_unsupported")
        return self.board(rules, state)

    # -- alt text: what each image shows, for whoever cannot see it
    #: at most this many of the status lines (who is where, HP, ships) and of the events an image's
    #: alt text lists: a screen reader reads it whole, and Discord takes 1,024 characters
    alt_lines: ClassVar[int] = 8
    alt_events: ClassVar[int] = 3

    def game_word(self, rules: GameRules) -> Any:
        """The game's name as a sentence names it (``alt.game.<game>``: "Space Chess"), else its kind."""
        key = f"alt.game.{rules.name}"
        return Message(key) if key in catalog("en") else rules.name

    def image_description(self, rules: GameRules, state: Any, scene: Scene,
                          events: Sequence[Event] = (), shows: Message | None = None) -> Message:
        """The alt text every image of the game gets unless its presenter gave it one: the game and
        its name, the turn, what comes next (whose move, the next draw) or that it is over, what just
        happened (the first `alt_events` public `events`) and who is where (the first `alt_lines`
        status lines: places, HP, ships left). `state` None (a recap drawn from the history alone):
        the game and its name only. `shows` says first what kind of picture it is (``alt.shows.*``:
        an animation, charts), where it is no plain board."""
        params: dict[str, Any] = {"game": self.game_word(rules), "name": scene.name, "turn": "", "next": "",
                                  "happened": "", "pieces": "", "shows": shows or ""}
        if state is None:
            return Message("alt.image", params)
        turn = rules.turn_number(state)
        if turn:
            params["turn"] = Message("alt.turn", {"turn": turn})
        if rules.result(state).finished:
            params["next"] = Message("alt.over")
        elif scene.next:
            params["next"] = Message("alt.next", {"next": scene.next[:1].upper() + scene.next[1:]})
        said = self.describe(rules, events)
        if said:
            params["happened"] = Message("alt.happened", {"events": Listing(tuple(said[:self.alt_events]), separator=" "),
                                                          "more": _more(len(said) - self.alt_events, "events")})
        lines = self.status_lines(rules, state)
        if lines:
            params["pieces"] = Message("alt.pieces", {"lines": Listing(tuple(lines[:self.alt_lines]), separator=". "),
                                                      "more": _more(len(lines) - self.alt_lines, "lines")})
        return Message("alt.image", params)

    def described(self, files: Iterable[Attachment], rules: GameRules, state: Any, scene: Scene,
                  events: Sequence[Event] = ()) -> tuple[Attachment, ...]:
        """`files` with alt text: each picture without its own gets `image_description` (worked out
        once, and only when one lacks it); a file that is no picture (a saved game) stays as it is."""
        files = tuple(files)
        if not any(is_picture(f) and f.description is None for f in files):
            return files
        default = self.image_description(rules, state, scene, events)
        return tuple(replace(f, description=default) if is_picture(f) and f.description is None else f
                     for f in files)

    def recap(self, rules: GameRules, scene: Scene) -> Reply:
        """``/game recap`` and the end-of-game post: charts of the game from `scene.history`."""
        return Reply((Message("game.recap.none", {"name": scene.name}),), visibility=Visibility.PRIVATE)

    def replay(self, rules: GameRules, scene: Scene, progress: Progress | None = None) -> Reply:
        """``/game replay``: the game so far as an animation, from `scene.history`; a game that draws
        one tells `progress` each frame drawn (done, total), for the member waiting on it."""
        return Reply((Message("game.replay.none", {"name": scene.name}),), visibility=Visibility.PRIVATE)


#: the files a presenter draws: these get alt text (`Presenter.described`)
PICTURE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")


def is_picture(file: Attachment) -> bool:
    return file.filename.lower().endswith(PICTURE_SUFFIXES)


def _more(hidden: int, what: str) -> Any:
    """"And 3 more events." after a list of `what` cut short, nothing after a whole one."""
    return Message(f"alt.more_{what}", {"count": Count(hidden, f"alt.count.{what}")}) if hidden > 0 else ""


class GameSetupError(RuntimeError):
    """A game of the list lacks a part: a deployment mistake, said at start."""


@dataclass(frozen=True)
class GameEntry:
    """One game of the bot: where its parts live. Modules are imported by `check_games`."""

    kind: str  # the rules' registry name, stored in the database
    group: str  # its slash command group: ``/sc``
    rules: str  # the module that registers its rules in engine.registry
    presenter: str  # the module that registers its presenter
    commands: str  # the module that declares its group's own commands
    driver: str  # what advances it: a name in bot.drivers.DRIVERS
    computer: str = ""  # the module of its computer players (bot.service.computers), if it has any
    #: its ``spacechess demo`` script as ``package:file`` (the setup files it names sit beside it), if any
    demo: str = ""


GAMES: tuple[GameEntry, ...] = (
    GameEntry("spacechess", "sc", "engine.spacechess", "bot.games.spacechess", "bot.games.spacechess.commands",
              "lottery", demo="bot.demo:campaign.txt"),
    GameEntry("spaceblast", "sb", "engine.spaceblast", "bot.games.spaceblast", "bot.games.spaceblast.commands",
              "deadline", "bot.games.spaceblast.computer", demo="bot.demo:spaceblast.txt"),
    GameEntry("arkeon", "ak", "engine.arkeon", "bot.games.arkeon", "bot.games.arkeon.commands", "clock",
              "bot.games.arkeon.computer", demo="bot.demo:arkeon.txt"),
    GameEntry("hexarena", "hx", "engine.hexarena", "bot.games.hexarena", "bot.games.hexarena.commands", "clock",
              "bot.games.hexarena.computer", demo="bot.demo:hexarena.txt"),
)

_entries: dict[str, GameEntry] = {game.kind: game for game in GAMES}
_presenters: dict[str, Presenter] = {}
#: more games to serve beside the shipped ones: ``module:NAME`` items (comma-separated), each naming
#: a `GameEntry` or a tuple of them — a game that lives outside this package (the test-only games)
EXTRA_GAMES_ENV = "SPACECHESS_GAMES"
_extras_loaded = False


def words_folder(entry: GameEntry) -> Path:
    """Where a game keeps its own words (``strings.<language>.json``): beside its presenter, whose
    module is found without being run (it imports the game's renderers)."""
    spec = importlib.util.find_spec(entry.presenter)
    if spec is None or spec.origin is None:
        raise GameSetupError(f"game {entry.kind!r}: cannot find its presenter module {entry.presenter!r}")
    return Path(spec.origin).parent


def _list(entry: GameEntry) -> None:
    _entries[entry.kind] = entry
    add_strings_folder(words_folder(entry))


for _game in GAMES:
    add_strings_folder(words_folder(_game))


def _load_rules() -> None:
    """The rules module of every game served, imported: each registers its rules class."""
    for entry in games():
        importlib.import_module(entry.rules)


registry.set_loader(_load_rules)


def rules_named(name: str) -> GameRules:
    """The rules of a game this bot serves, by name or alias (`engine.registry` learns which games
    exist from this list); SetupError('unknown_game') for any other."""
    return registry.get(name)


def entries_named(spec: str) -> list[GameEntry]:
    """The entries a ``module:NAME,module:NAME`` text names (`EXTRA_GAMES_ENV`'s value)."""
    found: list[GameEntry] = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        module, _, name = item.partition(":")
        try:
            value = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as err:
            raise GameSetupError(f"{EXTRA_GAMES_ENV}: cannot find {item!r}: {err}") from err
        listed = (value,) if isinstance(value, GameEntry) else tuple(value)
        if not all(isinstance(entry, GameEntry) for entry in listed):
            raise GameSetupError(f"{EXTRA_GAMES_ENV}: {item!r} is not a GameEntry nor a tuple of them")
        found.extend(listed)
    return found


def _with_extras() -> dict[str, GameEntry]:
    """The game list, with the games `EXTRA_GAMES_ENV` names added the first time it is read."""
    global _extras_loaded
    if not _extras_loaded:
        _extras_loaded = True
        for entry in entries_named(os.environ.get(EXTRA_GAMES_ENV, "")):
            _list(entry)
    return _entries


def register_presenter(presenter: Presenter) -> Presenter:
    _presenters[presenter.kind] = presenter
    return presenter


def add_game(entry: GameEntry) -> GameEntry:
    """One more game in the list, as it is (`bot.compose.serve_game` adds one checked whole)."""
    _list(entry)
    return entry


def remove_game(kind: str) -> None:
    _entries.pop(kind, None)
    _presenters.pop(kind, None)


def games() -> list[GameEntry]:
    return list(_with_extras().values())


def entry_for(kind: str) -> GameEntry:
    entries = _with_extras()
    entry = entries.get(kind)
    if entry is None:
        raise ServiceError("error.unknown_game", game=kind, known=", ".join(sorted(entries)))
    return entry


def driver_of(kind: str) -> TurnDriver:
    """What advances a game of `kind` (its entry names its driver)."""
    return driver_named(entry_for(kind).driver)


def presenter_for(kind: str) -> Presenter:
    presenter = _presenters.get(kind)
    if presenter is None:
        importlib.import_module(entry_for(kind).presenter)
        presenter = _presenters.get(kind)
    if presenter is None:
        raise GameSetupError(f"game {kind!r}: its presenter module does not register a presenter")
    return presenter
