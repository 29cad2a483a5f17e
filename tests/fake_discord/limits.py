"""The limits Discord checks on a message that its OpenAPI description does not state.

The spec (tests/fake_discord/openapi.py) already bounds custom ids (100), labels (80), buttons per
row (5), select options (25) and each embed text; Discord also refuses more than 5 action rows, more
than 2,000 characters of content (the spec says 4,000: Nitro's limit, not a bot's), more than 6,000
characters over a message's embeds, and ``allowed_mentions`` that both parse a kind and list it.
Each is answered like the spec's own refusals: 400 / 50035 with the field's error tree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.fake_discord.openapi import Problem

CONTENT_MAX = 2000
ROWS_MAX = 5
EMBEDS_TOTAL_MAX = 6000
#: Discord's pins per channel: a pin beyond them is refused with 30003.
PINS_MAX = 250


def message_problems(body: Any, where: tuple[str, ...] = ()) -> list[Problem]:
    """What Discord refuses in a message body (a post, an edit, an interaction's message data)."""
    if not isinstance(body, Mapping):
        return []
    found: list[Problem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        found.append(((*where, "content"), "BASE_TYPE_MAX_LENGTH", f"Must be {CONTENT_MAX} or fewer in length."))
    components = body.get("components") or []
    if isinstance(components, list) and len(components) > ROWS_MAX:
        found.append(((*where, "components"), "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS_MAX} or fewer in length."))
    ids = [c.get("custom_id") for row in components if isinstance(row, Mapping)
           for c in row.get("components") or () if isinstance(c, Mapping) and c.get("custom_id")]
    if len(ids) != len(set(ids)):
        found.append(((*where, "components"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"))
    embeds = body.get("embeds") or []
    if isinstance(embeds, list) and sum(_embed_characters(e) for e in embeds) > EMBEDS_TOTAL_MAX:
        found.append(((*where, "embeds"), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"))
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, Mapping):
        parsed = set(mentions.get("parse") or ())
        for kind in ("users", "roles"):
            if kind in parsed and mentions.get(kind):
                found.append(((*where, "allowed_mentions"), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                              f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.'))
    return found


def _embed_characters(embed: Any) -> int:
    """Discord counts the title, description, field names and values, footer text and author name."""
    if not isinstance(embed, Mapping):
        return 0
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or ()
                 if isinstance(f, Mapping))
    total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    return total
