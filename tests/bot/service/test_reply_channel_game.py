"""An accepted command's reply names the channel's game as the command left it (`Reply.channel_game`):
the adapter refreshes that game's status message without reading the channel's game again — the new
game after `new`, even where a finished one stood — and the read costs the command no statement of
its own after a commit (issue 28: one read of the game per command)."""

from __future__ import annotations

from sqlalchemy import event

from bot.service import Attachment, Context, GameService
from bot.store import Store

GM = Context(user_id=1, user_name="gm", guild_id=3, channel_id=4, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=3, channel_id=4)
SETUP = Attachment("setup.toml", b"goal = 1000000\n")


def test_the_reply_names_the_channels_game_after_the_command(sqlite_store: Store) -> None:
    svc = GameService(sqlite_store)
    made = svc.handle(GM, "tl new", {"name": "First", "setup": SETUP})
    first = sqlite_store.game_in_channel(3, 4)
    assert first is not None and made.channel_game == first.id
    assert svc.handle(ANN, "tl join", {"name": "Ann"}).channel_game == first.id
    refused = svc.handle(ANN, "tl order", {"text": "jump"})
    assert not refused.ok and refused.channel_game is None, "a refusal changes no status"
    sqlite_store.commit(first.id, sqlite_store.get_game(first.id).version, state=first.state,  # type: ignore[union-attr]
                        status="finished", entries=[])
    again = svc.handle(GM, "tl new", {"name": "Second", "setup": SETUP, "replace": True})
    assert again.ok, again.messages
    second = sqlite_store.game_in_channel(3, 4)
    assert second is not None and second.id != first.id and again.channel_game == second.id


def test_an_order_reads_the_channels_game_once_for_its_reply_and_its_status(sqlite_store: Store) -> None:
    svc = GameService(sqlite_store)
    assert svc.handle(GM, "tl new", {"name": "Counted", "setup": SETUP}).ok
    assert svc.handle(ANN, "tl join", {"name": "Ann"}).ok
    reads: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM games" in statement:
            reads.append(statement)

    event.listen(sqlite_store.engine, "before_cursor_execute", record)
    try:
        reply = svc.handle(ANN, "tl order", {"text": "add 2"})
    finally:
        event.remove(sqlite_store.engine, "before_cursor_execute", record)
    game = sqlite_store.game_in_channel(3, 4)
    assert reply.ok and game is not None and reply.channel_game == game.id
    assert len(reads) == 1, reads
