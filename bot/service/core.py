"""The game service: commands in, engine calls, storage, replies out — no chat platform here.

Every change to a game goes through :meth:`GameService.apply_input`: load the snapshot, let the
engine decide, then commit snapshot + log entry in one transaction guarded by the game version.
A stale version (another process or a double click got there first) is retried once on fresh data
and then reported, so two writers can never both apply on the same version.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.drivers import driver_of
from bot.games import entry_for, games, presenter_for
from bot.i18n import catalog, language_of
from bot.service.checkpoints import Checkpoints
from bot.service.commands import COMPLETERS, MAX_CHOICES, READS_FILLED, coerce_options, table, unknown_command
from bot.service.computers import computers_of, play_computers
from bot.service.context import Context
from bot.service.game_over import Announcement, game_over
from bot.service.refusals import order_refusal
from bot.service.replies import Message, Reply, ServiceError, Visibility
from bot.service.secrecy import Reader, reader_of, undone_seqs
from bot.store.outbox import NewPost
from bot.store.repo import AlreadyClaimed, GameRecord, LogRecord, NewEntry, SeatRecord, StaleWrite, Store
from engine import registry
from engine.core.errors import OrderError, SetupError
from engine.core.protocol import EVERYONE, Event, GameRules, Outcome

log = logging.getLogger("spacechess.commands")



@dataclass(frozen=True)
class Applied:
    """An input the engine accepted and the store committed."""

    game: GameRecord
    outcome: Outcome
    rules: GameRules
    kind: str = ""  # the input's kind
    #: what the game's turn driver did next because of it (a turn resolved once all were ready...)
    posts: tuple[Reply, ...] = ()


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        default_language: str = "fr",
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    ) -> None:
        self.store = store
        #: the time turn drivers plan from (tests set their own)
        self.clock = clock
        self.default_language = default_language
        self.seed_source = seed_source
        #: called when a game's timers change, so that a running timer scheduler re-plans at once
        self.timer_listeners: list[Callable[[], None]] = []
        #: replayed states of the games asked about lately: a history page replays only its stretch
        self.checkpoints = Checkpoints()

    def timers_changed(self) -> None:
        for listener in self.timer_listeners:
            listener()

    # -- entry point -------------------------------------------------------------------------
    def handle(self, ctx: Context, path: str, raw_options: Mapping[str, Any] | None = None, *,
               shown_to: int | None = None) -> Reply:
        """Run one command for `ctx`; every refusal comes back as a private reply, never raised.

        A click on a button or menu passes the `shown_to` it carries: it runs only for that member
        (a confirmation is its asker's decision), anyone else is refused privately. Every button and
        menu of the reply is stamped with `ctx`'s member, so no handler can forget it.
        """
        started = time.perf_counter()
        game_id: int | None = None
        kind: str | None = None
        with self.store.request():  # one connection for the whole command, each record read once
            reply, game_id, kind = self._handle(ctx, path, raw_options, shown_to)
        elapsed = (time.perf_counter() - started) * 1000
        outcome = "ok" if reply.ok else f"refused:{reply.messages[0].key}"
        log.info("game=%s user=%s command=%r outcome=%s ms=%.1f", game_id, ctx.user_id, path, outcome, elapsed)
        return reply

    def _handle(self, ctx: Context, path: str, raw_options: Mapping[str, Any] | None,
                shown_to: int | None) -> tuple[Reply, int | None, str | None]:
        game_id: int | None = None
        kind: str | None = None
        try:
            if shown_to is not None and shown_to != ctx.user_id:
                raise ServiceError("error.not_your_component", user=shown_to)
            cmd = table().get(path)
            if cmd is None:
                raise unknown_command(path)
            options = coerce_options(cmd, raw_options or {})
            here = self.store.game_in_channel(ctx.guild_id, ctx.channel_id)
            game_id, kind = (here.id, here.kind) if here else (None, None)
            # a game's creator is GM of that game only: never of the server's settings or of a new game
            if cmd.gm_only and not self.is_gm(ctx, None if cmd.server_wide else here):
                raise ServiceError("error.server_gm_only" if self.is_gm(ctx, here) else "error.gm_only")
            reply = shown_to_caller(cmd.handler(self, ctx, options), ctx.user_id)
        except ServiceError as err:
            reply = Reply.refusal(err.key, **err.params)
        except OrderError as err:
            reply = order_refusal(err, presenter_for(kind).refusal_params if kind else None)
        except SetupError as err:
            reply = setup_refusal(err)
        return reply, game_id, kind

    def complete(self, ctx: Context, path: str, option: str, current: str,
                 filled: Mapping[str, Any] | None = None) -> list[str]:
        """Autocomplete suggestions starting with what the user typed (case-insensitive), at most 25;
        `filled` holds the command's other options typed so far, for completers that read them."""
        func = COMPLETERS.get((path, option))
        if func is None:
            return []
        try:
            if (path, option) in READS_FILLED:
                values = func(self, ctx, current, {k: v for k, v in (filled or {}).items() if k != option})
            else:
                values = func(self, ctx, current)
        except (ServiceError, OrderError, SetupError):
            return []  # no game here, not a player...: nothing to suggest
        typed = current.strip().lower()
        return [v for v in values if v.lower().startswith(typed)][:MAX_CHOICES]

    # -- helpers for handlers -----------------------------------------------------------------
    def language(self, ctx: Context) -> str:
        """The user's client language, else the server's setting, else the bot's default."""
        return language_of(ctx.locale, self.server_language(ctx.guild_id))

    def server_language(self, guild_id: int | None) -> str:
        """The language a server chose with `/gm settings`, else the bot's configured default."""
        if guild_id is not None:
            settings = self.store.guild_settings(guild_id)
            if settings.updated_at is not None:  # stored: a GM chose it (defaults are never stored)
                return settings.language
        return self.default_language

    def is_gm(self, ctx: Context, game: GameRecord | None = None) -> bool:
        """GMs: members who manage the server, holders of the GM role, and the creator of `game` — of
        that game only, so without a game (server-wide commands) a creator is a member like any other."""
        if ctx.manage_server or (game is not None and game.created_by == ctx.user_id):
            return True
        if ctx.guild_id is None:
            return False
        role = self.store.guild_settings(ctx.guild_id).gm_role_id
        return role is not None and role in ctx.role_ids

    def channel_game(self, ctx: Context) -> GameRecord:
        game = self.store.game_in_channel(ctx.guild_id, ctx.channel_id)
        if game is None:
            # each game has its own `new`: name them all, the channel has no game to choose one
            raise ServiceError("error.no_game_here", commands=[f"`/{entry.group} new`" for entry in games()])
        return game

    def actor_of(self, ctx: Context, game: GameRecord) -> str:
        seat = self.store.seat_of_user(game.id, ctx.user_id)
        if seat is None:
            raise ServiceError("error.not_a_player", command=f"/{entry_for(game.kind).group} join")
        return seat.actor

    def new_seed(self) -> int:
        return self.seed_source()

    def apply_input(
        self,
        ctx: Context | None,
        game: GameRecord,
        kind: str,
        actor: str | None,
        payload: Mapping[str, Any],
        *,
        seats_set: Callable[[GameRecord], Sequence[SeatRecord]] = lambda _g: (),
        seats_removed: Sequence[str] = (),
        check: Callable[[GameRecord], None] = lambda _g: None,
        claims: Sequence[str] = (),
        computers: bool = True,
        options: Callable[[GameRecord], dict[str, Any]] | None = None,
        outbox: Callable[[Applied], Sequence[NewPost]] | None = None,
    ) -> Applied:
        """Apply one input to the game and commit it; on a stale version, once more on the fresh game.

        `check` re-validates service-level preconditions on the fresh record at each attempt (the
        game may have been paused or finished by the writer that beat us). An ended game takes no
        input at all, whatever its snapshot says (`/gm end` leaves the snapshot as it was).
        Without `ctx` the bot itself gives the input (a turn driver's resolution, a timeout), with
        `claims` taken in the same transaction so it happens once across processes
        (`AlreadyClaimed` when another process did it first). Computer seats the game now waits
        for then play (`bot.service.computers`), unless this is one of their own inputs.

        The first attempt uses the record the caller read (no second read in the common case). The
        retry reads the game again inside the transaction of its commit, holding it (a row lock on
        PostgreSQL, the write lock on SQLite): players ordering at the same moment wait their turn
        instead of being refused; `error.conflict` is left for a game that vanished or a unique key
        taken meanwhile.
        """
        rules = registry.get(game.kind)
        user_id = ctx.user_id if ctx else None

        def attempt(current: GameRecord) -> tuple[GameRecord, Outcome]:
            require_not_finished(current)
            check(current)
            outcome = rules.apply_input(rules.from_json(current.state), kind, actor, payload)
            committed = self.store.commit(
                current.id,
                current.version,
                state=rules.to_json(outcome.state),
                entries=[NewEntry(kind=kind, actor=actor, user_id=user_id, payload=dict(payload))],
                status=derive_status(rules, outcome.state, current.status),
                seats_set=seats_set(current),
                seats_removed=seats_removed,
                claims=claims,
                options=options(current) if options else None,
                # the channel posts of a change nobody asked for (a deadline's resolution), in its transaction
                outbox=outbox(Applied(current, outcome, rules, kind)) if outbox else (),
            )
            return committed, outcome

        try:
            committed, outcome = attempt(game)
        except AlreadyClaimed:
            raise
        except StaleWrite:
            try:
                with self.store.locked_game(game.id) as fresh:
                    if fresh is None:
                        raise ServiceError("error.conflict") from None
                    committed, outcome = attempt(fresh)
            except AlreadyClaimed:
                raise
            except StaleWrite:
                raise ServiceError("error.conflict") from None
        applied = Applied(committed, outcome, rules, kind)
        posts = driver_of(committed.kind).after_commit(self, applied)
        if computers:  # the computers' own inputs do not start another round of them
            posts += play_computers(self, replace(applied, posts=tuple(posts)))
        return replace(applied, posts=tuple(posts)) if posts else applied

    def replay(self, game: GameRecord, log_entries: Iterable[LogRecord], skip: Iterable[int] = ()) -> Any:
        """Rebuild a game's state from its setup and its log, leaving out undone entries."""
        rules = registry.get(game.kind)
        return replay_inputs(rules, game.setup, game.seed, effective_inputs(rules, log_entries, skip))

    def describe(self, applied: Applied, ctx: Context | None = None) -> Reply:
        """The reply to an accepted input, by audience: the public events (and the images drawn
        from them) for the channel; the events only `ctx`'s member may read (their own, their
        side's, the GMs' for a GM) as the private aside; anyone else's, nowhere. Without `ctx` (a
        post nobody asked for) only the public part."""
        presenter = presenter_for(applied.rules.name)
        rules, state, events = applied.rules, applied.outcome.state, applied.outcome.events
        public = public_events(events)
        reader = reader_of(self, ctx, applied.game) if ctx is not None else Reader()
        own = [e for e in events if e.audience != EVERYONE and reader.sees(rules, state, e.audience)]
        messages = tuple(presenter.describe(rules, public))
        aside = tuple(presenter.describe(rules, own))
        from bot.service.scene import scene_of  # the scene module builds on this one

        language = self.language(ctx) if ctx is not None else None
        files = tuple(presenter.images_for(rules, state, public, scene_of(self, applied.game, language)))
        end = self.announce_end(applied) if rules.result(state).finished else Announcement()
        messages += end.messages
        mentions = end.mentions
        for post in applied.posts:
            messages += post.messages
            mentions += post.mentions
            files = post.files or files  # the latest board is the one worth showing
        if aside and not messages:  # nothing for the channel: the whole answer is private
            return Reply(aside, files=files, visibility=Visibility.PRIVATE)
        return Reply(messages, files=files, aside=aside, mentions=tuple(dict.fromkeys(mentions)))

    def announce_end(self, applied: Applied) -> Announcement:
        """The winners by name, pinged once, when `applied` ended its game (`bot.service.game_over`)."""
        game = applied.game
        pings = self.store.guild_settings(game.guild_id).ping_policy if game.guild_id is not None else "players"
        return game_over(presenter_for(game.kind), applied.rules, applied.outcome.state, self.store.seats(game.id),
                         computers_of(game.options), pings=pings)


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events everyone may read: what a channel post or a public image may show."""
    return [event for event in events if event.audience == EVERYONE]


def shown_to_caller(reply: Reply, user_id: int) -> Reply:
    """The reply with its buttons and menus bound to the member it answers (see `handle`)."""
    return replace(reply, buttons=tuple(replace(b, shown_to=user_id) for b in reply.buttons),
                   selects=tuple(replace(s, shown_to=user_id) for s in reply.selects))


#: longest value quoted back in a refusal: a document may hold a megabyte-long name
SHOWN_MAX = 100


def _shown(value: Any) -> Any:
    """A document's value as a refusal quotes it: long text or long lists cut, short ones as they are."""
    if isinstance(value, str | list | tuple | Mapping) and len(str(value)) > SHOWN_MAX:
        return str(value)[:SHOWN_MAX] + "…"
    return value


def setup_refusal(err: SetupError) -> Reply:
    """A document's fault, located and explained in the reader's language.

    The reason is the catalog's ``setup.<code>.<reason>`` (codes whose faults differ by their
    `reason` parameter) or ``setup.<code>``, filled with the error's parameters; a game whose code
    has no text yet still shows its bare code rather than failing.
    """
    params = {key: _shown(value) for key, value in err.params.items()}
    reason: Message | str = err.code
    for key in (f"setup.{err.code}.{err.params.get('reason')}", f"setup.{err.code}"):
        if key in catalog("en"):
            reason = Message(key, params)
            break
    if not err.where:
        return Reply.refusal("error.setup_document", reason=reason)
    return Reply.refusal("error.setup", where=_shown(err.where), reason=reason)


def effective_inputs(rules: GameRules, entries: Iterable[LogRecord], skip: Iterable[int] = ()) -> list[LogRecord]:
    """The log entries a replay applies: the game's inputs (not bookkeeping such as pauses or seat
    changes), less those undone (each undo entry names them) and those in `skip`."""
    entries = list(entries)
    skipped = set(skip) | undone_seqs(entries)
    return [e for e in entries if e.kind in rules.input_kinds and e.seq not in skipped]


def replay_inputs(rules: GameRules, setup: Mapping[str, Any], seed: int, entries: Iterable[LogRecord]) -> Any:
    """The state after applying `entries` in order to the game built from its setup document."""
    state = rules.setup(setup, seed)
    for entry in entries:
        state = rules.apply_input(state, entry.kind, entry.actor, entry.payload).state
    return state


def require_not_finished(game: GameRecord) -> None:
    """Ended is final: neither players, game masters nor an undo may change an ended game."""
    if game.status == "finished":
        raise ServiceError("error.game_over")


def derive_status(rules: GameRules, state: Any, current: str) -> str:
    """The game row's status after an input: paused stays paused, finished stays finished (a game
    ended by `/gm end` has a snapshot the engine still sees running); the engine decides the rest."""
    if current in ("paused", "finished"):
        return current
    return rules.result(state).status
