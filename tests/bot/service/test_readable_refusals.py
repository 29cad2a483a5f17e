"""Refusals people can read (issue 9 point 13): no catalog key, code or Python repr reaches a player,
each `not_allowed` says which rule refused, and what a typo or an empty option was meant to be.

Every reply is rendered in both languages, the way the adapters show it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalog, translate
from bot.service import Attachment, GameService, Reply
from bot.service.refusals import order_refusal
from engine.core.errors import OrderError
from tests.bot.draws.games import GUILD, make_running_game
from tests.bot.service.test_spacechess_commands import ANN, CID, GM, lobby, ok

ROOT = Path(__file__).resolve().parents[3]
#: what leaked before: a catalog key, a Python repr of the parameters (`field='numbers'`)
LEAKS = re.compile(r"\b(?:error|setup|draw|ready|syntax|action|status)\.[a-z_.]+|\w+=['(]")
#: codes that were shown as they are: draw entry and map file codes, besides the engine's own
SHOWN_CODES = {"bad_count", "number_out_of_range", "duplicate_number", "map_bad_char", "map_ragged",
               "map_too_few_rows", "map_empty", "not_allowed", "bad_pickup", "cards:", "deploy:"}


@pytest.fixture
def svc(sqlite_store):
    return GameService(sqlite_store, seed_source=lambda: 99)


def texts(reply: Reply) -> dict[str, str]:
    """The refusal as each language shows it."""
    assert not reply.ok, reply.messages
    [message] = reply.messages
    return {lang: translate(message.key, lang, message.params) for lang in LANGUAGES}


def readable(reply: Reply, *fragments: str) -> dict[str, str]:
    """The refusal's texts, checked free of leaks, with `fragments` in the English one."""
    shown = texts(reply)
    for lang, text in shown.items():
        assert not LEAKS.search(text), (lang, text)
        assert "{" not in text, (lang, text)
        assert not [code for code in SHOWN_CODES if code in text], (lang, text)
    for fragment in fragments:
        assert fragment in shown["en"], shown["en"]
    return shown


def started(svc: GameService) -> GameService:
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    return svc


# -- every code and reason the engine raises has words ------------------------------------------------
_RAISE = re.compile(r'OrderError\(\s*"([a-z_]+)"([^)]*)\)', re.DOTALL)
_REASON = re.compile(r'reason="([a-z_]+)"')
#: codes the engine builds from a setup check's SetupError (loadouts, names, pickups)
_CONVERTED = {"bad_loadout", "bad_id", "bad_pickup", "unknown_key"}
#: `bad_drop` reasons passed through a variable (actions._take_pickup's `left`)
_DROP_REASONS = {"general", "same_weapon", "already_held", "full_hands", "needs_drop"}


def _engine_raises() -> set[tuple[str, str | None]]:
    found: set[tuple[str, str | None]] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        for code, rest in _RAISE.findall(path.read_text(encoding="utf-8")):
            reason = _REASON.search(rest)
            found.add((code, reason.group(1) if reason else None))
    return found


def test_every_engine_code_has_a_message():
    codes = {code for code, _ in _engine_raises()} | _CONVERTED
    assert sorted(c for c in codes if f"error.{c}" not in catalog("en")) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_reason_code_is_shown_as_it_is(language):
    """A reason either has its own sentence, or words shared with setup documents, or is not shown:
    a stand-in for the raw reason never appears in the text."""
    raised = _engine_raises() | {("bad_drop", reason) for reason in _DROP_REASONS}
    shown_raw = []
    for code, reason in sorted((c, r) for c, r in raised if r is not None):
        [message] = order_refusal(OrderError(code, reason=reason)).messages
        params = {**message.params}
        if params["reason"] == reason:
            params["reason"] = "RAW-REASON"
        if "RAW-REASON" in translate(message.key, language, params):
            shown_raw.append((code, reason))
    assert shown_raw == []


def test_not_allowed_has_one_sentence_per_reason():
    phases = {"not_started", "started"}  # rules._check_phase picks one of them
    reasons = sorted({r for code, r in _engine_raises() if code == "not_allowed" and r} | phases)
    assert {"self", "no_ability", "not_soldier_ally", "not_teammate", "not_enemy_soldier", "general_only",
            "not_deployed", "not_started", "started"} <= set(reasons)
    sentences = {catalog("en")[f"error.not_allowed.{r}"] for r in reasons}
    assert len(sentences) == len(reasons) and catalog("en")["error.not_allowed"] not in sentences


# -- the refusals a trial met -------------------------------------------------------------------------
def test_each_refused_order_says_which_rule_refused_it(svc):
    lobby(svc)
    readable(svc.handle(CID, "sc move", {"to": "L3"}), "in preparation", "Giving orders", "/gm start")
    ok(svc.handle(GM, "gm start", {}))
    readable(svc.handle(CID, "sc deploy", {"cell": "M2"}), "running", "Deploying", "before the start")
    readable(svc.handle(CID, "sc shoot", {"target": "Cid"}), "yourself")
    readable(svc.handle(CID, "sc power", {"power": "heal", "target": "Ann"}), "Only a general", "heal")
    readable(svc.handle(CID, "sc ability", {"ability": "friendship", "target": "Ann"}), "friendship ability")
    readable(svc.handle(ANN, "sc power", {"power": "heal", "target": "Bob"}), "Bob is not in your team")
    readable(svc.handle(ANN, "sc power", {"power": "intimidate", "target": "Cid", "cell": "L3"}),
             "Cid is not an enemy soldier")
    french = texts(svc.handle(CID, "sc power", {"power": "heal", "target": "Ann"}))["fr"]
    assert french == "Seul un général peut utiliser soin."


def test_start_says_what_each_character_still_has_to_do(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldier"}))
    shown = readable(svc.handle(GM, "gm start", {}), "team 2: nobody plays its general yet",
                     "Ann: no cards, not deployed",
                     "Cid: no cards, no weapon, no armour, no ability, no items")
    assert "Cid : pas de cartes, pas d’arme" in shown["fr"]
    assert "cards:" not in shown["en"] and "deploy:" not in shown["fr"]


def test_an_obstacle_is_named_as_such(svc):
    started(svc)
    ok(svc.handle(GM, "sc set", {"character": "Cid", "ap": 9, "reason": "test"}))
    for reply in (svc.handle(CID, "sc move", {"to": "J7"}),
                  svc.handle(GM, "sc pickup", {"cell": "J7", "kind": "ap", "amount": 2})):
        shown = readable(reply, "J7 is an obstacle")
        assert "No free path" not in shown["en"] and "obstacle" in shown["fr"]


def test_a_bad_pickup_and_a_bad_gm_value_say_what_is_allowed(svc):
    started(svc)
    shown = readable(svc.handle(GM, "sc pickup", {"cell": "K3", "kind": "item", "name": "zzz"}),
                     "Invalid pickup", "zzz is not one of: grenades, jetpack")
    assert shown["fr"].startswith("Bonus invalide")
    readable(svc.handle(GM, "sc set", {"character": "Ann", "ap": 50, "reason": "test"}), "from 0 to 9", "50")


def test_empty_options_and_unfinished_orders_say_what_was_expected(svc):
    started(svc)
    shown = readable(svc.handle(CID, "sc move", {"to": ""}), "Option `to` is empty", "Destination cell")
    assert "vide" in shown["fr"]
    readable(svc.handle(CID, "sc order", {"text": "   "}), "Option `text` is empty")
    readable(svc.handle(CID, "sc order", {"text": "move"}), "incomplete", "a cell such as K3 is missing")
    readable(svc.handle(CID, "sc order", {"text": "move K3 K4"}), "expected the end of the order, found `K4`")


def test_an_unknown_subcommand_is_named_with_the_closest_one(svc):
    readable(svc.handle(GM, "sc mvoe", {}), "`/sc mvoe`", "Did you mean `/sc move`?")
    shown = readable(svc.handle(GM, "sc nothing", {}), "`/sc nothing`", "/sc move", "/sc shoot")
    assert "Vouliez-vous" not in shown["fr"] and "/sc déployer" in shown["fr"]


def test_map_file_faults_are_located_sentences(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    faults = {
        "....\n..x.\n....\n....\n": ("line 2, column 3", "`x` is not a map character"),
        "....\n...\n....\n....\n": ("line 2, column 4", "every row has as many cells as the first"),
        "....\n....\n": ("line 3, column 1", "at least 4 rows"),
    }
    for text, fragments in faults.items():
        reply = svc.handle(GM, "sc map", {"file": Attachment("board.map", text.encode())})
        shown = readable(reply, *fragments)
        assert "map_" not in shown["fr"]


def test_typed_draw_numbers_that_are_no_draw_say_why(sqlite_store):
    from bot.service import Context

    service = GameService(sqlite_store)
    make_running_game(sqlite_store)
    gm = Context(user_id=42, user_name="gm", guild_id=GUILD, channel_id=1, manage_server=True)
    cases = {
        "3 12 19": "3 numbers were given",
        "3 3 19 33 45": "3 is given twice",
        "3 12 19 33 50": "50 (number 5) is not from 1 to 49",
    }
    for numbers, fragment in cases.items():
        shown = readable(service.handle(gm, "gm draw", {"numbers": numbers, "date": "2024-03-06"}), fragment)
        assert "bad_count" not in shown["en"] and "field=" not in shown["fr"]
    shown = readable(service.handle(gm, "gm draw", {"numbers": "3 12 19 33 45", "bonus": 12, "date": "2024-03-06"}),
                     "the complementary number 12 is also among the numbers")
    assert "le complémentaire 12" in shown["fr"]
