"""Command, subcommand and option names are localised too: French players type /sc nouvelle, /sc portée."""

from __future__ import annotations

from bot.discord_adapter.payload import command_payload


def by_name(items: list[dict], name: str) -> dict:
    return next(item for item in items if item["name"] == name)


def test_french_names_for_groups_subcommands_and_options():
    payload = command_payload()
    game = by_name(payload, "game")
    assert game["name_localizations"]["fr"] == "partie"
    board = by_name(game["options"], "board")
    assert board["name_localizations"]["fr"] == "plateau"
    space_chess = by_name(payload, "sc")["options"]
    reach = by_name(space_chess, "reach")
    assert (reach["name_localizations"]["fr"], by_name(reach["options"], "character")["name_localizations"]["fr"]) == (
        "portée", "personnage")
    line = by_name(space_chess, "line")
    assert (line["name_localizations"]["fr"], by_name(line["options"], "shooter")["name_localizations"]["fr"]) == (
        "ligne", "tireur")
    new = by_name(space_chess, "new")
    assert (new["name_localizations"]["fr"], by_name(new["options"], "hp_soldier")["name_localizations"]["fr"]) == (
        "nouvelle", "pv_soldat")
    assert by_name(space_chess, "join")["name_localizations"]["fr"] == "rejoindre"
    move = by_name(space_chess, "move")
    assert (move["name_localizations"]["fr"], by_name(move["options"], "to")["name_localizations"]["fr"]) == (
        "déplacer", "vers")


def test_localised_names_are_unique_within_each_level():
    payload = command_payload()
    levels = [payload] + [group["options"] for group in payload]
    levels += [sub.get("options", []) for group in payload for sub in group["options"]]
    for level in levels:
        french = [item.get("name_localizations", {}).get("fr", item["name"]) for item in level]
        assert len(french) == len(set(french)), french
