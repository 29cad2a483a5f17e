"""The secret links of the games' web pages: issued, shown again, revoked, and found from a token.

A link is a random 128-bit token (`secrets.token_urlsafe(16)`), one per game. A browser's token is
looked up by its SHA-256 (so the index compares digests, never the secret's own characters one by
one) and then compared to the stored token in constant time (`hmac.compare_digest`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from bot.store.db import writer
from bot.store.models import WebLink

if TYPE_CHECKING:
    from bot.store.repo import Store

_LINKS = WebLink.__table__  # type: ignore[attr-defined]
#: what `secrets.token_urlsafe(16)` makes: 22 characters of the URL-safe base64 alphabet
TOKEN_PATTERN = r"[A-Za-z0-9_-]{22}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_link(store: Store, game_id: int, user_id: int | None) -> str:
    """A new token for the game's page, replacing its old one (whose pages stop answering)."""
    token = secrets.token_urlsafe(16)
    values = {"token": token, "token_hash": _digest(token), "created_by": user_id, "created_at": dt.datetime.now(dt.UTC)}
    insert = (postgresql if store.engine.dialect.name == "postgresql" else sqlite).insert(_LINKS)
    with writer(store.engine).begin() as connection:
        connection.execute(insert.values(game_id=game_id, **values)
                           .on_conflict_do_update(index_elements=["game_id"], set_=values))
    return token


def link_of(store: Store, game_id: int) -> str | None:
    """The game's current token, if it has one."""
    with store.engine.connect() as connection:
        return connection.execute(select(_LINKS.c.token).where(_LINKS.c.game_id == game_id)).scalar()


def revoke_link(store: Store, game_id: int) -> bool:
    """The game's page closed; whether it had one."""
    with writer(store.engine).begin() as connection:
        return connection.execute(delete(_LINKS).where(_LINKS.c.game_id == game_id)).rowcount > 0


def game_of_token(store: Store, token: str) -> int | None:
    """The game whose page `token` opens, None for any other text (revoked, mistyped, guessed)."""
    with store.engine.connect() as connection:
        row = connection.execute(select(_LINKS.c.game_id, _LINKS.c.token)
                                 .where(_LINKS.c.token_hash == _digest(token))).first()
    if row is None or not hmac.compare_digest(row.token.encode(), token.encode()):
        return None
    return row.game_id
