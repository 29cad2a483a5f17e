"""Issue 25 point 3: the places games live in change under them. A forum post archives itself between
turns (the status message unarchives it to stay current), a moderator locks it, deletes the channel
or the thread, or removes the bot from the server (each game concerned paused, its GMs told in their
log channel), and a GM moves the game to another channel (`/gm move`: its owed posts and its status
message follow it). Gateway events go through discord.py's own parsers (`BotHarness.dispatch`)."""

from __future__ import annotations

import time

import discord
import pytest
from sqlalchemy.exc import OperationalError

from bot.discord_adapter.status import StatusBoard
from bot.outbox import post_of
from bot.service import GameService, Message, Reply
from bot.store import outbox as rows
from bot.store.discord_state import dirty_games
from bot.store.models import StatusMessage
from bot.store.repo import GameRecord
from tests.bot.discord.harness import BotHarness, DiscordRecorder, DiscordRejects
from tests.bot.discord.lobby import ANN, GM, accepted, run, running
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID, click, slash
from tests.bot.discord.test_channel_posts import GM_CONTEXT, until
from tests.discord_shapes import ALL_PERMISSIONS, MANAGE_THREADS
from tests.fake_discord.payloads import Channel, Member, Thread, User

#: no debounced refresh runs by itself in these tests: each refresh is the test's
NEVER = 3600.0


@pytest.fixture
def board(harness: BotHarness):
    harness.bot.status_board.debounce_seconds = NEVER
    return harness.bot.status_board


def gm_log(recorder: DiscordRecorder, service: GameService) -> Channel:
    """The server's GM log channel, set (`/gm settings log_channel:`)."""
    log_channel = recorder.core.add_channel("mj-journal")
    service.store.set_guild_settings(GUILD_ID, log_channel_id=log_channel.id)
    return log_channel


async def game_in_post(harness: BotHarness, recorder: DiscordRecorder, service: GameService) -> tuple[Thread, int]:
    """A Space Chess game created in a forum post (a thread), its status message posted."""
    core = recorder.core
    forum = core.add_forum("parties")
    harness.dispatch("CHANNEL_CREATE", core.channel_json(forum))
    thread = core.add_post(forum, "Orion")
    harness.dispatch("THREAD_CREATE", {**core.channel_json(thread), "newly_created": True})
    accepted(await harness.interact(slash("sc new", GM, {"name": "Orion"}, channel_id=thread.id)))
    game = service.store.game_in_channel(GUILD_ID, thread.id)
    await harness.bot.status_board.refresh(game.id)
    assert service.store.status_message(game.id) is not None
    return thread, game.id


async def test_the_status_edit_in_an_archived_post_unarchives_it_first(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    thread, game_id = await game_in_post(harness, recorder, service)
    recorder.core.archive_thread(thread)
    accepted(await harness.interact(slash("sc join", ANN, {"name": "Ann", "team": "1", "role": "general"},
                                         channel_id=thread.id)))
    recorder.core.archive_thread(thread)  # idle again after the answer (an interaction does not reopen it)
    before = len(recorder.core.calls)
    await board.refresh(game_id)
    made = [(c.method, c.path.removeprefix(f"/channels/{thread.id}"), c.status) for c in recorder.core.calls[before:]]
    message_id = service.store.status_message(game_id)
    assert made == [("PATCH", f"/messages/{message_id}", 400), ("PATCH", "", 200),
                    ("PATCH", f"/messages/{message_id}", 200)], "edit refused, thread reopened, edited"
    assert "Ann" in recorder.messages[message_id]["content"]
    assert not recorder.core.thread_state(thread).archived


async def test_a_locked_post_is_not_asked_again_and_again(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    thread, game_id = await game_in_post(harness, recorder, service)
    recorder.core.lock_thread(thread)
    recorder.core.set_bot_permissions(thread, ALL_PERMISSIONS & ~MANAGE_THREADS)  # it may not reopen it
    accepted(await harness.interact(slash("sc join", ANN, {"name": "Ann", "team": "1", "role": "general"},
                                         channel_id=thread.id)))
    before = len(recorder.core.calls)
    await board.refresh(game_id)
    asked = recorder.core.calls[before:]
    assert [(c.method, c.status) for c in asked] == [("PATCH", 400), ("PATCH", 403)], "edit, then the refused reopening"
    assert board._failures.get(game_id) is None, "no retry planned: a moderator must unlock it first"
    assert service.store.get_game(game_id).status == "setup"


async def test_a_deleted_channel_found_by_the_status_pauses_the_game_once_and_posts_nothing_new(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    await board.refresh(game.id)
    log_channel = gm_log(recorder, service)
    recorder.core.delete_channel(recorder.core.find_channel(CHANNEL_ID))
    assert service.handle(GM_CONTEXT, "sc set", {"character": "Cid", "ap": 7, "reason": "test"}).ok
    before = len(recorder.core.calls)
    await board.refresh(game.id)
    asked = [(c.method, c.status) for c in recorder.core.calls[before:] if f"/channels/{CHANNEL_ID}" in c.path]
    assert asked == [("PATCH", 404)], "the edit only: no new message in a channel that is gone"
    paused = service.store.get_game(game.id)
    assert paused.status == "paused" and paused.version == game.version + 2
    assert board._failures.get(game.id) is None, "nothing retried"
    assert game.id not in dirty_games(service.store), "a restart does not ask again"
    await harness.bot.poster.sender.drain()
    [told] = recorder.core.channel_messages(log_channel)
    assert "**Orion**" in told["content"] and "`/mj déplacer`" in told["content"]


async def test_a_deleted_channel_pauses_its_game_and_tells_the_gms(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    log_channel = gm_log(recorder, service)
    channel = recorder.core.find_channel(CHANNEL_ID)
    data = recorder.core.channel_json(channel)
    recorder.core.delete_channel(channel)
    harness.dispatch("CHANNEL_DELETE", data)
    # the pause, then its alert written (or sent already): a drain before the alert is written sends nothing
    await until(lambda: service.store.get_game(game.id).status == "paused"
                and (rows.unsent(service.store) or recorder.core.channel_messages(log_channel)))
    await harness.bot.poster.sender.drain()
    [told] = recorder.core.channel_messages(log_channel)
    assert "**Orion**" in told["content"]
    [entry] = service.store.log(game.id, kinds={"pause"})
    assert entry.user_id is None and entry.payload == {"channel_gone": CHANNEL_ID}, "the bot paused it, said why"


async def test_a_deleted_post_pauses_its_game_and_a_locked_one_tells_the_gms(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    thread, game_id = await game_in_post(harness, recorder, service)
    log_channel = gm_log(recorder, service)
    recorder.core.set_bot_permissions(thread, ALL_PERMISSIONS & ~MANAGE_THREADS)
    harness.dispatch("THREAD_UPDATE", recorder.core.lock_thread(thread))
    await until(lambda: rows.unsent(service.store) != [])
    await harness.bot.poster.sender.drain()
    [locked] = recorder.core.channel_messages(log_channel)
    assert f"<#{thread.id}>" in locked["content"]
    recorder.core.delete_channel(thread)
    harness.dispatch("THREAD_DELETE", {"id": str(thread.id), "guild_id": str(GUILD_ID),
                                       "parent_id": str(thread.parent_id), "type": 11})
    await until(lambda: len(rows.unsent(service.store)) == 1)
    await harness.bot.poster.sender.drain()
    [_, gone] = recorder.core.channel_messages(log_channel)
    assert "pas encore commencé" in gone["content"], "a game in its lobby is not said to be paused"
    assert service.store.get_game(game_id).status == "setup", "a game not started just waits"


async def test_leaving_a_server_pauses_its_running_games(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    harness.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
    await until(lambda: service.store.get_game(game.id).status == "paused")


async def test_gm_move_takes_the_game_its_owed_posts_and_its_status_to_this_channel(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    await board.refresh(game.id)
    rows.enqueue(service.store, [post_of(game, Reply((Message("game.board", {"name": "Orion", "turn": 3}),)))])
    new_home = recorder.core.add_channel("orion-2")
    harness.dispatch("CHANNEL_CREATE", recorder.core.channel_json(new_home))
    moved = accepted(await harness.interact(slash("gm move", GM, {"name": "orion"}, channel_id=new_home.id)))
    assert f"<#{CHANNEL_ID}>" in moved.text
    assert service.store.game_in_channel(GUILD_ID, new_home.id).id == game.id
    assert service.store.game_in_channel(GUILD_ID, CHANNEL_ID) is None
    assert [p.channel_id for p in rows.unsent(service.store)] == [new_home.id], "the owed post follows the game"
    await board.refresh(game.id)
    assert service.store.status_message(game.id, new_home.id) is not None, "a status message of its own there"
    [entry] = service.store.log(game.id, kinds={"move"})
    assert entry.payload == {"from": CHANNEL_ID, "to": new_home.id} and entry.user_id == GM.id


async def test_gm_move_refuses_a_channel_with_a_game_and_an_unknown_name(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    other = recorder.core.add_channel("vega")
    harness.dispatch("CHANNEL_CREATE", recorder.core.channel_json(other))
    accepted(await harness.interact(slash("sc new", GM, {"name": "Vega"}, channel_id=other.id)))
    taken = await harness.interact(slash("gm move", GM, {"name": "Orion"}, channel_id=other.id))
    assert taken.refused and "**Vega**" in taken.text
    free = recorder.core.add_channel("libre")
    harness.dispatch("CHANNEL_CREATE", recorder.core.channel_json(free))
    unknown = await harness.interact(slash("gm move", GM, {"name": "Andromeda"}, channel_id=free.id))
    assert unknown.refused and "**Andromeda**" in unknown.text
    player = await harness.interact(slash("gm move", ANN, {"name": "Orion"}, channel_id=free.id))
    assert player.refused
    message, custom_id = (await harness.interact(slash("gm end", GM, {}, channel_id=other.id))).button()
    accepted(await harness.interact(click(message, custom_id, GM, channel_id=other.id)))  # Vega ended, newer
    newer = await harness.interact(slash("gm move", GM, {"name": "Orion"}, channel_id=other.id))
    assert newer.refused and "**Vega**" in newer.text
    assert service.store.get_game(game.id) == game, "nothing changed"


async def test_gm_settings_takes_a_log_channel_and_lets_it_go(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    log_channel = recorder.core.add_channel("mj-journal")
    harness.dispatch("CHANNEL_CREATE", recorder.core.channel_json(log_channel))
    shown = await run(harness, GM, "gm settings", log_channel=log_channel.id)
    assert f"<#{log_channel.id}>" in shown.text
    assert service.store.guild_settings(GUILD_ID).log_channel_id == log_channel.id
    both = await run(harness, GM, "gm settings", log_channel=log_channel.id, no_log_channel=True)
    assert both.refused and service.store.guild_settings(GUILD_ID).log_channel_id == log_channel.id
    await run(harness, GM, "gm settings", no_log_channel=True)
    assert service.store.guild_settings(GUILD_ID).log_channel_id is None


async def test_posts_given_up_in_a_deleted_channel_are_listed_and_sent_again_after_the_move(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    """The whole story: the channel deleted, a turn post given up, the game moved, `/gm posts` shows
    what was lost and why, and its button sends it again, in the new channel."""
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    recorder.core.delete_channel(recorder.core.find_channel(CHANNEL_ID))
    turn = Reply((Message("game.board", {"name": "Orion", "turn": 3}),))
    rows.enqueue(service.store, [post_of(game, turn)])
    await harness.bot.poster.sender.drain()
    assert service.store.get_game(game.id).status == "paused"
    new_home = recorder.core.add_channel("orion-2")
    harness.dispatch("CHANNEL_CREATE", recorder.core.channel_json(new_home))
    accepted(await harness.interact(slash("gm move", GM, {"name": "Orion"}, channel_id=new_home.id)))
    listed = await harness.interact(slash("gm posts", GM, {}, channel_id=new_home.id))
    assert listed.messages[-1].ephemeral
    assert "given up (channel deleted)" in listed.text and "**Orion** — turn 3." in listed.text, listed.text
    message, custom_id = listed.button()
    await harness.interact(click(message, custom_id, GM, channel_id=new_home.id))
    await harness.bot.poster.sender.drain()
    posted = [m for m in recorder.core.channel_messages(new_home) if m["content"] == "**Orion** — turn 3."]
    assert len(posted) == 1 and "interaction_metadata" not in posted[0], "the bot's own post, once"
    none = await harness.interact(slash("gm posts", GM, {}, channel_id=new_home.id))
    assert "owes no post" in none.text


async def test_a_long_rate_limit_on_the_sync_does_not_hold_the_start(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 point 5: discord.py raises a rate limit longer than its wait (rather than sleeping inside
    the request), and the start goes on — the draws and timers run, the commands follow later."""
    bot = harness.bot
    assert bot.http.max_ratelimit_timeout == 30.0
    answers = [discord.RateLimited(0.01), discord.RateLimited(0.01), None]
    synced: list[str] = []

    async def sync_commands() -> None:
        answer = answers.pop(0)
        if answer is not None:
            raise answer
        synced.append("done")

    started: list[bool] = []
    monkeypatch.setattr(bot, "sync_commands", sync_commands)
    monkeypatch.setattr(bot, "start_draws", lambda: started.append(True))

    async def installed() -> None:  # the harness's login installed them already
        return None

    monkeypatch.setattr(bot, "install_commands", installed)
    await bot.setup_hook()
    assert started == [True] and synced == [], "started without waiting for the commands"
    await until(lambda: synced == ["done"])


async def posted_then_forgotten(harness: BotHarness, service: GameService, board) -> tuple[GameRecord, int | None]:
    """The game's first status message posted, then forgotten by the store, as when the process died
    after Discord made it and before it was stored: the game and the message's id."""
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    await board.refresh(game.id)
    first = service.store.status_message(game.id)
    with service.store.engine.begin() as connection:
        table = StatusMessage.__table__  # type: ignore[attr-defined]
        connection.execute(table.delete().where(table.c.game_id == game.id))
    return game, first


async def test_a_first_status_post_repeated_after_a_crash_is_one_message(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    """Issue 25 point 5: the process died after Discord made the status message and before it was
    stored; the restarted bot posts it again, with the same nonce, and Discord answers with the first."""
    game, first = await posted_then_forgotten(harness, service, board)
    restarted = StatusBoard(harness.bot, service, NEVER, harness.bot.limiter)
    await restarted.refresh(game.id)
    assert service.store.status_message(game.id) == first, "the same message, not a second one"
    posts = [c for c in recorder.core.calls if c.method == "POST" and c.path == f"/channels/{CHANNEL_ID}/messages"
             and str((c.json or {}).get("nonce", "")).startswith("st")]
    assert len(posts) == 2 and posts[0].json["nonce"] == posts[1].json["nonce"] and posts[1].json["enforce_nonce"]
    assert sum(1 for m in recorder.core.channel_messages(recorder.core.find_channel(CHANNEL_ID))
               if m["id"] == str(first)) == 1


async def test_a_first_status_post_repeated_after_a_crash_is_one_message_though_the_game_changed_meanwhile(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    """Issue 25's done-when: the restarted bot changes the game before it posts the status again (a
    draw published while it was down, applied as it starts): the nonce names the message owed, not
    the game's version, so Discord still answers with the first message."""
    game, first = await posted_then_forgotten(harness, service, board)
    assert service.handle(GM_CONTEXT, "sc set", {"character": "Cid", "ap": 4, "reason": "restart"}).ok
    restarted = StatusBoard(harness.bot, service, NEVER, harness.bot.limiter)
    await restarted.refresh(game.id)
    assert service.store.status_message(game.id) == first, "the same message, not a second one"
    statuses = [m for m in recorder.core.channel_messages(recorder.core.find_channel(CHANNEL_ID))
                if "interaction_metadata" not in m and m["content"].startswith("📋")]
    assert [m["id"] for m in statuses] == [str(first)]


async def test_a_status_message_deleted_is_replaced_by_a_new_one_not_answered_with_the_old(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    """The nonce of the message that replaces a deleted one differs from the first's (Discord keeps
    a nonce a few minutes: the same one might answer with the deleted message)."""
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    await board.refresh(game.id)
    first = service.store.status_message(game.id)
    recorder.core.store.messages.pop(first)  # a moderator deleted it
    assert service.handle(GM_CONTEXT, "sc set", {"character": "Cid", "ap": 4, "reason": "deleted"}).ok
    await board.refresh(game.id)
    second = service.store.status_message(game.id)
    assert second not in (None, first)
    nonces = [c.json["nonce"] for c in recorder.core.calls if c.method == "POST"
              and c.path == f"/channels/{CHANNEL_ID}/messages" and str((c.json or {}).get("nonce", "")).startswith("st")]
    assert len(nonces) == 2 and nonces[0] != nonces[1]


async def test_status_refreshes_owed_at_ready_are_looked_for_again_when_the_database_was_down(
    harness: BotHarness, service: GameService, board, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL restarting as the bot becomes READY: the owed refreshes cannot be read then; the
    next sweep reads them (else they waited for the next restart, and the sweeps never started)."""
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    for waiting in board._pending.values():  # the lobby's debounced refreshes (NEVER due here)
        waiting.cancel()
    real = dirty_games
    down = [True]

    def unreachable(store, *args):
        if down:
            raise OperationalError("SELECT", {}, ConnectionError("connection refused"))
        return real(store, *args)

    monkeypatch.setattr("bot.discord_adapter.status.dirty_games", unreachable)
    monkeypatch.setattr("bot.discord_adapter.status.SWEEP_SECONDS", 0.01)
    await board.resume()  # the READY handler's call: it does not raise, and the sweeps start after it
    assert service.store.status_message(game.id) is None
    down.clear()
    board.start_sweeps()
    await until(lambda: service.store.status_message(game.id) is not None)


async def test_only_the_process_holding_a_server_writes_its_status_messages(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 point 5: a game of a server this process does not hold (another shard's) keeps its
    owed refresh for the process that holds it, which finds it in its next sweep."""
    await running(harness)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    monkeypatch.setattr(harness.bot, "get_guild", lambda _guild_id: None)  # another shard's server
    before = len(recorder.core.calls)
    await board.refresh(game.id)
    assert recorder.core.calls[before:] == [] and service.store.status_message(game.id) is None
    assert game.id in dirty_games(service.store), "the mark is left for the process that holds it"
    monkeypatch.undo()
    for waiting in board._pending.values():  # the lobby's debounced refreshes (NEVER due here)
        waiting.cancel()
    monkeypatch.setattr("bot.discord_adapter.status.SWEEP_SECONDS", 0.01)
    board.start_sweeps()
    await until(lambda: service.store.status_message(game.id) is not None)


class LateClock:
    """Real time, until the test moves it on (the fake's interaction deadlines read it)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.mark.parametrize("private", [False, True])
async def test_an_answer_after_the_interactions_15_minutes_goes_where_it_still_can(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, monkeypatch: pytest.MonkeyPatch,
    private: bool,
) -> None:
    """Issue 25 point 7: a command whose work outlived its interaction (Discord keeps a token 15
    minutes) is answered in its channel, naming its member — or, private, by direct message."""
    clock = LateClock()
    recorder.core.clock = clock
    recorder.core.guild.members.append(Member(User(GM.id, GM.name)))
    harness.bot.direct_reply_seconds = 0.0  # deferred first, as a slow command is
    handle = service.handle

    def slow(*args, **kwargs):
        reply = handle(*args, **kwargs)
        clock.ahead = 16 * 60.0  # the work took 16 minutes
        return reply

    monkeypatch.setattr(service, "handle", slow)
    with pytest.raises(DiscordRejects, match="50027"):  # the answer Discord refuses, then the fallback
        await harness.interact(slash("game settings" if private else "sc new", GM,
                                     {} if private else {"name": "Orion"}))
    if private:
        [late] = recorder.core.dm_messages(recorder.core.guild.members[-1])
        assert "settings" in late["content"]
    else:
        [late] = [m for m in recorder.core.channel_messages(recorder.core.find_channel(CHANNEL_ID))
                  if "interaction_metadata" not in m]
        assert late["content"].startswith(f"<@{GM.id}> ") and "**Orion**" in late["content"]


async def test_the_pause_of_a_gone_channel_and_its_alert_are_one_commit(
    harness: BotHarness, recorder: DiscordRecorder, service: GameService, board
) -> None:
    """Issue 25 point 1: the GMs' alert about a deleted channel is owed by the pause's own commit, so
    no crash between the pause and the alert can lose it (it used to be written after the commit)."""
    from bot.service.channels import game_channel_gone
    from bot.store.outbox import commit_cause

    await running(harness)
    gm_log(recorder, service)
    game = service.store.game_in_channel(GUILD_ID, CHANNEL_ID)
    game_channel_gone(service, game, CHANNEL_ID)
    paused = service.store.get_game(game.id)
    assert paused.status == "paused"
    [alert] = [row for row in rows.unsent(service.store) if row.kind == "gm_alert"]
    assert alert.owed_by == commit_cause(paused.version)
