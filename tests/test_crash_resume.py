"""A server killed mid-run loses nothing: the thread comes back resumable and finishes where it stopped."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections import Counter

from graphs.ppt.planning import PIPELINE_NODES, STAGES
from tests.support.client import RecordingClient
from tests.support.server import ROOT, ServerProcess

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


def cli_ppt(data_dir, topic: str, **env: str) -> subprocess.Popen:
    """`ng ppt` in its own process on the server's DATA_DIR, as a second terminal would run it."""
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "ppt", topic],
        cwd=data_dir.parent,  # where it saves the deck
        env={**os.environ, "PYTHONPATH": str(ROOT), "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", **env},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )


async def test_a_terminal_run_beside_the_server_leaves_the_servers_live_run_running(tmp_path):
    server = ServerProcess(tmp_path / "data", env={"OFFLINE_LATENCY_S": "0.15", "LLM_CONCURRENCY": "1"}).start()
    client = await RecordingClient().connect(server.url)
    try:
        ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于杠杆原理的8分钟PPT"})
        thread_id = ack["threadId"]
        await client.wait_for("progress", lambda d: d["threadId"] == thread_id, timeout=30)
        # Its start-up looks for runs left `running` by a dead process: the server's is alive.
        terminal = cli_ppt(tmp_path / "data", "做一个关于浮力的5分钟PPT")
        output, _ = await asyncio.to_thread(terminal.communicate, timeout=120)
        assert terminal.returncode == 0, output.decode()
        completion = await client.wait_for("completion", lambda d: d["threadId"] == thread_id, timeout=120)
        # What any client is shown: the stored log, replayed (without the fix the terminal wrote an
        # `interrupted` status into it while the server's run went on).
        await client.call("thread:join", {"threadId": thread_id, "afterSeq": 0})
        statuses = [d["status"] for _, d in client.of(thread_id, "status")]
    finally:
        await client.close()
        server.stop()
    assert completion["success"] is True
    assert "interrupted" not in statuses


async def test_a_terminal_run_killed_beside_the_server_becomes_resumable_there(tmp_path):
    server = ServerProcess(tmp_path / "data", env={"RUN_LEASE_S": "1"}).start()
    terminal = cli_ppt(tmp_path / "data", "做一个关于声音传播的8分钟PPT", OFFLINE_LATENCY_S="0.3")
    client = await RecordingClient().connect(server.url)
    try:
        thread_id = None
        for _ in range(300):
            threads = (await client.call("thread:list", {}))["threads"]
            running = [t["threadId"] for t in threads if t["status"] == "running"]
            if running:
                thread_id = running[0]
                break
            await asyncio.sleep(0.1)
        assert thread_id is not None, "the terminal's run never showed up"
        terminal.kill()
        terminal.wait(timeout=10)
        status = None
        for _ in range(100):
            status = (await client.call("thread:join", {"threadId": thread_id}))["thread"]["status"]
            if status == "interrupted":
                break
            await asyncio.sleep(0.1)
        assert status == "interrupted"
        resumed = await client.call("run:resume", {"threadId": thread_id})
        assert resumed["ok"], resumed
        completion = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=120)
    finally:
        if terminal.poll() is None:
            terminal.kill()
        await client.close()
        server.stop()
    assert completion["success"] is True
