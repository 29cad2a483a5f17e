"""The fake Discord itself, without the bot: it must refuse what Discord refuses, or the e2e tests
would pass against behaviour the real service never allows."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
import pytest

from tests.discord_shapes import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    MANAGE_THREADS,
    PIN_MESSAGES,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from tests.e2e.table import PNG_SIGNATURE, png_size
from tests.fake_discord.clock import ManualClock
from tests.fake_discord.interactions import NotACommand
from tests.fake_discord.server import FakeDiscord

COMMANDS = [{"name": "sc", "description": "d", "type": 1, "options": [
    {"name": "join", "description": "d", "type": 1, "options": [
        {"name": "name", "description": "d", "type": 3, "required": True, "max_length": 5},
        {"name": "team", "description": "d", "type": 3, "choices": [{"name": "1", "value": "1"}]},
        {"name": "n", "description": "d", "type": 4, "min_value": 1, "max_value": 3},
    ]},
]}]
TINY_PNG = PNG_SIGNATURE + bytes.fromhex("0000000d49484452000000020000000308060000009d74c7ab")


@pytest.fixture
def server() -> Iterator[FakeDiscord]:
    with FakeDiscord(size_limit=1000) as fake:
        yield fake


def call(fake: FakeDiscord, method: str, path: str, **kwargs: Any) -> tuple[int, str, Any]:
    """One HTTP request to the fake: status, Content-Type, decoded JSON."""

    async def go() -> tuple[int, str, Any]:
        async with aiohttp.ClientSession() as session, session.request(method, fake.api_base + path, **kwargs) as r:
            text = await r.text()
            return r.status, r.headers.get("Content-Type", ""), json.loads(text) if text else None

    return asyncio.run(go())


def put_commands(fake: FakeDiscord) -> None:
    status, _, _ = call(fake, "PUT", f"/applications/{fake.application_id}/commands", json=COMMANDS)
    assert status == 200


def test_json_answers_have_the_exact_content_type(server):
    status, content_type, me = call(server, "GET", "/users/@me")
    assert (status, content_type, me["id"]) == (200, "application/json", str(server.bot_user.id))


def test_unknown_routes_and_foreign_applications_are_404(server):
    assert call(server, "GET", "/nope")[0] == 404
    status, _, error = call(server, "PUT", "/applications/1/commands", json=[])
    assert (status, error["code"]) == (404, 10002)


def test_a_fault_answers_429_with_what_discord_py_needs_then_serves(server):
    server.fail("GET", "/users/@me", status=429, retry_after=0.25)

    async def go() -> tuple[int, dict, Any]:
        async with aiohttp.ClientSession() as session, session.get(server.api_base + "/users/@me") as r:
            return r.status, dict(r.headers), await r.json()

    status, headers, body = asyncio.run(go())
    assert status == 429 and headers["Via"] and headers["X-RateLimit-Remaining"] == "0"
    assert body == {"message": "You are being rate limited.", "retry_after": 0.25, "global": False, "code": 0}
    assert call(server, "GET", "/users/@me")[0] == 200
    assert [c.status for c in server.calls_to("GET", "/users/@me")] == [429, 200]


def test_sync_is_recorded_and_ids_are_given(server):
    put_commands(server)
    (stored,) = server.commands[None]
    assert stored["name"] == "sc" and stored["id"] and stored["application_id"] == str(server.application_id)


@pytest.mark.parametrize(("options", "why"), [
    ({}, "needs name"),
    ({"name": "x", "color": "red"}, "no option of /sc join 'color'"),
    ({"name": "toolong"}, "out of bounds"),
    ({"name": "x", "team": "3"}, "not among"),
    ({"name": "x", "n": 4}, "out of bounds"),
    ({"name": "x", "n": "2"}, "takes an integer"),
])
def test_interactions_only_carry_what_the_bot_declared(server, options, why):
    put_commands(server)
    member = server.add_member("someone")
    with pytest.raises(NotACommand, match=why):
        server.slash(member, "sc join", options)


def test_a_message_post_stores_uploads_and_an_oversized_one_is_refused(server):
    channel = server.guild.channels[0]
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "board", "attachments": [{"id": 0, "filename": "b.png"}]}),
                   content_type="application/json")
    form.add_field("files[0]", TINY_PNG, filename="b.png", content_type="image/png")
    status, _, posted = call(server, "POST", f"/channels/{channel.id}/messages", data=form)
    assert status == 200
    (attachment,) = posted["attachments"]
    assert server.file_bytes(attachment) == TINY_PNG and png_size(TINY_PNG) == (2, 3)
    (recorded,) = server.calls_to("POST", rf"/channels/{channel.id}/messages")
    assert recorded.json["content"] == "board" and recorded.files[0].data == TINY_PNG

    big = aiohttp.FormData(quote_fields=False)
    big.add_field("payload_json", json.dumps({"attachments": [{"id": 0, "filename": "big.png"}]}),
                  content_type="application/json")
    big.add_field("files[0]", b"x" * 1001, filename="big.png")
    status, _, error = call(server, "POST", f"/channels/{channel.id}/messages", data=big)
    assert (status, error["code"]) == (413, 40005)


def test_png_size_refuses_what_is_not_a_png():
    with pytest.raises(AssertionError, match="not a PNG"):
        png_size(b"GIF89a" + bytes(20))


def test_the_gateway_handshake_and_one_answer_per_interaction(server):
    put_commands(server)

    async def scenario() -> tuple[list[dict], list[int]]:
        async with aiohttp.ClientSession() as http, http.ws_connect(server.gateway_url) as ws:
            frames = [await ws.receive_json()]
            await ws.send_json({"op": 1, "d": None})
            frames.append(await ws.receive_json())
            await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1}})
            frames += [await ws.receive_json(), await ws.receive_json()]
            interaction = await asyncio.to_thread(server.slash, server.add_member("m"), "sc join", {"name": "x"})
            event = await ws.receive_json()
            frames.append(event)
            url = f"{server.api_base}/interactions/{interaction}/{event['d']['token']}/callback"
            statuses = []
            for _ in range(2):
                async with http.post(url, json={"type": 4, "data": {"content": "hi", "flags": 64}}) as r:
                    statuses.append(r.status)
            async with http.post(f"{server.api_base}/interactions/{interaction}/wrong/callback",
                                 json={"type": 4, "data": {"content": "hi"}}) as r:
                statuses.append(r.status)
            return frames, statuses

    frames, statuses = asyncio.run(scenario())
    assert [(f["op"], f.get("t")) for f in frames] == [(10, None), (11, None), (0, "READY"), (0, "GUILD_CREATE"),
                                                       (0, "INTERACTION_CREATE")]
    assert frames[3]["d"]["id"] == str(server.guild.id) and frames[3]["d"]["channels"]
    assert statuses == [200, 400, 404]  # answered; "already acknowledged" (40060); unknown interaction
    (interaction,) = server.interactions
    assert server.reply(interaction, timeout=1)["flags"] == 64


def test_an_event_for_a_session_whose_connection_just_broke_is_lost_not_raised(server):
    """A bot process stopped a moment ago: its socket is closing before the fake has read the close.
    A channel created then is created (Discord does not fail it for a dead session), the event lost."""

    async def session() -> None:
        async with aiohttp.ClientSession() as http, http.ws_connect(server.gateway_url) as ws:
            await ws.receive_json()  # HELLO
            await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1}})
            for _ in ("READY", "GUILD_CREATE"):
                await ws.receive_json()
            await asyncio.to_thread(server._run, broken_then_created())

    async def broken_then_created() -> None:
        (socket,) = server._shards
        socket._req.transport.abort()  # closing at once; the fake's handler hears of it on a later turn
        await server._dispatch("CHANNEL_CREATE", {"id": "1", "name": "late"}, guild_id=server.guild.id)

    asyncio.run(session())
    server.wait_until(lambda: not server.connected, timeout=5, what="the broken session gone")


def test_a_dm_channel_is_opened_once_per_member_and_refused_where_they_refuse_dms(server):
    """``POST /users/@me/channels``: its body checked against the spec, one type-1 channel per member
    (the same each time), messages there kept per member; a member who refuses DMs: 403 / 50007."""
    ann, bob = server.add_member("ann"), server.add_member("bob")
    status, _, error = call(server, "POST", "/users/@me/channels", json={"recipient_id": ["not", "a", "snowflake"]})
    assert (status, error["code"]) == (400, 50035)
    assert call(server, "POST", "/users/@me/channels", json={"recipient_id": "1"})[2]["code"] == 10013
    status, _, opened = call(server, "POST", "/users/@me/channels", json={"recipient_id": str(ann.user.id)})
    assert status == 200 and opened["type"] == 1 and opened["recipients"][0]["id"] == str(ann.user.id)
    assert call(server, "POST", "/users/@me/channels", json={"recipient_id": str(ann.user.id)})[2]["id"] == opened["id"]
    assert call(server, "POST", f"/channels/{opened['id']}/messages", json={"content": "your turn"})[0] == 200
    assert [m["content"] for m in server.dm_messages(ann)] == ["your turn"] and server.dm_messages(bob) == []
    server.refuse_dms(bob)
    _, _, bobs = call(server, "POST", "/users/@me/channels", json={"recipient_id": str(bob.user.id)})
    status, _, error = call(server, "POST", f"/channels/{bobs['id']}/messages", json={"content": "your turn"})
    assert (status, error["code"]) == (403, 50007) and server.dm_messages(bob) == []
    assert server.invalid_answers == []


def test_a_channel_is_fetched_by_id_and_an_edit_leaves_a_pin_in_place(server):
    """What the bot's own posts need: the channel when its cache lacks it, a pin, edits of the pinned
    message; unknown channels and messages are 404 with Discord's codes."""
    channel = server.guild.channels[0]
    status, _, fetched = call(server, "GET", f"/channels/{channel.id}")
    assert (status, fetched["id"], fetched["guild_id"]) == (200, str(channel.id), str(server.guild.id))
    assert call(server, "GET", "/channels/1")[2]["code"] == 10003

    _, _, posted = call(server, "POST", f"/channels/{channel.id}/messages", json={"content": "status"})
    assert call(server, "PUT", f"/channels/{channel.id}/messages/pins/{posted['id']}")[0] == 204
    status, _, edited = call(server, "PATCH", f"/channels/{channel.id}/messages/{posted['id']}",
                             json={"content": "status, later"})
    assert status == 200 and edited["pinned"] and edited["edited_timestamp"]
    assert server.message(int(posted["id"]))["content"] == "status, later"
    assert call(server, "PUT", f"/channels/{channel.id}/messages/pins/1")[2]["code"] == 10008


# -- Discord's strictness: deadlines, rate limits, limits, the spec ---------------------------------

def gateway_interaction(fake: FakeDiscord, start: Callable[[], int]) -> tuple[int, str]:
    """Connect a bare gateway client, run `start` (which creates an interaction); its id and token."""

    async def go() -> tuple[int, str]:
        async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1}})
            await ws.receive_json()
            await ws.receive_json()
            interaction = await asyncio.to_thread(start)
            event = await ws.receive_json()
            return interaction, event["d"]["token"]

    return asyncio.run(go())


@pytest.fixture
def clocked() -> Iterator[tuple[FakeDiscord, ManualClock]]:
    clock = ManualClock()
    with FakeDiscord(clock=clock) as fake:
        yield fake, clock


def slash_join(fake: FakeDiscord) -> tuple[int, str]:
    put_commands(fake)
    member = fake.add_member("m")
    return gateway_interaction(fake, lambda: fake.slash(member, "sc join", {"name": "x"}))


def respond(fake: FakeDiscord, interaction: int, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    status, _, answer = call(fake, "POST", f"/interactions/{interaction}/{token}/callback", json=body)
    return status, answer


def test_an_answer_after_three_seconds_is_an_unknown_interaction_and_kills_the_token(clocked):
    fake, clock = clocked
    interaction, token = slash_join(fake)
    clock.advance(3.01)
    assert respond(fake, interaction, token, {"type": 5})[1]["code"] == 10062
    clock.advance(-3)  # even back in time: Discord forgot the interaction
    assert respond(fake, interaction, token, {"type": 5})[1]["code"] == 10062
    status, _, answer = call(fake, "POST", f"/webhooks/{fake.application_id}/{token}", json={"content": "late"})
    assert (status, answer["code"]) == (404, 10015)


def test_an_interaction_created_before_it_arrived_has_less_than_three_seconds(clocked):
    fake, clock = clocked
    put_commands(fake)
    member = fake.add_member("m")
    interaction, token = gateway_interaction(fake, lambda: fake.slash(member, "sc join", {"name": "x"}, age=2.5))
    clock.advance(0.6)
    assert respond(fake, interaction, token, {"type": 4, "data": {"content": "hi"}})[1]["code"] == 10062


def test_follow_ups_work_for_fifteen_minutes_then_the_token_is_invalid(clocked):
    fake, clock = clocked
    interaction, token = slash_join(fake)
    clock.advance(2.9)
    status, answer = respond(fake, interaction, token, {"type": 5})
    assert status == 200 and "resource" not in answer, "a deferral is answered without a message resource"
    assert answer["interaction"]["response_message_loading"] is True
    clock.advance(14 * 60)
    edit = f"/webhooks/{fake.application_id}/{token}/messages/@original"
    assert call(fake, "PATCH", edit, json={"content": "done"})[0] == 200
    clock.advance(60)
    status, _, error = call(fake, "PATCH", edit, json={"content": "too late"})
    assert (status, error["code"]) == (401, 50027)
    assert fake.reply(interaction, timeout=1)["content"] == "done"


def test_autocomplete_answers_within_three_seconds_and_carry_no_message(clocked):
    fake, clock = clocked
    fake_commands = [{**COMMANDS[0], "options": [{**COMMANDS[0]["options"][0], "options": [
        {"name": "name", "description": "d", "type": 3, "required": True, "autocomplete": True}]}]}]
    assert call(fake, "PUT", f"/applications/{fake.application_id}/commands", json=fake_commands)[0] == 200
    member = fake.add_member("m")
    choices = {"type": 8, "data": {"choices": [{"name": "Ann", "value": "Ann"}]}}
    interaction, token = gateway_interaction(fake, lambda: fake.autocomplete(member, "sc join", "name", "A"))
    status, answer = respond(fake, interaction, token, choices)
    assert status == 200 and answer == {"interaction": {"id": str(interaction), "type": 4}}
    late, token = gateway_interaction(fake, lambda: fake.autocomplete(member, "sc join", "name", "A"))
    clock.advance(3.5)
    assert respond(fake, late, token, choices)[1]["code"] == 10062


def test_an_autocomplete_answer_of_more_than_25_choices_or_a_long_name_is_refused(clocked):
    """Discord's limits on suggestions: 25 choices, names and values of 100 characters (400 / 50035,
    with the error tree; the interaction stays unanswered, so a valid answer may still follow)."""
    fake, _ = clocked
    fake_commands = [{**COMMANDS[0], "options": [{**COMMANDS[0]["options"][0], "options": [
        {"name": "name", "description": "d", "type": 3, "required": True, "autocomplete": True}]}]}]
    assert call(fake, "PUT", f"/applications/{fake.application_id}/commands", json=fake_commands)[0] == 200
    member = fake.add_member("m")
    interaction, token = gateway_interaction(fake, lambda: fake.autocomplete(member, "sc join", "name", "A"))
    many = [{"name": f"Ann {n}", "value": f"Ann {n}"} for n in range(26)]
    status, error = respond(fake, interaction, token, {"type": 8, "data": {"choices": many}})
    assert (status, error["code"]) == (400, 50035) and "_errors" in error["errors"]["data"]["choices"]
    long = [{"name": "A" * 101, "value": "Ann"}]
    status, error = respond(fake, interaction, token, {"type": 8, "data": {"choices": long}})
    assert (status, error["code"]) == (400, 50035) and "name" in error["errors"]["data"]["choices"]["0"]
    status, _ = respond(fake, interaction, token, {"type": 8, "data": {"choices": many[:25]}})
    assert status == 200 and fake.acknowledged(interaction) == 8
    assert fake.invalid_answers == []


def test_a_deferred_component_update_lets_patch_original_edit_the_components_message(server):
    put_commands(server)
    channel = server.guild.channels[0]
    row = {"type": 1, "components": [{"type": 3, "custom_id": "sel:pick", "options": [
        {"label": "A", "value": "a"}, {"label": "B", "value": "b"}], "min_values": 1, "max_values": 1}]}
    _, _, posted = call(server, "POST", f"/channels/{channel.id}/messages", json={"content": "pick", "components": [row]})
    member = server.add_member("m")
    with pytest.raises(NotACommand, match="takes 1 to 1"):
        server.click(member, posted, "sel:pick", values=["z"])
    interaction, token = gateway_interaction(server, lambda: server.click(member, posted, "sel:pick", values=["b"]))
    (event,) = [server.interactions[interaction].payload]
    assert event["data"] == {"custom_id": "sel:pick", "component_type": 3, "id": 2, "values": ["b"]}
    assert event["type"] == 3 and event["message"]["id"] == posted["id"]
    status, answer = respond(server, interaction, token, {"type": 6})
    assert status == 200 and set(answer) == {"interaction"}
    edit = f"/webhooks/{server.application_id}/{token}/messages/@original"
    status, _, edited = call(server, "PATCH", edit, json={"content": "picked b", "components": []})
    assert status == 200 and edited["id"] == posted["id"]
    assert server.reply(interaction, timeout=1)["content"] == "picked b"


def test_requests_get_their_bucket_headers_and_a_spent_bucket_is_a_429(clocked):
    fake, clock = clocked
    channel = fake.guild.channels[0]
    statuses, answers = [], []

    async def go() -> None:
        async with aiohttp.ClientSession() as http:
            for _ in range(6):
                async with http.post(f"{fake.api_base}/channels/{channel.id}/messages", json={"content": "x"}) as r:
                    statuses.append((r.status, dict(r.headers)))
                    answers.append(await r.json())

    asyncio.run(go())
    assert [s for s, _ in statuses] == [200] * 5 + [429]
    first, refused = statuses[0][1], statuses[-1][1]
    assert (first["X-RateLimit-Limit"], first["X-RateLimit-Remaining"]) == ("5", "4")
    assert float(first["X-RateLimit-Reset-After"]) == 5.0 and first["X-RateLimit-Bucket"]
    assert refused["X-RateLimit-Scope"] == "user" and refused["Via"] and "X-RateLimit-Global" not in refused
    assert answers[-1]["global"] is False and answers[-1]["retry_after"] == 5.0
    clock.advance(5)
    assert call(fake, "POST", f"/channels/{channel.id}/messages", json={"content": "x"})[0] == 200


def test_fifty_requests_a_second_is_the_global_limit(clocked):
    fake, clock = clocked
    statuses: list[tuple[int, dict, Any]] = []

    async def go() -> None:
        async with aiohttp.ClientSession() as http:
            for _ in range(51):
                async with http.get(f"{fake.api_base}/channels/{fake.guild.channels[0].id}") as r:
                    statuses.append((r.status, dict(r.headers), await r.json()))

    asyncio.run(go())
    assert [s for s, _, _ in statuses].count(200) == 50
    status, headers, body = statuses[-1]
    assert (status, headers["X-RateLimit-Global"], headers["X-RateLimit-Scope"], body["global"]) == (
        429, "true", "global", True)


def test_a_shared_scope_429_is_told_apart(server):
    server.fail("GET", "/users/@me", status=429, retry_after=0.5, scope="shared")

    async def go() -> tuple[int, dict]:
        async with aiohttp.ClientSession() as http, http.get(server.api_base + "/users/@me") as r:
            return r.status, dict(r.headers)

    status, headers = asyncio.run(go())
    assert (status, headers["X-RateLimit-Scope"]) == (429, "shared")


@pytest.mark.parametrize(("body", "where", "code"), [
    ({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
    ({"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b", "custom_id": f"c{n}"} for n in range(6)]}]},
     ("components", "0", "components"), "BASE_TYPE_MAX_LENGTH"),
    ({"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b", "custom_id": f"r{n}"}]} for n in range(6)]},
     ("components",), "BASE_TYPE_MAX_LENGTH"),
    ({"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b", "custom_id": "c" * 101}]}]},
     ("components", "0", "components", "0", "custom_id"), "BASE_TYPE_MAX_LENGTH"),
    ({"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b" * 81, "custom_id": "c"}]}]},
     ("components", "0", "components", "0", "label"), "BASE_TYPE_MAX_LENGTH"),
    ({"content": "x", "components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": str(n), "value": str(n)} for n in range(26)]}]}]},
     ("components", "0", "components", "0", "options"), "BASE_TYPE_MAX_LENGTH"),
    ({"embeds": [{"title": "t", "description": "d" * 4000}, {"description": "d" * 2500}]},
     ("embeds",), "MAX_EMBED_SIZE_EXCEEDED"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
     ("embeds", "0", "fields", "0", "value"), "BASE_TYPE_MAX_LENGTH"),
    ({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
     ("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"),
    ({"content": "x", "allowed_mentions": {"parse": ["everybody"]}},
     ("allowed_mentions", "parse", "0"), "BASE_TYPE_CHOICES"),
    ({"content": 5}, ("content",), "BASE_TYPE_BAD_TYPE"),
])
def test_invalid_messages_are_refused_with_discords_error_tree(server, body, where, code):
    channel = server.guild.channels[0]
    status, _, error = call(server, "POST", f"/channels/{channel.id}/messages", json=body)
    assert (status, error["code"], error["message"]) == (400, 50035, "Invalid Form Body")
    node = error["errors"]
    for key in where:
        node = node[key]
    assert code in [e["code"] for e in node["_errors"]], error["errors"]
    assert server.channel_messages(channel) == [], "a refused post leaves nothing behind"
    assert server.invalid_answers == [], "the error tree is in Discord's shape (string codes per field)"


def test_integer_snowflakes_are_accepted(server):
    channel = server.guild.channels[0]
    body = {"content": "x", "allowed_mentions": {"parse": [], "users": [123], "roles": []}}
    assert call(server, "POST", f"/channels/{channel.id}/messages", json=body)[0] == 200


def test_a_channel_holds_250_pins_at_most(server):
    channel = server.guild.channels[0]
    ids = []
    for _ in range(251):
        with server._cond:
            ids.append(server.store.create(channel.id, {"content": "m"}, ())["id"])
    for message_id in ids[:250]:
        with server._cond:
            server.store.messages[int(message_id)]["pinned"] = True
    status, _, error = call(server, "PUT", f"/channels/{channel.id}/messages/pins/{ids[-1]}")
    assert (status, error["code"]) == (400, 30003)
    assert not server.message(int(ids[-1]))["pinned"]


def test_edits_of_messages_older_than_an_hour_meet_a_stricter_limit(clocked):
    fake, clock = clocked
    channel = fake.guild.channels[0]
    _, _, posted = call(fake, "POST", f"/channels/{channel.id}/messages", json={"content": "status"})
    clock.advance(3601)
    edit = f"/channels/{channel.id}/messages/{posted['id']}"
    statuses = []
    for n in range(4):
        status, _, answer = call(fake, "PATCH", edit, json={"content": f"v{n}"})
        statuses.append((status, answer.get("code")))
        clock.advance(1)
    assert statuses == [(200, None)] * 3 + [(429, 30046)]
    assert fake.message(int(posted["id"]))["content"] == "v2"
    clock.advance(60)
    assert call(fake, "PATCH", edit, json={"content": "later"})[0] == 200


def test_every_answer_of_the_fake_is_valid_by_the_spec(clocked):
    """Login, sync, a slash command answered, deferred and followed up, a channel post, its pin and
    edit, a component update: each answer checked against the operation's response schema."""
    fake, _ = clocked
    assert call(fake, "GET", "/users/@me")[2]["locale"]
    call(fake, "GET", "/oauth2/applications/@me")
    call(fake, "GET", "/gateway/bot")
    interaction, token = slash_join(fake)
    call(fake, "GET", f"/applications/{fake.application_id}/commands")
    respond(fake, interaction, token, {"type": 5, "data": {"flags": 64}})
    webhook = f"/webhooks/{fake.application_id}/{token}"
    call(fake, "PATCH", webhook + "/messages/@original", json={"content": "a"})
    _, _, followup = call(fake, "POST", webhook, json={"content": "b", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "go", "custom_id": "btn:go"}]}]})
    call(fake, "GET", webhook + "/messages/@original")
    clicked, click_token = gateway_interaction(fake, lambda: fake.click(fake.add_member("n"), followup, "btn:go"))
    respond(fake, clicked, click_token, {"type": 7, "data": {"content": "updated", "components": []}})
    channel = fake.guild.channels[0]
    _, _, posted = call(fake, "POST", f"/channels/{channel.id}/messages", json={"content": "p"})
    call(fake, "PUT", f"/channels/{channel.id}/messages/pins/{posted['id']}")
    call(fake, "PATCH", f"/channels/{channel.id}/messages/{posted['id']}", json={"content": "q"})
    call(fake, "GET", f"/channels/{channel.id}")
    call(fake, "DELETE", webhook + "/messages/@original")
    assert len(fake.calls) >= 15 and all(c.status < 400 for c in fake.calls), [
        (c.path, c.answer) for c in fake.calls if c.status >= 400]
    assert fake.invalid_answers == []


def test_the_validator_refuses_the_old_shapes():
    """What the fake used to answer, each refused by the spec (the check above has teeth)."""
    from tests.fake_discord import openapi

    user = {"id": "1", "username": "u", "global_name": "u", "discriminator": "0", "avatar": None, "bot": True,
            "flags": 0, "public_flags": 0}
    assert openapi.response_problems("GET", "/users/@me", 200, {**user, "mfa_enabled": False})
    deferral = {"interaction": {"id": "1", "type": 2}, "resource": {"type": 5, "message": {}}}
    assert openapi.response_problems("POST", "/interactions/1/t/callback", 200, deferral)
    choices = {"interaction": {"id": "1", "type": 4, "response_message_id": None}}
    assert openapi.response_problems("POST", "/interactions/1/t/callback", 200, choices)


def test_a_post_repeating_an_enforced_nonce_returns_the_first_message(server):
    channel = server.guild.channels[0]
    body = {"content": "turn 3", "nonce": "post-17", "enforce_nonce": True}
    first = call(server, "POST", f"/channels/{channel.id}/messages", json=body)[2]
    again = call(server, "POST", f"/channels/{channel.id}/messages", json=body)[2]
    assert again["id"] == first["id"] and len(server.channel_messages(channel)) == 1
    loose = call(server, "POST", f"/channels/{channel.id}/messages", json={**body, "enforce_nonce": False})[2]
    assert loose["id"] != first["id"]


def test_the_bot_does_in_a_channel_what_its_permissions_there_allow(server):
    """Issue 25 point 8: a test takes permissions away per channel; interactions there carry what the bot
    still has (``app_permissions``), and Discord refuses what it may not do: a post without Send Messages
    or, with a file, Attach Files, and a pin without Pin Messages (403 / 50013); a channel it cannot see
    is Missing Access (50001). Other channels keep every permission."""
    put_commands(server)
    member = server.add_member("m")
    shut, other = server.add_channel("shut"), server.guild.channels[0]
    _, _, posted = call(server, "POST", f"/channels/{shut.id}/messages", json={"content": "status"})
    server.set_bot_permissions(shut, ALL_PERMISSIONS & ~ATTACH_FILES & ~PIN_MESSAGES)
    payload = server.slash_payload(member, "sc join", {"name": "x"}, channel=shut)
    assert int(payload["app_permissions"]) == ALL_PERMISSIONS & ~ATTACH_FILES & ~PIN_MESSAGES
    assert int(server.slash_payload(member, "sc join", {"name": "x"}, channel=other)["app_permissions"]) == (
        ALL_PERMISSIONS)

    def upload() -> aiohttp.FormData:
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps({"content": "board", "attachments": [{"id": 0, "filename": "b.png"}]}),
                       content_type="application/json")
        form.add_field("files[0]", TINY_PNG, filename="b.png", content_type="image/png")
        return form

    status, _, error = call(server, "POST", f"/channels/{shut.id}/messages", data=upload())
    assert (status, error["code"], error["message"]) == (403, 50013, "Missing Permissions")
    assert call(server, "POST", f"/channels/{shut.id}/messages", json={"content": "text"})[0] == 200
    assert call(server, "PUT", f"/channels/{shut.id}/messages/pins/{posted['id']}")[2]["code"] == 50013
    assert call(server, "POST", f"/channels/{other.id}/messages", data=upload())[0] == 200

    server.set_bot_permissions(shut, ALL_PERMISSIONS & ~SEND_MESSAGES)
    assert call(server, "POST", f"/channels/{shut.id}/messages", json={"content": "text"})[2]["code"] == 50013
    status, _, _ = call(server, "PATCH", f"/channels/{shut.id}/messages/{posted['id']}", json={"content": "edit"})
    assert status == 200  # an edit of its own message needs no Send Messages
    server.set_bot_permissions(shut, ALL_PERMISSIONS & ~VIEW_CHANNEL)
    status, _, error = call(server, "POST", f"/channels/{shut.id}/messages", json={"content": "text"})
    assert (status, error["code"]) == (403, 50001)
    assert [m["content"] for m in server.channel_messages(shut)] == ["edit", "text"]
    assert server.invalid_answers == []


def test_a_forum_post_archives_when_idle_a_post_unarchives_it_an_edit_is_refused(clocked):
    fake, clock = clocked
    forum = fake.add_forum("parties")
    assert fake.channel_json(forum)["type"] == 15
    thread = fake.add_post(forum, "Partie 1", auto_archive_duration=60)
    status, _, posted = call(fake, "POST", f"/channels/{thread.id}/messages", json={"content": "tour 1"})
    assert status == 200
    clock.advance(59 * 60)
    assert not fake.thread_state(thread).archived
    clock.advance(2 * 60)
    status, _, fetched = call(fake, "GET", f"/channels/{thread.id}")
    assert status == 200 and fetched["type"] == 11 and fetched["thread_metadata"]["archived"]
    status, _, refused = call(fake, "PATCH", f"/channels/{thread.id}/messages/{posted['id']}", json={"content": "x"})
    assert (status, refused["code"]) == (400, 50083)
    status, _, _ = call(fake, "POST", f"/channels/{thread.id}/messages", json={"content": "tour 2"})
    assert status == 200 and not fake.thread_state(thread).archived
    clock.advance(61 * 60)
    status, _, unarchived = call(fake, "PATCH", f"/channels/{thread.id}", json={"archived": False})
    assert status == 200 and not unarchived["thread_metadata"]["archived"]
    status, _, _ = call(fake, "PATCH", f"/channels/{thread.id}/messages/{posted['id']}", json={"content": "x"})
    assert status == 200
    assert not fake.invalid_answers


def test_a_locked_post_refuses_the_bot_without_manage_threads(server):
    forum = server.add_forum("parties")
    thread = server.add_post(forum, "Partie 1")
    server.lock_thread(thread)
    server.set_bot_permissions(thread, ALL_PERMISSIONS & ~MANAGE_THREADS)
    for method, path, body in [("POST", f"/channels/{thread.id}/messages", {"content": "x"}),
                               ("PATCH", f"/channels/{thread.id}", {"archived": False})]:
        status, _, refused = call(server, method, path, json=body)
        assert status in (400, 403) and refused["code"] in (50083, 50013), (method, path, refused)
    server.set_bot_permissions(thread, ALL_PERMISSIONS)  # a moderator's permission: the lock binds it not
    status, _, _ = call(server, "POST", f"/channels/{thread.id}/messages", json={"content": "x"})
    assert status == 200
    server.delete_channel(forum)
    status, _, refused = call(server, "GET", f"/channels/{thread.id}")
    assert (status, refused["code"]) == (404, 10003)
    assert not server.invalid_answers


def test_guild_create_lists_the_active_threads_in_their_state_and_resume_replays_what_was_missed(server):
    """Issue 25 point 8: GUILD_CREATE carries the server's active threads (an archived post is not
    among them), each as it is now; a session cut and resumed gets the events of its servers in
    between, in order, with their sequence numbers, then RESUMED; an unknown session gets op 9."""
    forum = server.add_forum("parties")
    open_post, idle_post = server.add_post(forum, "open"), server.add_post(forum, "idle")
    server.archive_thread(idle_post)

    async def sessions() -> tuple[list[dict], list[dict], dict]:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(server.gateway_url) as ws:
                await ws.receive_json()  # HELLO
                await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1}})
                ready, created = await ws.receive_json(), await ws.receive_json()
            await asyncio.to_thread(server.wait_until, lambda: not server.connected, timeout=5, what="the cut")
            await asyncio.to_thread(server.add_channel, "made-while-away")
            async with http.ws_connect(server.gateway_url) as ws:
                await ws.receive_json()
                await ws.send_json({"op": 6, "d": {"token": "t", "session_id": ready["d"]["session_id"],
                                                   "seq": created["s"]}})
                replayed = [await ws.receive_json(), await ws.receive_json()]
            async with http.ws_connect(server.gateway_url) as ws:
                await ws.receive_json()
                await ws.send_json({"op": 6, "d": {"token": "t", "session_id": "forgotten", "seq": 1}})
                forgotten = await ws.receive_json()
        return [created], replayed, forgotten

    [created], replayed, forgotten = asyncio.run(sessions())
    threads = created["d"]["threads"]
    assert [t["id"] for t in threads] == [str(open_post.id)] and threads[0]["thread_metadata"]["archived"] is False
    assert [(f["t"], f["s"]) for f in replayed] == [("CHANNEL_CREATE", created["s"] + 1), ("RESUMED", created["s"] + 2)]
    assert replayed[0]["d"]["name"] == "made-while-away"
    assert forgotten == {"op": 9, "d": False}
