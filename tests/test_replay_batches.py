"""A rejoining client gets a long thread's history as `thread:replay` batches, in seq order, with no gap or duplicate."""

from __future__ import annotations

import asyncio

from app.runtime import new_thread_id
from app.server import REPLAY_BATCH


async def stored_thread(runtime, events: int) -> str:
    thread_id = new_thread_id()
    await runtime.store.create_thread(thread_id, "ppt", "long", {})
    for n in range(events):
        await runtime.store.append_event(thread_id, "run", "tool:log", {"toolCallId": "x", "level": "info", "message": f"line {n}"})
    return thread_id


def seqs(client, thread_id: str) -> list[int]:
    return [data["seq"] for _, data in client.of(thread_id)]


async def test_a_long_thread_replays_in_batches_with_contiguous_seq(start_server, connect):
    server = await start_server()
    thread_id = await stored_thread(server.runtime, 5_000)
    client = await connect(server.url)

    joined = await client.call("thread:join", {"threadId": thread_id}, timeout=30)

    assert joined["ok"] and joined["thread"]["lastSeq"] == 5_000
    assert seqs(client, thread_id) == list(range(1, 5_001))
    assert len(client.replay_batches) == 5_000 // REPLAY_BATCH
    assert max(client.replay_batches) == REPLAY_BATCH


async def test_a_rejoin_with_after_seq_replays_only_what_the_client_lacks(start_server, connect):
    server = await start_server()
    thread_id = await stored_thread(server.runtime, 1_200)
    client = await connect(server.url)

    await client.call("thread:join", {"threadId": thread_id, "afterSeq": 1_000}, timeout=30)

    assert seqs(client, thread_id) == list(range(1_001, 1_201))


async def test_a_join_while_events_are_published_has_no_gap_and_no_duplicate(start_server, connect):
    server = await start_server()
    runtime = server.runtime
    thread_id = await stored_thread(runtime, 2_000)

    async def publish_live() -> None:
        for n in range(300):
            await runtime.events.publish(thread_id, "run", "tool:log", {"toolCallId": "y", "level": "info", "message": f"live {n}"})
            await asyncio.sleep(0)

    publisher = asyncio.create_task(publish_live())
    client = await connect(server.url)
    await client.call("thread:join", {"threadId": thread_id}, timeout=30)
    await publisher
    await client.wait_for("tool:log", lambda d: d.get("seq") == 2_300)

    assert seqs(client, thread_id) == list(range(1, 2_301))
    assert client.replay_batches, "the history came as thread:replay batches"
