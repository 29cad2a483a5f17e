"""The fake Discord itself, without the bot: it must refuse what Discord refuses, or the e2e tests
would pass against behaviour the real service never allows."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from tests.e2e.table import PNG_SIGNATURE, png_size
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
    assert body == {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
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
