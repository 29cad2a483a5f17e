"""Refusals from below the service (an engine's `OrderError`: a code and parameters) as sentences a
player can act on.

Engines raise stable codes, and many codes cover several situations told apart by a ``reason``
parameter (``not_allowed`` alone covers a self-target, a missing ability, the wrong game phase...).
So the text is the catalog's ``error.<code>.<reason>`` when it exists, else ``error.<code>``, and
parameters holding rules identifiers or internal shorthands (a phase, a list of ``part:name``) are
turned into catalog fragments: a refusal never shows a code a player cannot read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.games import presenter_for
from bot.i18n import LANGUAGES, ChoiceText, Listing, OptionText, catalog, translate
from bot.service.replies import Message, Reply, ServiceError
from engine import registry
from engine.core.errors import OrderError, SetupError
from engine.core.names import closest_name

if TYPE_CHECKING:
    from bot.store.repo import GameRecord

#: parameters that hold a rules identifier, shown as its label (``psycho_brain`` → "psycho-boosted brain")
_IDENTIFIER_PARAMS = ("ability", "power", "item", "weapon", "role")
#: the engine's word for "the order text ended here" in ``bad_syntax`` (what was found instead of a token)
_END_OF_TEXT = "end"


def known(key: str) -> bool:
    """Whether the catalogs hold `key` (both hold the same keys: a test checks it)."""
    return key in catalog("en")


def refusal_key(err: OrderError) -> str:
    """``error.<code>.<reason>`` where the catalog words that reason, else ``error.<code>``."""
    base = f"error.{err.code}"
    if err.code == "bad_syntax" and err.params.get("got") == _END_OF_TEXT:
        return f"{base}.end"
    reason = err.params.get("reason")
    if isinstance(reason, str) and known(f"{base}.{reason}"):
        return f"{base}.{reason}"
    return base


def order_refusal(err: OrderError, game_shapes: Callable[[OrderError], dict[str, Any]] | None = None) -> Reply:
    """The private reply to a refused input, in words rather than codes; `game_shapes` (the game's
    presenter's `refusal_params`) words the parameters only that game uses. A refusal inside a batch
    (`engine.core.batch.in_batch`) says which order it was, and that none was applied."""
    if "batch_order" in err.params:
        params = dict(err.params)
        number, typed = params.pop("batch_order"), params.pop("batch_text")
        # the game may word the order in the reader's language (its log keeps its canonical text)
        typed = (game_shapes(err) if game_shapes is not None else {}).get("batch_text", typed)
        reason = order_refusal(OrderError(err.code, **params), game_shapes).messages[0]
        return Reply.refusal("error.in_batch", order=number, text=typed, reason=reason)
    params: dict[str, Any] = {key: _labelled(key, value) for key, value in err.params.items()}
    shape = _PARAM_SHAPES.get(err.code)
    if shape is not None:
        params.update(shape(err.params))
    if game_shapes is not None:
        params.update(game_shapes(err))
    reason = err.params.get("reason")
    if isinstance(reason, str) and known(f"setup.{err.code}.{reason}"):
        # checks shared with setup documents (loadouts, pickups) word their reason once, there
        params["reason"] = Message(f"setup.{err.code}.{reason}", dict(params))
    return Reply.refusal(refusal_key(err), **params)


def _labelled(key: str, value: Any) -> Any:
    if key in _IDENTIFIER_PARAMS and isinstance(value, str) and known(f"label.{value}"):
        return Message(f"label.{value}")
    return value


def _phase(params: Mapping[str, Any]) -> dict[str, Any]:
    """`not_allowed` in the wrong phase: the phase and the refused input in the reader's words."""
    shaped: dict[str, Any] = {}
    if isinstance(params.get("status"), str) and known(f"status.value.{params['status']}"):
        shaped["status"] = Message(f"status.value.{params['status']}")
    if isinstance(params.get("input"), str) and known(f"action.{params['input']}"):
        shaped["action"] = Message(f"action.{params['input']}")
    return shaped


def _syntax(params: Mapping[str, Any]) -> dict[str, Any]:
    """`bad_syntax`: what the order language expected there (``cell``, ``end of order``), in words."""
    expected = str(params.get("expected", "")).replace(" ", "_")
    return {"expected": Message(f"syntax.{expected}")} if known(f"syntax.{expected}") else {}


_PARAM_SHAPES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "not_allowed": _phase,
    "bad_syntax": _syntax,
}


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


#: refusals of a command's options: their ``option`` (``options``, ``known``: several) names an
#: option as the command declares it, and ``choices`` are values of that option
_OPTION_REFUSALS = ("option_", "missing_option", "missing_any_option", "unknown_option")
#: where the parameter is what the member typed, not an option of the command (kept as typed)
_TYPED_OPTION = ("error.unknown_option",)


def service_refusal(err: ServiceError, path: str = "") -> Reply:
    """The private reply to a refusal of the service. A refusal of the options of the command
    `path` names its options and their choices as the reader's Discord shows them (``L’option
    `équipe`…``, ``choix possibles : légère, moyenne, lourde``), whoever raised it: the shared
    checks or a game's handler, which give the names the command declares."""
    if not err.key.removeprefix("error.").startswith(_OPTION_REFUSALS):
        return Reply.refusal(err.key, **err.params)
    group = path.split()[0] if path else ""
    params = dict(err.params)
    option = params.get("option")
    for name in ("options", "known") + (() if err.key in _TYPED_OPTION else ("option",)):
        if name in params:
            params[name] = _named(params[name], OptionText)
    if "choices" in params and isinstance(option, str):
        params["choices"] = _named(params["choices"], lambda value: ChoiceText(option, value, group))
    return Reply.refusal(err.key, **params)


def _named(value: Any, wrap: Callable[[str], Any]) -> Any:
    """Each plain name of `value` (one, a list or a `Listing` of them) wrapped for the reader."""
    if isinstance(value, str):
        return wrap(value)
    if isinstance(value, Listing):
        return Listing(tuple(_named(item, wrap) for item in value.items), value.conjunction, value.separator)
    if isinstance(value, list | tuple):
        return [_named(item, wrap) for item in value]
    return value


#: the refusal of a name nobody in the game has, and its wording with the name it most likely meant
UNKNOWN_NAME, CLOSEST_NAME = "error.unknown_character", "error.unknown_character.suggest"


def with_closest_name(reply: Reply, names: Callable[[], Mapping[str, Any]]) -> Reply:
    """The refusal of an unknown name — whoever raised it: an engine resolving an order's target, a
    ship, a player, or the service a sheet's character — with the known name (`names`: each way to
    type one, with how a reply names it; read only then) it most likely meant, matched without case
    or accents (`closest_name`) and named in the reader's words: « Personnage inconnu : `Ursaa`.
    Vouliez-vous dire **Ursa** ? », « … `bleux`. Vouliez-vous dire **Bleu** ? ». In a batch, the
    refused order's reason."""
    if reply.ok or len(reply.messages) != 1:
        return reply
    message = _closest(reply.messages[0], names)
    return reply if message is reply.messages[0] else Reply.refusal(message.key, **message.params)


def _closest(message: Message, names: Callable[[], Mapping[str, Any]]) -> Message:
    reason = message.params.get("reason")
    if message.key == "error.in_batch" and isinstance(reason, Message):
        closer = _closest(reason, names)
        return message if closer is reason else Message(message.key, {**message.params, "reason": closer})
    typed = message.params.get("name")
    if message.key != UNKNOWN_NAME or not isinstance(typed, str) or not typed:
        return message
    known = names()
    close = closest_name(typed, known)
    return message if close is None else Message(CLOSEST_NAME, {**message.params, "suggestion": known[close]})


def names_in(game: GameRecord | None) -> dict[str, Any]:
    """Every name a member may type for someone of `game` — who gives orders (`typed_actors`) and the
    players by the names they joined with — each with how a reply names them (a side in the reader's
    words, `actor_name`)."""
    if game is None:
        return {}
    rules = registry.get(game.kind)
    state = rules.from_json(game.state)
    presenter = presenter_for(game.kind)
    names: dict[str, Any] = {typed: presenter.actor_name(rules, actor)
                             for typed, actor in typed_actors(game.kind, rules, state).items()}
    names.update({name: name for name in rules.players(state).values() if name and name not in names})
    return names


def typed_actors(kind: str, rules: Any, state: Any) -> dict[str, str]:
    """Each way a member may type one who gives orders (a character, a ship, a side — a side also in
    the words of each language: Bleu, Blue), with the actor it names."""
    typed: dict[str, str] = {}
    for actor in rules.actors(state):
        typed[actor] = actor
        shown = presenter_for(kind).actor_name(rules, actor)
        if isinstance(shown, Message):
            typed.update({translate(shown.key, language, shown.params): actor for language in LANGUAGES})
    return typed
