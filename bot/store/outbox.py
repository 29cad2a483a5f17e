"""The outbox: channel posts the bot owes, kept in the database until Discord has them.

A post nobody asked for (a turn post, a reminder, a game-master alert) is a row written in the very
transaction of the change that causes it (`Store.commit(outbox=...)`, `Store.claim(key, outbox=...)`),
so no crash can keep the change and lose its post. A sender (`bot.outbox`) reads the rows, takes a
short lease on the one it sends (so two processes sharing the database do not both send it), records
each posted part's message id, and marks the row sent. A crash after Discord accepted a part but
before its id was recorded resends that part with the same nonce, which Discord answers with the
message it already has (``enforce_nonce``).

Only the `bot.store` layer touches the table; this module needs no `Store` method, only its engine,
so `repo.py` can import `NewPost` and `insert_posts` without a cycle.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, case, delete, insert, or_, select, update

from bot.store.db import writer
from bot.store.models import OUTBOX_KINDS, OutboxRow

if TYPE_CHECKING:
    from bot.store.repo import Store

_OUTBOX = OutboxRow.__table__  # type: ignore[attr-defined]
#: Longest error text kept on a row (a Discord error body can be long).
ERROR_MAX = 500


@dataclass(frozen=True)
class NewPost:
    """A post to write with a change: where it goes and what it says (`payload`: JSON, made by
    `bot.outbox.encode_reply`)."""

    channel_id: int | None
    kind: str
    payload: dict[str, Any]
    game_id: int | None = None
    guild_id: int | None = None


@dataclass(frozen=True)
class OutboxRecord:
    id: int
    game_id: int | None
    guild_id: int | None
    channel_id: int | None
    kind: str
    payload: dict[str, Any]
    attempts: int
    next_attempt_at: dt.datetime
    message_ids: list[int] = field(default_factory=list)
    sent_at: dt.datetime | None = None
    last_error: str | None = None
    #: the cause of a refusal the game's GMs were told of (once per cause)
    refused: str | None = None
    created_at: dt.datetime | None = None
    #: the change that owes it (`OutboxRow.owed_by`): each owed post is written once
    owed_by: str | None = None

    @property
    def given_up(self) -> bool:
        """Done with, but never posted (Discord will not take it): `/gm posts` lists and retries it."""
        return self.sent_at is not None and (self.last_error or "").startswith(GAVE_UP)

    def nonce(self, part: int) -> str:
        """Discord's message nonce of one part (at most 25 characters): the same for every attempt,
        so a resend after a crash is recognised as the same message."""
        return f"ob{self.id}.{part}"


def _record(row: Any, payload: dict[str, Any] | None = None) -> OutboxRecord:
    return OutboxRecord(
        id=row.id, game_id=row.game_id, guild_id=row.guild_id, channel_id=row.channel_id, kind=row.kind,
        payload=dict(row.payload) if payload is None else payload, attempts=row.attempts, next_attempt_at=row.next_attempt_at,
        message_ids=[int(m) for m in row.message_ids or []], sent_at=row.sent_at, last_error=row.last_error,
        refused=row.refused, created_at=row.created_at, owed_by=row.owed_by,
    )


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def commit_cause(version: int) -> str:
    """What `owed_by` names a game's commit to `version` by (`Store.commit`)."""
    return f"v{version}"


@dataclass
class Written:
    """Whether the work run under `noting_posts` wrote any post (committed or not: a post rolled back
    costs its reader one look at the outbox for nothing, a post missed would wait for its next look)."""

    posts: bool = False


_WRITTEN: ContextVar[Written | None] = ContextVar("outbox_written", default=None)


@contextmanager
def noting_posts() -> Iterator[Written]:
    """Note whether what runs inside — on this thread, or on another one given a copy of this context
    (`asyncio.to_thread`) — writes outbox rows: an adapter wakes its sender after a command's answer
    only when the command owes a post, instead of reading every lane's head after every answer."""
    written = Written()
    token = _WRITTEN.set(written)
    try:
        yield written
    finally:
        _WRITTEN.reset(token)


def _note_written() -> None:
    written = _WRITTEN.get()
    if written is not None:
        written.posts = True


def insert_posts(connection: Connection, posts: Sequence[NewPost], now: dt.datetime | None = None, *,
                 owed_by: str | None = None) -> None:
    """Write `posts` in the caller's transaction (a commit, a claim): all of them or, with it, none;
    `owed_by` names the change that owes them (`commit_cause`, a claim key)."""
    if not posts:
        return
    _note_written()
    for post in posts:
        if post.kind not in OUTBOX_KINDS:
            raise ValueError(f"unknown outbox kind {post.kind!r} (one of {', '.join(OUTBOX_KINDS)})")
    moment = now or _now()
    connection.execute(insert(_OUTBOX), [
        {"game_id": post.game_id, "guild_id": post.guild_id, "channel_id": post.channel_id, "kind": post.kind,
         "payload": post.payload, "created_at": moment, "attempts": 0, "next_attempt_at": moment,
         "message_ids": [], "sent_at": None, "last_error": None,
         "refused": None, "owed_by": owed_by}
        for post in posts
    ])


def enqueue(store: Store, posts: Sequence[NewPost]) -> None:
    """Posts caused by no change of the database (an adapter asked to post): their own transaction."""
    with writer(store.engine).begin() as connection:
        insert_posts(connection, posts)


#: the kind of a direct message to one member (`bot.service.dms`), and its payload's keys: the member
#: it is for, the channel post (pinging them) it falls back to when Discord refuses it
DM, RECIPIENT, FALLBACK = "dm", "recipient", "fallback"


def recipient(post: OutboxRecord) -> int | None:
    """The member a direct message is for (None: a channel post)."""
    return int(post.payload[RECIPIENT]) if post.kind == DM else None


#: the kind of a game's channel post (`bot.outbox.TURN_POST`): never a direct message nor an alert
#: about a refused post
_TURN_POST = "turn_post"
#: the payload key of a GM alert telling of a refused post: such an alert does not wait behind the
#: refused post it is about (it goes in a lane of its own in its channel), and its own refusal is logged
ABOUT_REFUSAL = "about_refusal"
#: how the error of a post given up begins
GAVE_UP = "gave up: "


#: a post's lane: (channel id, whether it is an alert about a refused post there), or (DM, member id)
Lane = tuple[int | str | None, bool | int | None]


def lane_of(post: OutboxRecord) -> Lane:
    """The lane a post waits in: its channel's, or beside it the alerts about a refused post there
    (they do not wait for it to be fixed), or for a direct message its recipient's — so that
    channels and members never wait for each other."""
    if post.kind == DM:
        return DM, recipient(post)
    return post.channel_id, ABOUT_REFUSAL in post.payload


def heads(store: Store, *, limit: int = 500) -> list[OutboxRecord]:
    """The oldest unsent post of each lane (`lane_of`; sent or not yet due ones included: the caller
    checks `next_attempt_at`), in id order. A channel's later posts wait for its head, so they keep
    their order.

    A head's payload holds only what places it in its lane (`lane_of`): a draw's fan-out reads the
    heads again and again, and its posts' payloads carry each game's whole state to draw; `lease`
    reads the whole post that is sent."""
    payload, plain = _OUTBOX.c.payload, _OUTBOX.c.kind == _TURN_POST
    columns = [column for column in _OUTBOX.c if column.name != "payload"]
    # a turn post (a fan-out's thousand) has neither key: its payload is not parsed at each read
    query = (select(*columns, case((plain, None), else_=payload[RECIPIENT].as_string()).label("recipient"),
                    case((plain, None), else_=payload[ABOUT_REFUSAL].as_string()).label("about_refusal"))
             .where(_OUTBOX.c.sent_at.is_(None)).order_by(_OUTBOX.c.id).limit(limit))
    seen: dict[tuple[Any, ...], OutboxRecord] = {}
    with store.engine.connect() as connection:
        for row in connection.execute(query):
            placed = {RECIPIENT: int(row.recipient)} if row.recipient is not None else {}
            if row.about_refusal is not None:
                placed[ABOUT_REFUSAL] = True
            record = _record(row, placed)
            seen.setdefault(lane_of(record), record)
    return sorted(seen.values(), key=lambda post: post.id)


def lane_head(store: Store, lane: Lane) -> OutboxRecord | None:
    """The oldest unsent post of one lane (`lane_of`), where there is one."""
    channel_id = lane[0]
    if channel_id == DM:
        where = _OUTBOX.c.kind == DM
    else:
        where = _OUTBOX.c.channel_id.is_(None) if channel_id is None else _OUTBOX.c.channel_id == channel_id
    query = select(_OUTBOX).where(_OUTBOX.c.sent_at.is_(None), where).order_by(_OUTBOX.c.id)
    with store.engine.connect() as connection:
        for row in connection.execute(query):
            record = _record(row)
            if lane_of(record) == lane:
                return record
    return None


def unsent(store: Store) -> list[OutboxRecord]:
    """Every post not sent yet, oldest first."""
    query = select(_OUTBOX).where(_OUTBOX.c.sent_at.is_(None)).order_by(_OUTBOX.c.id)
    with store.engine.connect() as connection:
        return [_record(row) for row in connection.execute(query)]


def get_post(store: Store, post_id: int) -> OutboxRecord | None:
    with store.engine.connect() as connection:
        row = connection.execute(select(_OUTBOX).where(_OUTBOX.c.id == post_id)).first()
    return _record(row) if row is not None else None


def lease(store: Store, post: OutboxRecord, now: dt.datetime, until: dt.datetime) -> OutboxRecord | None:
    """Take the post for sending until `until`: the fresh record, or None when it was sent, leased by
    another process or put off since it was read."""
    with writer(store.engine).begin() as connection:
        taken = connection.execute(
            update(_OUTBOX)
            .where(and_(_OUTBOX.c.id == post.id, _OUTBOX.c.sent_at.is_(None), _OUTBOX.c.next_attempt_at <= now))
            .values(next_attempt_at=until)
            .returning(*_OUTBOX.c)
        ).first()
    return _record(taken) if taken is not None else None


def record_part(store: Store, post: OutboxRecord, message_id: int) -> OutboxRecord:
    """One more part of the post is on Discord: its id is kept, so a retry resumes after it."""
    ids = [*post.message_ids, message_id]
    with writer(store.engine).begin() as connection:
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(message_ids=ids))
    return OutboxRecord(**{**post.__dict__, "message_ids": ids})


def mark_sent(store: Store, post: OutboxRecord, now: dt.datetime | None = None, *,
              message_id: int | None = None) -> OutboxRecord:
    """Done: the pictures are dropped, drawn or to draw (the row stays a while as the record of what was
    posted); `message_id`, the last part's, kept in the same write (`record_part`'s, one write less a
    post: a fan-out's posts queue for the database's writer). The record as it is now."""
    payload = {key: value for key, value in post.payload.items() if key not in ("files", "drawing")}
    ids = [*post.message_ids, message_id] if message_id is not None else post.message_ids
    sent_at = now or _now()
    with writer(store.engine).begin() as connection:
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(
            sent_at=sent_at, payload=payload, last_error=None, message_ids=ids))
    return OutboxRecord(**{**post.__dict__, "message_ids": ids, "sent_at": sent_at, "payload": payload,
                           "last_error": None})


def put_off(store: Store, post: OutboxRecord, until: dt.datetime, error: str) -> None:
    """A failed attempt: tried again from `until` (its back-off), the error kept for the logs."""
    with writer(store.engine).begin() as connection:
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(
            attempts=_OUTBOX.c.attempts + 1, next_attempt_at=until, last_error=error[:ERROR_MAX]))


def move_posts(connection: Connection, game_id: int, old_channel: int | None, new_channel: int,
               now: dt.datetime) -> None:
    """A game moved to `new_channel` (`/gm move`), in the move's transaction: the posts it still owes in
    its old channel go to the new one, whole (a part posted there is gone with it) and due now; those
    owed elsewhere (its GMs' alerts in their log channel) stay where they are."""
    _note_written()  # due in a lane of their own now
    connection.execute(update(_OUTBOX).where(
        _OUTBOX.c.game_id == game_id, _OUTBOX.c.sent_at.is_(None),
        _OUTBOX.c.channel_id.is_(None) if old_channel is None else _OUTBOX.c.channel_id == old_channel,
    ).values(channel_id=new_channel, message_ids=[], next_attempt_at=now, attempts=0, refused=None))


def move_to(store: Store, post: OutboxRecord, channel_id: int, at: dt.datetime) -> None:
    """Send `post` in another channel from `at` (a GM alert the game's channel refused, to the GMs' log
    channel; a game's owed posts after `/gm move`), as a post never tried there."""
    with writer(store.engine).begin() as connection:
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(
            channel_id=channel_id, next_attempt_at=at, attempts=0, refused=None))


def owed_and_given_up(store: Store, game_id: int, since: dt.datetime, *, limit: int = 50) -> list[OutboxRecord]:
    """The game's posts not sent yet, and those given up since `since`, oldest first (`/gm posts`); an
    alert about a refusal given up is left out (what it told of is listed itself)."""
    query = select(_OUTBOX).where(_OUTBOX.c.game_id == game_id, or_(
        _OUTBOX.c.sent_at.is_(None),
        and_(_OUTBOX.c.sent_at >= since, _OUTBOX.c.last_error.like(GAVE_UP + "%")),
    )).order_by(_OUTBOX.c.id)
    with store.engine.connect() as connection:
        found = (_record(row) for row in connection.execute(query))
        return [post for post in found if not (post.given_up and ABOUT_REFUSAL in post.payload)][:limit]


def retry(store: Store, game_id: int, channel_id: int | None, since: dt.datetime, now: dt.datetime) -> int:
    """Send the game's owed posts now (no back-off left), and its posts given up since `since` again,
    whole, in `channel_id` (its channel now); how many. A GM does this once the cause is fixed. An
    alert about a refusal given up is not sent again: what it told of is what is retried."""
    with writer(store.engine).begin() as connection:
        owed = connection.execute(update(_OUTBOX).where(
            _OUTBOX.c.game_id == game_id, _OUTBOX.c.sent_at.is_(None)).values(next_attempt_at=now)).rowcount
        given_up = connection.execute(select(_OUTBOX.c.id, _OUTBOX.c.payload).where(
            _OUTBOX.c.game_id == game_id, _OUTBOX.c.sent_at >= since, _OUTBOX.c.last_error.like(GAVE_UP + "%")))
        ids = [row.id for row in given_up if ABOUT_REFUSAL not in (row.payload or {})]
        if ids:
            connection.execute(update(_OUTBOX).where(_OUTBOX.c.id.in_(ids)).values(
                sent_at=None, channel_id=channel_id, message_ids=[], attempts=0, next_attempt_at=now,
                refused=None, last_error=None))
    return int(owed or 0) + len(ids)


def prune(store: Store, before: dt.datetime) -> int:
    """Forget posts sent before `before`; how many."""
    with writer(store.engine).begin() as connection:
        result = connection.execute(delete(_OUTBOX).where(
            _OUTBOX.c.sent_at.is_not(None), _OUTBOX.c.sent_at < before))
        return int(result.rowcount or 0)


def give_up(store: Store, post: OutboxRecord, error: str, *, cause: str | None = None,
            alert: NewPost | None = None) -> None:
    """A post Discord will never take (the channel is gone): done with, its error kept, so that the
    channel's later posts are not held behind it forever; the GMs' `alert` of its `cause` written with it."""
    with writer(store.engine).begin() as connection:
        if cause is not None:
            _tell_once(connection, post, cause, alert)
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(
            attempts=_OUTBOX.c.attempts + 1, sent_at=_now(), last_error=f"{GAVE_UP}{error}"[:ERROR_MAX]))


def fall_back(store: Store, post: OutboxRecord, error: str) -> None:
    """Discord refused a direct message (the member takes none from the bot): done with, and the channel
    ping it replaces written instead, in the same transaction, so the member is pinged once either way."""
    fallback = NewPost(channel_id=post.channel_id, kind=_TURN_POST, payload=post.payload[FALLBACK],
                       game_id=post.game_id, guild_id=post.guild_id)
    with writer(store.engine).begin() as connection:
        insert_posts(connection, [fallback], owed_by=post.owed_by)  # the same owed post, by another way
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(
            attempts=_OUTBOX.c.attempts + 1, sent_at=_now(), last_error=f"fell back: {error}"[:ERROR_MAX]))


def refuse(store: Store, post: OutboxRecord, until: dt.datetime, error: str, cause: str, *,
           alert: NewPost | None = None, payload: dict[str, Any] | None = None) -> None:
    """Discord refused the post for a `cause` someone can fix: kept and tried again from `until`, the
    GMs' `alert` written in the same transaction the first time this cause refuses it (not at every
    retry), and its `payload` replaced where the post is sent otherwise (without its images)."""
    with writer(store.engine).begin() as connection:
        _tell_once(connection, post, cause, alert)
        values: dict[str, Any] = {"attempts": _OUTBOX.c.attempts + 1, "next_attempt_at": until,
                                  "last_error": error[:ERROR_MAX]}
        if payload is not None:
            values["payload"] = payload
        connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == post.id).values(**values))


def _tell_once(connection: Connection, post: OutboxRecord, cause: str, alert: NewPost | None) -> None:
    """Record that the GMs are told of `cause`, and write their alert, unless they were already told."""
    told = connection.execute(update(_OUTBOX).where(
        _OUTBOX.c.id == post.id, or_(_OUTBOX.c.refused.is_(None), _OUTBOX.c.refused != cause),
    ).values(refused=cause)).rowcount
    if told and alert is not None:
        insert_posts(connection, [alert], owed_by=f"refused:{post.id}:{cause}")
