"""The game service: commands in, engine calls, storage, replies out — no chat platform here.

Every change to a game goes through :meth:`GameService.apply_input`: load the snapshot, let the
engine decide, let the game's driver plan its effects, then commit snapshot, log entry, timers and
posts in one transaction guarded by the game version.
A stale version (another process or a double click got there first) is retried once on fresh data
and then reported, so two writers can never both apply on the same version.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.exc import DBAPIError

from bot.games import driver_of, entry_for, games, is_picture, presenter_for
from bot.i18n import CommandText, language_of
from bot.outbox import post_of
from bot.service.checkpoints import Checkpoints
from bot.service.commands import (
    COMPLETERS,
    MAX_CHOICES,
    READS_FILLED,
    coerce_options,
    folded,
    table,
    unknown_command,
)
from bot.service.computers import computer_timers, computers_of
from bot.service.context import Context
from bot.service.effects import ChangePost, Effects
from bot.service.game_over import Announcement, game_over
from bot.service.permissions import require_channel_permissions
from bot.service.pings import muted_members, ping_policy, turn_ping
from bot.service.players_first import PlayersFirst
from bot.service.refusals import names_in, order_refusal, service_refusal, setup_refusal, with_closest_name
from bot.service.replaying import effective_inputs, public_events, replay_inputs
from bot.service.replies import Message, Reply, ServiceError, Visibility
from bot.service.scene import scene_of
from bot.service.secrecy import Reader, reader_of
from bot.store.outbox import NewPost
from bot.store.repo import AlreadyClaimed, GameRecord, LogRecord, NewEntry, SeatRecord, StaleWrite, Store
from engine import registry
from engine.core.errors import OrderError, SetupError
from engine.core.protocol import EVERYONE, GameRules, Outcome

log = logging.getLogger("spacechess.commands")

#: how many changes the command being handled committed so far (`GameService.handle` sets it per
#: command, in its own context: commands running in parallel threads each count theirs)
_INTERACTION_COMMITS: ContextVar[int] = ContextVar("interaction_commits", default=0)


def interaction_key(ctx: Context | None) -> str | None:
    """The claim of the next change a platform interaction causes: its first change claims the
    interaction itself, so that the same interaction delivered again (a gateway replaying events, a
    retry after an answer that never came) finds it taken and acts no more; its later changes
    (a command committing twice) claim a numbered key of their own."""
    if ctx is None or ctx.interaction_id is None:
        return None
    done = _INTERACTION_COMMITS.get()
    return f"interaction:{ctx.interaction_id}" + (f".{done}" if done else "")



@dataclass(frozen=True)
class Change:
    """One change as the pipeline takes it (`GameService.apply_input` says what each part does)."""

    kind: str
    actor: str | None
    payload: Mapping[str, Any]
    seats_set: Callable[[GameRecord], Sequence[SeatRecord]] = lambda _g: ()
    seats_removed: Sequence[str] = ()
    check: Callable[[GameRecord], None] = lambda _g: None
    claims: Sequence[str] = ()
    options: Callable[[GameRecord], dict[str, Any]] | None = None
    state: Callable[[GameRecord], Any] | None = None
    status: str | None = None
    stale: str | None = None
    reopen: bool = False
    #: a new setup document (another map before the start): the log replays from it from now on
    setup: dict[str, Any] | None = None
    #: the channel the game lives in from now on (`/gm move`), its owed posts with it
    channel: int | None = None


@dataclass(frozen=True)
class Applied:
    """A change the engine accepted and the store committed (`game` is the committed record; a
    driver planning the change's effects before the commit sees the record as it will be)."""

    game: GameRecord
    outcome: Outcome
    rules: GameRules
    kind: str = ""  # the change's kind: an input kind, or a bookkeeping kind (pause, undo...)
    #: the change's payload, for a driver planning from a bookkeeping change (a GM's clock extension)
    payload: Mapping[str, Any] = field(default_factory=dict)
    #: what followed from it, each applied through the pipeline after it (a turn resolved once all
    #: were ready, draws caught up on resume): their public replies, in order
    posts: tuple[Reply, ...] = ()
    #: the actors it handed the turn to, pinged in a channel post written with it (`Effects.turn`,
    #: the driver's call)
    turn: tuple[str, ...] = ()
    #: its channel post as its driver worded it (`TurnDriver.change_post`: a draw's turn post), for a
    #: caller answering with it; None for the pipeline's own (`describe`)
    own_post: Reply | None = None


#: seconds a commit whose outcome the database took with it (a restart) waits for the database to be back
#: and say: the member's interaction, deferred by then, has 15 minutes
OUTCOME_PATIENCE = 60.0
#: a safety net: inputs the bot gives in a row after one change (turns resolving one after another...)
MAX_CHAIN = 500


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
        #: where the computers search (`bot.service.computers.ThinkingPool`, set by the Discord
        #: adapter); None: in the timer runner's thread
        self.thinking: Executor | None = None
        #: the members' commands being served, which background passes give way to
        self.players = PlayersFirst()

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
        commits = _INTERACTION_COMMITS.set(0)
        try:
            with self.players.serving(), self.store.request():  # one connection for the whole command, each record read once
                reply, game_id, kind = self._handle(ctx, path, raw_options, shown_to)
            # its readers' language, decided here with what the command read (the member's settings
            # among them): the adapter renders it without reading them again (`Reply.language`)
                reply = replace(reply, language=self.language(ctx, reply.visibility),
                                aside_language=self.language(ctx) if reply.aside else None,
                                channel_game=self._channel_game(ctx) if reply.ok else None)
                reply = self._with_alt_text(ctx, reply)
        finally:
            _INTERACTION_COMMITS.reset(commits)
        elapsed = (time.perf_counter() - started) * 1000
        outcome = "ok" if reply.ok else f"refused:{reply.messages[0].key}"
        log.info("game=%s user=%s command=%r outcome=%s ms=%.1f", game_id, ctx.user_id, path, outcome, elapsed)
        return reply

    def _channel_game(self, ctx: Context) -> int | None:
        """The id of the channel's game after the command (a new one after `new`): read once more only
        when the command wrote since its first read."""
        game = self.store.game_in_channel(ctx.guild_id, ctx.channel_id)
        return game.id if game is not None else None

    def _with_alt_text(self, ctx: Context, reply: Reply) -> Reply:
        """`reply` with alt text on each of its pictures that its presenter did not describe: the
        game of the channel as it stands now (its name, turn, whose move, who is where), in the
        reply's language. Every picture a command answers with gets one, whichever command drew it."""
        if not any(is_picture(f) and f.description is None for f in reply.files):
            return reply
        game = self.store.game_in_channel(ctx.guild_id, ctx.channel_id)
        if game is None:
            return reply
        rules = registry.get(game.kind)
        state = rules.from_json(game.state)
        files = presenter_for(game.kind).described(reply.files, rules, state, scene_of(self, game, reply.language))
        return replace(reply, files=files)

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
            if cmd.binds_channel:  # before anything is read or built: a game the bot could not post for
                require_channel_permissions(ctx)
            reply = shown_to_caller(cmd.handler(self, ctx, options), ctx.user_id)
        except ServiceError as err:
            reply = service_refusal(err, path)
        except OrderError as err:
            reply = order_refusal(err, presenter_for(kind).refusal_params if kind else None)
        except SetupError as err:
            reply = setup_refusal(err)
        if not reply.ok and (key := interaction_key(ctx)) is not None and self.store.claim_taken(key):
            # refused because it acted already (`already joined`): the same interaction delivered again
            return Reply.refusal("error.already_done"), game_id, kind
        if not reply.ok:  # a name nobody here has: offer the one it most likely meant
            reply = with_closest_name(reply, lambda: names_in(self.store.game_in_channel(ctx.guild_id,
                                                                                        ctx.channel_id)))
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
        typed = folded(current)  # without case or accents, as names and choices are matched
        return [v for v in values if folded(v).startswith(typed)][:MAX_CHOICES]

    # -- helpers for handlers -----------------------------------------------------------------
    def language(self, ctx: Context, visibility: Visibility = Visibility.PRIVATE) -> str:
        """The language of what `ctx`'s member is answered, as Discord's idiom has it: what only they
        read (an ephemeral reply, an aside, a private image) in the language they chose
        (`/game settings language:`), else their client's, else the server's; what the channel
        reads (a public reply and its images) in the server's language whoever asked, so one
        channel never mixes languages — but for a member who is the channel's only reader (the
        console), who reads everything in theirs. A public reply reads no member's settings; a
        private one reads them once per command (`Store.member_settings`, remembered by the request)."""
        if visibility is Visibility.PUBLIC and not ctx.sole_reader:
            return self.server_language(ctx.guild_id)
        chosen = self.store.member_settings(ctx.user_id).language
        if chosen is not None:
            return chosen
        return language_of(ctx.locale, self.server_language(ctx.guild_id))

    def channel_language(self, ctx: Context) -> str:
        """The language of what `ctx`'s channel reads: a public reply, its images (`language`)."""
        return self.language(ctx, Visibility.PUBLIC)

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
            raise ServiceError("error.no_game_here", new=Message("name.sub.new"),
                               commands=[CommandText(f"{entry.group} new", code=True) for entry in games()])
        return game

    def actor_of(self, ctx: Context, game: GameRecord) -> str:
        seat = self.store.seat_of_user(game.id, ctx.user_id)
        if seat is None:
            raise ServiceError("error.not_a_player", command=CommandText(f"{entry_for(game.kind).group} join"))
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
        options: Callable[[GameRecord], dict[str, Any]] | None = None,
        state: Callable[[GameRecord], Any] | None = None,
        status: str | None = None,
        stale: str | None = None,
        post: bool = False,
        reopen: bool = False,
        setup: dict[str, Any] | None = None,
        channel: int | None = None,
    ) -> Applied:
        """The one path of every change to a game: a player's input, the bot's (a deadline, a
        timeout, a computer's move), and every GM action (start, pause, resume, end, kick, replace,
        undo, corrections). The engine applies an input of the game's `input_kinds` purely; a
        bookkeeping kind (pause, kick, undo...) keeps the state, or takes `state` (an undo's replay),
        and `status` forces the row's status (pause, resume, end). The game's driver then turns the
        outcome into effects as data (`TurnDriver.effects`): its timers are written in the change's
        own transaction with the log entry, snapshot, seats, options and `claims` (`AlreadyClaimed`
        when another process did it first), and the inputs that follow (a turn every seat is ready
        for) are applied after it, one by one, through this same path; the inputs `within` it (the
        end a lottery draw reaching the time limit causes, SC-31) are applied to its outcome before
        the commit, each logged as its own entry of that one commit. A computer's turn is a timer
        of the change that makes it due (`computer_timers`): it plays after the commit, in the timer
        runner, through this path again — never inside the command of the player who moved; the
        runner is woken once the outermost transaction commits (a caller's `Store.locked_game`
        block's end), when it can read the timer. With `post` (nobody to answer: a timer fired, a
        draw polled) every change's public reply is written to the outbox in its own commit; else
        the follow-ups' replies come back in `Applied.posts` for the caller. A driver may word a
        change's post itself (`TurnDriver.change_post`: a draw's turn post, with its board drawn
        when it is sent and its direct messages): it comes back in `Applied.own_post` either way.
        The log entry's `user_id` is `ctx`'s member (None: the bot's own change).

        `check` re-validates service-level preconditions on the fresh record at each attempt (the
        game may have been paused or finished by the writer that beat us). An ended game takes no
        change at all. The first attempt uses the record the caller read; on a stale version the
        change is tried once more on the game read again inside the transaction of its commit,
        holding it (a row lock on PostgreSQL, the write lock on SQLite), so players ordering at the
        same moment wait their turn — unless `stale` names the refusal to give instead (a GM's
        confirmation was shown for the version it read). `reopen` lets an undo take back the input
        that ended the game; `setup` replaces the setup document the log replays from; `channel` moves
        the game to another channel.
        `error.conflict` is left for a game that vanished, a unique key taken meanwhile, or a
        change still stale while holding the game.
        """
        first = self._commit_change(ctx, game, Change(kind, actor, payload, seats_set, seats_removed, check, claims,
                                                      options, state, status, stale, reopen, setup, channel), post)
        posts: list[Reply] = []
        queue = list(first[1].follow_ups)
        current = first[0]
        for _ in range(MAX_CHAIN):
            if not queue:
                break
            follow = queue.pop(0)
            try:
                current, effects = self._commit_change(None, current.game, Change(follow.kind, follow.actor,
                                                                                  follow.payload), post)
            except AlreadyClaimed:
                break  # another process gave it first: its writer goes on from there
            except (OrderError, ServiceError):
                # a follow-up the game no longer takes (a computer's failure): the change that made it
                # due is committed already, so its author must not read a refusal; a GM takes over
                log.exception("game=%s: the bot's %s input failed; the game waits for a GM", game.id, follow.kind)
                break
            queue = list(effects.follow_ups) + queue
            if not post:
                posts.append(self.describe(current))
        else:
            log.warning("game=%s: the bot stopped after %d inputs in a row", game.id, MAX_CHAIN)
        applied = first[0]
        posts += driver_of(applied.game.kind).catch_up(self, applied)  # the draws of a pause, on resume
        return replace(applied, posts=tuple(posts)) if posts else applied

    def _commit_change(self, ctx: Context | None, game: GameRecord, change: Change,
                       post: bool) -> tuple[Applied, Effects]:
        """One change, committed with its effects in one transaction (see `apply_input`)."""
        rules = registry.get(game.kind)
        user_id = ctx.user_id if ctx else None
        driver = driver_of(game.kind)
        interaction = interaction_key(ctx)

        def attempt(current: GameRecord) -> tuple[Applied, Effects]:
            if not change.reopen:  # an undo of the input that ended the game is the one way back
                require_not_finished(current)
            change.check(current)
            before = rules.from_json(current.state)
            if change.state is not None:
                outcome = Outcome(change.state(current), ())
            elif change.kind in rules.input_kinds:
                outcome = rules.apply_input(before, change.kind, change.actor, change.payload)
            else:  # bookkeeping (pause, kick...): the game itself is unchanged
                outcome = Outcome(before, ())
            new_status = change.status or derive_status(rules, outcome.state, current.status)
            new_options = change.options(current) if change.options else None
            # the record as the commit will leave it, for the driver to plan from
            pending = Applied(replace(current, status=new_status,
                                      options=current.options if new_options is None else new_options,
                                      channel_id=current.channel_id if change.channel is None else change.channel),
                              outcome, rules, change.kind, payload=change.payload)
            effects = driver.effects(self, pending)
            entries = [NewEntry(kind=change.kind, actor=change.actor, user_id=user_id, payload=dict(change.payload))]
            for inner in effects.within:  # part of the change: the same commit, an entry each
                more = rules.apply_input(outcome.state, inner.kind, inner.actor, inner.payload)
                outcome = Outcome(more.state, (*outcome.events, *more.events))
                entries.append(NewEntry(kind=inner.kind, actor=inner.actor, user_id=None, payload=dict(inner.payload)))
            if effects.within:
                new_status = change.status or derive_status(rules, outcome.state, current.status)
                pending = replace(pending, game=replace(pending.game, status=new_status), outcome=outcome)
            pending = replace(pending, turn=effects.turn)
            timers = effects.timers + computer_timers(pending, self.clock())
            # who is told of the turn: the seats as this change leaves them (a join that starts the game)
            seats = seats_after(self.store.seats(current.id), change.seats_set(current),
                                change.seats_removed) if effects.turn else ()
            own = driver.change_post(self, pending, later=post)
            committed = self._committed(
                interaction, current,
                current.version,
                state=rules.to_json(outcome.state),
                entries=entries,
                status=new_status,
                seats_set=change.seats_set(current),
                seats_removed=change.seats_removed,
                claims=(*change.claims, *((interaction,) if interaction else ())),
                options=new_options,
                setup=change.setup,
                channel_id=change.channel,
                # a change nobody asked for (a deadline's resolution) posts in the channel, in its
                # transaction; one that hands the turn over pings those it now waits on, with it
                outbox=self._posts(current, pending, seats, post, own),
                timers=timers,
            )
            return (Applied(committed, outcome, rules, change.kind, payload=change.payload, turn=effects.turn,
                            own_post=own.reply if own is not None else None),
                    replace(effects, timers=timers))

        try:
            applied, effects = attempt(game)
        except AlreadyClaimed as taken:
            if interaction in taken.keys:  # the same interaction again (a redelivery): it acted already
                raise ServiceError("error.already_done") from None
            raise
        except StaleWrite:
            if change.stale is not None:
                raise ServiceError(change.stale) from None
            try:
                with self.store.locked_game(game.id) as fresh:
                    if fresh is None:
                        raise ServiceError("error.conflict") from None
                    applied, effects = attempt(fresh)
            except AlreadyClaimed:
                raise
            except StaleWrite:
                raise ServiceError("error.conflict") from None
        if effects.timers:  # the runner reads them on its own connection: once they are there
            self.store.after_commit(self.timers_changed)
        if interaction:
            _INTERACTION_COMMITS.set(_INTERACTION_COMMITS.get() + 1)
        return applied, effects

    def _committed(self, interaction: str | None, game: GameRecord, version: int, **change: Any) -> GameRecord:
        """`Store.commit`; when the database goes away as it answers (a restart), the commit may have
        happened or not: a change that claimed its interaction asks the claim, and answers as
        committed when it was (the game as it is now), rather than refusing what was done. A database
        restarting is waited for (`OUTCOME_PATIENCE`): only it can tell."""
        try:
            return self.store.commit(game.id, version, **change)
        except DBAPIError:
            if interaction is None or not self.store.claim_taken(interaction, patience=OUTCOME_PATIENCE):
                raise
            log.warning("game=%s: the database went away as %s committed, which it did", game.id, interaction)
            # the request's connection went away with the database
            committed = self.store.fresh_game(game.id, patience=OUTCOME_PATIENCE)
            if committed is None:
                raise
            return committed

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
        language = self.channel_language(ctx) if ctx is not None else None  # the images are the channel's
        scene = scene_of(self, applied.game, language)
        files = presenter.described(presenter.images_for(rules, state, public, scene), rules, state, scene, public)
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

    def _posts(self, game: GameRecord, pending: Applied, seats: Sequence[SeatRecord], post: bool,
               own: ChangePost | None = None) -> list[NewPost]:
        """The channel posts a change writes with its commit: its public reply when nobody asked for
        it (`post`) — the one its driver worded (`own`), else `describe`'s — and the members it hands
        the turn to told (`Applied.turn`, its driver's call) — in that post, else in one of its own:
        a ping Discord notifies is a new message (a command's reply edits its "thinking…", and an edit
        notifies nobody), sent once, after the reply; or by direct message, for the members who chose
        it (`bot.service.dms`), those of `own` too, whether or not its reply is posted."""
        told, users, dms = turn_ping(self.store, pending.game, pending.rules, pending.outcome.state, pending.turn,
                                     seats=seats)
        if own is not None:
            dms = (*own.dms, *dms)
        if post:
            reply = self.describe(pending) if own is None else own.reply
            drawing = own.drawing if own is not None else None
            if told:
                reply = replace(reply, messages=reply.messages + told,
                                mentions=tuple(dict.fromkeys(reply.mentions + users)))
            return [post_of(game, reply, drawing=drawing), *dms]
        return ([post_of(game, Reply(told, mentions=users))] if told else []) + list(dms)

    def announce_end(self, applied: Applied) -> Announcement:
        """The winners by name, pinged once, when `applied` ended its game (`bot.service.game_over`)."""
        game = applied.game
        pings = ping_policy(self.store, game)
        seats = self.store.seats(game.id)
        muted = muted_members(self.store, seats) if pings != "none" else frozenset()
        return game_over(presenter_for(game.kind), applied.rules, applied.outcome.state, seats,
                         computers_of(game.options), pings=pings, muted=muted)


def seats_after(seats: Sequence[SeatRecord], seated: Sequence[SeatRecord], removed: Sequence[str]) -> list[SeatRecord]:
    """The game's seats as a change leaves them: `seated` taken (by actor), `removed` left."""
    taken = {seat.actor for seat in seated} | set(removed)
    return [seat for seat in seats if seat.actor not in taken] + list(seated)


def shown_to_caller(reply: Reply, user_id: int) -> Reply:
    """The reply with its buttons and menus bound to the member it answers (see `handle`); a button
    drawn for another member (a draw offer's answer, for the member asked) keeps its own."""
    return replace(reply, buttons=tuple(b if b.shown_to is not None else replace(b, shown_to=user_id)
                                        for b in reply.buttons),
                   selects=tuple(replace(s, shown_to=user_id) for s in reply.selects))


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
