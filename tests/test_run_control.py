"""Run control: cancel at a step boundary (LangGraph's RunControl drain), cancel after the end, SIGTERM shutdown."""

from __future__ import annotations

import signal
from collections import Counter

from core.i18n import t
from graphs.ppt.planning import PIPELINE_NODES, STAGES
from tests.support.client import RecordingClient
from tests.support.server import ServerProcess
from tests.test_ppt_socket import run_ppt


async def test_cancel_during_page_generation_stops_at_the_next_step_and_resume_generates_each_page_once(
    start_server, connect
):
    server = await start_server(offline_latency_s=0.05, llm_concurrency=1)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于磁场的6分钟PPT"})
    thread_id = ack["threadId"]
    await client.wait_for("progress", lambda d: d["threadId"] == thread_id and d["current"] == 2)
    assert (await client.call("run:cancel", {"threadId": thread_id}))["ok"]
    stopped = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])
    assert stopped["success"] is False and stopped["error"] == t("runtime.cancelled")
    # The pages are one superstep (a pool of page tasks): the run stops at the boundary after it,
    # before the QA gate starts.
    started = {d["toolName"] for _, d in client.of(thread_id, "tool:start")}
    assert "generate_slides" in started and "check_deck" not in started, "stopped at the step boundary"

    resumed = await client.call("run:resume", {"threadId": thread_id})
    done = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
    assert done["success"]
    starts = Counter(d["toolName"] for _, d in client.of(thread_id, "tool:start"))
    assert starts == Counter(PIPELINE_NODES)
    pages = Counter(d["current"] for _, d in client.of(thread_id, "progress"))
    assert set(pages.values()) == {1}


async def test_cancel_after_the_run_ended_is_a_conflict_and_changes_nothing(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于杠杆的5分钟PPT")
    assert completion["success"]
    before = (await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000}))["thread"]

    cancel = await client.call("run:cancel", {"threadId": thread_id})

    assert cancel["ok"] is False and cancel["error"]["code"] == "conflict"
    after = (await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000}))["thread"]
    assert after == before
    assert after["status"] == "done"


async def test_sigterm_with_a_client_connected_exits_and_the_thread_resumes(tmp_path):
    env = {"OFFLINE_LATENCY_S": "0.1", "LLM_CONCURRENCY": "1"}
    first = ServerProcess(tmp_path / "data", env=env).start()
    client = await RecordingClient().connect(first.url)
    try:
        ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于电路基础的8分钟PPT"})
        thread_id = ack["threadId"]
        await client.wait_for("progress", lambda d: d["current"] == 2, timeout=30)
        first.process.send_signal(signal.SIGTERM)
        # Generous bound: a server that waits on its open socket takes aiohttp's 60 s default.
        exit_code = first.process.wait(timeout=10)
    finally:
        await client.close()
        first.stop()
    assert exit_code == 0

    second = ServerProcess(tmp_path / "data", env=env).start()
    try:
        client = await RecordingClient().connect(second.url)
        joined = await client.call("thread:join", {"threadId": thread_id})
        assert joined["thread"]["status"] == "interrupted"
        resumed = await client.call("run:resume", {"threadId": thread_id})
        done = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
        assert done["success"] is True
        starts = Counter(d["toolName"] for n, d in client.of(thread_id, "tool:start"))
        await client.close()
    finally:
        second.stop()
    assert starts == Counter(PIPELINE_NODES), "the run stopped between steps and continued where it stopped"
