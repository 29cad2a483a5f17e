"""The slow path of a select menu, through the real bot process: a pick the bot cannot answer within
its budget is acknowledged with a deferred update (type 6), then ``PATCH @original`` redraws the
component's own message — the form edited in place, as on Discord, not a new message."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_deferral import interaction_calls
from tests.fake_discord.server import DEFERRED_UPDATE

SELECT = 3
#: The pick reached the bot 2.2 s after Discord created it: past the bot's 2 s for a direct answer.
LATE = 2.2


def menus(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row["components"] if c["type"] == SELECT]


def test_a_late_menu_pick_is_a_deferred_update_then_an_edit_of_the_form(fake, table, gm):
    table.ok(gm, "sc new", name="Orion")
    cid = fake.add_member("cid")
    table.ok(cid, "sc join", name="Cid", team="1", role="soldier")
    form = table.run(cid, "sc loadout")
    assert form.private and len(menus(form.message)) == 5, form.content
    weapon = menus(form.message)[0]

    interaction = fake.click(cid, form.message, weapon["custom_id"], values=["sniper"], locale=table.locale,
                             age=LATE)
    edited = table.answer(interaction)
    assert fake.acknowledged(interaction) == DEFERRED_UPDATE
    callback, *answers = interaction_calls(fake, interaction)
    assert callback.path.endswith("/callback") and callback.status == 200
    assert [(c.method, c.path.rsplit("/", 1)[-1], c.status) for c in answers] == [("PATCH", "@original", 200)]
    assert edited.message["id"] == form.message["id"], "the form's own message was edited"
    assert edited.private and "sniper" in edited.content
    redrawn = menus(fake.message(int(form.message["id"])))
    assert len(redrawn) == 5 and all("sniper" in m["custom_id"] for m in redrawn[1:]), "the menus carry the pick"

    # the redrawn form works on: the next pick, in time, updates it again
    armour = table.answer(fake.click(cid, edited.message, redrawn[1]["custom_id"], values=["light"],
                                     locale=table.locale))
    assert armour.message["id"] == form.message["id"] and "sniper" in armour.content
