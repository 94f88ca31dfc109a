"""Edge limits: every bad input answered through its ack (or a 4xx), nothing started, nothing unbounded."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket

import aiohttp
import pytest

from app.runtime import new_thread_id
from app.server import SOCKETIO_KEY
from core.i18n import t
from tests.test_ppt_socket import run_ppt


async def refused(client, event, *payload) -> dict:
    ack = await client.call(event, payload[0] if len(payload) == 1 else payload)
    assert ack["ok"] is False, ack
    return ack["error"]


# ------------------------------------------------------------------ text


async def test_a_message_over_the_limit_is_refused_with_the_limit_and_starts_nothing(start_server, connect):
    server = await start_server(message_max_chars=8000)
    client = await connect(server.url)
    error = await refused(client, "chat:message", {"flow": "ppt", "text": "火" * 8001})
    assert error == {"code": "bad_request", "message": t("server.text_too_long", length=8001, limit=8000)}
    assert (await client.call("thread:list", {}))["threads"] == []


async def test_zero_width_only_text_is_refused(live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "ppt", "text": "\u200b\u200d\ufeff \u2060"})
    assert error == {"code": "bad_request", "message": t("server.text_blank")}


async def test_control_characters_are_cleaned_at_the_edge_and_the_run_finishes(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "Volcanoes \x1b[1mfor kids\x08\ufffe 5分钟")
    assert completion["success"], completion
    said = client.of(thread_id, "user:message")[0][1]["content"]
    assert said == "Volcanoes for kids 5分钟"


async def test_options_over_the_size_limit_are_refused(start_server, connect):
    server = await start_server(options_max_bytes=1024)
    client = await connect(server.url)
    error = await refused(client, "chat:message", {"flow": "requirement", "text": "做个小程序", "options": {"x": "y" * 2000}})
    assert error["code"] == "bad_request" and "1024" in error["message"]


async def test_a_ppt_message_with_an_option_the_flow_does_not_read_is_refused_saying_so(live_server, connect):
    # The ppt flow reads every setting from the message: an option would be dropped without a word.
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "ppt", "text": "潮汐的成因，8分钟", "options": {"pages": 6}})
    assert error == {"code": "bad_request", "message": t("runtime.no_options", flow="ppt", options="pages")}
    assert (await client.call("thread:list", {}))["threads"] == []


async def test_a_misspelt_option_is_refused_naming_the_options_the_flow_has(live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "requirement", "text": "给合唱团做一个排座位的小工具",
                                                   "options": {"maxRound": 2}})
    assert error == {"code": "bad_request", "message": t("runtime.unknown_options", flow="requirement",
                                                         options="maxRound", known="maxRounds、repo、write")}


async def test_a_misspelt_novel_workflow_option_is_refused_naming_its_four_options(live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "novel_workflow", "text": "写到第三章",
                                                   "options": {"projectId": "harbor", "tochapter": 3}})
    assert error == {"code": "bad_request", "message": t("runtime.unknown_options", flow="novel_workflow",
                                                         options="tochapter", known="force、projectId、queue、toChapter")}


async def test_a_legal_question_with_an_option_is_refused_saying_the_message_carries_everything(live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "legal", "text": "房东不退押金怎么办",
                                                   "options": {"category": "contract"}})
    assert error == {"code": "bad_request", "message": t("runtime.no_options", flow="legal", options="category")}
    assert (await client.call("thread:list", {}))["threads"] == []


async def test_a_novel_workflow_queue_that_is_not_chapter_numbers_is_refused_before_anything_is_written(
        live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "novel_workflow", "text": "蒸汽朋克的港口城市，钟楼统治时间",
                                                   "options": {"projectId": "harbor", "queue": "2,3"}})
    assert error == {"code": "bad_request", "message": t("novel.bad_queue")}
    assert (await client.call("thread:list", {}))["threads"] == []


async def test_a_novel_workflow_force_given_as_the_string_false_is_refused_not_read_as_a_rewrite(live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "novel_workflow", "text": "蒸汽朋克的港口城市，钟楼统治时间",
                                                   "options": {"projectId": "harbor", "force": "false"}})
    assert error == {"code": "bad_request", "message": t("novel.bad_force")}
    assert (await client.call("thread:list", {}))["threads"] == []


@pytest.mark.parametrize("options", [{"write": "false"}, {"maxRounds": 99}, {"maxRounds": "2"}, {"maxRounds": 0}])
async def test_a_requirement_option_of_the_wrong_kind_is_refused_not_read_another_way(options, live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "chat:message", {"flow": "requirement", "text": "给合唱团做一个排座位的小工具",
                                                   "options": options})
    expected = t("requirement.bad_write") if "write" in options else t("requirement.bad_max_rounds", cap=10)
    assert error == {"code": "bad_request", "message": expected}
    assert (await client.call("thread:list", {}))["threads"] == []


# ------------------------------------------------------------ malformed


async def test_extra_positional_arguments_are_acked_as_bad_request(live_server, connect):
    client = await connect(live_server.url)
    for event in ("chat:message", "run:resume", "run:cancel", "thread:join", "thread:list", "thread:rename", "thread:delete"):
        error = await refused(client, event, {}, "extra", 3)
        assert error == {"code": "bad_request", "message": t("server.extra_arguments", count=3)}, event


async def test_an_unknown_event_is_acked_as_bad_request(live_server, connect):
    client = await connect(live_server.url)
    error = await refused(client, "thread:archive", {"threadId": "x"})
    assert error["code"] == "bad_request"


@pytest.mark.parametrize("after_seq", [2**63, 2**64, -(2**63) - 1, 1.5, True])
async def test_after_seq_out_of_range_is_bad_request_not_internal(live_server, connect, after_seq):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于地震的5分钟PPT") if after_seq == 2**63 else ("x", None)
    error = await refused(client, "thread:join", {"threadId": thread_id, "afterSeq": after_seq})
    assert error["code"] == "bad_request"


@pytest.mark.parametrize("query", ["version=9223372036854775808", "version=²", "version=0", "version=1e3", "version=-1"])
async def test_bad_version_query_is_400_not_500(live_server, connect, query):
    client = await connect(live_server.url)
    _, completion = await run_ppt(client, "做一个关于雨的5分钟PPT")
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{live_server.url}/artifacts/{completion['finalArtifactId']}?{query}") as response:
            assert response.status == 400
            assert (await response.json())["error"]["code"] == "bad_request"


@pytest.mark.parametrize("after_seq", ["9223372036854775808", "²", "-1", ""])
async def test_bad_after_seq_query_is_400(live_server, after_seq):
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{live_server.url}/api/threads/x/events", params={"afterSeq": after_seq}) as response:
            assert response.status == 400


async def test_thread_events_over_http_come_in_pages_of_at_most_limit(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于雪的5分钟PPT")
    url = f"{live_server.url}/api/threads/{thread_id}/events"
    async with aiohttp.ClientSession() as session:
        async with session.get(url, params={"limit": "2"}) as first:
            page = await first.json()
        async with session.get(url, params={"limit": "2", "afterSeq": str(page[-1]["data"]["seq"])}) as second:
            next_page = await second.json()
        async with session.get(url, params={"limit": "0"}) as refused_page:
            assert refused_page.status == 400
    assert [e["data"]["seq"] for e in page + next_page] == [1, 2, 3, 4]


# ------------------------------------------------------------ rate limit


async def test_a_connection_over_its_rate_is_told_rate_limited_and_stays_connected(start_server, connect):
    server = await start_server(rate_limit_burst=3, rate_limit_per_s=0.01)
    client = await connect(server.url)
    acks = [await client.call("thread:list", {}) for _ in range(4)]
    assert [a["ok"] for a in acks] == [True, True, True, False]
    assert acks[3]["error"] == {"code": "rate_limited", "message": t("server.rate_limited", rate="0.01")}
    assert client.sio.connected
    other = await connect(server.url)
    assert (await other.call("thread:list", {}))["ok"], "the limit is per connection"


# ------------------------------------------------------- transport limit


async def test_a_frame_over_the_transport_limit_closes_with_message_too_big(start_server):
    server = await start_server(max_frame_bytes=4096)
    url = server.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        opened = await ws.receive_str()
        assert opened.startswith("0")
        await ws.send_str("40")
        assert (await ws.receive_str()).startswith("40")
        await ws.send_str("42" + json.dumps(["thread:list", {"pad": "x" * 8000}]))
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


# ----------------------------------------------------- a client that never reads


def raw_socketio_client(port: int) -> socket.socket:
    """A websocket Socket.IO client by hand, with a tiny receive buffer, that we can stop reading."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


def ws_text(text: str) -> bytes:
    data, mask = text.encode(), os.urandom(4)
    length = len(data)
    header = bytes([0x81]) + (bytes([0x80 | length]) if length < 126 else bytes([0x80 | 126]) + length.to_bytes(2, "big"))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


# Over the byte cap (the replay waits on it, then gives up), and under it (the stalled queue is noticed).
@pytest.mark.parametrize("cap", [256_000, 50_000_000])
async def test_a_client_that_never_reads_is_dropped_and_the_server_keeps_serving(start_server, connect, cap):
    server = await start_server(send_buffer_max_bytes=cap, send_stall_s=1)
    runtime = server.runtime
    thread_id = new_thread_id()
    await runtime.store.create_thread(thread_id, "ppt", "big", {})
    for _ in range(200):  # a 10 MB thread: far more than the socket buffers on both sides hold
        await runtime.events.publish(thread_id, "run", "tool:log", {"toolCallId": "x", "message": "字" * 17_000})
    port = int(server.url.rsplit(":", 1)[1])

    sio = server.app[SOCKETIO_KEY]
    sock = await asyncio.to_thread(raw_socketio_client, port)
    await asyncio.to_thread(sock.recv, 1024)  # the 101 and the engineio open packet
    await asyncio.to_thread(sock.sendall, ws_text("40"))
    for _ in range(100):  # until the Socket.IO connect is accepted
        if sio.manager.rooms.get("/", {}).get(None):
            break
        await asyncio.sleep(0.05)
    await asyncio.to_thread(sock.sendall, ws_text('420' + json.dumps(["thread:join", {"threadId": thread_id}])))
    # From here on the client reads nothing.
    for _ in range(200):
        if not sio.eio.sockets:
            break
        await asyncio.sleep(0.05)
    assert not sio.eio.sockets, "the non-reading client was dropped"
    sock.close()

    reader = await connect(server.url)
    joined = await reader.call("thread:join", {"threadId": thread_id}, timeout=30)
    assert joined["ok"] and joined["thread"]["lastSeq"] == 200
    assert len(reader.of(thread_id)) == 200, "a reading client still gets the whole thread"
