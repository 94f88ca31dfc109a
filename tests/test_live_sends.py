"""Live events leave the server together and on time: a stored batch reaches each client in its thread's room, in seq
order, in one go, and no full collection of the start-up heap holds them back."""

from __future__ import annotations

import asyncio
import gc
import socket

import pytest
import aiohttp
from aiohttp import web

from app.runtime import new_thread_id
from app.sendcap import TCP_CORK, TurnCork
import threading

from app.server import create_app, freeze_startup_heap
from app.store import EventWrite


def log_line(n: int) -> EventWrite:
    return EventWrite("tool:log", {"toolCallId": "node", "level": "info", "message": f"line {n}"})


async def test_a_stored_batch_reaches_every_client_in_the_thread_in_seq_order(start_server, connect):
    server = await start_server()
    runtime = server.runtime
    watched, elsewhere = new_thread_id(), new_thread_id()
    for thread_id in (watched, elsewhere):
        await runtime.store.create_thread(thread_id, "ppt", "t", {})
    first, second, other = [await connect(server.url) for _ in range(3)]
    for client, thread_id in ((first, watched), (second, watched), (other, elsewhere)):
        assert (await client.call("thread:join", {"threadId": thread_id}))["ok"]

    await runtime.events.publish_many(watched, "run", [log_line(n) for n in range(6)])
    for client in (first, second):
        await client.wait_for("tool:log", lambda d: d["seq"] == 6, timeout=10)

    for client in (first, second):
        assert [(d["seq"], d["message"]) for _, d in client.of(watched)] == [(n + 1, f"line {n}") for n in range(6)]
    await runtime.events.publish_many(elsewhere, "run", [log_line(0)])
    await other.wait_for("tool:log", lambda d: d["threadId"] == elsewhere, timeout=10)
    assert other.of(watched) == [] and first.of(elsewhere) == []


@pytest.fixture
def tcp_pair():
    with socket.create_server(("127.0.0.1", 0)) as listener:
        sender = socket.create_connection(listener.getsockname())
        receiver, _ = listener.accept()
    yield sender, receiver
    sender.close()
    receiver.close()


@pytest.mark.skipif(TCP_CORK is None, reason="TCP_CORK is Linux only; elsewhere frames are sent one by one")
async def test_frames_written_in_one_turn_are_held_until_the_turn_ends_then_sent(tcp_pair):
    sender, receiver = tcp_pair
    cork = TurnCork(sender)

    for frame in (b"one;", b"two;", b"three;"):
        cork.hold()
        sender.sendall(frame)
    held = sender.getsockopt(socket.IPPROTO_TCP, TCP_CORK)
    await asyncio.sleep(0)  # the loop's next turn

    assert held == 1
    assert sender.getsockopt(socket.IPPROTO_TCP, TCP_CORK) == 0
    receiver.settimeout(5)
    received = b""
    while len(received) < len(b"one;two;three;"):
        received += receiver.recv(100)
    assert received == b"one;two;three;"


async def test_a_socket_closed_before_its_turn_ends_is_let_go_without_an_error(tcp_pair, caplog):
    sender, _ = tcp_pair
    cork = TurnCork(sender)
    cork.hold()
    sender.close()

    await asyncio.sleep(0)  # the release meets a closed socket: no error reaches the loop
    cork.hold()  # nor the next send
    await asyncio.sleep(0)

    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_a_client_that_closes_its_websocket_is_answered_with_a_close_frame(start_server):
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(server.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket")
        assert (await ws.receive_str()).startswith("0")  # engine.io open
        await ws.send_str("40")  # socket.io connect
        assert (await ws.receive_str()).startswith("40")

        await ws.close()

    assert ws.close_code == 1000, "the server's close frame was lost: the client saw an abnormal closure"


async def test_a_started_server_keeps_its_start_up_heap_out_of_full_collections(make_settings):
    # A full collection of the start-up heap holds the event loop ~0.1 s: every client's events would wait it out.
    gc.unfreeze()  # whatever an earlier test in this process left frozen
    runner = web.AppRunner(create_app(make_settings()))
    await runner.setup()
    try:
        await asyncio.sleep(0)  # the freezing task's first step
        frozen = gc.get_freeze_count()

        assert frozen > 10 * len(gc.get_objects()), (frozen, len(gc.get_objects()))
    finally:
        await runner.cleanup()

    assert gc.get_freeze_count() == 0, "a stopped server gives its heap back to the collector"


async def test_no_full_collection_pauses_the_loop_while_the_statute_index_warms():
    # The index build allocates millions of objects; each full collection they start holds the loop 13-110 ms.
    full_collections = []

    def count_full(phase, info):
        if phase == "start" and info["generation"] == 2:
            full_collections.append(info)

    released = threading.Event()
    warming = threading.Thread(target=released.wait)
    warming.start()
    thresholds = gc.get_threshold()
    gc.callbacks.append(count_full)
    try:
        freezing = asyncio.create_task(freeze_startup_heap(warming))
        await asyncio.sleep(0)
        survivors = []
        for step in range(300_000):  # long-lived containers, as an index build makes
            survivors.append({"step": step})
            if step % 10_000 == 0:
                await asyncio.sleep(0)
        released.set()
        await freezing
    finally:
        released.set()
        gc.callbacks.remove(count_full)
        gc.unfreeze()

    assert full_collections == []
    assert gc.get_threshold() == thresholds, "after the warm-up the collector runs as it did"
