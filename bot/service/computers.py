"""Computer players: seats the bot plays itself, at a level, in games that have a computer module.

A game's entry names its computer module (`GameEntry.computer`), which exposes ``LEVELS`` and
``choose(rules, state, actor, level, *, seed, stop) -> list[(kind, payload)]``: the inputs that
actor gives now (an alternating game's move; a simultaneous game's orders then "ready"), chosen
over `legal_orders` so they are always legal; a game that takes draw offers also has it judge one
(``accepts_draw``). The seats live in the game's options
(``computers: {actor: level}``); after every accepted input the service lets each computer the
game waits for play, as the bot, until a human is to play or the game ends.
"""

from __future__ import annotations

import datetime as dt
import importlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from bot.drivers import plays_as
from bot.games import entry_for
from bot.outbox import announce
from bot.service.effects import FollowUp
from bot.service.replies import ServiceError
from bot.store.repo import AlreadyClaimed
from bot.store.timer_rows import TimerPlan
from bot.worker_processes import spawned_pool
from engine import registry
from engine.core.drawoffer import ACCEPT, DECLINE
from engine.core.errors import OrderError

if TYPE_CHECKING:
    from bot.service.core import Applied, GameService
    from bot.store.repo import GameRecord
    from bot.store.timers import TimerRecord

log = logging.getLogger("spacechess.computers")

#: the time a computer may think per move (issue: at most 2 s on one core)
THINK_SECONDS = 2.0


def computer_module(kind: str) -> Any | None:
    module = entry_for(kind).computer
    return importlib.import_module(module) if module else None


#: the game option holding its computer seats
COMPUTERS = "computers"
#: the timer of a computer's turn (`computer_timers`)
COMPUTER = "computer"


def computers_of(options: dict[str, Any]) -> dict[str, str]:
    return dict(options.get(COMPUTERS, {}))


def with_computer(options: dict[str, Any], actor: str, level: str | None) -> dict[str, Any]:
    """The game's options with a computer playing `actor` at `level` (None: no computer plays it)."""
    seats = {name: held for name, held in computers_of(options).items() if name != actor}
    return {**options, COMPUTERS: seats if level is None else {**seats, actor: level}}


def computer_inputs(game: GameRecord, state: Any, think: float = THINK_SECONDS,
                    thinking: Executor | None = None) -> list[FollowUp]:
    """The inputs of the first computer seat `game` (its committed record, in `state`) waits for — none
    when a human is to play or the game is over — chosen on `thinking`'s workers when given (a
    process of its own: a search holds the interpreter's lock, and the bot's other players must not
    wait for it), else here. A computer that fails to choose is logged and leaves the game to a GM:
    the input that made it due is committed already, so its author must not read a refusal."""
    seats = computers_of(game.options)
    if not seats or game.status != "running":
        return []
    module = computer_module(game.kind)
    rules = registry.get(game.kind)
    answer = _draw_answer(rules, state, seats, module)
    if answer is not None:
        return [answer]
    turn = _computer_turn(rules, state, seats)
    if turn is None or module is None:
        return []
    actor, seated = turn
    search = (game.kind, game.state, actor, seats[seated], game.seed + game.version, think)
    try:
        inputs = choose(*search) if thinking is None else thinking.submit(choose, *search).result()
    except BrokenExecutor:
        raise  # its worker died: the turn is tried again (`ThinkingPool`), not given up
    except Exception:
        log.exception("game=%s: a computer player failed; the game waits for a GM", game.id)
        return []
    return [FollowUp(kind, actor, payload) for kind, payload in inputs]


def choose(kind: str, document: Any, actor: str, level: str, seed: int,
           think: float) -> list[tuple[str, dict[str, Any]]]:
    """One computer's search, from plain data (the game's kind and stored state), so that a worker
    process can run it: the module's ``choose`` within `think` seconds."""
    rules = registry.get(kind)
    deadline = time.monotonic() + think
    inputs: list[tuple[str, dict[str, Any]]] = computer_module(kind).choose(
        rules, rules.from_json(document), actor, level, seed=seed, stop=_past(deadline))
    return inputs


class ThinkingPool(Executor):
    """A worker process for the computers' searches, spawned (no copy of the event loop's threads) at
    the first search — a bot whose games have no computer never starts one — and warmed up then, the
    games' rules and computer modules loaded once. A worker that died (killed, out of memory) is
    replaced at the next search; the turn it was thinking fails with `BrokenExecutor` and its timer
    stays for the runner's next try. A bot that dies takes its worker with it (`spawned_pool`)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._lock:
            try:
                return self._started().submit(fn, *args, **kwargs)
            except BrokenExecutor:
                if self._pool is not None:
                    self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
                return self._started().submit(fn, *args, **kwargs)

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = spawned_pool(1, initializer=load_computers)
        return self._pool

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def load_computers() -> None:
    """Import every game's rules and computer module: a thinking process's warm-up."""
    for kind in registry.names():
        computer_module(kind)


def _computer_turn(rules: Any, state: Any, seats: dict[str, str]) -> tuple[str, str] | None:
    """The first actor the game waits for that a computer seat plays, with that seat."""
    return next(((actor, seated) for actor in rules.waiting_on(state) for seated in seats
                 if plays_as(rules, state, seated, actor)), None)


def computer_timers(change: Applied, now: dt.datetime) -> tuple[TimerPlan, ...]:
    """A computer's turn as a timer of the change that makes it due, due at once and written in that
    change's transaction (`COMPUTER`): the computer thinks after the commit, in the timer runner,
    never inside the command of the player who moved (whose answer must not wait for a search), and
    a crash between the two leaves the turn planned. Only games with computer seats have it; a change
    after which no computer is due cancels it."""
    game, state = change.game, change.outcome.state
    seats = computers_of(game.options)
    if not seats:
        return ()
    rules = change.rules
    due = game.status == "running" and (
        _asked_computer(rules, state, seats) or _computer_turn(rules, state, seats) is not None)
    if not due:
        return (TimerPlan.cancel(COMPUTER),)
    return (TimerPlan(COMPUTER, now, {"version": game.version + 1}),)  # the version its commit makes


def timer_handlers(svc: GameService, hooks: Any) -> dict[str, Callable[[TimerRecord, dt.datetime], None]]:
    """What a computer's turn does when its timer fires: choose on the game as it is, and give the
    inputs through the pipeline as the bot (`post`: its public replies go to the channel), the first
    one taking the timer's claim so exactly one process plays it. A turn planned for an earlier
    version is left alone: the change that moved the game on planned its own, if any."""

    def on_turn(timer: TimerRecord, now: dt.datetime) -> None:
        game = svc.store.get_game(timer.game_id)
        if game is None or game.status != "running" or game.version != timer.payload.get("version"):
            return
        inputs = computer_inputs(game, registry.get(game.kind).from_json(game.state), thinking=svc.thinking)
        for number, follow in enumerate(inputs):
            try:
                applied = svc.apply_input(None, game, follow.kind, follow.actor, follow.payload, post=True,
                                          claims=(timer.claim_key,) if number == 0 else (),
                                          stale="error.conflict")
            except AlreadyClaimed:
                return  # another process played it
            except ServiceError as refused:
                if refused.key != "error.conflict":
                    log.exception("game=%s: the computer's %s input failed", game.id, follow.kind)
                else:  # the game moved on while it thought (an order, a GM's pause): that change planned its own
                    log.info("game=%s: the game moved on while the computer thought", game.id)
                break
            except OrderError:  # it chose what the game does not take: a stuck game waits for a GM
                log.exception("game=%s: the computer's %s input failed", game.id, follow.kind)
                break
            game = applied.game
        announce(svc.store, hooks)

    return {COMPUTER: on_turn}


def _asked_computer(rules: Any, state: Any, seats: dict[str, str]) -> tuple[str, str, str] | None:
    """The side a pending draw offer asks, when a computer plays it: (side, seat, level)."""
    offered_by = rules.pending_draw_offer(state) if rules.draw_inputs else None
    if offered_by is None:
        return None
    asked = next((side for side in rules.actors(state) if side != offered_by), None)
    return next(((asked, actor, level) for actor, level in seats.items()
                 if asked is not None and plays_as(rules, state, actor, asked)), None)


def _draw_answer(rules: Any, state: Any, seats: dict[str, str], module: Any) -> FollowUp | None:
    """A draw offered to a side a computer plays is answered at once: accepted when the game's
    computer module says so (``accepts_draw(rules, state, side, level)``, which the start check
    requires of every computer module whose game takes draw offers), else declined."""
    asked = _asked_computer(rules, state, seats)
    if asked is None:
        return None
    side, actor, level = asked
    accepted = module is not None and module.accepts_draw(rules, state, side, level)
    return FollowUp(ACCEPT if accepted else DECLINE, actor)


def _past(deadline: float) -> Callable[[], bool]:
    return lambda: time.monotonic() >= deadline
