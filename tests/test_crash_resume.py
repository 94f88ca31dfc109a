"""A server killed mid-run loses nothing: the thread comes back resumable and finishes where it stopped."""

from __future__ import annotations

from collections import Counter

from graphs.ppt.planning import PIPELINE_NODES, STAGES
from tests.support.client import RecordingClient
from tests.support.server import ServerProcess

KILL_AT_PAGE = 5


async def test_sigkill_during_generate_slides_resumes_at_the_same_page(tmp_path):
    # One page per step and a slow offline model, so the kill lands inside generate_slides.
    env = {"OFFLINE_LATENCY_S": "0.15", "LLM_CONCURRENCY": "1"}
    first = ServerProcess(tmp_path / "data", env=env).start()
    client = await RecordingClient().connect(first.url)
    try:
        ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于电路基础的8分钟PPT"})
        thread_id = ack["threadId"]
        # Page KILL_AT_PAGE has started once its progress event is out.
        await client.wait_for("progress", lambda d: d["current"] == KILL_AT_PAGE, timeout=30)
        first.kill()
    finally:
        await client.close()

    second = ServerProcess(tmp_path / "data", env=env).start()
    try:
        client = await RecordingClient().connect(second.url)
        joined = await client.call("thread:join", {"threadId": thread_id})
        assert joined["ok"] and joined["thread"]["status"] == "interrupted"
        resumed = await client.call("run:resume", {"threadId": thread_id})
        assert resumed["ok"], resumed
        completion = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
        assert completion["success"] is True
        log = [(n, d) for n, d in client.events if d.get("threadId") == thread_id]
        await client.close()
    finally:
        second.stop()

    assert [d["seq"] for _, d in log] == list(range(1, len(log) + 1)), "seq continues across the restart"
    starts = Counter(d["toolName"] for n, d in log if n == "tool:start")
    # generate_slides re-entered to continue its page subgraph, as the same task: its start is stored once.
    assert starts == Counter(PIPELINE_NODES)
    # Pages finished before the crash were not generated again; the page in flight is reported once.
    page_starts = Counter(d["current"] for n, d in log if n == "progress")
    total = max(d["total"] for n, d in log if n == "progress")
    assert page_starts == Counter(range(1, total + 1))
    # No artifact got a second version from the crash.
    versions = Counter()
    for n, d in log:
        if n == "tool:artifact":
            versions[d["artifact"]["id"]] = max(versions[d["artifact"]["id"]], d["artifact"]["version"])
    assert set(versions.values()) == {1}
